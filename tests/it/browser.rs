//! A minimal browser: JSON calls with the app's origin and one session
//! cookie, so tests read like what the app does.

use serde_json::Value;

use crate::harness::{ADMIN_PASSWORD, agent_trusting, client};

pub struct Browser {
    pub base: String,
    pub agent: ureq::Agent,
    pub cookie: Option<String>,
    /// Another cookie sent as is (the admin session's).
    pub extra_cookie: Option<String>,
    pub origin: Option<String>,
}

pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub text: String,
    pub set_cookie: Vec<String>,
    /// The answer said `Connection: close`.
    pub closes: bool,
}

impl Browser {
    pub fn new(base: &str) -> Self {
        Self { base: base.to_owned(), agent: client(), cookie: None, extra_cookie: None, origin: Some(base.to_owned()) }
    }

    /// Over HTTPS, trusting only `ca_pem`, as a phone that installed the
    /// server's local authority.
    pub fn trusting(base: &str, ca_pem: &[u8]) -> Self {
        Self { agent: agent_trusting(ca_pem), ..Self::new(base) }
    }

    /// The same session on another server run (after a restart).
    pub fn with_cookie(mut self, cookie: Option<String>) -> Self {
        self.cookie = cookie;
        self
    }

    pub fn get(&mut self, path: &str) -> Reply {
        self.call("GET", path, None)
    }

    pub fn post(&mut self, path: &str, body: Value) -> Reply {
        self.call("POST", path, Some(body))
    }

    pub fn put(&mut self, path: &str, body: Value) -> Reply {
        self.call("PUT", path, Some(body))
    }

    pub fn delete(&mut self, path: &str) -> Reply {
        self.call("DELETE", path, None)
    }

    pub fn call(&mut self, method: &str, path: &str, body: Option<Value>) -> Reply {
        let url = format!("{}{path}", self.base);
        let mut req = ureq::http::Request::builder().method(method).uri(&url);
        let cookies: Vec<String> =
            self.cookie.iter().map(|c| format!("debrief_session={c}")).chain(self.extra_cookie.clone()).collect();
        if !cookies.is_empty() {
            req = req.header("Cookie", cookies.join("; "));
        }
        if let Some(origin) = &self.origin {
            req = req.header("Origin", origin);
        }
        let payload = body.map(|b| b.to_string()).unwrap_or_default();
        if !payload.is_empty() {
            req = req.header("Content-Type", "application/json");
        }
        let mut res = self.agent.run(req.body(payload).unwrap()).unwrap();
        let set_cookie: Vec<String> =
            res.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned()).collect();
        for header in &set_cookie {
            if let Some(value) = header.strip_prefix("debrief_session=").and_then(|v| v.split(';').next()) {
                self.cookie = (!value.is_empty()).then(|| value.to_owned());
            }
        }
        let closes = res.headers().get("connection").is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"close"));
        let text = res.body_mut().read_to_string().unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply { status: res.status().as_u16(), body, text, set_cookie, closes }
    }
}

/// A complete signup form; `email` distinguishes accounts.
pub fn signup_form(email: &str, password: &str) -> Value {
    serde_json::json!({
        "firstName": "Ana", "lastName": "Lopez", "email": email,
        "password": password, "confirmPassword": password,
        "company": "Acme", "position": "Partner", "linkedinUrl": ""
    })
}

/// Signs up and signs in; returns the signed-in browser.
pub fn signed_in_user(base: &str, email: &str, password: &str) -> Browser {
    sign_up_and_in(Browser::new(base), email, password)
}

/// [`signed_in_user`] in `browser`.
pub fn sign_up_and_in(mut browser: Browser, email: &str, password: &str) -> Browser {
    assert_eq!(browser.post("/api/auth/signup", signup_form(email, password)).status, 201);
    let login = browser.post("/api/auth/login", serde_json::json!({"email": email, "password": password}));
    assert_eq!(login.status, 200, "{}", login.text);
    browser
}

/// Signs `admin` in as `username` (with [`ADMIN_PASSWORD`]); it then sends
/// the admin cookie alone.
pub fn sign_in_admin(mut admin: Browser, username: &str) -> Browser {
    let login = admin.post("/api/admin/login", serde_json::json!({"username": username, "password": ADMIN_PASSWORD}));
    assert_eq!(login.status, 200, "{}", login.text);
    let cookie = login.set_cookie.iter().find(|c| c.starts_with("debrief_admin=")).expect("an admin cookie").clone();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    admin.cookie = None;
    admin.extra_cookie =
        Some(format!("debrief_admin={}", cookie.trim_start_matches("debrief_admin=").split(';').next().unwrap()));
    admin
}
