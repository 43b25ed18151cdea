//! Sending an email and keeping the line of the `outbox` table that says
//! what became of it.

use crate::clock::now_ms;
use crate::mail::{Delivery, MailError, Mailer, Outgoing};
use crate::store::{OutboxEntry, Store};

/// Sends (or files) `mail`. Once it is handed to the transport, the attempt
/// is recorded whatever its outcome; a message that cannot be built is not.
pub async fn send(store: &Store, mailer: &Mailer, mail: Outgoing) -> Result<Delivery, MailError> {
    let letter = mailer.prepare(&mail)?;
    let outcome = mailer.deliver(letter).await;
    let result = match &outcome {
        Ok(Delivery::Sent) => "sent".to_owned(),
        Ok(Delivery::Outbox(path)) => format!("outbox: {}", path.display()),
        Err(e) => format!("failed: {e}"),
    };
    let entry = OutboxEntry { to: mail.to.email, subject: mail.subject, at: now_ms(), result };
    if let Err(e) = store.run(move |s| s.record_mail(&entry)).await {
        tracing::error!("recording an email in the outbox table: {e}");
    }
    outcome
}
