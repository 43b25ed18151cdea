//! The aarch64 archive, unpacked once per run, and its binary run by
//! qemu-user as a Raspberry Pi 4 would run it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Debian's aarch64 libraries (the C and C++ runtimes libvosk needs), where
/// the emulator finds what the program loads.
const SYSROOT: &str = "/usr/aarch64-linux-gnu";
/// The Raspberry Pi 4's processor, so that an instruction it lacks stops
/// the program here rather than on a Pi.
const CPU: &str = "cortex-a72";

/// `debrief-VERSION-aarch64-linux.tar.gz`, as `scripts/release` made it.
pub fn archive() -> PathBuf {
    std::env::var_os("DEBRIEF_PI_ARCHIVE")
        .map(PathBuf::from)
        .expect("DEBRIEF_PI_ARCHIVE names the aarch64 release archive (scripts/test-pi sets it)")
}

/// The one folder the archive holds, unpacked with `tar` as a Pi owner would.
pub fn unpacked() -> &'static Path {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let into = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pi-archive");
        let _ = std::fs::remove_dir_all(&into);
        std::fs::create_dir_all(&into).unwrap();
        let status = Command::new("tar").arg("-xzf").arg(archive()).arg("-C").arg(&into).status().unwrap();
        assert!(status.success(), "tar cannot unpack {}", archive().display());
        let mut top: Vec<PathBuf> = std::fs::read_dir(&into).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(top.len(), 1, "the archive holds one folder: {top:?}");
        top.pop().unwrap()
    })
}

/// The archive's `debrief` under the emulator.
pub fn debrief() -> Command {
    debrief_on(CPU)
}

/// The same on another processor: `cortex-a76` is a Raspberry Pi 5's.
pub fn debrief_on(cpu: &str) -> Command {
    let mut command = Command::new("qemu-aarch64");
    command.args(["-L", SYSROOT, "-cpu", cpu]).arg(unpacked().join("debrief"));
    command
}

/// Runs the archive's `debrief ARGS` to completion.
pub fn run(args: &[&str]) -> std::process::Output {
    debrief().args(args).output().expect("qemu-aarch64 runs (Debian: qemu-user)")
}
