//! The browser app: embedded in the binary at build time, served with the
//! right type, precompressed (brotli or gzip, made at build time), cached
//! for a year when the name carries a content hash, and revalidated on
//! every load for `index.html`, so a new release is picked up at once.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use salvo::http::StatusCode;
use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

#[derive(rust_embed::Embed)]
#[folder = "$OUT_DIR/dist/"]
struct Embedded;

/// Where the app's files come from.
#[derive(Clone, Debug)]
pub enum AssetSource {
    Embedded,
    /// A folder built by `frontend/build.mjs`, for working on the frontend
    /// without rebuilding the binary.
    Dir(PathBuf),
}

struct Asset {
    body: Cow<'static, [u8]>,
    /// The content's hash, for the ETag.
    etag: Option<String>,
}

impl AssetSource {
    fn get(&self, path: &str) -> Option<Asset> {
        match self {
            AssetSource::Embedded => Embedded::get(path)
                .map(|file| Asset { etag: Some(hex(&file.metadata.sha256_hash()[..12])), body: file.data }),
            AssetSource::Dir(root) => {
                let relative = Path::new(path);
                if !relative.components().all(|c| matches!(c, Component::Normal(_))) {
                    return None;
                }
                std::fs::read(root.join(relative)).ok().map(|bytes| Asset { body: Cow::Owned(bytes), etag: None })
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// Every non-API path: the file when there is one, otherwise `index.html`
/// (the client router shows its not-found page for unknown paths).
#[handler]
pub async fn serve_app(req: &mut Request, depot: &mut Depot, res: &mut Response) {
    let source = depot.get_typed::<AssetSource>().cloned().unwrap_or(AssetSource::Embedded);
    let path = req.uri().path().trim_start_matches('/').to_owned();
    let hashed = path.starts_with("assets/");
    let (name, cache) = if !path.is_empty() && path != "index.html" && source.get(&path).is_some() {
        (path.as_str(), if hashed { IMMUTABLE } else { REVALIDATE })
    } else if hashed {
        // A stale page asking for a chunk of an older release must not be
        // handed HTML in place of JavaScript.
        res.status_code(StatusCode::NOT_FOUND);
        res.render(Text::Plain("Not found"));
        return;
    } else {
        ("index.html", REVALIDATE)
    };

    let accepts = req.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mut chosen = None;
    for (encoding, suffix) in [("br", ".br"), ("gzip", ".gz")] {
        if accepts_encoding(accepts, encoding)
            && let Some(asset) = source.get(&format!("{name}{suffix}"))
        {
            chosen = Some((asset, Some(encoding)));
            break;
        }
    }
    let Some((asset, encoding)) = chosen.or_else(|| source.get(name).map(|a| (a, None))) else {
        res.status_code(StatusCode::NOT_FOUND);
        res.render(Text::Plain("The app was not built into this binary"));
        return;
    };

    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type(name));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Some(encoding) = encoding {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    if let Some(etag) = asset.etag.map(|hash| entity_tag(&hash, encoding)) {
        let matches = req
            .headers()
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| if_none_match(v, &etag));
        if let Ok(value) = HeaderValue::from_str(&etag) {
            res.headers_mut().insert(header::ETAG, value);
        }
        if matches {
            res.status_code(StatusCode::NOT_MODIFIED);
            return;
        }
    }
    res.write_body(asset.body.into_owned()).ok();
}

/// A strong entity tag: the hash of the file sent, so the brotli and the
/// gzip copy of one file differ (inside the quotes, as RFC 9110 wants).
fn entity_tag(hash: &str, encoding: Option<&str>) -> String {
    match encoding {
        Some(encoding) => format!("\"{hash}-{encoding}\""),
        None => format!("\"{hash}\""),
    }
}

/// Whether an `If-None-Match` value (a list, weak tags, or `*`) names `etag`.
fn if_none_match(header: &str, etag: &str) -> bool {
    header.split(',').map(str::trim).any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

/// `/robots.txt`: nothing here is for search engines (every page is
/// behind a sign-in or a LAN address), and without this file crawlers
/// were handed the app's HTML.
#[handler]
pub async fn robots(res: &mut Response) {
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
    res.render(Text::Plain("User-agent: *\nDisallow: /\n"));
}

fn accepts_encoding(header: &str, encoding: &str) -> bool {
    header.split(',').any(|part| {
        let mut fields = part.split(';').map(str::trim);
        let name_matches = fields.next().is_some_and(|n| n.eq_ignore_ascii_case(encoding));
        let refused = fields.any(|f| f.replace(' ', "") == "q=0" || f.replace(' ', "") == "q=0.0");
        name_matches && !refused
    })
}

fn content_type(name: &str) -> HeaderValue {
    let mime = mime_guess::from_path(name).first_or_octet_stream();
    let text = matches!(mime.type_(), mime_guess::mime::TEXT)
        || mime.subtype() == "javascript"
        || mime.subtype() == "json"
        || mime.suffix().is_some_and(|s| s == "json" || s == "xml");
    let value = if text { format!("{mime}; charset=utf-8") } else { mime.to_string() };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_are_matched_by_name_and_refused_with_q_zero() {
        assert!(accepts_encoding("gzip, deflate, br", "br"));
        assert!(accepts_encoding("gzip;q=1.0, br;q=0.5", "gzip"));
        assert!(!accepts_encoding("gzip, br;q=0", "br"));
        assert!(!accepts_encoding("identity", "gzip"));
        assert!(!accepts_encoding("", "br"));
    }

    #[test]
    fn entity_tags_keep_the_encoding_inside_the_quotes() {
        assert_eq!(entity_tag("abc123", Some("br")), "\"abc123-br\"");
        assert_eq!(entity_tag("abc123", Some("gzip")), "\"abc123-gzip\"");
        assert_eq!(entity_tag("abc123", None), "\"abc123\"");
    }

    #[test]
    fn if_none_match_reads_lists_weak_tags_and_the_star() {
        let tag = "\"abc-br\"";
        assert!(if_none_match("\"abc-br\"", tag));
        assert!(if_none_match("\"x\", W/\"abc-br\"", tag));
        assert!(if_none_match("*", tag));
        assert!(!if_none_match("\"abc\"", tag));
        assert!(!if_none_match("\"abc-gzip\"", tag));
        assert!(!if_none_match("abc-br", tag));
    }

    #[test]
    fn scripts_and_pages_are_served_as_utf8_text() {
        assert_eq!(content_type("assets/main-ABC.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("assets/main-ABC.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("icon.png"), "image/png");
    }

    #[test]
    fn a_folder_source_never_leaves_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "app").unwrap();
        let source = AssetSource::Dir(dir.path().to_owned());
        assert!(source.get("index.html").is_some());
        assert!(source.get("../etc/passwd").is_none());
        assert!(source.get("/etc/passwd").is_none());
    }
}
