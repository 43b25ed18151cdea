//! Types and rules of the product, free of HTTP and of the database.
//!
//! Input is parsed here, once, into values that are known to be valid; the
//! messages are the product's, word for word, and the browser mirrors them
//! (both sides run `tests/vectors/validation.json`).

pub mod action_item;
pub mod action_item_record;
pub mod calendar;
pub mod client;
pub mod fields;
pub mod ids;
pub mod image;
pub mod insights;
pub mod job;
pub mod recording;
pub mod retention;
pub mod signup;
pub mod template;
pub mod text;
pub mod transcript;
pub mod user;
pub mod wav;

#[cfg(test)]
mod vectors;

pub use fields::{FieldError, FieldErrors};
