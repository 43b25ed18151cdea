//! The Raspberry Pi build as its owner downloads it: the aarch64 release
//! archive, unpacked and run under qemu-user on this machine.
//!
//! It needs the archive `scripts/release` makes, so it is not part of
//! `cargo test`: `scripts/test-pi` cross-builds, packs and runs it (CI does
//! after `scripts/test`).

// Shared with tests/it; this suite uses a part of each.
#[allow(dead_code)]
#[path = "../it/browser.rs"]
mod browser;
#[allow(dead_code)]
#[path = "../it/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "../it/speech.rs"]
mod speech;

mod emulator;

mod archive;
mod serving;
mod transcribing;
