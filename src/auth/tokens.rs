use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::domain::ids::TokenHash;

/// A secret handed to a browser (session cookie) or mailed (reset link):
/// 256 random bits. Only its hash is ever stored.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// A token as the browser sent it back.
    pub fn from_client(text: &str) -> Option<Self> {
        let ok = text.len() == 43 && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        ok.then(|| Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn hash(&self) -> TokenHash {
        Sha256::digest(self.0.as_bytes()).into()
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_url_safe_and_read_back() {
        let a = Token::generate();
        let b = Token::generate();
        assert_ne!(a.as_str(), b.as_str());
        let back = Token::from_client(a.as_str()).expect("a generated token reads back");
        assert_eq!(back.hash(), a.hash());
    }

    #[test]
    fn anything_else_is_not_a_token() {
        for bad in ["", "abc", &"a".repeat(44), &format!("{}=", "a".repeat(42)), &"é".repeat(22)] {
            assert!(Token::from_client(bad).is_none(), "{bad}");
        }
    }
}
