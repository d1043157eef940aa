//! The Berkeley Function Calling Leaderboard's ground truth: every call the gate reports
//! clean is valid as sent to `jsonschema` under BFCL's own definitions (as BFCL converts them
//! for a model with function calling), and every call that sends a key its tool does not
//! declare is stripped or rejected.
//!
//! BFCL is not vendored: `scripts/bfcl.py --no-replay` writes its definitions and calls to a
//! folder (CI does), and `TOOLARGS_BFCL=<folder>` points this test at it. It is ignored
//! unless asked for, and fails without the variable:
//! `TOOLARGS_BFCL=target/bfcl cargo test --all-features --test it -- --ignored bfcl --nocapture`
//! runs it and prints the counts.

use std::collections::HashMap;
use std::fs;

use serde_json::Value;
use toolargs::dynamic::load_tool_list_lenient;

use crate::common::{instance, strips_or_rejects, try_validator};

#[test]
#[ignore = "needs BFCL's calls in TOOLARGS_BFCL (scripts/bfcl.py; .ci/run's bfcl step)"]
fn every_call_reported_clean_is_valid_as_sent() {
    let folder = crate::common::bfcl_folder();
    let text = fs::read_to_string(folder.join("tools.json")).expect("tools.json");
    let definitions: Vec<Value> = serde_json::from_str(&text).unwrap();
    let list = load_tool_list_lenient(&text).unwrap();
    let specs: HashMap<&str, _> = list
        .indexed_specs()
        .map(|(index, spec)| {
            let function = &definitions[index]["function"];
            (
                function["name"].as_str().unwrap(),
                (spec, &function["parameters"]),
            )
        })
        .collect();
    let calls = fs::read_to_string(folder.join("calls.jsonl")).expect("calls.jsonl");
    let (mut calls_seen, mut clean, mut undeclared) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in calls.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let (Some(tool), Some(arguments)) = (record["tool"].as_str(), record.get("arguments"))
        else {
            continue;
        };
        let Some((spec, schema)) = specs.get(tool) else {
            continue;
        };
        calls_seen += 1;
        let outcome = spec.parse(instance(arguments));
        if outcome
            .as_ref()
            .is_ok_and(|parsed| parsed.repairs.is_empty())
        {
            clean += 1;
            match try_validator(schema, true) {
                Ok(validator) if validator.is_valid(arguments) => {}
                Ok(_) => failures.push(format!("{tool}: {arguments} clean, invalid as sent")),
                Err(error) => failures.push(format!("{tool}: jsonschema refused: {error}")),
            }
        }
        let declared = schema["properties"].as_object();
        let extra: Vec<&String> = match (arguments.as_object(), declared) {
            (Some(arguments), Some(declared)) => arguments
                .keys()
                .filter(|k| !declared.contains_key(*k))
                .collect(),
            _ => Vec::new(),
        };
        for key in extra {
            undeclared += 1;
            let path = format!("$.{key}");
            if !strips_or_rejects(&outcome, &path) {
                failures.push(format!(
                    "{tool}: undeclared `{key}` neither stripped nor rejected"
                ));
            }
        }
    }
    println!("BFCL: {calls_seen} calls, {clean} clean, {undeclared} undeclared keys");
    assert!(
        calls_seen > 7_000 && clean > 0,
        "{calls_seen} calls, {clean} clean"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
