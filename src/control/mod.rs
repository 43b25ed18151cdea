//! The control socket: how CLI commands reach a running server.
//!
//! redb lets one process open the database file. While `debrief serve` runs,
//! commands such as `debrief doctor` send it one JSON request on a Unix
//! socket in the data directory (owner-only) and read one JSON response;
//! when no server runs they open the file themselves and run the same
//! operation ([`answer`]).

mod answer;
mod client;
mod listener;

use serde::{Deserialize, Serialize};

pub use answer::{Context, answer};
pub use client::call;
pub use listener::{ControlHandler, serve};

use crate::domain::ids::ClientId;
use crate::domain::signup::SignupPolicy;
use crate::domain::template::EmailTemplate;
use crate::ops::accounts::UserLine;
use crate::ops::jobs::JobLine;
use crate::ops::signup::Invitation;
use crate::store::StorageUse;

/// Requests are one JSON object on one line.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    Status,
    /// A one-time password-reset link for an account (normalised email).
    ResetLink {
        email: String,
    },
    AdminCreate {
        username: String,
        password: String,
    },
    AdminList,
    AdminPasswd {
        username: String,
        password: String,
    },
    AdminDelete {
        username: String,
    },
    UserList,
    UserDelete {
        email: String,
    },
    UserConfirmEmail {
        email: String,
    },
    TemplateShow,
    TemplateSet {
        field: String,
        value: String,
    },
    TemplatePut {
        template: EmailTemplate,
    },
    TemplateReset,
    SignupShow,
    SignupSet {
        mode: String,
        #[serde(default)]
        domains: Vec<String>,
    },
    /// A single-use sign-up link, for one address when `email` is given.
    SignupInvite {
        email: Option<String>,
        days: Option<u64>,
    },
    /// A consistent copy of the database, written by the server to `path`.
    Backup {
        path: String,
    },
    JobList,
    /// Run a failed job again, from the stage that failed.
    JobRetry {
        client: ClientId,
    },
    /// Transcribe a client's recording again (every client's when `client`
    /// is `None`), then summarise it again.
    JobRetranscribe {
        client: Option<ClientId>,
        force: bool,
    },
    /// A client's transcript as txt, srt or vtt.
    TranscriptExport {
        client: ClientId,
        format: String,
    },
    /// Models were installed or removed: jobs waiting for one try again.
    ModelsChanged,
    /// The space used and left, and the retention policy.
    StorageShow,
    /// Sets the retention policy (`None`: keep recordings for good).
    RetentionSet {
        days: Option<i64>,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Response {
    Status(ServerStatus),
    /// `None`: no account has that email.
    ResetLink {
        link: Option<String>,
    },
    Done {
        message: String,
    },
    Admins {
        usernames: Vec<String>,
    },
    Users {
        users: Vec<UserLine>,
    },
    Template {
        template: EmailTemplate,
    },
    Jobs {
        jobs: Vec<JobLine>,
    },
    Signup {
        policy: SignupPolicy,
    },
    Invitation {
        invitation: Invitation,
    },
    Storage {
        storage: StorageUse,
    },
    /// A file's text, printed as it is.
    Export {
        text: String,
    },
    Error {
        message: String,
    },
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
    /// The sender of outgoing mail, and why receivers cannot check it
    /// (empty from a server older than these fields).
    #[serde(default)]
    pub mail_from: String,
    #[serde(default)]
    pub mail_warning: Option<String>,
}
