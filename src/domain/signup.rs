//! Who may create an account: the admin's sign-up policy, and the
//! invitations it hands out.

use serde::{Deserialize, Serialize};

/// How new accounts come about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SignupMode {
    /// Anyone who can reach the server signs up (the spec's behaviour).
    #[default]
    Open,
    /// Only with an invitation link an admin made.
    Invitation,
    /// Nobody signs up.
    Closed,
}

impl std::str::FromStr for SignupMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "open" => Ok(Self::Open),
            "invitation" | "invite" | "invitations" => Ok(Self::Invitation),
            "closed" => Ok(Self::Closed),
            other => Err(format!("unknown sign-up mode '{other}'; use open, invitation or closed")),
        }
    }
}

/// The admin's sign-up policy. Its fields are private: a policy comes from
/// [`SignupPolicy::parse`] (or the store, which only holds parsed ones), so
/// its domains are always lower-case names without the `@`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SignupPolicy {
    mode: SignupMode,
    /// When not empty, open sign-up takes addresses at these domains only.
    domains: Vec<String>,
}

/// Why a sign-up is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignupRefusal {
    Closed,
    InvitationNeeded,
    /// The address is not at one of the allowed domains (listed).
    Domain(String),
}

impl SignupRefusal {
    pub fn message(&self) -> String {
        match self {
            Self::Closed => "Sign-up is closed on this server. Ask your administrator for an account.".into(),
            Self::InvitationNeeded => {
                "Sign-up on this server is by invitation. Ask your administrator for an invitation link.".into()
            }
            Self::Domain(domains) => format!("Sign-up is limited to addresses at {domains}"),
        }
    }
}

impl SignupPolicy {
    /// A policy from the admin's words: `domains` may be written `@firm.example`
    /// or `firm.example`, separated by commas or spaces.
    pub fn parse(mode: SignupMode, domains: &[String]) -> Result<Self, String> {
        let mut parsed: Vec<String> = Vec::new();
        for domain in domains.iter().flat_map(|d| d.split([',', ' '])) {
            let domain = domain.trim().trim_start_matches('@').to_ascii_lowercase();
            if domain.is_empty() {
                continue;
            }
            let valid = domain.len() <= 253
                && domain.contains('.')
                && domain.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && !label.starts_with('-')
                        && !label.ends_with('-')
                        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                });
            if !valid {
                return Err(format!("'{domain}' is not a domain name (write it as firm.example)"));
            }
            if !parsed.contains(&domain) {
                parsed.push(domain);
            }
        }
        Ok(Self { mode, domains: parsed })
    }

    pub fn mode(&self) -> SignupMode {
        self.mode
    }

    pub fn domains(&self) -> &[String] {
        &self.domains
    }

    /// Whether `email` (normalised) may sign up, with or without an
    /// invitation. An invitation is the admin's own choice of person, so the
    /// domain list does not apply to it; it is refused only when sign-up is
    /// closed altogether.
    pub fn admits(&self, email: &str, invited: bool) -> Result<(), SignupRefusal> {
        match self.mode {
            SignupMode::Closed => Err(SignupRefusal::Closed),
            SignupMode::Invitation if !invited => Err(SignupRefusal::InvitationNeeded),
            _ if invited => Ok(()),
            _ => self.admits_address(email),
        }
    }

    /// Whether an account may take `email` as its address: one of the
    /// named domains when there are any. Checked at sign-up and again when
    /// a user changes their address, so the domain cannot be left after.
    pub fn admits_address(&self, email: &str) -> Result<(), SignupRefusal> {
        let domain = email.rsplit_once('@').map_or("", |(_, d)| d);
        if self.domains.is_empty() || self.domains.iter().any(|d| d == domain) {
            Ok(())
        } else {
            Err(SignupRefusal::Domain(self.domains.join(" or ")))
        }
    }
}

/// A pending invitation: for one address or for whoever holds the link.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InvitationRecord {
    /// Normalised; `None` lets the holder sign up with any address.
    pub email: Option<String>,
    pub expire: i64,
    pub created_at: i64,
}

impl InvitationRecord {
    /// Whether the sign-up of `email` at `now` may use this invitation.
    pub fn admits(&self, email: &str, now: i64) -> bool {
        self.expire > now && self.email.as_deref().is_none_or(|invited| invited == email)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(mode: SignupMode, domains: &[&str]) -> SignupPolicy {
        SignupPolicy::parse(mode, &domains.iter().map(|d| (*d).to_owned()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn domains_are_read_with_or_without_the_at_sign_and_in_any_case() {
        let p = policy(SignupMode::Open, &["@Firm.Example, partner.example", "firm.example"]);
        assert_eq!(p.domains(), ["firm.example", "partner.example"]);
        assert!(SignupPolicy::parse(SignupMode::Open, &["not a domain!".into()]).is_err());
        assert!(SignupPolicy::parse(SignupMode::Open, &["localhost".into()]).is_err());
    }

    #[test]
    fn an_address_outside_the_named_domains_is_refused_whatever_the_mode() {
        let limited = policy(SignupMode::Invitation, &["firm.example"]);
        assert_eq!(limited.admits_address("ceo@firm.example"), Ok(()));
        assert!(matches!(limited.admits_address("ceo@elsewhere.example"), Err(SignupRefusal::Domain(_))));
        assert_eq!(policy(SignupMode::Open, &[]).admits_address("a@anywhere.example"), Ok(()));
    }

    #[test]
    fn each_mode_admits_whom_it_says() {
        let open = policy(SignupMode::Open, &[]);
        assert_eq!(open.admits("a@anywhere.example", false), Ok(()));
        let limited = policy(SignupMode::Open, &["firm.example"]);
        assert_eq!(limited.admits("a@firm.example", false), Ok(()));
        assert_eq!(limited.admits("a@evilfirm.example", false), Err(SignupRefusal::Domain("firm.example".into())));
        assert_eq!(limited.admits("a@sub.firm.example", false), Err(SignupRefusal::Domain("firm.example".into())));
        let invited = policy(SignupMode::Invitation, &["firm.example"]);
        assert_eq!(invited.admits("a@firm.example", false), Err(SignupRefusal::InvitationNeeded));
        assert_eq!(invited.admits("guest@elsewhere.example", true), Ok(()));
        let closed = policy(SignupMode::Closed, &[]);
        assert_eq!(closed.admits("a@firm.example", true), Err(SignupRefusal::Closed));
    }

    #[test]
    fn an_invitation_for_one_address_admits_only_that_address_and_only_until_it_expires() {
        let for_ana = InvitationRecord { email: Some("ana@firm.example".into()), expire: 100, created_at: 0 };
        assert!(for_ana.admits("ana@firm.example", 99));
        assert!(!for_ana.admits("eve@firm.example", 99));
        assert!(!for_ana.admits("ana@firm.example", 100));
        let anyone = InvitationRecord { email: None, expire: 100, created_at: 0 };
        assert!(anyone.admits("eve@firm.example", 99));
    }
}
