use std::path::PathBuf;

use lettre::message::{Mailbox, MultiPart, SinglePart, header::ContentType};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::{MailError, Outgoing, Recipient, Sender};

enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Outbox(AsyncFileTransport<Tokio1Executor>, PathBuf),
}

/// What became of an email.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    Sent,
    /// No SMTP server is configured: the message is this file.
    Outbox(PathBuf),
}

/// A message checked and built by [`Mailer::prepare`], ready to go.
pub struct Letter(Message);

#[derive(Clone)]
pub struct Mailer {
    transport: std::sync::Arc<Transport>,
    sender: std::sync::Arc<Sender>,
}

impl Mailer {
    pub fn new(smtp_url: Option<&str>, sender: Sender, outbox: PathBuf) -> anyhow::Result<Self> {
        if !crate::domain::text::is_email(&sender.address) {
            anyhow::bail!("--mail-from '{}' is not an email address", sender.address);
        }
        let transport = match smtp_url {
            Some(url) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| anyhow::anyhow!("--smtp-url is not usable: {e}"))?
                    .build(),
            ),
            None => {
                std::fs::create_dir_all(&outbox)?;
                Transport::Outbox(AsyncFileTransport::new(&outbox), outbox)
            }
        };
        Ok(Self { transport: std::sync::Arc::new(transport), sender: std::sync::Arc::new(sender) })
    }

    pub fn sender(&self) -> &Sender {
        &self.sender
    }

    pub fn describe(&self) -> String {
        match &*self.transport {
            Transport::Smtp(_) => "SMTP".to_owned(),
            Transport::Outbox(_, dir) => format!("no SMTP server: emails are written to {}", dir.display()),
        }
    }

    /// Checks and builds the message; nothing goes out yet.
    pub fn prepare(&self, mail: &Outgoing) -> Result<Letter, MailError> {
        mail.check()?;
        self.build(mail).map(Letter)
    }

    /// Sends (or files) a prepared message.
    pub async fn deliver(&self, letter: Letter) -> Result<Delivery, MailError> {
        let Letter(message) = letter;
        let outcome = match &*self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await.map(|_| Delivery::Sent).map_err(|e| MailError::Failed(e.to_string()))
            }
            Transport::Outbox(files, dir) => files
                .send(message)
                .await
                .map(|id| Delivery::Outbox(dir.join(format!("{id}.eml"))))
                .map_err(|e| MailError::Failed(e.to_string())),
        };
        if let Ok(Delivery::Outbox(path)) = &outcome {
            tracing::info!(file = %path.display(), "email written to the outbox (no SMTP server configured)");
        }
        outcome
    }

    fn build(&self, mail: &Outgoing) -> Result<Message, MailError> {
        let from = mailbox(
            &Recipient { name: Some(mail.from_name.clone()), email: self.sender.address.clone() },
            "the sender",
        )?;
        // lettre adds the Date header itself; a Message-ID only when asked,
        // and then on the machine's host name, which receivers cannot check.
        let mut builder = Message::builder()
            .from(from)
            .to(mailbox(&mail.to, "the recipient")?)
            .message_id(Some(self.sender.message_id()));
        builder = match super::subject::encoded_subject(&mail.subject) {
            Some(encoded) => builder.raw_header(encoded),
            None => builder.subject(mail.subject.clone()),
        };
        if let Some(reply_to) = &mail.reply_to {
            builder = builder.reply_to(mailbox(reply_to, "the reply-to address")?);
        }
        let text = SinglePart::builder().header(ContentType::TEXT_PLAIN).body(mail.text.clone());
        let built = match &mail.html {
            Some(html) => builder.multipart(
                MultiPart::alternative()
                    .singlepart(text)
                    .singlepart(SinglePart::builder().header(ContentType::TEXT_HTML).body(html.clone())),
            ),
            None => builder.singlepart(text),
        };
        built.map_err(|e| MailError::Failed(e.to_string()))
    }
}

fn mailbox(recipient: &Recipient, what: &'static str) -> Result<Mailbox, MailError> {
    recipient.check(what)?;
    let address = recipient.email.parse().map_err(|_| MailError::InvalidHeader(what))?;
    Ok(Mailbox::new(recipient.name.clone().filter(|n| !n.is_empty()), address))
}
