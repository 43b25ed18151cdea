//! What the download holds, and that its binary runs on the Pi's processor.

use std::process::Command;

use crate::emulator::{archive, debrief_on, run, unpacked};
use crate::harness::text;

const VERSION: &str = env!("CARGO_PKG_VERSION");
/// ELF's number for 64-bit ARM.
const EM_AARCH64: u16 = 183;

#[test]
fn the_archive_holds_the_binary_readme_licence_and_service_unit_with_their_checksums() {
    let folder = unpacked();
    let name = format!("debrief-{VERSION}-aarch64-linux");
    assert_eq!(archive().file_name().unwrap().to_str().unwrap(), format!("{name}.tar.gz"));
    assert_eq!(folder.file_name().unwrap().to_str().unwrap(), name);

    let mut files: Vec<String> =
        std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["LICENSE", "README.md", "SHA256SUMS", "debrief", "debrief.service"]);
    let check = Command::new("sha256sum").args(["--check", "--strict", "SHA256SUMS"]).current_dir(folder).output();
    let check = check.expect("sha256sum runs");
    assert!(check.status.success(), "{}{}", text(&check.stdout), text(&check.stderr));
    assert_eq!(text(&check.stdout).lines().filter(|l| l.ends_with(": OK")).count(), 4, "{}", text(&check.stdout));

    let binary = std::fs::read(folder.join("debrief")).unwrap();
    assert_eq!(&binary[..5], b"\x7fELF\x02", "a 64-bit ELF program");
    assert_eq!(u16::from_le_bytes([binary[18], binary[19]]), EM_AARCH64);
    let sections = Command::new("readelf").args(["--section-headers", "--wide"]).arg(folder.join("debrief")).output();
    let sections = text(&sections.expect("readelf runs (binutils)").stdout);
    assert!(sections.contains(".text") && !sections.contains(".symtab"), "not stripped:\n{sections}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(folder.join("debrief")).unwrap().permissions().mode();
    assert_eq!(mode & 0o755, 0o755, "mode {mode:o}");
}

#[test]
fn the_archived_binary_tells_its_version_and_runs_doctor_under_emulation() {
    let version = run(&["--version"]);
    assert!(version.status.success(), "{}", text(&version.stderr));
    assert_eq!(text(&version.stdout).trim(), format!("debrief {VERSION}"));

    let empty = tempfile::tempdir().unwrap();
    let data = empty.path().join("data");
    let models = empty.path().join("models");
    let doctor = run(&["doctor", "--data-dir", data.to_str().unwrap(), "--models-dir", models.to_str().unwrap()]);
    let report = text(&doctor.stdout);
    assert!(doctor.status.success(), "{report}{}", text(&doctor.stderr));
    for line in ["libvosk    missing", "whisper    missing", "data dir   missing"] {
        assert!(report.contains(line), "no {line:?} in:\n{report}");
    }
    assert!(report.contains("debrief models install libvosk"), "{report}");
}

#[test]
fn a_pi_4_and_a_pi_5_each_decode_on_the_int8_kernel_their_processor_has_and_it_gives_the_portable_sums() {
    let empty = tempfile::tempdir().unwrap();
    let dirs = ["--data-dir", &empty.path().join("data").display().to_string()].map(str::to_owned);
    for (cpu, kernel) in [("cortex-a72", "neon"), ("cortex-a76", "neon-dotprod")] {
        let doctor = debrief_on(cpu).arg("doctor").args(&dirs).output().unwrap();
        let report = text(&doctor.stdout);
        assert!(doctor.status.success(), "{report}{}", text(&doctor.stderr));
        let line = format!("int8 decoder on {kernel} (checked), f32 products on neon");
        assert!(report.contains(&line), "{cpu}: no {line:?} in:\n{report}");
    }
}
