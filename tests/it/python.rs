//! Runs a Python snippet of the test tools (`DEBRIEF_TEST_PYTHON`, which
//! `scripts/test` installs with the parsers the tests read our files with)
//! on some text, and reads the JSON it prints.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `script` with `input` on stdin; panics, with the input, when the
/// script fails (a parser refused the file).
pub fn read_with(script: &str, input: &str) -> Value {
    let python = std::env::var("DEBRIEF_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let mut child = Command::new(&python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python} ({e}); scripts/test installs the test tools"));
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the parser could not read:\n{input}");
    serde_json::from_slice(&out.stdout).unwrap()
}
