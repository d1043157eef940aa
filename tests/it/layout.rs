//! The layering ARCHITECTURE.md promises: no import cycles between the modules of any crate.
//!
//! A module's imports are read from its source as text (`crate::a::b` and `super::a` paths,
//! outside comments and its `#[cfg(test)] mod tests`), which is all the precision needed to
//! keep the layers a reader sees honest.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &[
    "src",
    "toolargs-core/src",
    "toolargs-derive/src",
    "toolargs-dynamic/src",
    "toolargs-semantic/src",
    "toolargs-agent/src",
    "toolargs-replay/src",
    "toolargs-gate/src",
    "toolargs-python/src",
    "toolargs-js/src",
    "toolargs-cli/src",
];

/// Module path (`coerce::integer`; `""` for the crate root) to its source text.
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut parts: Vec<String> = rel
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect();
                if matches!(
                    parts.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    parts.pop();
                }
                out.insert(parts.join("::"), fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The code of a module without comments and without its unit tests.
fn code(text: &str) -> String {
    let text = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Paths following `prefix::` in `text`: `crate::coerce::integer::f` gives `[coerce, integer, f]`.
fn paths_after<'t>(text: &'t str, prefix: &str) -> Vec<Vec<&'t str>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut path = Vec::new();
        let mut tail = rest;
        while let Some(next) = tail.strip_prefix("::") {
            let len = next
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(next.len());
            if len == 0 {
                break;
            }
            path.push(&next[..len]);
            tail = &next[len..];
        }
        out.push(path);
    }
    out
}

/// Edges from each module to the modules it imports, children-to-ancestor edges left out (a
/// module declared in a parent naturally uses what the parent holds).
fn edges(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let resolve = |target: &[&str]| -> Option<String> {
        (1..=target.len())
            .rev()
            .map(|n| target[..n].join("::"))
            .find(|m| mods.contains_key(m))
    };
    let mut out = BTreeMap::new();
    for (module, text) in mods {
        let text = code(text);
        let own: Vec<&str> = module.split("::").filter(|p| !p.is_empty()).collect();
        let mut targets = BTreeSet::new();
        for path in paths_after(&text, "crate") {
            targets.extend(resolve(&path));
        }
        for path in paths_after(&text, "super") {
            let mut target: Vec<&str> = own[..own.len().saturating_sub(1)].to_vec();
            target.extend(path);
            targets.extend(resolve(&target));
        }
        targets.retain(|t| !t.is_empty() && t != module && !module.starts_with(&format!("{t}::")));
        out.insert(module.clone(), targets);
    }
    out
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in &s.graph[v] {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[v].min(s.low[w.as_str()]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w.as_str()) {
                let low = s.low[v].min(s.index[w.as_str()]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let at = s.stack.iter().rposition(|m| *m == v).unwrap_or(0);
            let component: Vec<String> = s.stack.drain(at..).map(str::to_owned).collect();
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_crate_has_an_import_cycle() {
    for src in CRATES {
        let mods = modules(&root().join(src));
        assert!(
            mods.len() > 1 || *src == "toolargs-cli/src",
            "{src}: no modules read"
        );
        let found = cycles(&edges(&mods));
        assert!(found.is_empty(), "{src}: import cycles {found:?}");
    }
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let mods: BTreeMap<String, String> = [
        ("", "mod a; mod b; mod c;"),
        ("a", "use crate::b::f;"),
        ("b", "use super::c::g;"),
        (
            "c",
            "fn g() { crate::a::h() }\n// crate::b is only mentioned",
        ),
    ]
    .into_iter()
    .map(|(m, t)| (m.to_owned(), t.to_owned()))
    .collect();
    assert_eq!(cycles(&edges(&mods)), [vec!["a", "b", "c"]]);
    let mut acyclic = mods.clone();
    acyclic.insert("c".to_owned(), "fn g() {}".to_owned());
    assert!(cycles(&edges(&acyclic)).is_empty());
}

/// The crate each source folder of [`CRATES`] is, as ARCHITECTURE.md's table names it.
fn crate_name(src: &str) -> &str {
    match src {
        "src" => "toolargs",
        other => other.trim_end_matches("/src"),
    }
}

/// The row of ARCHITECTURE.md's "Who owns what" table for `krate`: its cells, joined.
fn owner_row<'a>(architecture: &'a str, krate: &str) -> Option<&'a str> {
    let cell = format!("| `{krate}` |");
    architecture.lines().find(|line| line.starts_with(&cell))
}

/// Every module of every crate, but the unit tests and the crate roots, by its path.
fn documented_modules(src: &str) -> Vec<String> {
    modules(&root().join(src))
        .into_keys()
        .filter(|module| {
            !module.is_empty()
                && !module
                    .split("::")
                    .any(|part| part == "tests" || part.ends_with("_tests"))
        })
        .collect()
}

#[test]
fn architecture_names_every_crate_and_every_module() {
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for src in CRATES {
        let krate = crate_name(src);
        let Some(row) = owner_row(&architecture, krate) else {
            missing.push(format!("{krate}: no row in \"Who owns what\""));
            continue;
        };
        for module in documented_modules(src) {
            // Named whole (`json::reader`), or by its last part within its parent's words
            // (`coerce` ... `integer`), each in backticks.
            let last = module.rsplit("::").next().unwrap_or(&module);
            let whole = format!("`{module}`");
            let part = format!("`{last}`");
            let nested = format!("::{last}`");
            if !(row.contains(&whole) || row.contains(&part) || row.contains(&nested)) {
                missing.push(format!("{krate}: module `{module}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn the_table_of_owners_names_only_crates_that_exist() {
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let known: BTreeSet<&str> = CRATES.iter().map(|src| crate_name(src)).collect();
    let table = architecture
        .split("## Who owns what")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap_or_default();
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let name = line[3..].split('`').next().unwrap_or_default();
        assert!(
            known.contains(name),
            "ARCHITECTURE.md has a row for `{name}`, which is not a crate of the layout test"
        );
    }
}
