//! The lists of provider names written by hand outside Rust follow the core's registry of
//! providers: the dialects of the npm package's TypeScript declarations and of the Python
//! package's stubs are `Dialect::ALL`'s names, in its order. (The `toolargs` CLI's lists come
//! from the registry at run time, and `toolargs-cli/tests/help.rs` holds its guides to them.)

use std::fs;
use std::path::PathBuf;

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

#[test]
fn the_typescript_declarations_name_every_dialect() {
    let declared = read("toolargs-js/js/index.d.ts");
    let names = literals(&declared, "export type Dialect =", ";");
    assert_eq!(names, dialects(), "toolargs-js/js/index.d.ts: `Dialect`");
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
