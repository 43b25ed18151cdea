//! The layer map, held against the code: every module of `src` imports only
//! from the rows below its own. The map is the block that README.md shows
//! under "How it is built"; `src/lib.rs` repeats it, and every module of the
//! crate has its row.
//!
//! Two proofs of access are also claimed only where the map's notes say:
//! the console's admin capability by the CLI and the control socket, the
//! job worker's view by the jobs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const README: &str = include_str!("../README.md");
const LIB: &str = include_str!("../src/lib.rs");

/// Who may write each of these, besides the module that defines it (its
/// own tests).
const CLAIMS: &[(&str, &str, &[&str])] =
    &[("Admin::at_the_console()", "store", &["cli", "control"]), (".as_worker()", "store", &["jobs"])];

/// The rows of the map, top first, from the first ```text block after the
/// line that names this test.
fn map_in(text: &str, strip: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_start().trim_start_matches(strip).trim()).collect();
    let named = lines.iter().position(|l| l.contains("tests/layers.rs")).expect("the map names tests/layers.rs");
    let start = named + lines[named..].iter().position(|l| *l == "```text").expect("a ```text block follows") + 1;
    let end = start + lines[start..].iter().position(|l| *l == "```").expect("the block ends");
    lines[start..end].iter().map(|row| row.split_whitespace().map(str::to_owned).collect()).collect()
}

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The module path of a file under `src`: `http/admin/users.rs` is
/// `http::admin::users`, `http/mod.rs` is `http`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let file = parts.pop().unwrap();
    if file != "mod.rs" {
        parts.push(file.trim_end_matches(".rs").to_owned());
    }
    parts
}

/// The code without its comments (doc links name modules without importing them).
fn code_of(text: &str) -> String {
    text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// Top-level modules a file's paths reach: `crate::x`, or `super::` enough
/// times to leave its own module. An inline `mod name {` (a file's tests)
/// is taken to last to the end of the file, as such modules do here.
fn reached(code: &str, module: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = code.as_bytes();
    let inline: Vec<usize> = code
        .match_indices("mod ")
        .filter(|(at, _)| code[at + 4..].split('\n').next().is_some_and(|rest| rest.trim_end().ends_with('{')))
        .map(|(at, _)| at)
        .collect();
    for (at, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
            continue;
        }
        let mut path = code[at..].split("::").map(|s| s.split(|c: char| !c.is_alphanumeric() && c != '_').next());
        let mut depth = module.len() + inline.iter().filter(|&&m| m < at).count();
        let target = loop {
            match path.next().flatten() {
                Some("crate") => depth = 0,
                Some("super") => match depth.checked_sub(1) {
                    Some(up) => depth = up,
                    None => break None,
                },
                Some(name) if depth == 0 && !name.is_empty() => break Some(name.to_owned()),
                _ => break None,
            }
        };
        found.extend(target.filter(|t| Some(t) != module.first()));
    }
    found
}

#[test]
fn every_module_imports_only_from_the_rows_below_its_own() {
    let rows = map_in(README, "");
    assert_eq!(map_in(LIB, "//!"), rows, "src/lib.rs shows the same map as README.md");
    let row_of: BTreeMap<&str, usize> =
        rows.iter().enumerate().flat_map(|(i, row)| row.iter().map(move |m| (m.as_str(), i))).collect();

    let declared: BTreeSet<&str> = LIB
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let mapped: BTreeSet<&str> = row_of.keys().copied().collect();
    assert_eq!(mapped, declared, "the map has a row for every module of the crate, and no other");

    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = module_path(relative);
        let Some(&own) = module.first().and_then(|m| row_of.get(m.as_str())) else { continue };
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for target in reached(&code, &module) {
            if row_of.get(target.as_str()).is_none_or(|&row| row <= own) {
                wrong.push(format!("{} imports {target}", relative.display()));
            }
        }
        for (claim, home, allowed) in CLAIMS {
            let top = module[0].as_str();
            if code.contains(claim) && top != *home && !allowed.contains(&top) {
                wrong.push(format!("{} claims {claim}, which only {allowed:?} may", relative.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layer map:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_imports_by_crate_and_by_super() {
    let module = |p: &str| module_path(Path::new(p));
    assert_eq!(module("http/admin/users.rs"), ["http", "admin", "users"]);
    assert_eq!(module("store/mod.rs"), ["store"]);
    let code = "use crate::store::Store;\nuse super::super::ops;\nuse super::error::AppError;\nfn f() { crate::clock::now_ms(); }";
    let found = reached(&code_of(code), &module("http/admin/users.rs"));
    assert_eq!(found, BTreeSet::from(["clock".to_owned(), "store".to_owned()]), "super::super stays in http");
    assert_eq!(reached("use super::super::ops;", &module("http/clients.rs")), BTreeSet::from(["ops".to_owned()]));
    assert!(reached(&code_of("/// See [`crate::store`]."), &module("http/mod.rs")).is_empty());
    let tests = "mod tests {\n    use super::super::Scratch;\n    use super::super::super::clock;\n}";
    assert_eq!(
        reached(tests, &module("store/users.rs")),
        BTreeSet::from(["clock".to_owned()]),
        "tests nest one deeper"
    );
}
