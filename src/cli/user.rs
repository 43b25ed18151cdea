use clap::Subcommand;

use super::remote::{Target, reach};
use crate::control::{Request, Response};
use crate::datadir::DataDir;
use crate::domain::text::{is_email, normalise_email};
use crate::settings::parse_duration;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
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
    match command {
        UserCommand::ResetPassword { email, public_url, reset_ttl } => {
            let email = normalise_email(&email);
            if !is_email(&email) {
                anyhow::bail!("'{email}' is not an email address");
            }
            let link = match reach(data_dir, &Request::ResetLink { email: email.clone() })? {
                Target::Server(Response::ResetLink { link }) => link,
                Target::Server(other) => anyhow::bail!("unexpected answer from the server: {other:?}"),
                Target::Direct(store) => {
                    let base = public_url.map(|u| u.trim_end_matches('/').to_owned()).unwrap_or_else(default_public_url);
                    crate::ops::reset_link(&store, &email, &base, reset_ttl)?.map(|(_, link)| link)
                }
            };
            match link {
                Some(link) => {
                    println!("{link}");
                    Ok(0)
                }
                None => anyhow::bail!("no account has the email {email}"),
            }
        }
    }
}

/// What `debrief serve` with its defaults would use as its public URL.
fn default_public_url() -> String {
    let urls = crate::lan::Urls::for_bound(([0, 0, 0, 0], 8443).into(), "https");
    urls.for_phones().unwrap_or(&urls.local).to_owned()
}
