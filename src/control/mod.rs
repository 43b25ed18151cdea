//! The control socket: how CLI commands reach a running server.
//!
//! redb lets one process open the database file. While `debrief serve` runs,
//! commands such as `debrief doctor` send it one JSON request on a Unix
//! socket in the data directory (owner-only) and read one JSON response;
//! when no server runs they open the file themselves.

mod client;
mod listener;

use serde::{Deserialize, Serialize};

pub use client::call;
pub use listener::{ControlHandler, serve};

/// Requests are one JSON object on one line.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    Status,
    /// A one-time password-reset link for an account (normalised email).
    ResetLink { email: String },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Response {
    Status(ServerStatus),
    /// `None`: no account has that email.
    ResetLink { link: Option<String> },
    Error { message: String },
}

/// What a running server says about itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerStatus {
    pub pid: u32,
    pub version: String,
    pub url: String,
    pub lan_urls: Vec<String>,
    pub tls: String,
    pub schema_version: u64,
    pub uptime_secs: u64,
}
