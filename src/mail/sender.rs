//! Who outgoing mail is from, the domain its Message-IDs name, and whether
//! a receiving server can check that sender at all.
//!
//! Receivers decide on SPF and DMARC, which look up the sender's domain in
//! public DNS. A name that exists only on the LAN (`HOST.local`, the
//! default) has no such records, so mail from it is refused or filed as
//! spam wherever it goes; the admin is told so at start-up and by `doctor`.

use std::net::IpAddr;

use rand::RngExt;

/// The sender address and the domain of every Message-ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sender {
    pub address: String,
    pub id_domain: String,
    /// Why receivers cannot check this sender, with the fix; `None` when they can.
    pub warning: Option<String>,
}

/// Top-level names that public DNS never answers for (RFC 6761, 6762,
/// 8375 and the names home routers hand out).
const PRIVATE_SUFFIXES: &[&str] = &[
    "local",
    "localhost",
    "localdomain",
    "lan",
    "home",
    "internal",
    "intranet",
    "corp",
    "home.arpa",
    "test",
    "invalid",
];

const FIX: &str = "set --mail-from to an address of a domain you control whose SPF record allows the --smtp-url server";

impl Sender {
    /// From `--mail-from` when given, else `debrief@HOST.local`. Message-IDs
    /// name the sender's domain, or without `--mail-from` the host of
    /// `public_url` when that is a name (an address says nothing of who
    /// sent the mail), else `HOST.local`.
    pub fn new(mail_from: Option<&str>, public_url: Option<&str>) -> Self {
        let host = crate::lan::host_name();
        let fallback = format!("{host}.local");
        let Some(address) = mail_from else {
            let id_domain = public_url.and_then(url_host).filter(|h| is_dns_name(h)).unwrap_or(fallback.clone());
            return Self {
                address: format!("debrief@{fallback}"),
                id_domain,
                warning: Some(format!(
                    "no --mail-from: mail goes out from debrief@{fallback}, a name receivers cannot check (SPF, DMARC), so most refuse it or file it as spam; {FIX}"
                )),
            };
        };
        let domain = address.rsplit_once('@').map(|(_, d)| d.to_ascii_lowercase()).unwrap_or_default();
        let warning = is_private_name(&domain).then(|| {
            format!(
                "--mail-from {address}: {domain} is not a public domain, so receivers cannot check it (SPF, DMARC) and most refuse the mail or file it as spam; {FIX}"
            )
        });
        let id_domain = if is_dns_name(&domain) { domain } else { fallback };
        Self { address: address.to_owned(), id_domain, warning }
    }

    /// A new, unique Message-ID: the time and 64 random bits, at our domain.
    pub fn message_id(&self) -> String {
        let millis = crate::clock::now_ms();
        let random: u64 = rand::rng().random();
        format!("<{millis:x}.{random:016x}@{}>", self.id_domain)
    }
}

/// `example.com` of `https://example.com:8443/app`.
fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = if authority.starts_with('[') {
        authority.split(']').next()?.trim_start_matches('[')
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// A name that can stand in a Message-ID: ASCII, dotted, not an address.
fn is_dns_name(host: &str) -> bool {
    host.is_ascii() && host.contains('.') && host.parse::<IpAddr>().is_err()
}

/// A name only a LAN knows. (`--mail-from` is checked as an address first,
/// which refuses address literals, numeric top-level names and bare hosts.)
fn is_private_name(domain: &str) -> bool {
    PRIVATE_SUFFIXES.iter().any(|suffix| domain == *suffix || domain.ends_with(&format!(".{suffix}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_sender_domain_names_the_message_ids_and_raises_no_warning() {
        let sender = Sender::new(Some("Debrief@Mail.Example.com"), Some("http://192.168.1.20:8443"));
        assert_eq!(sender.address, "Debrief@Mail.Example.com");
        assert_eq!(sender.id_domain, "mail.example.com");
        assert_eq!(sender.warning, None);
    }

    #[test]
    fn lan_only_sender_domains_are_warned_about_with_the_fix() {
        for address in ["debrief@box.local", "a@nas.home.arpa", "a@printer.lan", "a@x.internal", "a@build.test"] {
            let warning = Sender::new(Some(address), None).warning.unwrap_or_default();
            assert!(
                warning.contains(address) && warning.contains("SPF") && warning.contains("set --mail-from"),
                "{warning}"
            );
        }
    }

    #[test]
    fn without_mail_from_the_default_sender_is_warned_about_and_ids_take_the_public_name() {
        let sender = Sender::new(None, Some("https://Debrief.Example.org:8443/app"));
        assert!(sender.address.starts_with("debrief@") && sender.address.ends_with(".local"), "{}", sender.address);
        assert_eq!(sender.id_domain, "debrief.example.org");
        let warning = sender.warning.unwrap_or_default();
        assert!(warning.starts_with("no --mail-from") && warning.contains("set --mail-from"), "{warning}");
    }

    #[test]
    fn a_public_url_on_an_address_never_names_a_message_id() {
        for url in ["https://192.168.1.20:8443", "https://[fd00::1]:8443", "http://localhost:8443"] {
            let sender = Sender::new(None, Some(url));
            assert!(sender.id_domain.ends_with(".local"), "{url}: {}", sender.id_domain);
        }
    }

    #[test]
    fn message_ids_are_unique_and_well_formed() {
        let sender = Sender::new(Some("debrief@example.com"), None);
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| sender.message_id()).collect();
        assert_eq!(ids.len(), 1000);
        for id in ids.iter().take(10) {
            let inner = id.strip_prefix('<').and_then(|s| s.strip_suffix('>')).unwrap();
            let (left, right) = inner.split_once('@').unwrap();
            assert_eq!(right, "example.com");
            assert!(left.chars().all(|c| c.is_ascii_hexdigit() || c == '.'), "{id}");
        }
    }
}
