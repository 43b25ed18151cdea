//! Runs an operation on the running server when there is one, otherwise on
//! the database directly: the same `control::answer` either way.

use std::time::Duration;

use crate::control::{self, Context, Request, Response};
use crate::datadir::{DataDir, InstanceLock};
use crate::store::Store;

/// Sends `request` to the server of `data_dir`, or, with no server
/// running, opens the database and runs it here with `context`.
pub fn run(data_dir: &DataDir, request: Request, context: impl FnOnce() -> Context) -> anyhow::Result<Response> {
    let response = match control::call(&data_dir.control_socket(), &request, Duration::from_secs(60)) {
        Ok(response) => response,
        Err(_) => control::answer(&open_directly(data_dir)?.store, &context(), request),
    };
    match response {
        Response::Error { message } => anyhow::bail!("{message}"),
        other => Ok(other),
    }
}

/// The database opened by this command, with the data directory's lock
/// held until it is dropped, so that no server starts on it meanwhile.
pub struct Direct {
    pub store: Store,
    _lock: InstanceLock,
}

/// The database, when no server holds it. A new data directory gets one
/// with the current schema, so that the first admin and the template can be
/// set up before the first `serve`.
pub fn open_directly(data_dir: &DataDir) -> anyhow::Result<Direct> {
    if let Some(holder) = data_dir.running_instance() {
        anyhow::bail!("pid {} holds {} but its control socket does not answer", holder.pid, data_dir.root().display());
    }
    data_dir.create()?;
    let lock = data_dir.lock()?;
    Ok(Direct { store: Store::open(&data_dir.database())?, _lock: lock })
}

/// Context for a command that runs without a server: the defaults `serve`
/// would use.
pub fn default_context() -> Context {
    let urls = crate::lan::Urls::for_bound(([0, 0, 0, 0], 8443).into(), "https");
    Context { public_url: urls.for_phones().unwrap_or(&urls.local).to_owned(), reset_ttl: Duration::from_secs(3600) }
}

/// Prints what a command answered.
pub fn print(response: &Response) {
    match response {
        Response::Done { message } => println!("{message}"),
        Response::Export { text } => print!("{text}"),
        Response::Admins { usernames } => usernames.iter().for_each(|u| println!("{u}")),
        Response::Users { users } => {
            for u in users {
                println!(
                    "{:>6}  {:<40}  {:<30}  {} client{}",
                    u.id,
                    u.email,
                    u.name,
                    u.clients,
                    if u.clients == 1 { "" } else { "s" }
                );
            }
        }
        Response::Template { template } => println!("{}", serde_json::to_string_pretty(template).unwrap_or_default()),
        Response::ResetLink { link: Some(link) } => println!("{link}"),
        Response::Signup { policy } => {
            let domains = policy.domains().join(", ");
            let mode = serde_json::to_value(policy.mode()).ok().and_then(|v| v.as_str().map(str::to_owned));
            println!("sign-up: {}", mode.unwrap_or_default());
            println!("domains: {}", if domains.is_empty() { "any" } else { &domains });
        }
        Response::Invitation { invitation } => {
            println!("{}", invitation.link);
            let until = &invitation.expires_at;
            match &invitation.email {
                Some(email) => eprintln!("single use, for {email}, until {until}"),
                None => eprintln!("single use, for anyone who has the link, until {until}"),
            }
        }
        Response::Storage { storage } => {
            println!("{}", super::storage::policy(storage));
            println!("storage: {}", super::storage::describe(storage));
        }
        other => println!("{other:?}"),
    }
}
