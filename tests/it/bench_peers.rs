//! The bare routes the benchmark suite measures against exist only with
//! the hidden `serve --bench-peers`, and then behind the same middleware as
//! the real routes.

use serde_json::json;

use crate::browser::Browser;
use crate::harness::{client, spawn_app, spawn_app_with};

const PEERS: [&str; 2] = ["/api/bench-peers/clients", "/api/bench-peers/me"];

#[test]
fn without_the_flag_there_are_no_bench_peers() {
    let app = spawn_app();
    let mut browser = Browser::new(&app.url);
    for path in PEERS {
        assert_eq!(browser.get(path).status, 404, "{path}");
        assert_eq!(browser.put(path, json!({"id": 1})).status, 404, "{path}");
    }
}

#[test]
fn with_the_flag_each_peer_answers_what_was_put_there() {
    let app = spawn_app_with(&["--bench-peers"]);
    let mut browser = Browser::new(&app.url);
    for (i, path) in PEERS.into_iter().enumerate() {
        let body = json!([{"peer": i, "text": "é"}]);
        assert_eq!(browser.put(path, body.clone()).status, 204, "{path}");
        let mut res = client().get(format!("{}{path}", app.url)).call().unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let headers = res.headers().clone();
        assert_eq!(headers["content-type"], "application/json; charset=utf-8");
        assert_eq!(headers["cache-control"], "no-store", "the API's security headers apply");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(res.body_mut().read_json::<serde_json::Value>().unwrap(), body, "{path}");
    }

    browser.origin = Some("https://evil.example.com".into());
    let refused = browser.put(PEERS[0], json!([]));
    assert_eq!(refused.status, 403, "the API's origin check applies: {}", refused.text);
}

#[test]
fn a_panicking_handler_answers_500_with_a_generic_json_message() {
    let app = spawn_app_with(&["--bench-peers"]);
    let reply = Browser::new(&app.url).get("/api/bench-peers/panic");
    assert_eq!((reply.status, reply.body), (500, json!({"message": "Internal Server Error"})), "{}", reply.text);
}

#[test]
fn the_server_keeps_serving_after_a_handler_panics() {
    let app = spawn_app_with(&["--bench-peers"]);
    let mut browser = Browser::new(&app.url);
    browser.get("/api/bench-peers/panic");
    assert_eq!(browser.get("/api/health").status, 200);
}
