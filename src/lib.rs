//! Debrief: record client meetings, transcribe and summarise them on the box,
//! and email the client a follow-up.
//!
//! A module imports only from the rows below its own, as README.md's "How it
//! is built" explains (`tests/layers.rs` checks the code, and that this map
//! is README's):
//!
//! ```text
//! cli
//! server
//! http control
//! ops jobs upkeep
//! mail ocr settings tls
//! asr summarise
//! models store auth
//! ct2
//! domain datadir lan progress engine clock threads weights
//! ```

pub mod asr;
pub mod auth;
pub mod cli;
pub mod clock;
pub mod control;
pub mod ct2;
pub mod datadir;
pub mod domain;
pub mod engine;
pub mod http;
pub mod jobs;
pub mod lan;
pub mod mail;
pub mod models;
pub mod ocr;
pub mod ops;
pub mod progress;
pub mod server;
pub mod settings;
pub mod store;
pub mod summarise;
pub mod threads;
pub mod tls;
pub mod upkeep;
pub mod weights;
