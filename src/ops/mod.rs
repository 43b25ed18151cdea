//! Operations that the HTTP handlers, the control socket and the CLI share:
//! each is one function over the store, so there is never a second copy.
//! [`run`] answers a control request with them, both in the server (for a
//! CLI command while it runs) and in the CLI (when no server runs).

pub mod accounts;
pub mod admins;
pub mod jobs;
pub mod templates;

use std::time::Duration;

use crate::control::{Request, Response, UserLine};
use crate::domain::FieldError;
use crate::store::{Admin, Store, StoreError};

/// What an operation needs beyond the store.
pub struct Context {
    /// Base of emailed and printed links.
    pub public_url: String,
    pub reset_ttl: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum OpError {
    #[error("{}", .0.iter().map(|e| format!("{}: {}", e.field, e.message)).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<FieldError>),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Failed(String),
}

pub type OpResult<T> = Result<T, OpError>;

/// Answers one control request against `store`. A request comes from the
/// person at the box's console: the owner-only control socket, or the CLI
/// that opened the database itself.
pub fn run(store: &Store, context: &Context, request: Request) -> Response {
    let admin = store.as_admin(&Admin::at_the_console());
    let admin = &admin;
    let done = |message: String| Response::Done { message };
    let outcome: OpResult<Response> = match request {
        Request::Status => Err(OpError::Failed("status is answered by a running server only".into())),
        Request::ResetLink { email } => accounts::reset_link(store, &email, &context.public_url, context.reset_ttl)
            .map(|found| Response::ResetLink { link: found.map(|(_, link)| link) })
            .map_err(OpError::from),
        Request::AdminCreate { username, password } => {
            admins::create(admin, &username, &password).map(|()| done(format!("admin {username} created")))
        }
        Request::AdminList => admins::list(admin).map(|usernames| Response::Admins { usernames }),
        Request::AdminPasswd { username, password } => admins::set_password(admin, &username, &password)
            .map(|()| done(format!("password of admin {username} changed"))),
        Request::AdminDelete { username } => {
            admins::delete(admin, &username).map(|()| done(format!("admin {username} deleted")))
        }
        Request::UserList => accounts::list(admin).map(|users| Response::Users { users }),
        Request::UserDelete { email } => accounts::delete_by_email(store, admin, &email)
            .map(|user| done(format!("user {} deleted with their clients", user.email))),
        Request::TemplateShow => {
            admin.template().map(|template| Response::Template { template }).map_err(OpError::from)
        }
        Request::TemplateSet { field, value } => {
            templates::set_field(admin, &field, &value).map(|template| Response::Template { template })
        }
        Request::TemplatePut { template } => {
            templates::put(admin, &template).map(|template| Response::Template { template })
        }
        Request::TemplateReset => templates::reset(admin).map(|template| Response::Template { template }),
        Request::Backup { path } => admin
            .backup(std::path::Path::new(&path))
            .map(|()| done(format!("backup written to {path}")))
            .map_err(OpError::from),
        Request::JobList => jobs::list(admin).map(|jobs| Response::Jobs { jobs }),
        Request::JobRetry { client } => {
            jobs::retry(admin, client).map(|_| done(format!("the job of client {client} is queued again")))
        }
        // Only a running server has jobs waiting; without one the next start looks anyway.
        Request::ModelsChanged => Ok(done("no server is running; the next start uses the installed models".into())),
    };
    outcome.unwrap_or_else(|e| Response::Error { message: e.to_string() })
}

impl From<&crate::domain::user::UserRecord> for UserLine {
    fn from(u: &crate::domain::user::UserRecord) -> Self {
        Self { id: u.id, email: u.email.clone(), name: format!("{} {}", u.first_name, u.last_name), clients: 0 }
    }
}
