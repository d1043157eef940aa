//! Tool definitions as real MCP servers list them: the `tools/list` results kept in
//! `tests/data/mcp-tools` (written by `scripts/mcp_tools.py`). Every definition loads, except
//! the gaps `KNOWN_GAPS` names, and a minimal call built from each schema is accepted by the
//! gate and valid to `jsonschema`.
//!
//! `cargo test --all-features --test it mcp_tools -- --nocapture` prints the counts.

use std::collections::BTreeMap;
use std::fs;

use serde_json::{Map, Value};
use toolargs::dynamic::load_tool_list_lenient;
use toolargs::{LoadError, Spec};

use crate::common::{instance, strips_or_rejects, try_validator};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mcp-tools");

/// The definitions that do not load: (server, tool, part of the error, why that is right).
const KNOWN_GAPS: &[(&str, &str, &str, &str)] = &[];

/// (server, `tools/list` result as text), by server name.
fn fixtures() -> Vec<(String, String)> {
    let mut servers: Vec<(String, String)> = fs::read_dir(FIXTURES)
        .expect("tests/data/mcp-tools")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let server = path.file_stem().unwrap().to_string_lossy().into_owned();
            (server, fs::read_to_string(&path).unwrap())
        })
        .collect();
    servers.sort();
    assert!(servers.len() >= 20, "{} fixtures", servers.len());
    servers
}

/// Calls `visit` with every tool that loads: its server, name, `inputSchema` and spec.
pub(crate) fn each_tool(mut visit: impl FnMut(&str, &str, &Value, &Spec)) {
    for (server, text) in fixtures() {
        let definitions: Value = serde_json::from_str(&text).unwrap();
        let list = load_tool_list_lenient(&text).unwrap();
        for (index, spec) in list.indexed_specs() {
            let definition = &definitions["tools"][index];
            let name = definition["name"].as_str().unwrap_or("?");
            visit(&server, name, &definition["inputSchema"], spec);
        }
    }
}

/// What a load warning is about, without the place: `format date-time`, `unknown keyword
/// x`, `annotation readOnly`, `default`, `enum case`.
fn warning_kind(message: &str) -> String {
    let quoted = || message.split('`').nth(1).unwrap_or("?");
    if message.starts_with("format `") {
        format!("format {}", quoted())
    } else if message.starts_with("unknown keyword") {
        format!("unknown keyword {}", quoted())
    } else if message.contains("is an annotation") {
        format!("annotation {}", quoted())
    } else if message.starts_with("the default does not satisfy") {
        "default that fails its schema".to_owned()
    } else if message.contains("differ only in ASCII case") {
        "enum values equal but for case".to_owned()
    } else {
        message.to_owned()
    }
}

#[test]
fn every_definition_loads_except_the_known_gaps() {
    let (mut tools, mut loaded) = (0, 0);
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    let mut refused: Vec<(String, String, LoadError)> = Vec::new();
    let servers = fixtures();
    for (server, text) in &servers {
        let list = load_tool_list_lenient(text).unwrap_or_else(|e| panic!("{server}: {e}"));
        tools += list.len();
        loaded += list.specs.len();
        for spec in &list.specs {
            for warning in spec.warnings() {
                *warnings.entry(warning_kind(&warning.message)).or_default() += 1;
            }
        }
        for r in list.refused {
            refused.push((server.clone(), r.name.unwrap_or_default(), r.error));
        }
    }

    println!(
        "{} servers, {tools} tools, {loaded} loaded, {} refused",
        servers.len(),
        refused.len()
    );
    for (server, tool, error) in &refused {
        println!("  refused {server}/{tool}: {error}");
    }
    println!(
        "{} load warnings, by kind:",
        warnings.values().sum::<usize>()
    );
    let mut by_count: Vec<_> = warnings.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (kind, count) in by_count {
        println!("  {count:5}  {kind}");
    }

    let unexpected: Vec<String> = refused
        .iter()
        .filter(|(server, tool, error)| {
            !KNOWN_GAPS
                .iter()
                .any(|(s, t, part, _)| s == server && t == tool && error.to_string().contains(part))
        })
        .map(|(server, tool, error)| format!("{server}/{tool}: {error}"))
        .collect();
    assert!(
        unexpected.is_empty(),
        "refused, and not a known gap:\n{}",
        unexpected.join("\n")
    );
    let stale: Vec<_> = KNOWN_GAPS
        .iter()
        .filter(|(s, t, _, _)| {
            !refused
                .iter()
                .any(|(server, tool, _)| s == server && t == tool)
        })
        .collect();
    assert!(stale.is_empty(), "known gaps that load now: {stale:?}");
}

#[test]
fn a_minimal_call_of_every_tool_is_accepted_and_valid_to_jsonschema() {
    calls_are_accepted_clean("minimal calls (required properties)", false);
}

#[test]
fn a_call_with_every_property_is_accepted_and_valid_to_jsonschema() {
    calls_are_accepted_clean("full calls (every property that can be built)", true);
}

/// Builds one call per loaded tool (`every`: the optional properties too) and checks that a
/// call `jsonschema` finds valid is accepted with no repair.
fn calls_are_accepted_clean(what: &str, every: bool) {
    let mut checked = 0;
    let mut skipped: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    each_tool(|server, name, schema, spec| {
        let Some(call) = build(schema, schema, 0, every) else {
            *skipped.entry("no call built").or_default() += 1;
            return;
        };
        let Ok(validator) = try_validator(schema, true) else {
            *skipped
                .entry("jsonschema does not compile the schema")
                .or_default() += 1;
            return;
        };
        if !validator.is_valid(&call) {
            // The builder's guess (an example, an ambiguous oneOf) was wrong.
            *skipped
                .entry("the call built is invalid to jsonschema")
                .or_default() += 1;
            return;
        }
        checked += 1;
        match spec.parse(instance(&call)) {
            Ok(parsed) if parsed.repairs.is_empty() => {}
            Ok(parsed) => {
                let rules: Vec<_> = parsed.repairs.iter().map(|r| r.rule.as_str()).collect();
                failures.push(format!("{server}/{name}: {call} repaired: {rules:?}"));
            }
            Err(rejection) => {
                failures.push(format!("{server}/{name}: {call} rejected: {rejection}"))
            }
        }
    });
    println!(
        "{what}: {checked} valid to jsonschema, {} of them not accepted clean; skipped: {skipped:?}",
        failures.len()
    );
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "valid to jsonschema, not accepted clean:\n{}",
        failures.join("\n")
    );
}

/// Clean means valid as sent: from the full call of every tool, each optional property sent
/// as `null` and an undeclared key added. A call the gate accepts with no repair is valid to
/// `jsonschema` as sent; an undeclared key is stripped or rejected wherever the schema's
/// properties are all its keys may be.
#[test]
fn a_call_accepted_clean_is_valid_as_sent_and_undeclared_keys_never_pass() {
    let (mut clean, mut nulls_repaired, mut undeclared) = (0, 0, 0);
    let mut failures = Vec::new();
    each_tool(|server, name, schema, spec| {
        let (Some(Value::Object(call)), Ok(validator)) =
            (build(schema, schema, 0, true), try_validator(schema, true))
        else {
            return;
        };
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut variants: Vec<(Value, bool)> = call
            .keys()
            .filter(|key| !required.contains(&key.as_str()))
            .map(|key| {
                let mut sent = call.clone();
                sent.insert(key.clone(), Value::Null);
                (Value::Object(sent), false)
            })
            .collect();
        let closed = schema.get("properties").is_some()
            && [
                "additionalProperties",
                "patternProperties",
                "unevaluatedProperties",
            ]
            .iter()
            .all(|k| schema.get(*k).is_none());
        let mut extra = call.clone();
        extra.insert("zz_undeclared".into(), Value::from(1));
        variants.push((Value::Object(extra), closed));
        for (sent, has_undeclared) in variants {
            let outcome = spec.parse(instance(&sent));
            if let Ok(parsed) = &outcome {
                if parsed.repairs.is_empty() {
                    clean += 1;
                    if !validator.is_valid(&sent) {
                        failures.push(format!("{server}/{name}: {sent} clean, invalid as sent"));
                    }
                } else if parsed.repairs.iter().any(|r| r.rule == "null_to_absent") {
                    nulls_repaired += 1;
                }
            }
            if has_undeclared {
                undeclared += 1;
                if !strips_or_rejects(&outcome, "$.zz_undeclared") {
                    failures.push(format!(
                        "{server}/{name}: undeclared key not stripped or rejected"
                    ));
                }
            }
        }
    });
    println!(
        "clean calls {clean}, nulls read as absent {nulls_repaired}, undeclared keys {undeclared}"
    );
    assert!(clean > 0 && nulls_repaired > 0 && undeclared > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Calls of every tool parse as the walk of the whole call parses them, through the plain
/// reading or not: the minimal and the full call, the full one with its keys in reverse
/// order, with each optional property `null`, with each value sent as its JSON text, and with
/// an undeclared key.
#[test]
fn calls_of_every_tool_parse_as_walked() {
    let (mut calls, mut plain) = (0, 0);
    let mut failures = Vec::new();
    each_tool(|server, name, schema, spec| {
        let mut sent: Vec<Value> = [false, true]
            .into_iter()
            .filter_map(|every| build(schema, schema, 0, every))
            .collect();
        if let Some(Value::Object(full)) = sent.last().cloned() {
            sent.push(Value::Object(full.clone().into_iter().rev().collect()));
            for key in full.keys() {
                let mut null = full.clone();
                null.insert(key.clone(), Value::Null);
                sent.push(Value::Object(null));
                let mut text = full.clone();
                text.insert(key.clone(), Value::String(full[key].to_string()));
                sent.push(Value::Object(text));
            }
            let mut extra = full;
            extra.insert("zz_undeclared".into(), Value::from(1));
            sent.push(Value::Object(extra));
        }
        for call in &sent {
            calls += 1;
            plain += usize::from(spec.is_plain());
            if let Err(e) = crate::schema_gen::parses_as_walked(spec, call) {
                failures.push(format!("{server}/{name}: {e}"));
            }
        }
    });
    println!("{calls} calls parsed as walked, {plain} of them under a plain root");
    assert!(calls > 1_000 && plain > 500, "{calls} calls, {plain} plain");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An instance of `schema`: the required properties (`every`: all that can be built), each
/// value from `const`, `enum`, `default`, `examples` or the type. `None` where that takes more than guessing (a
/// pattern, a multiple, a bound the type cannot meet).
pub(crate) fn build(schema: &Value, root: &Value, depth: usize, every: bool) -> Option<Value> {
    if depth > 32 {
        return None;
    }
    let schema = match schema {
        Value::Bool(true) => return Some(Value::String("x".into())),
        Value::Object(schema) => schema,
        _ => return None,
    };
    if let Some(value) = schema.get("const") {
        return Some(value.clone());
    }
    if let Some(value) = schema.get("enum").and_then(|e| e.as_array()?.first()) {
        return Some(value.clone());
    }
    if let Some(value) = schema.get("default").filter(|v| !v.is_null()) {
        return Some(value.clone());
    }
    if let Some(value) = schema.get("examples").and_then(|e| e.as_array()?.first()) {
        return Some(value.clone());
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let target = root.pointer(reference.strip_prefix('#')?)?;
        return build(target, root, depth + 1, every);
    }
    if let Some(branches) = schema.get("allOf").and_then(Value::as_array) {
        return build(&merged(schema, branches, root), root, depth + 1, every);
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(keyword).and_then(Value::as_array) {
            // A branch other than null first: a call names a value where it can.
            let not_null = |b: &&Value| b.get("type").and_then(Value::as_str) != Some("null");
            let ordered = branches
                .iter()
                .filter(not_null)
                .chain(branches.iter().filter(|b| !not_null(b)));
            return ordered
                .into_iter()
                .find_map(|b| build(b, root, depth + 1, every));
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null")
            .unwrap_or("null"),
        _ if schema.contains_key("properties") || schema.contains_key("required") => "object",
        _ if schema.contains_key("items") => "array",
        _ => "untyped",
    };
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    match kind {
        "null" => Some(Value::Null),
        "boolean" => Some(Value::Bool(false)),
        "integer" | "number" => {
            if schema.contains_key("multipleOf") {
                return None;
            }
            let low = match (number("minimum"), number("exclusiveMinimum")) {
                (Some(min), _) => min.ceil(),
                (None, Some(min)) => min.floor() + 1.0,
                (None, None) => 0.0,
            };
            let high = number("maximum").unwrap_or(f64::MAX);
            let below = number("exclusiveMaximum").unwrap_or(f64::MAX);
            (low <= high && low < below).then(|| Value::from(low as i64))
        }
        "string" => {
            if schema.contains_key("pattern") {
                return None;
            }
            let format = schema.get("format").and_then(Value::as_str).unwrap_or("");
            let text = match format {
                "date-time" => "2024-01-02T03:04:05Z",
                "date" => "2024-01-02",
                "time" => "03:04:05Z",
                "email" => "someone@example.com",
                "uuid" => "123e4567-e89b-12d3-a456-426614174000",
                "uri" | "url" | "uri-reference" | "iri" => "https://example.com/",
                "ipv4" => "192.0.2.1",
                "ipv6" => "2001:db8::1",
                "hostname" => "example.com",
                _ => "x",
            };
            let min = number("minLength").unwrap_or(0.0) as usize;
            Some(Value::String(if text.len() >= min {
                text.to_owned()
            } else {
                "x".repeat(min)
            }))
        }
        "array" => {
            let count = number("minItems").unwrap_or(0.0) as usize;
            if count == 0 {
                return Some(Value::Array(Vec::new()));
            }
            let item = build(schema.get("items")?, root, depth + 1, every)?;
            Some(Value::Array(vec![item; count]))
        }
        "object" => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let mut call = Map::new();
            for key in &required {
                let property = properties
                    .and_then(|p| p.get(*key))
                    .or_else(|| schema.get("additionalProperties"))
                    .unwrap_or(&Value::Bool(true));
                call.insert((*key).to_owned(), build(property, root, depth + 1, every)?);
            }
            if every {
                // An optional property that cannot be built is left out.
                for (key, property) in properties.into_iter().flatten() {
                    if !call.contains_key(key) {
                        if let Some(value) = build(property, root, depth + 1, every) {
                            call.insert(key.clone(), value);
                        }
                    }
                }
            }
            Some(Value::Object(call))
        }
        _ => Some(Value::String("x".into())),
    }
}

/// `schema` with the properties and required keys of its `allOf` branches brought in.
fn merged(schema: &Map<String, Value>, branches: &[Value], root: &Value) -> Value {
    let mut out = schema.clone();
    out.remove("allOf");
    for branch in branches {
        let mut branch = branch;
        while let Some(target) = branch
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| root.pointer(r.strip_prefix('#')?))
        {
            branch = target;
        }
        let Some(branch) = branch.as_object() else {
            continue;
        };
        for (key, value) in branch {
            match (out.get_mut(key), value) {
                (Some(Value::Object(mine)), Value::Object(theirs)) if key == "properties" => {
                    mine.extend(theirs.clone())
                }
                (Some(Value::Array(mine)), Value::Array(theirs)) if key == "required" => {
                    mine.extend(theirs.iter().cloned())
                }
                (Some(_), _) => {}
                (None, _) => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
    }
    Value::Object(out)
}
