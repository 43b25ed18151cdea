//! The server answers the app, its assets and its API as a browser needs.

use crate::harness::{client, spawn_app};

fn header(res: &ureq::http::Response<ureq::Body>, name: &str) -> String {
    res.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

#[test]
fn health_answers_200_with_json() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/api/health", app.url)).call().unwrap();
    assert_eq!(res.status(), 200);
    assert!(header(&res, "content-type").starts_with("application/json"));
    let body: serde_json::Value = res.body_mut().read_json().unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn every_page_path_gets_the_app_with_security_headers_and_no_cache() {
    let app = spawn_app();
    for path in ["/", "/login", "/client/42", "/no/such/page"] {
        let mut res = client().get(format!("{}{path}", app.url)).call().unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(header(&res, "content-type").starts_with("text/html"), "{path}");
        assert_eq!(header(&res, "cache-control"), "no-cache", "{path}");
        assert_eq!(header(&res, "x-content-type-options"), "nosniff");
        assert!(header(&res, "content-security-policy").contains("frame-ancestors 'none'"));
        assert!(header(&res, "content-security-policy").contains("script-src 'self'"));
        assert!(!header(&res, "referrer-policy").is_empty());
        let html = res.body_mut().read_to_string().unwrap();
        assert!(html.contains("<script") && html.contains("/assets/"), "{path}: {html}");
    }
}

#[test]
fn unknown_api_paths_get_a_json_404_not_the_app() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/api/no-such-thing", app.url)).call().unwrap();
    assert_eq!(res.status(), 404);
    let body: serde_json::Value = res.body_mut().read_json().unwrap();
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(header(&res, "x-content-type-options"), "nosniff");
}

#[test]
fn a_visitor_without_a_session_is_told_401_by_the_session_check() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/api/auth/me", app.url)).call().unwrap();
    assert_eq!(res.status(), 401);
    assert_eq!(header(&res, "cache-control"), "no-store");
    let body: serde_json::Value = res.body_mut().read_json().unwrap();
    assert!(body["message"].is_string());
}

#[test]
fn the_session_probe_answers_200_with_no_user_to_a_visitor_and_the_user_once_signed_in() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/api/auth/session", app.url)).call().unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "cache-control"), "no-store");
    assert_eq!(res.body_mut().read_json::<serde_json::Value>().unwrap(), serde_json::json!({"user": null}));

    let mut ana = crate::browser::signed_in_user(&app.url, "probe@example.com", "correct horse");
    let probe = ana.get("/api/auth/session");
    assert_eq!(probe.status, 200);
    assert_eq!(probe.body["user"], ana.get("/api/auth/me").body, "the same user as GET /api/auth/me");
    assert_eq!(probe.body["user"]["email"], "probe@example.com");

    let ended = ana.cookie.clone();
    assert_eq!(ana.post("/api/auth/logout", serde_json::json!({})).status, 200);
    let after = crate::browser::Browser::new(&app.url).with_cookie(ended).get("/api/auth/session");
    assert_eq!((after.status, after.body), (200, serde_json::json!({"user": null})));
}

#[test]
fn robots_are_told_to_keep_out() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/robots.txt", app.url)).call().unwrap();
    assert_eq!(res.status(), 200);
    assert!(header(&res, "content-type").starts_with("text/plain"));
    let body = res.body_mut().read_to_string().unwrap();
    assert_eq!(body.lines().collect::<Vec<_>>(), ["User-agent: *", "Disallow: /"]);
}

#[test]
fn hashed_assets_are_precompressed_typed_and_cached_for_a_year() {
    let app = spawn_app();
    let html = client().get(format!("{}/", app.url)).call().unwrap().body_mut().read_to_string().unwrap();
    let script = html
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with(".js"))
        .unwrap_or_else(|| panic!("no script in {html}"))
        .to_owned();

    let br = client().get(format!("{}{script}", app.url)).header("Accept-Encoding", "gzip, br").call().unwrap();
    assert_eq!(br.status(), 200);
    assert_eq!(header(&br, "content-encoding"), "br");
    assert_eq!(header(&br, "cache-control"), "public, max-age=31536000, immutable");
    assert_eq!(header(&br, "content-type"), "text/javascript; charset=utf-8");
    assert_eq!(header(&br, "vary"), "Accept-Encoding");

    let gz = client().get(format!("{}{script}", app.url)).header("Accept-Encoding", "gzip").call().unwrap();
    assert_eq!(header(&gz, "content-encoding"), "gzip");

    let mut plain = client().get(format!("{}{script}", app.url)).header("Accept-Encoding", "identity").call().unwrap();
    assert_eq!(header(&plain, "content-encoding"), "");
    let js = plain.body_mut().read_to_string().unwrap();
    assert!(!js.is_empty());
}

#[test]
fn an_unchanged_page_is_answered_304_on_revalidation() {
    let app = spawn_app();
    let get = |encoding: &str, tag: Option<&str>| {
        let mut req = client().get(format!("{}/", app.url)).header("Accept-Encoding", encoding);
        if let Some(tag) = tag {
            req = req.header("If-None-Match", tag);
        }
        req.call().unwrap()
    };
    let tags: Vec<String> = ["br", "gzip", "identity"].iter().map(|e| header(&get(e, None), "etag")).collect();
    for tag in &tags {
        // A strong tag: one quoted string, the encoding inside the quotes.
        let inner = tag.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or_else(|| panic!("{tag}"));
        assert!(!inner.is_empty() && !inner.contains('"'), "{tag}");
    }
    assert!(tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2], "{tags:?}");

    assert_eq!(get("br", Some(&tags[0])).status(), 304);
    assert_eq!(get("gzip", Some(&format!("W/{}", tags[1]))).status(), 304);
    assert_eq!(get("gzip", Some(&tags[0])).status(), 200, "the brotli copy's tag is not the gzip copy's");
}

#[test]
fn a_missing_asset_is_a_404_never_the_page() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/assets/main-OLDHASH.js", app.url)).call().unwrap();
    assert_eq!(res.status(), 404);
    assert!(!res.body_mut().read_to_string().unwrap().contains("<html"));
}

#[test]
fn head_requests_are_answered_like_get_without_a_body() {
    let app = spawn_app();
    let res = client().head(format!("{}/", app.url)).call().unwrap();
    assert_eq!(res.status(), 200);
    let res = client().head(format!("{}/api/health", app.url)).call().unwrap();
    assert_eq!(res.status(), 200);
}

#[test]
fn the_binary_alone_in_an_empty_folder_serves_the_app() {
    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("debrief");
    std::fs::copy(crate::harness::BIN, &copy).unwrap();
    let data = folder.path().join("data");
    let mut child = std::process::Command::new(&copy)
        .args(["serve", "--http", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .current_dir(folder.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let url = std::io::BufRead::lines(stdout)
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("ready: ").map(str::to_owned))
        .expect("a ready line");
    let html = client().get(format!("{url}/")).call().unwrap().body_mut().read_to_string().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(html.contains("/assets/"));
}

#[test]
fn start_up_prints_where_to_open_the_app_then_a_ready_line() {
    let dir = tempfile::tempdir().unwrap();
    let app = crate::harness::spawn_with(dir.path(), &["--bind", "0.0.0.0:0"]).unwrap();
    let printed = app.printed();
    assert!(printed.contains("on this machine:  https://127.0.0.1:"), "{printed}");
    let lan = debrief::lan::lan_addresses();
    if lan.iter().any(|ip| ip.is_ipv4()) {
        assert!(printed.contains("on the LAN:       https://"), "{printed}");
        assert!(printed.contains("Scan to open https://"), "{printed}");
        assert!(printed.contains('█') || printed.contains('▀') || printed.contains('▄'), "a QR code: {printed}");
        assert!(printed.contains("/install"), "{printed}");
    }
    let last_stdout_line = printed.lines().filter(|l| l.starts_with("ready: ")).count();
    assert_eq!(last_stdout_line, 1);
}
