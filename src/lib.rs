//! Debrief: record client meetings, transcribe and summarise them on the box,
//! and email the client a follow-up.
//!
//! Layers point down: `cli` → `server` → `http` → `domain` / `auth` / `store` /
//! `mail` / `control` / `tls`; the jobs
//! worker → `asr` / `summarise` → `models`.

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
