//! Bundles the browser app (frontend/) with esbuild so that rust-embed can
//! put it inside the binary. Runs only when a frontend input changes.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The inputs of the bundle; never node_modules or the output, or every
/// build would rerun this script.
const INPUTS: [&str; 6] = ["src", "build", "build.mjs", "package.json", "package-lock.json", "tsconfig.json"];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let frontend = root.join("frontend");
    for input in INPUTS {
        println!("cargo:rerun-if-changed=frontend/{input}");
    }
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("dist");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");

    if dependencies_stale(&frontend) {
        run(
            Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--prefer-offline"]).current_dir(&frontend),
            "installing the frontend's packages (npm ci); Node >= 20 with npm is required",
        );
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut bundle = Command::new("node");
    bundle.arg(frontend.join("build.mjs")).arg("--outdir").arg(&out_dir);
    if release {
        bundle.arg("--release");
    }
    run(&mut bundle, "bundling the frontend (node frontend/build.mjs)");
}

/// node_modules is missing or older than the lock file.
fn dependencies_stale(frontend: &Path) -> bool {
    let modified = |p: PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (modified(frontend.join("node_modules/.package-lock.json")), modified(frontend.join("package-lock.json"))) {
        (Some(installed), Some(locked)) => installed < locked,
        _ => true,
    }
}

fn run(command: &mut Command, what: &str) {
    match command.output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "{what} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => panic!("{what}: cannot start it: {e}"),
    }
}
