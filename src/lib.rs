//! Debrief: record client meetings, transcribe and summarise them on the box,
//! and email the client a follow-up.
//!
//! Layers point down: `cli` → `server` → `http` → `store` / `control` / `tls`.

pub mod cli;
pub mod control;
pub mod datadir;
pub mod http;
pub mod lan;
pub mod server;
pub mod store;
pub mod tls;
