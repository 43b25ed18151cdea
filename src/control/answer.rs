//! Answers a control request with the operations the HTTP handlers share,
//! both in the server (for a CLI command while it runs) and in the CLI
//! (when no server runs).

use std::time::Duration;

use super::{Request, Response};
use crate::domain::retention::Retention;
use crate::ops::{OpError, OpResult, accounts, admins, jobs, signup, templates};
use crate::store::{Admin, AdminView, Store};

/// What a request needs beyond the store.
pub struct Context {
    /// Base of emailed and printed links.
    pub public_url: String,
    pub reset_ttl: Duration,
}

fn storage(admin: &AdminView) -> OpResult<Response> {
    admin.storage_use().map(|storage| Response::Storage { storage }).map_err(OpError::from)
}

/// Answers one request against `store`. A request comes from the person at
/// the box's console: the owner-only control socket, or the CLI that opened
/// the database itself.
pub fn answer(store: &Store, context: &Context, request: Request) -> Response {
    let admin = &store.as_admin(&Admin::at_the_console());
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
        Request::UserConfirmEmail { email } => accounts::vouch_by_email(store, admin, &email)
            .map(|user| done(format!("the address {} is confirmed", user.email))),
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
        Request::SignupShow => admin.signup_policy().map(|policy| Response::Signup { policy }).map_err(OpError::from),
        Request::SignupSet { mode, domains } => {
            signup::set_policy(admin, &mode, &domains).map(|policy| Response::Signup { policy })
        }
        Request::SignupInvite { email, days } => {
            let ttl = days.map_or(signup::INVITATION_TTL, |d| Duration::from_secs(d.clamp(1, 90) * 24 * 3600));
            signup::invite(admin, email.as_deref(), ttl, &context.public_url)
                .map(|invitation| Response::Invitation { invitation })
        }
        Request::Backup { path } => admin
            .backup(std::path::Path::new(&path))
            .map(|()| {
                let blobs = crate::store::backup_blobs(std::path::Path::new(&path));
                done(format!("backup written to {path}, its files to {}", blobs.display()))
            })
            .map_err(OpError::from),
        Request::JobList => jobs::list(admin).map(|jobs| Response::Jobs { jobs }),
        Request::JobRetry { client } => {
            jobs::retry(admin, client).map(|_| done(format!("the job of client {client} is queued again")))
        }
        Request::JobRetranscribe { client, force } => {
            jobs::retranscribe(admin, client, force).map(|done| Response::Done { message: done.to_string() })
        }
        Request::TranscriptExport { client, format } => {
            jobs::export(admin, client, &format).map(|text| Response::Export { text })
        }
        Request::StorageShow => storage(admin),
        Request::RetentionSet { days } => Retention::parse(days)
            // The domain's words speak of the dashboard's field.
            .map_err(|_| {
                OpError::Failed("keep recordings 1 to 3650 days; `debrief retention off` keeps them for good".into())
            })
            .and_then(|retention| admin.set_retention(retention).map_err(OpError::from))
            .and_then(|()| storage(admin)),
        // Only a running server has jobs waiting; without one the next start looks anyway.
        Request::ModelsChanged => Ok(done("no server is running; the next start uses the installed models".into())),
    };
    outcome.unwrap_or_else(|e| Response::Error { message: e.to_string() })
}
