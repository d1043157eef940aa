//! The lowered schemas of loaded specs ([`Spec::lowering`]) against the full ones, with the
//! `jsonschema` crate as the judge of what each schema allows:
//!
//! 1. The lowered schema never forbids what the full one allows: a call the gate accepts
//!    with no repair and that is valid under the full schema is valid under the lowered one
//!    (under strict mode, with `null` sent for each property it leaves out, as strict mode
//!    asks, which the gate reads back as absent).
//! 2. A call that conforms to the lowered schema gets the full schema's verdict at the gate:
//!    accepted with no repair when the full schema allows it, else rejected (or repaired into
//!    a value the full schema allows); a key the schema does not declare is the gate's own
//!    policy's to refuse. Such calls are what the gate enforces beyond what the
//!    provider was told; the tests count them.
//!
//! On the MCP tools of `tests/data/mcp-tools` (each tool's minimal call and its call with every
//! property), every schema of the JSON Schema Test Suite that loads with each test instance,
//! random schemas of `schema_gen` with their instances, and BFCL's definitions and ground truth
//! when `TOOLARGS_BFCL` points at them (as in CI).

use std::collections::BTreeMap;
use std::fs;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{json, Map, Value};
use toolargs::dialect::Lowering;
use toolargs::dynamic::{load_tool_list_lenient, Spec};
use toolargs::Dialect;

use crate::common::{instance, try_validator};
use crate::mcp_tools::{build, each_tool};
use crate::schema_gen::{instance_for, schema, Choices, MAX_DEPTH};
use crate::suite::known::KNOWN;

/// The schema a lowered definition shows the model, where the dialect's provider keeps it
/// ([`Lowering::schema`]), as JSON Schema (Gemini's OpenAPI `nullable` read as a type array
/// with `null`).
fn shown(dialect: Dialect, lowering: &Lowering) -> Value {
    let definition = &lowering.definition;
    match lowering.schema() {
        // Gemini leaves out the parameters of a tool without arguments.
        None => json!({"type": "object", "maxProperties": 0}),
        Some(schema) if dialect == Dialect::Gemini && definition.get("parameters").is_some() => {
            openapi_as_json_schema(schema)
        }
        Some(schema) => schema.clone(),
    }
}

fn openapi_as_json_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: Map<String, Value> = map
                .iter()
                .map(|(k, v)| {
                    let v = match k.as_str() {
                        "properties" => Value::Object(
                            v.as_object()
                                .unwrap()
                                .iter()
                                .map(|(n, s)| (n.clone(), openapi_as_json_schema(s)))
                                .collect(),
                        ),
                        "items" => openapi_as_json_schema(v),
                        "anyOf" => Value::Array(
                            v.as_array()
                                .unwrap()
                                .iter()
                                .map(openapi_as_json_schema)
                                .collect(),
                        ),
                        _ => v.clone(),
                    };
                    (k.clone(), v)
                })
                .collect();
            if out.remove("nullable") == Some(Value::Bool(true)) {
                if let Some(t) = out.get("type").cloned() {
                    out.insert("type".into(), json!([t, "null"]));
                }
                if let Some(Value::Array(values)) = out.get_mut("enum") {
                    values.push(Value::Null);
                }
                if let Some(Value::Array(branches)) = out.get_mut("anyOf") {
                    branches.push(json!({"type": "null"}));
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// `data` as strict mode has the model send it: `null` for every property the lowered schema
/// requires and the call leaves out, at every depth.
fn with_nulls(data: &Value, schema: &Value, root: &Value) -> Value {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => root
            .pointer(reference.trim_start_matches('#'))
            .unwrap_or(schema),
        None => schema,
    };
    match data {
        Value::Object(members) => {
            let branch = schema["anyOf"].as_array().and_then(|branches| {
                branches.iter().find(|b| {
                    b["properties"]
                        .as_object()
                        .is_some_and(|p| members.keys().all(|k| p.contains_key(k)))
                })
            });
            let schema = branch.unwrap_or(schema);
            let properties = schema["properties"].as_object();
            let mut out = Map::new();
            for (key, value) in members {
                let inner = properties.and_then(|p| p.get(key)).unwrap_or(&Value::Null);
                out.insert(key.clone(), with_nulls(value, inner, root));
            }
            for name in schema["required"].as_array().into_iter().flatten() {
                let name = name.as_str().unwrap_or_default();
                if !out.contains_key(name) && properties.is_some_and(|p| p.contains_key(name)) {
                    out.insert(name.to_owned(), Value::Null);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| with_nulls(item, &schema["items"], root))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What one spec's lowerings did with its instances.
#[derive(Default, Debug)]
struct Tally {
    /// (dialect, instance) pairs judged.
    judged: usize,
    /// Property 1: allowed by the full schema and the gate, checked against the lowered one.
    allowed: usize,
    /// Property 2: conforming to the lowered schema, checked at the gate.
    conforming: usize,
    /// Of those, the calls the full schema forbids, which the gate alone stopped.
    stopped_by_gate: usize,
    /// Lowered schemas `jsonschema` could not build (each a failure).
    failures: Vec<String>,
}

fn check(spec: &Spec, full: &Value, instances: &[Value], what: &str, tally: &mut Tally) {
    let Ok(full_validator) = try_validator(full, false) else {
        return;
    };
    for dialect in Dialect::ALL {
        let lowering = spec.lowering(dialect);
        let lowered = shown(dialect, &lowering);
        let validator = match try_validator(&lowered, false) {
            Ok(v) => v,
            Err(e) => {
                tally.failures.push(format!(
                    "{what} {}: lowered schema refused: {e}\n{lowered}",
                    dialect.name()
                ));
                continue;
            }
        };
        let strict = lowering.definition["strict"] == json!(true)
            || lowering.definition["function"]["strict"] == json!(true);
        // Tool arguments are an object: other values are no call.
        for data in instances.iter().filter(|d| d.is_object()) {
            tally.judged += 1;
            let sent = if strict {
                with_nulls(data, &lowered, &lowered)
            } else {
                data.clone()
            };
            let full_valid = full_validator.is_valid(data);
            let clean = spec
                .parse(instance(data))
                .is_ok_and(|parsed| parsed.repairs.is_empty());
            if clean && full_valid {
                tally.allowed += 1;
                if !validator.is_valid(&sent) {
                    tally.failures.push(format!(
                        "{what} {}: {data} is allowed but the lowered schema forbids {sent}\n{lowered}",
                        dialect.name()
                    ));
                }
            }
            if validator.is_valid(&sent) {
                tally.conforming += 1;
                let at_gate = spec.parse_with(&instance(&sent), &dialect.parse_options());
                let agrees = match &at_gate {
                    Ok(parsed) if parsed.repairs.is_empty() => full_valid,
                    Ok(parsed) => full_validator.is_valid(&parsed.args),
                    // The gate's contract is the schema and its policy on keys the schema
                    // does not declare, which JSON Schema lets through.
                    Err(rejection) if undeclared_only(rejection) => true,
                    Err(_) => !full_valid,
                };
                if !full_valid {
                    tally.stopped_by_gate += usize::from(agrees);
                }
                if !agrees {
                    tally.failures.push(format!(
                        "{what} {}: {sent} conforms to the lowered schema; the full schema says {full_valid}, the gate {at_gate:?}",
                        dialect.name()
                    ));
                }
            }
        }
    }
}

/// True when every error of a rejection is a key the schema does not declare.
fn undeclared_only(rejection: &toolargs::Rejection) -> bool {
    rejection
        .errors()
        .iter()
        .all(|e| e.code == toolargs::Code::UnknownField)
}

fn assert_tally(name: &str, tally: &Tally, floor: usize) {
    eprintln!(
        "lowering, {name}: {} judged, {} allowed checked, {} conforming checked, {} stopped by the gate alone",
        tally.judged, tally.allowed, tally.conforming, tally.stopped_by_gate
    );
    assert!(
        tally.failures.is_empty(),
        "{} failures, the first:\n{}",
        tally.failures.len(),
        tally
            .failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        tally.allowed >= floor,
        "only {} allowed calls checked",
        tally.allowed
    );
}

#[test]
fn lowering_the_mcp_tools_forbids_nothing_allowed_and_the_gate_enforces_the_rest() {
    let mut tally = Tally::default();
    each_tool(|server, name, schema, spec| {
        let instances: Vec<Value> = [false, true]
            .into_iter()
            .filter_map(|every| build(schema, schema, 0, every))
            .collect();
        check(
            spec,
            schema,
            &instances,
            &format!("{server}/{name}"),
            &mut tally,
        );
    });
    assert_tally("MCP tools", &tally, 10_000);
}

#[test]
fn lowering_the_suite_schemas_forbids_nothing_allowed_and_the_gate_enforces_the_rest() {
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/json-schema-test-suite/draft2020-12"
    );
    let mut tally = Tally::default();
    let mut files: Vec<_> = fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let groups: Vec<Value> = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        for group in groups {
            let file_name = file.file_name().unwrap().to_string_lossy().into_owned();
            // Where the gate's own verdict differs from the suite's (its policy on undeclared
            // keys, asserted formats), the lowering is not what is measured.
            let known = KNOWN
                .iter()
                .any(|(f, g, _, _)| *f == file_name && group["description"] == *g);
            let Ok(spec) = Spec::from_schema(&group["schema"]) else {
                continue;
            };
            if known {
                continue;
            }
            let instances: Vec<Value> = group["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["data"].clone())
                .collect();
            let what = format!(
                "{}: {}",
                file.file_name().unwrap().to_string_lossy(),
                group["description"]
            );
            check(&spec, &group["schema"], &instances, &what, &mut tally);
        }
    }
    assert_tally("JSON Schema Test Suite", &tally, 1_400);
}

#[test]
fn lowering_random_schemas_forbids_nothing_allowed_and_the_gate_enforces_the_rest() {
    let config = Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    };
    let tally = std::cell::RefCell::new(Tally::default());
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let result = TestRunner::new_with_rng(config, rng).run(&vec(any::<u8>(), 0..384), |bytes| {
        let mut c = Choices::new(&bytes);
        let full: Value = schema(&mut c, MAX_DEPTH);
        let instances: Vec<Value> = (0..8).map(|_| instance_for(&mut c, &full)).collect();
        let Ok(spec) = Spec::from_schema(&full) else {
            return Ok(());
        };
        let mut one = Tally::default();
        check(&spec, &full, &instances, &full.to_string(), &mut one);
        let mut all = tally.borrow_mut();
        all.judged += one.judged;
        all.allowed += one.allowed;
        all.conforming += one.conforming;
        all.stopped_by_gate += one.stopped_by_gate;
        match one.failures.first() {
            Some(failure) => Err(TestCaseError::fail(failure.clone())),
            None => Ok(()),
        }
    });
    let tally = tally.into_inner();
    if let Err(e) = result {
        panic!("{e}");
    }
    assert_tally("random schemas", &tally, 100);
}

/// BFCL's definitions with its ground-truth calls (`TOOLARGS_BFCL`, see `bfcl.rs`).
#[test]
#[ignore = "needs BFCL's calls in TOOLARGS_BFCL (scripts/bfcl.py; .ci/run's bfcl step)"]
fn lowering_bfcl_forbids_nothing_allowed_and_the_gate_enforces_the_rest() {
    let folder = crate::common::bfcl_folder();
    let text = fs::read_to_string(folder.join("tools.json")).expect("tools.json");
    let definitions: Vec<Value> = serde_json::from_str(&text).unwrap();
    let list = load_tool_list_lenient(&text).unwrap();
    let mut calls: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for line in fs::read_to_string(folder.join("calls.jsonl"))
        .unwrap()
        .lines()
    {
        let record: Value = serde_json::from_str(line).unwrap();
        if let (Some(tool), Some(arguments)) = (record["tool"].as_str(), record.get("arguments")) {
            calls
                .entry(tool.to_owned())
                .or_default()
                .push(arguments.clone());
        }
    }
    let mut tally = Tally::default();
    for (index, spec) in list.indexed_specs() {
        let function = &definitions[index]["function"];
        let name = function["name"].as_str().unwrap_or("?");
        let instances = calls.get(name).cloned().unwrap_or_default();
        check(spec, &function["parameters"], &instances, name, &mut tally);
    }
    assert_tally("BFCL", &tally, 55_000);
}

/// What the providers' SDKs refused before (`toolargs-python/tests/test_provider_sdks.py`
/// checks every definition with them): each lowered as they take it.
#[test]
fn what_the_provider_sdks_refused_is_lowered_as_they_take_it() {
    let lowered = |dialect: Dialect, schema: Value| {
        let spec = Spec::from_tool_definition(&json!({"name": "t", "inputSchema": schema}))
            .expect("loads");
        let lowering = spec.lowering(dialect);
        let changes: Vec<(String, String)> = lowering
            .changes
            .iter()
            .map(|c| (c.path.clone(), c.keyword.clone()))
            .collect();
        (spec.tool_definition(dialect), changes)
    };
    let strict = Dialect::OpenAiChat { strict: true };

    // An object of no declared properties takes any key: strict mode cannot say it.
    let (tool, changes) = lowered(
        strict,
        json!({"type": "object", "properties": {"data": {"type": "object"}}}),
    );
    assert_eq!(tool["function"]["strict"], json!(false));
    assert_eq!(changes[0], (String::new(), "strict".to_owned()));

    // Strict mode takes a reference with nothing beside it: one with a description is
    // written out, one alone is kept.
    let (tool, changes) = lowered(
        strict,
        json!({
            "type": "object",
            "properties": {
                "from": {"$ref": "#/$defs/place", "description": "Where from."},
                "to": {"$ref": "#/$defs/place"}
            },
            "required": ["from", "to"],
            "$defs": {"place": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
        }),
    );
    let properties = &tool["function"]["parameters"]["properties"];
    assert_eq!(tool["function"]["strict"], json!(true));
    assert_eq!(properties["from"]["description"], json!("Where from."));
    assert_eq!(properties["from"]["additionalProperties"], json!(false));
    assert!(properties["from"].get("$ref").is_none());
    assert_eq!(properties["to"], json!({"$ref": "#/$defs/place"}));
    assert!(changes.contains(&("/properties/from".to_owned(), "$ref".to_owned())));

    // Gemini's enum holds strings, and its schema is an object: `const: null` is
    // `nullable`, `true` the empty schema.
    let (tool, changes) = lowered(
        Dialect::Gemini,
        json!({"type": "object", "properties": {"none": {"const": null}, "any": true}}),
    );
    let properties = &tool["parameters"]["properties"];
    assert_eq!(properties["none"], json!({"nullable": true}));
    assert_eq!(properties["any"], json!({}));
    assert!(changes.contains(&("/properties/none".to_owned(), "enum".to_owned())));
    assert!(changes.contains(&("/properties/any".to_owned(), "true".to_owned())));

    // A root that says no type is shown as an object, unless a reference points at it.
    let (tool, changes) = lowered(Dialect::Anthropic, json!({"properties": {"a": {}}}));
    assert_eq!(tool["input_schema"]["type"], json!("object"));
    assert_eq!(changes, [(String::new(), "type".to_owned())]);
    let (tool, changes) = lowered(
        Dialect::Mcp,
        json!({"properties": {"a": {"$ref": "#"}}, "additionalProperties": false}),
    );
    assert!(tool["inputSchema"].get("type").is_none());
    assert_eq!(changes, [(String::new(), "type".to_owned())]);
}
