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
    etag: Option<String>,
}

impl AssetSource {
    fn get(&self, path: &str) -> Option<Asset> {
        match self {
            AssetSource::Embedded => Embedded::get(path).map(|file| Asset {
                etag: Some(format!("\"{}\"", hex(&file.metadata.sha256_hash()[..12]))),
                body: file.data,
            }),
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
    if let Some(etag) = asset.etag.map(|tag| tag + encoding.unwrap_or("")) {
        let matches = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str());
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
