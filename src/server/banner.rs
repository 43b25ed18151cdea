//! What `debrief serve` prints once it listens: where to open it, a QR code
//! for phones, and a last line that scripts wait for.

use std::io::Write;

use crate::datadir::DataDir;
use crate::lan::{Urls, qr_for_terminal};
use crate::mail::Mailer;

/// `speech_fix`: the command that installs a speech model, when none is.
pub(super) fn print(
    urls: &Urls,
    tls: &str,
    mail: &Mailer,
    data_dir: &DataDir,
    has_admin: bool,
    speech_fix: Option<&str>,
) {
    let mut out = String::new();
    out.push_str(&format!("Debrief {} is serving\n", env!("CARGO_PKG_VERSION")));
    out.push_str(&format!("  on this machine:  {}\n", urls.local));
    for url in &urls.lan {
        out.push_str(&format!("  on the LAN:       {url}\n"));
    }
    out.push_str(&format!("  TLS:              {tls}\n"));
    out.push_str(&format!("  email:            {}, from {}\n", mail.describe(), mail.sender().address));
    if let Some(warning) = &mail.sender().warning {
        out.push_str(&format!("  warning:          {warning}\n"));
    }
    out.push_str(&format!("  data:             {}\n", data_dir.root().display()));
    if let Some(phone_url) = urls.for_phones() {
        if let Some(qr) = qr_for_terminal(phone_url) {
            out.push_str(&format!("Scan to open {phone_url} on a phone:\n{qr}\n"));
        }
        if tls.starts_with("local") {
            out.push_str(&format!(
                "Phones trust this server, and install the app, by the steps at {phone_url}/install (README, \"Phones on the LAN\")\n"
            ));
        }
    }
    if !has_admin {
        out.push_str(&format!(
            "No administrator yet: create one with `debrief admin create --username NAME --data-dir {}`\n",
            data_dir.root().display()
        ));
    }
    if let Some(command) = speech_fix {
        out.push_str(&format!(
            "No speech model yet: recordings wait until one is installed. Install what suits this machine with `{command}`\n"
        ));
    }
    out.push_str(&format!("ready: {}\n", urls.local));
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
}
