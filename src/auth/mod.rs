//! Passwords, tokens and login throttling: the parts of signing in that are
//! neither HTTP nor storage.

mod passwords;
mod throttle;
mod tokens;

pub use passwords::{Passwords, hash_blocking};
pub use throttle::{Throttle, address_key};
pub use tokens::Token;
