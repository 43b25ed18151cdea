//! Outgoing email: SMTP when configured, otherwise files in the outbox
//! folder. `ops::mail` records every attempt in the database.

pub mod render;
mod sender;
pub mod steps;
mod subject;
mod transport;

use std::path::PathBuf;

pub use sender::Sender;
pub use transport::{Delivery, Letter, Mailer};

use crate::domain::text::{has_control_chars, is_email};

/// An email ready to go, every header value already checked.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub from_name: String,
    pub to: Recipient,
    pub reply_to: Option<Recipient>,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Recipient {
    pub name: Option<String>,
    pub email: String,
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// A value that would break or inject a header. Never reaches lettre,
    /// which panics on a line break in a display name.
    #[error("{0} cannot be used in an email header")]
    InvalidHeader(&'static str),
    #[error("sending failed: {0}")]
    Failed(String),
}

impl Recipient {
    pub fn check(&self, what: &'static str) -> Result<(), MailError> {
        let name_ok = self.name.as_deref().is_none_or(|n| !has_control_chars(n));
        if name_ok && is_email(&self.email) { Ok(()) } else { Err(MailError::InvalidHeader(what)) }
    }
}

impl Outgoing {
    pub fn check(&self) -> Result<(), MailError> {
        if has_control_chars(&self.from_name) {
            return Err(MailError::InvalidHeader("the sender name"));
        }
        if has_control_chars(&self.subject) {
            return Err(MailError::InvalidHeader("the subject"));
        }
        self.to.check("the recipient")?;
        if let Some(reply_to) = &self.reply_to {
            reply_to.check("the reply-to address")?;
        }
        Ok(())
    }
}

/// Where mail goes when no SMTP server is configured.
pub fn outbox_dir(data_dir: &std::path::Path) -> PathBuf {
    data_dir.join("outbox")
}
