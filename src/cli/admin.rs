use std::io::Read;

use clap::Subcommand;

use super::remote::{self, default_context};
use crate::control::Request;
use crate::datadir::DataDir;

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create an administrator (there is none by default).
    Create {
        #[arg(long, value_name = "NAME")]
        username: String,
        /// Read the password from standard input instead of prompting.
        #[arg(long)]
        password_stdin: bool,
    },
    /// List the administrators.
    List,
    /// Change an administrator's password; their sessions end.
    Passwd {
        username: String,
        #[arg(long)]
        password_stdin: bool,
    },
    /// Delete an administrator; their sessions end at once.
    Delete { username: String },
}

pub fn run(data_dir: &DataDir, command: AdminCommand) -> anyhow::Result<i32> {
    let request = match command {
        AdminCommand::Create { username, password_stdin } => {
            Request::AdminCreate { username, password: password(password_stdin)? }
        }
        AdminCommand::List => Request::AdminList,
        AdminCommand::Passwd { username, password_stdin } => {
            Request::AdminPasswd { username, password: password(password_stdin)? }
        }
        AdminCommand::Delete { username } => Request::AdminDelete { username },
    };
    remote::print(&remote::run(data_dir, request, default_context)?);
    Ok(0)
}

/// The new password: one line of standard input, or asked twice without echo.
fn password(from_stdin: bool) -> anyhow::Result<String> {
    if from_stdin {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        return Ok(text.lines().next().unwrap_or_default().to_owned());
    }
    let first = rpassword::prompt_password("New admin password: ")?;
    let second = rpassword::prompt_password("Repeat it: ")?;
    if first != second {
        anyhow::bail!("the two passwords differ");
    }
    Ok(first)
}
