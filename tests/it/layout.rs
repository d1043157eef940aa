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
    "toolargs-bindings/src",
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

/// True for a byte of an identifier.
fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The length of the identifier `text` starts with.
fn ident_len(text: &str) -> usize {
    text.find(|c: char| !is_ident(c)).unwrap_or(text.len())
}

/// The paths of one path or `use` tree whose first segments are `path`, read from `rest` (the
/// text right after those segments): `::a::b` gives `path + [a, b]`, `::{a, b::{c, d}}` gives
/// one path per leaf. Returns what follows the tree.
fn tree<'t>(mut rest: &'t str, mut path: Vec<&'t str>, out: &mut Vec<Vec<&'t str>>) -> &'t str {
    while let Some(next) = rest.strip_prefix("::") {
        let next = next.trim_start();
        if let Some(group) = next.strip_prefix('{') {
            rest = group;
            loop {
                rest = rest.trim_start();
                if let Some(after) = rest.strip_prefix('}') {
                    return after;
                }
                let Some(first) = rest.chars().next() else {
                    return rest;
                };
                let len = ident_len(rest);
                if len == 0 {
                    // `*` (the whole module) or a separator.
                    if first == '*' {
                        out.push(path.clone());
                    }
                    rest = &rest[first.len_utf8()..];
                    continue;
                }
                let mut branch = path.clone();
                branch.push(&rest[..len]);
                rest = tree(&rest[len..], branch, out).trim_start();
                if let Some(alias) = rest.strip_prefix("as ") {
                    let alias = alias.trim_start();
                    rest = &alias[ident_len(alias)..];
                }
            }
        }
        let len = ident_len(next);
        if len == 0 {
            break;
        }
        path.push(&next[..len]);
        rest = &next[len..];
    }
    out.push(path);
    rest
}

/// Paths following `prefix::` in `text`, `use` trees spelt out: `crate::coerce::integer::f`
/// gives `[coerce, integer, f]`, `crate::a::{b, c::d}` gives `[a, b]` and `[a, c, d]`. A
/// prefix inside a longer path (`x::crate`) or a word (`supercrate`) is not one.
fn paths_after<'t>(text: &'t str, prefix: &str) -> Vec<Vec<&'t str>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        let inside = before.is_some_and(|c| is_ident(c) || c == ':');
        if inside || rest.starts_with(is_ident) || !rest.starts_with("::") {
            continue;
        }
        rest = tree(rest, Vec::new(), &mut out);
    }
    out
}

/// The modules `text` declares as its children (`mod a;`, `pub(crate) mod b;`), not the
/// inline ones.
fn children(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("mod ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(is_ident) {
            continue;
        }
        let name = rest.trim_start();
        let len = ident_len(name);
        if len > 0 && name[len..].trim_start().starts_with(';') {
            out.push(&name[..len]);
        }
    }
    out
}

/// Edges from each module to the modules it imports, children-to-ancestor edges left out (a
/// module declared in a parent naturally uses what the parent holds). Read are `crate::`,
/// `super::` (and `super::super::`) and `self::` paths, and the paths that start with a child
/// the module declares (`mod x; use x::Y;`, `x::f()`), `use` trees spelt out.
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
            let mut up = 1;
            let mut rest = path.as_slice();
            while let ["super", tail @ ..] = rest {
                up += 1;
                rest = tail;
            }
            let mut target: Vec<&str> = own[..own.len().saturating_sub(up)].to_vec();
            target.extend(rest);
            targets.extend(resolve(&target));
        }
        let mut local = paths_after(&text, "self");
        for child in children(&text) {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(child) {
                let before = rest[..at].chars().last();
                rest = &rest[at + child.len()..];
                let inside = before.is_some_and(|c| is_ident(c) || c == ':');
                if inside || rest.starts_with(is_ident) || !rest.starts_with("::") {
                    continue;
                }
                rest = tree(rest, vec![child], &mut local);
            }
        }
        for path in local {
            let mut target = own.clone();
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

/// The two cycles the core once had, in miniature: a parent that re-exports its child
/// (`mod x; pub use x::Y`), a `use` tree in braces, and a child reached through its parent.
#[test]
fn a_cycle_through_a_re_export_or_a_use_tree_is_found() {
    let graph = |modules: &[(&str, &str)]| {
        let mods: BTreeMap<String, String> = modules
            .iter()
            .map(|(m, t)| ((*m).to_owned(), (*t).to_owned()))
            .collect();
        cycles(&edges(&mods))
    };
    // `dialect` uses `provider`, whose child `gemini` (re-exported) uses `dialect`.
    let re_export = [
        ("", "mod dialect; mod provider;"),
        ("dialect", "use crate::provider::{openai, Gemini};"),
        ("provider", "mod gemini;\npub(crate) use gemini::Gemini;"),
        (
            "provider::gemini",
            "use crate::dialect::{has_open_parts, Change};",
        ),
    ];
    assert_eq!(
        graph(&re_export),
        [vec!["dialect", "provider", "provider::gemini"]]
    );
    // `stream::provider` uses a child of `provider` through a nested tree, which uses it back.
    let nested = [
        ("", "mod provider; mod stream;"),
        ("provider", "pub(crate) mod anthropic;"),
        (
            "provider::anthropic",
            "use crate::stream::provider::{Key, Update};",
        ),
        ("stream", "pub mod provider;"),
        (
            "stream::provider",
            "use crate::{json::skim, provider::{anthropic::Anthropic, Other}};",
        ),
    ];
    assert_eq!(
        graph(&nested),
        [vec!["provider::anthropic", "stream::provider"]]
    );
    // A child named by its path alone (`lower::Lowerer`), and `super::super`.
    let by_path = [
        ("", "mod a; mod b;"),
        ("a", "mod lower;\nfn f() { lower::Lowerer::new() }"),
        ("a::lower", "fn g() { super::super::b::h() }"),
        ("b", "fn h() { crate::a::f() }"),
    ];
    assert_eq!(graph(&by_path), [vec!["a", "a::lower", "b"]]);
    // What only looks like a path is none: a word that ends in a child's name, a path inside
    // another, `self` as a receiver.
    let lookalikes = [
        ("", "mod a; mod b;"),
        (
            "a",
            "mod lower;\nfn f(&self) { follower::x(); other::lower::y(); self.lower() }",
        ),
        ("a::lower", "use crate::b::h;"),
        ("b", "use crate::a::f;"),
    ];
    assert!(graph(&lookalikes).is_empty());
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
