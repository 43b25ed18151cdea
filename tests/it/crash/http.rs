//! An HTTP client for a server that may be killed mid-request: an answer
//! read in full is told apart from one cut off by the kill.

use std::time::Duration;

use serde_json::Value;

/// How a request ended: answered in full, or cut off by the kill.
pub(super) enum Outcome {
    Answered(u16, Vec<u8>),
    CutOff,
}

pub(super) struct Http {
    agent: ureq::Agent,
    base: String,
    cookie: String,
}

impl Http {
    pub(super) fn new(base: &str, cookie: &str) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .new_agent();
        Self { agent, base: base.to_owned(), cookie: cookie.to_owned() }
    }

    pub(super) fn send(&self, method: &str, path: &str, content_type: Option<&str>, body: Vec<u8>) -> Outcome {
        let mut req = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("Cookie", format!("debrief_session={}", self.cookie))
            .header("Origin", &self.base);
        if let Some(content_type) = content_type {
            req = req.header("Content-Type", content_type);
        }
        match self.agent.run(req.body(body).unwrap()) {
            Ok(mut res) => match res.body_mut().with_config().limit(16 << 20).read_to_vec() {
                Ok(bytes) => Outcome::Answered(res.status().as_u16(), bytes),
                Err(_) => Outcome::CutOff,
            },
            Err(_) => Outcome::CutOff,
        }
    }

    pub(super) fn json(&self, method: &str, path: &str, body: &Value) -> Outcome {
        self.send(method, path, Some("application/json"), body.to_string().into_bytes())
    }

    /// A read of a running server, which must answer.
    pub(super) fn get(&self, path: &str) -> (u16, Vec<u8>) {
        match self.send("GET", path, None, Vec::new()) {
            Outcome::Answered(status, body) => (status, body),
            Outcome::CutOff => panic!("GET {path}: no answer from a running server"),
        }
    }

    pub(super) fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {}", String::from_utf8_lossy(&body));
        serde_json::from_slice(&body).unwrap()
    }
}
