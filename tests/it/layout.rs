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
