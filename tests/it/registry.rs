//! The lists of provider names written by hand outside Rust follow the core's registry of
//! providers: the dialects of the npm package's TypeScript (its declarations, `js/*.d.ts`, or
//! its sources, `ts/*.ts`, wherever `export type Dialect` is) and of the Python package's stubs
//! are `Dialect::ALL`'s names, in its order. (The `toolargs` CLI's lists come from the registry
//! at run time, and `toolargs-cli/tests/help.rs` holds its guides to them.)

use std::fs;
use std::path::{Path, PathBuf};

use toolargs::Dialect;

fn read(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The string literals between `start` and the first `end` after it.
fn literals<'t>(text: &'t str, start: &str, end: &str) -> Vec<&'t str> {
    let Some(at) = text.find(start) else {
        return Vec::new();
    };
    let rest = &text[at + start.len()..];
    let list = &rest[..rest.find(end).unwrap_or(rest.len())];
    list.split('"').skip(1).step_by(2).collect()
}

fn dialects() -> Vec<&'static str> {
    Dialect::ALL.iter().map(|d| d.name()).collect()
}

/// The TypeScript files of the npm package that declare `Dialect`, with their text.
fn typescript_dialects() -> Vec<(PathBuf, String)> {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("toolargs-js");
    let mut found = Vec::new();
    for (folder, ending) in [("js", ".d.ts"), ("ts", ".ts")] {
        let Ok(entries) = fs::read_dir(package.join(folder)) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
            let named = path.to_str().is_some_and(|p| p.ends_with(ending));
            let text = fs::read_to_string(&path).unwrap_or_default();
            if named && text.contains("export type Dialect =") {
                found.push((path, text));
            }
        }
    }
    found
}

#[test]
fn the_typescript_of_the_npm_package_names_every_dialect() {
    let found = typescript_dialects();
    assert!(!found.is_empty(), "toolargs-js: no `export type Dialect`");
    for (path, text) in found {
        let names = literals(&text, "export type Dialect =", ";");
        assert_eq!(names, dialects(), "{}: `Dialect`", path.display());
    }
}

#[test]
fn the_python_stubs_name_every_dialect() {
    let stubs = read("toolargs-python/python/toolargs/_toolargs.pyi");
    let names = literals(&stubs, "Dialect = Literal[", "]");
    assert_eq!(names, dialects(), "_toolargs.pyi: `Dialect`");
}

#[test]
fn a_list_that_falls_behind_is_told_apart() {
    let stale = "export type Dialect =\n  | \"json_schema\"\n  | \"mcp\";\nexport type X = \"y\";";
    assert_eq!(
        literals(stale, "export type Dialect =", ";"),
        ["json_schema", "mcp"]
    );
    assert_ne!(literals(stale, "export type Dialect =", ";"), dialects());
    assert!(literals("nothing", "Dialect = Literal[", "]").is_empty());
}
