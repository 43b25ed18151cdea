//! Administration: server-side admins, their API, and the CLI beside a
//! running server or on the database alone. One file per use case, so a
//! test is found by its subject; the helpers here create an admin and sign
//! one in, for these tests and for the other suites that need an admin.

mod access;
mod accounts;
mod database;
mod email_template;
mod sessions;
mod users;

use std::process::Command;

use crate::browser::{Browser, sign_in_admin};
use crate::harness::{BIN, create_admin_with};

const PASSWORD: &str = "correct horse";

/// `debrief admin create --username NAME --password-stdin`.
pub fn create_admin(data_dir: &std::path::Path, username: &str) -> std::process::Output {
    create_admin_with(Command::new(BIN), data_dir, username)
}

pub fn admin_browser(base: &str, username: &str) -> Browser {
    sign_in_admin(Browser::new(base), username)
}
