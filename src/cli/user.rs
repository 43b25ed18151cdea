use clap::Subcommand;

use super::remote::{self, default_context};
use crate::control::Context;
use crate::control::{Request, Response};
use crate::datadir::DataDir;
use crate::domain::text::{is_email, normalise_email};
use crate::settings::parse_duration;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// List every account with its number of clients.
    List,
    /// Delete an account with all its clients, recordings and photos.
    Delete {
        /// The account's email.
        email: String,
    },
    /// Take an account's address as confirmed, where sign-up by domain asks
    /// for a link (for when email is not set up).
    ConfirmEmail {
        /// The account's email.
        email: String,
    },
    /// Print a one-time password-reset link, for when email is not set up.
    ResetPassword {
        /// The account's email.
        email: String,
        /// Base of the link when no server runs (a running server uses its own)
        /// [default: the server's default LAN URL]
        #[arg(long, env = "DEBRIEF_PUBLIC_URL", value_name = "URL")]
        public_url: Option<String>,
        /// How long the link stays valid when no server runs.
        #[arg(long, env = "DEBRIEF_RESET_TTL", default_value = "1h", value_parser = parse_duration, value_name = "DURATION")]
        reset_ttl: std::time::Duration,
    },
}

pub fn run(data_dir: &DataDir, command: UserCommand) -> anyhow::Result<i32> {
    let (request, context): (Request, Box<dyn FnOnce() -> Context>) = match command {
        UserCommand::List => (Request::UserList, Box::new(default_context)),
        UserCommand::Delete { email } => (Request::UserDelete { email }, Box::new(default_context)),
        UserCommand::ConfirmEmail { email } => (Request::UserConfirmEmail { email }, Box::new(default_context)),
        UserCommand::ResetPassword { email, public_url, reset_ttl } => {
            let email = normalise_email(&email);
            if !is_email(&email) {
                anyhow::bail!("'{email}' is not an email address");
            }
            let context = move || match public_url {
                Some(url) => Context { public_url: url.trim_end_matches('/').to_owned(), reset_ttl },
                None => Context { reset_ttl, ..default_context() },
            };
            (Request::ResetLink { email: email.clone() }, Box::new(context))
        }
    };
    match remote::run(data_dir, request, context)? {
        Response::ResetLink { link: None } => anyhow::bail!("no account has that email"),
        response => remote::print(&response),
    }
    Ok(0)
}
