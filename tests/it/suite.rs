//! The official JSON Schema Test Suite (draft 2020-12, vendored in
//! `tests/data/json-schema-test-suite/`) through the dynamic spec. Each group's schema is loaded
//! as a spec's root; a schema that does not load is refused, which is allowed, and every test of
//! a loaded group must reach the suite's verdict:
//!
//! - a valid instance is accepted with no repair, or only with repairs in [`ALLOWED_RULES`];
//! - an invalid instance is rejected, or repaired into a value the schema accepts (checked by
//!   the `jsonschema` crate): a repair may change how a value is spelled, never let through what
//!   the schema forbids.
//!
//! Each test is also judged as replay judges it, without building the value
//! ([`Spec::check_with`]), which must give the same repairs or the same rejection.
//!
//! Every refused group and every group with a disagreement is listed in `suite/known.rs`, with
//! the floor of loaded groups. `suite_report` (ignored) prints that file from the current
//! engine; see its doc for how to regenerate it.

pub(crate) mod known;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use serde_json::Value;
use toolargs::dynamic::Spec;
use toolargs::ext::read_logged;

use crate::common::{instance, try_validator};
use known::{FORMAT_LOADED_FLOOR, KNOWN, LOADED_FLOOR};

/// Repairs that may turn up on a valid instance without counting as a disagreement. A rule
/// belongs here only if it never changes what the value means to JSON Schema:
/// `integral_float_to_int` writes `1.0` as `1`, one number to JSON Schema (`1.0` is an
/// integer to it too).
const ALLOWED_RULES: &[&str] = &["integral_float_to_int"];

/// When true, a `KNOWN` entry the engine no longer needs fails the test too; while false it is
/// only reported, so that an improvement does not break the build before the list is updated.
const KNOWN_IS_EXACT: bool = false;

/// Tests of the required part that must be judged from their text as logged inside a JSON
/// string too: 401 of them were when this floor was set.
const LOGGED_FLOOR: usize = 380;

const ROOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/json-schema-test-suite/draft2020-12"
);

/// Why a group is in `KNOWN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The schema does not load.
    Refused,
    /// The schema loads and at least one test disagrees with the suite.
    Disagrees,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// `tests/draft2020-12/*.json`: the required tests; `format` is an annotation.
    Required,
    /// `tests/draft2020-12/optional/format/*.json`: `format` asserted.
    Formats,
}

impl Part {
    fn dir(self) -> String {
        match self {
            Part::Required => ROOT.to_owned(),
            Part::Formats => format!("{ROOT}/format"),
        }
    }

    /// How a file is named in `KNOWN`.
    fn name(self, file: &str) -> String {
        match self {
            Part::Required => file.to_owned(),
            Part::Formats => format!("format/{file}"),
        }
    }
}

/// The outcome of one group.
struct Group {
    file: String,
    description: String,
    /// `Err(pointer: message)` when the schema does not load.
    loaded: Result<Tests, String>,
}

#[derive(Default)]
struct Tests {
    run: usize,
    agree: usize,
    /// Tests also judged from their text as logged inside a JSON string.
    logged: usize,
    /// Tests of a group whose root the plain reading reads (`Spec::is_plain`).
    plain: usize,
    /// Invalid instances repaired into valid ones, by rule.
    repaired: Vec<String>,
    disagreements: Vec<String>,
}

/// Everything a run found, besides the groups' verdicts: files that could not be read and
/// panics, which no list excuses.
#[derive(Default)]
struct Run {
    groups: Vec<Group>,
    broken: Vec<String>,
}

fn run(part: Part) -> Run {
    let mut out = Run::default();
    let dir = part.dir();
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".json"))
            .collect(),
        Err(e) => {
            out.broken.push(format!("{dir}: {e}"));
            return out;
        }
    };
    files.sort();
    for file in files {
        let text = match std::fs::read_to_string(format!("{dir}/{file}")) {
            Ok(text) => text,
            Err(e) => {
                out.broken.push(format!("{file}: {e}"));
                continue;
            }
        };
        let groups = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Array(groups)) => groups,
            Ok(_) => {
                out.broken.push(format!("{file}: not an array of groups"));
                continue;
            }
            Err(e) => {
                out.broken.push(format!("{file}: {e}"));
                continue;
            }
        };
        for group in &groups {
            run_group(part, &part.name(&file), group, &mut out);
        }
    }
    out
}

fn run_group(part: Part, file: &str, group: &Value, out: &mut Run) {
    let (Some(description), Some(schema), Some(tests)) = (
        group["description"].as_str(),
        group.get("schema"),
        group["tests"].as_array(),
    ) else {
        out.broken.push(format!(
            "{file}: a group without description, schema or tests"
        ));
        return;
    };
    run_tests(part, file, description, schema, tests, out);
    // A format schema has no `type`, which a tool's schema needs; its string tests are also
    // the tests of the same format on `type: string`, where format still decides.
    if part == Part::Formats && schema.get("type").is_none() {
        if let Value::Object(members) = schema {
            let mut typed = members.clone();
            typed.insert("type".to_owned(), Value::from("string"));
            let strings: Vec<Value> = tests
                .iter()
                .filter(|t| t["data"].is_string())
                .cloned()
                .collect();
            let description = format!("{description} {TYPED}");
            run_tests(
                part,
                file,
                &description,
                &Value::Object(typed),
                &strings,
                out,
            );
        }
    }
}

/// Marks the `type: string` variant of a format group.
const TYPED: &str = "[type: string, string tests]";

fn run_tests(
    part: Part,
    file: &str,
    description: &str,
    schema: &Value,
    tests: &[Value],
    out: &mut Run,
) {
    let spec = match catch_unwind(|| Spec::from_schema(schema)) {
        Ok(Ok(spec)) => spec,
        Ok(Err(e)) => {
            out.groups.push(Group {
                file: file.to_owned(),
                description: description.to_owned(),
                loaded: Err(format!("{}: {}", e.pointer, e.message)),
            });
            return;
        }
        Err(_) => {
            out.broken
                .push(format!("{file} / {description}: loading panicked"));
            return;
        }
    };
    let mut result = Tests::default();
    for test in tests {
        let (Some(name), Some(valid)) = (test["description"].as_str(), test["valid"].as_bool())
        else {
            out.broken.push(format!(
                "{file} / {description}: a test without description or valid"
            ));
            continue;
        };
        let data = &test["data"];
        let Ok(parsed) = catch_unwind(AssertUnwindSafe(|| spec.parse(instance(data)))) else {
            out.broken
                .push(format!("{file} / {description} / {name}: parsing panicked"));
            continue;
        };
        result.run += 1;
        // The plain reading builds the arguments the walk builds.
        if let Err(e) = crate::schema_gen::parses_as_walked(&spec, data) {
            out.broken.push(format!(
                "{file} / {description} / {name}: not parsed as walked: {e}"
            ));
        }
        result.plain += usize::from(spec.is_plain());
        // Replay judges without building the value; that must not change a verdict.
        let judged = spec.check_with(&instance(data), &toolargs::ParseOptions::DEFAULT);
        if judged
            != parsed
                .as_ref()
                .map(|p| p.repairs.clone())
                .map_err(Clone::clone)
        {
            out.broken.push(format!(
                "{file} / {description} / {name}: judging without building disagrees"
            ));
        }
        // Replay judges without writing messages; that must change nothing but the messages.
        let quiet = toolargs::ParseOptions::DEFAULT.with_omit_messages(true);
        if !same_but_messages(&spec.check_with(&instance(data), &quiet), &judged) {
            out.broken.push(format!(
                "{file} / {description} / {name}: judging without messages disagrees"
            ));
        }
        // Replay judges arguments logged inside a JSON string from that string's content; where
        // it can, that must not change a verdict either.
        let logged = as_logged(data);
        let read = logged
            .as_deref()
            .and_then(|text| read_logged(text, &toolargs::Limits::DEFAULT));
        if let Some((payload, _)) = read {
            let options = toolargs::ParseOptions::DEFAULT;
            if spec.check_logged(&payload, &options) == judged {
                result.logged += 1;
            } else {
                out.broken.push(format!(
                    "{file} / {description} / {name}: judging as logged in a string disagrees"
                ));
            }
        }
        let verdict = match (valid, parsed) {
            (true, Ok(p)) if p.repairs.is_empty() => Ok(()),
            (true, Ok(p)) => {
                let rules = rules_of(&p.repairs);
                if p.repairs
                    .iter()
                    .all(|r| ALLOWED_RULES.contains(&r.rule.as_str()))
                {
                    Ok(())
                } else {
                    Err(format!("valid, repaired by {rules}: {name}"))
                }
            }
            (true, Err(rejection)) => {
                let first = rejection
                    .errors()
                    .first()
                    .map_or(String::new(), |e| format!("{} at {}", e.code, e.path));
                Err(format!("valid, rejected ({first}): {name}"))
            }
            (false, Err(_)) => Ok(()),
            (false, Ok(p)) if p.repairs.is_empty() => Err(format!("invalid, accepted: {name}")),
            (false, Ok(p)) => {
                let rules = rules_of(&p.repairs);
                match try_validator(schema, part == Part::Formats) {
                    Ok(v) if v.is_valid(&p.args) => {
                        result.repaired.push(rules);
                        Ok(())
                    }
                    Ok(_) => Err(format!(
                        "invalid, repaired by {rules} into {} that the schema rejects: {name}",
                        p.args
                    )),
                    Err(e) => Err(format!(
                        "invalid, repaired by {rules}; jsonschema cannot judge it ({e}): {name}"
                    )),
                }
            }
        };
        match verdict {
            Ok(()) => result.agree += 1,
            Err(why) => result.disagreements.push(why),
        }
    }
    out.groups.push(Group {
        file: file.to_owned(),
        description: description.to_owned(),
        loaded: Ok(result),
    });
}

/// Whether a verdict judged without messages is `full` but for its messages, which are all
/// empty.
fn same_but_messages(
    quiet: &Result<Vec<toolargs::Repair>, toolargs::Rejection>,
    full: &Result<Vec<toolargs::Repair>, toolargs::Rejection>,
) -> bool {
    match (quiet, full) {
        (Ok(quiet), Ok(full)) => quiet == full,
        (Err(quiet), Err(full)) => {
            let (quiet, full) = (quiet.errors(), full.errors());
            quiet.len() == full.len()
                && quiet
                    .iter()
                    .zip(full)
                    .all(|(q, f)| q.message.is_empty() && q.path == f.path && q.code == f.code)
        }
        _ => false,
    }
}

fn rules_of(repairs: &[toolargs::Repair]) -> String {
    let rules: BTreeSet<&str> = repairs.iter().map(|r| r.rule.as_str()).collect();
    rules.into_iter().collect::<Vec<_>>().join("+")
}

impl Group {
    /// Whether and why the group belongs in `KNOWN`.
    fn known(&self) -> Option<(Kind, String)> {
        match &self.loaded {
            Err(why) => Some((Kind::Refused, why.clone())),
            Ok(t) if t.disagreements.is_empty() => None,
            Ok(t) => {
                let mut why = format!("{} of {} tests: ", t.disagreements.len(), t.run);
                why.push_str(&t.disagreements[..t.disagreements.len().min(2)].join("; "));
                if t.disagreements.len() > 2 {
                    why.push_str("; ...");
                }
                Some((Kind::Disagrees, why))
            }
        }
    }
}

/// The table on stderr: per file, then the totals. Returns how many tests were judged from
/// their text as logged inside a JSON string.
fn summary(title: &str, run: &Run) -> usize {
    #[derive(Default)]
    struct Row {
        groups: usize,
        loaded: usize,
        tests: usize,
        agree: usize,
        disagree: usize,
        repaired: usize,
        logged: usize,
        plain: usize,
    }
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    let mut rules: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &run.groups {
        let row = rows.entry(&g.file).or_default();
        row.groups += 1;
        if let Ok(t) = &g.loaded {
            row.loaded += 1;
            row.tests += t.run;
            row.agree += t.agree;
            row.disagree += t.disagreements.len();
            row.repaired += t.repaired.len();
            row.logged += t.logged;
            row.plain += t.plain;
            for r in &t.repaired {
                *rules.entry(r).or_default() += 1;
            }
        }
    }
    let mut text = format!(
        "{title}\n{:<32} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8}\n",
        "file", "groups", "loaded", "tests", "agree", "disagree", "repaired"
    );
    let mut total = Row::default();
    for (file, r) in &rows {
        let _ = writeln!(
            text,
            "{file:<32} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8}",
            r.groups, r.loaded, r.tests, r.agree, r.disagree, r.repaired
        );
        total.groups += r.groups;
        total.loaded += r.loaded;
        total.tests += r.tests;
        total.agree += r.agree;
        total.disagree += r.disagree;
        total.repaired += r.repaired;
        total.logged += r.logged;
        total.plain += r.plain;
    }
    let _ = writeln!(
        text,
        "{:<32} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8}",
        "total",
        total.groups,
        total.loaded,
        total.tests,
        total.agree,
        total.disagree,
        total.repaired
    );
    let _ = writeln!(
        text,
        "tests counts the tests of loaded groups; repaired (agreeing) by rule: {rules:?}"
    );
    let _ = writeln!(
        text,
        "judged again from their text as logged inside a JSON string: {} tests; under a plain \
         root, parsed through its properties: {} tests",
        total.logged, total.plain
    );
    eprintln!("{text}");
    total.logged
}

/// The instance as a log holds arguments in a JSON string, from after its opening quote,
/// when it is an object (the only payload read so).
fn as_logged(data: &Value) -> Option<String> {
    let text = serde_json::to_string(data.as_object()?).ok()?;
    let quoted = serde_json::to_string(&text).ok()?;
    Some(format!("{}, \"id\": 1}}", &quoted[1..]))
}

/// Checks a run against `KNOWN` and the floor; returns the failures.
fn check(part: Part, run: &Run, floor: usize) -> Vec<String> {
    let in_part = |file: &str| file.starts_with("format/") == (part == Part::Formats);
    let mut failures: Vec<String> = run.broken.iter().map(|b| format!("broken: {b}")).collect();
    let listed: BTreeMap<(&str, &str), Kind> = KNOWN
        .iter()
        .filter(|(file, ..)| in_part(file))
        .map(|&(file, group, kind, _)| ((file, group), kind))
        .collect();
    let mut found = BTreeSet::new();
    for g in &run.groups {
        let Some((kind, why)) = g.known() else {
            continue;
        };
        found.insert((g.file.as_str(), g.description.as_str()));
        match listed.get(&(g.file.as_str(), g.description.as_str())) {
            Some(&k) if k == kind => {}
            Some(k) => failures.push(format!(
                "{} / {}: listed as {k:?}, now {kind:?}: {why}",
                g.file, g.description
            )),
            None => failures.push(format!(
                "{} / {}: {kind:?}, not listed: {why}",
                g.file, g.description
            )),
        }
    }
    let stale: Vec<_> = listed.keys().filter(|k| !found.contains(*k)).collect();
    if !stale.is_empty() {
        eprintln!(
            "{} KNOWN entries no longer needed (run suite_report to update the list): {stale:?}",
            stale.len()
        );
        if KNOWN_IS_EXACT {
            failures.extend(
                stale
                    .iter()
                    .map(|(f, g)| format!("{f} / {g}: listed, but agrees")),
            );
        }
    }
    let loaded = run.groups.iter().filter(|g| g.loaded.is_ok()).count();
    if loaded < floor {
        failures.push(format!(
            "{loaded} groups loaded, fewer than the floor of {floor}"
        ));
    }
    failures
}

fn assert_part(part: Part, title: &str, floor: usize) {
    let start = Instant::now();
    let run = run(part);
    let logged = summary(title, &run);
    let mut failures = check(part, &run, floor);
    // Most instances are objects without escapes of their own: if few were judged from their
    // logged text, that reading has stopped reading what it should.
    if part == Part::Required && logged < LOGGED_FLOOR {
        failures.push(format!(
            "only {logged} tests judged from their text as logged in a string, fewer than {LOGGED_FLOOR}"
        ));
    }
    eprintln!("{title}: {:?}", start.elapsed());
    assert!(
        failures.is_empty(),
        "{} failures against the JSON Schema Test Suite (regenerate with suite_report only if \
         they are expected):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn draft2020_12_required() {
    assert_part(
        Part::Required,
        "draft 2020-12, required tests",
        LOADED_FLOOR,
    );
}

#[test]
fn draft2020_12_formats() {
    assert_part(
        Part::Formats,
        "draft 2020-12, asserted formats",
        FORMAT_LOADED_FLOOR,
    );
}

/// Prints `tests/it/suite/known.rs` as the current engine would have it: every refused or
/// disagreeing group, and the floors at the number of groups loaded today. To update it:
///
/// ```sh
/// TOOLARGS_SUITE_WRITE=1 cargo test --all-features --test it suite_report -- --ignored
/// ```
///
/// writes the file in place (without the variable it is printed, with `--nocapture`).
#[test]
#[ignore = "prints the KNOWN list; run on demand"]
fn suite_report() {
    let required = run(Part::Required);
    let formats = run(Part::Formats);
    summary("draft 2020-12, required tests", &required);
    summary("draft 2020-12, asserted formats", &formats);
    let loaded = |run: &Run| run.groups.iter().filter(|g| g.loaded.is_ok()).count();
    let mut text = String::from(
        "//! The groups of the JSON Schema Test Suite the dynamic spec refuses or disagrees with, and\n\
         //! the floors of loaded groups. Generated by `suite::suite_report`; edit by regenerating.\n\
         //! Some disagreements are the gate's policy rather than gaps: it asserts `format`, and\n\
         //! rejects keys a schema does not declare unless its unknown-key policy says otherwise.\n\n\
         #[allow(unused_imports)]\n\
         use super::Kind::{self, Disagrees, Refused};\n\n",
    );
    let _ = writeln!(
        text,
        "/// Groups of the required tests that must load.\npub const LOADED_FLOOR: usize = {};\n",
        loaded(&required)
    );
    let _ = writeln!(
        text,
        "/// Groups of the format tests that must load.\npub const FORMAT_LOADED_FLOOR: usize = {};\n",
        loaded(&formats)
    );
    text.push_str(
        "/// (file, group, kind, why): why is what the engine said when the list was made.\n\
         #[rustfmt::skip]\n\
         pub const KNOWN: &[(&str, &str, Kind, &str)] = &[\n",
    );
    for g in required.groups.iter().chain(&formats.groups) {
        if let Some((kind, why)) = g.known() {
            let _ = writeln!(
                text,
                "    ({:?}, {:?}, {kind:?}, {why:?}),",
                g.file, g.description
            );
        }
    }
    text.push_str("];\n");
    for b in required.broken.iter().chain(&formats.broken) {
        eprintln!("broken (not listable): {b}");
    }
    if std::env::var_os("TOOLARGS_SUITE_WRITE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/suite/known.rs");
        assert!(std::fs::write(path, &text).is_ok(), "cannot write {path}");
        eprintln!("wrote {path}");
    } else {
        println!("{text}");
    }
}
