//! The ids of records, one type each, so that an owner passed where a client
//! is expected, or a client where a stored file is, does not compile.
//!
//! ```compile_fail,E0308
//! use debrief::domain::ids::{ClientId, UserId};
//! fn owner_of(client: ClientId) -> UserId {
//!     client
//! }
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(u64);

        impl $name {
            /// The id of the record the store keeps under `key`.
            pub(crate) fn from_key(key: u64) -> Self {
                Self(key)
            }

            /// The number the store keys the record by.
            pub(crate) fn key(self) -> u64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

/// Shown to the people who use it (in URLs, on the command line), so read
/// back from text too.
macro_rules! public_id {
    ($(#[$doc:meta])* $name:ident) => {
        id!($(#[$doc])* $name);

        impl FromStr for $name {
            type Err = std::num::ParseIntError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                text.parse().map(Self)
            }
        }
    };
}

public_id!(
    /// An account.
    UserId
);

public_id!(
    /// A client of a user; the job of its recording has the same id.
    ClientId
);

public_id!(
    /// One next step of a client (an action item).
    ActionItemId
);

id!(
    /// A stored file (a photo, a picture, a recording). Only
    /// the store makes one and reads its number: elsewhere it is shown (in
    /// the URLs that name a version of a file) and compared, nothing else.
    BlobId
);

/// What the database keeps of a secret token (a session cookie, a reset
/// link), and keys its record by: the token's SHA-256.
pub type TokenHash = [u8; 32];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_written_and_read_as_plain_numbers() {
        let client = ClientId::from_key(42);
        assert_eq!(serde_json::to_string(&client).unwrap(), "42");
        assert_eq!(serde_json::from_str::<ClientId>("42").unwrap(), client);
        assert_eq!("42".parse::<UserId>().unwrap(), UserId::from_key(42));
        assert_eq!(BlobId::from_key(7).to_string(), "7");
        assert!("-1".parse::<ClientId>().is_err());
    }
}
