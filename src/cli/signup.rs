use clap::Subcommand;

use super::remote::{self, default_context};
use crate::control::Request;
use crate::datadir::DataDir;

#[derive(Debug, Subcommand)]
pub enum SignupCommand {
    /// Print who may create an account.
    Show,
    /// Set who may create an account: open (anyone who reaches the server),
    /// invitation (only with a link from `debrief signup invite` or the
    /// dashboard) or closed.
    Set {
        mode: String,
        /// Open sign-up takes addresses at these domains only
        /// (`--domain firm.example`, repeatable); none: any domain.
        #[arg(long = "domain")]
        domains: Vec<String>,
    },
    /// Print a single-use sign-up link.
    Invite {
        /// Only this address may sign up with the link.
        #[arg(long)]
        email: Option<String>,
        /// Days the link works (1 to 90).
        #[arg(long, default_value_t = 7)]
        days: u64,
    },
}

pub fn run(data_dir: &DataDir, command: SignupCommand) -> anyhow::Result<i32> {
    let request = match command {
        SignupCommand::Show => Request::SignupShow,
        SignupCommand::Set { mode, domains } => Request::SignupSet { mode, domains },
        SignupCommand::Invite { email, days } => Request::SignupInvite { email, days: Some(days) },
    };
    remote::print(&remote::run(data_dir, request, default_context)?);
    Ok(0)
}
