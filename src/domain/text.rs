//! Rules about strings shared by several forms.

/// The longest address SMTP carries.
pub const EMAIL_MAX: usize = 254;

/// Lower-cased and trimmed, the form in which emails are stored and compared.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// A mailbox a mail server will accept: one `@`, a local part without
/// spaces, and a domain of letters, digits and hyphens with a top-level
/// part of at least two letters.
pub fn is_email(email: &str) -> bool {
    if email.len() > EMAIL_MAX || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else { return false };
    if local.is_empty() || local.len() > 64 || domain.contains('@') {
        return false;
    }
    if local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
        || local.contains(['<', '>', '(', ')', '[', ']', ',', ';', ':', '\\', '"'])
    {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let tld_ok = labels.last().is_some_and(|t| t.chars().count() >= 2 && t.chars().all(char::is_alphabetic));
    labels.len() >= 2 && labels.iter().all(label_ok) && tld_ok
}

/// An absolute web address: `http(s)://host[:port][/…]`, the host a name
/// with a dot, `localhost`, or an IP address.
pub fn is_web_url(url: &str) -> bool {
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let lower = url.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")) else { return false };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(bracketed) = host_port.strip_prefix('[') {
        // "[v6]" or "[v6]:port"
        let Some((host, after)) = bracketed.split_once(']') else { return false };
        if !after.is_empty() && !after.strip_prefix(':').is_some_and(is_port) {
            return false;
        }
        host
    } else {
        match host_port.rsplit_once(':') {
            Some((host, port)) if is_port(port) => host,
            Some(_) => return false,
            None => host_port,
        }
    };
    if host.parse::<std::net::IpAddr>().is_ok() || host == "localhost" {
        return true;
    }
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2 && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
}

fn is_port(port: &str) -> bool {
    !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
}

/// Text that ends up in a mail header or a single-line field must not carry
/// line breaks or other control characters.
pub fn has_control_chars(text: &str) -> bool {
    text.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_addresses_are_emails() {
        for ok in ["ana@example.com", "ana.lopez+work@mail.example.co.uk", "x@b.io", "élodie@exemple.fr"] {
            assert!(is_email(ok), "{ok}");
        }
    }

    #[test]
    fn malformed_addresses_are_not_emails() {
        for bad in [
            "",
            "ana",
            "ana@",
            "@example.com",
            "ana@example",
            "ana@@example.com",
            "ana @example.com",
            "ana@example.c",
            "ana@-x.com",
            "a..b@example.com",
            "ana@example.com\r\nBcc: x@y.z",
            "<a>@example.com",
        ] {
            assert!(!is_email(bad), "{bad:?}");
        }
    }

    #[test]
    fn web_urls_need_a_scheme_and_a_host() {
        for ok in [
            "https://www.linkedin.com/in/ana",
            "http://linkedin.com",
            "https://localhost:8443/x",
            "https://192.168.1.4",
            "https://[::1]",
            "https://[fd00::5]:8443/x",
        ] {
            assert!(is_web_url(ok), "{ok}");
        }
        for bad in [
            "linkedin.com/in/ana",
            "ftp://linkedin.com",
            "https://",
            "https://linkedin",
            "javascript:alert(1)",
            "https://link edin.com",
            "https://example.com:abc",
            "https://[::1",
            "https://[::1]x",
            "https://example.com:",
        ] {
            assert!(!is_web_url(bad), "{bad:?}");
        }
    }

    #[test]
    fn emails_are_compared_lower_cased_and_trimmed() {
        assert_eq!(normalise_email("  Ana@Example.COM "), "ana@example.com");
    }
}
