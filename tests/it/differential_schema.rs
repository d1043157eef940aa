//! Random schemas of the assertion vocabulary against the `jsonschema` crate: an instance the
//! dynamic spec accepts with no repair is valid to `jsonschema` too, and so are the arguments
//! it returns. A schema the spec refuses, and an instance it rejects or repairs, are skipped:
//! how much of the vocabulary loads and agrees is measured by the `suite` tests. The schemas
//! and instances come from `schema_gen`, shared with the fuzz target `differential_schema`.

use std::collections::BTreeMap;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;

use crate::schema_gen::{
    check, instance_for, parses_as_walked, plain_schema, schema, Choices, Outcome, MAX_DEPTH,
};

/// Enough to meet each keyword many times while the suite stays quick in debug builds, where
/// building a `jsonschema` validator takes most of the time (several milliseconds each).
const CASES: u32 = 256;

/// Instances tried per schema: they share one loaded spec and one validator.
const INSTANCES: usize = 8;

fn one_case(bytes: &[u8], tally: &mut BTreeMap<&'static str, usize>) -> Result<(), String> {
    let mut c = Choices::new(bytes);
    let schema: Value = schema(&mut c, MAX_DEPTH);
    let instances: Vec<Value> = (0..INSTANCES)
        .map(|_| instance_for(&mut c, &schema))
        .collect();
    for outcome in check(&schema, &instances)? {
        *tally.entry(name(outcome)).or_default() += 1;
    }
    Ok(())
}

fn name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Refused => "refused",
        Outcome::Unjudged => "unjudged",
        Outcome::Rejected => "rejected",
        Outcome::Repaired => "repaired",
        Outcome::Clean => "clean",
        Outcome::KnownGap(gap) => gap,
    }
}

/// Plain roots, which [`schema`] seldom makes: every instance, and each with its keys in
/// reverse order and with one value sent as its JSON text, parses as the walk of the whole
/// call parses it, through the plain reading or not.
#[test]
fn plain_roots_parse_as_walked() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut plain, mut calls) = (0, 0);
    for _ in 0..512 {
        let bytes: Vec<u8> = (0..384)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 56) as u8
            })
            .collect();
        let mut c = Choices::new(&bytes);
        let schema = plain_schema(&mut c);
        let Ok(spec) = toolargs::Spec::from_schema(&schema) else {
            continue;
        };
        plain += usize::from(spec.is_plain());
        for _ in 0..INSTANCES {
            let data = instance_for(&mut c, &schema);
            let mut sent = vec![data.clone()];
            if let Value::Object(members) = &data {
                sent.push(Value::Object(members.clone().into_iter().rev().collect()));
                for (key, value) in members {
                    let mut text = members.clone();
                    text.insert(key.clone(), Value::String(value.to_string()));
                    sent.push(Value::Object(text));
                }
            }
            for data in &sent {
                calls += 1;
                if let Err(e) = parses_as_walked(&spec, data) {
                    panic!("{e}\nschema: {schema}");
                }
            }
        }
    }
    println!("{plain} plain roots of 512, {calls} calls parsed as walked");
    assert!(plain > 400, "{plain} plain roots of 512");
}

#[test]
fn clean_acceptance_is_valid_to_jsonschema() {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    };
    let tally = std::cell::RefCell::new(BTreeMap::new());
    // The same cases on every run, so that a red run is a change and not the draw: new
    // schemas are the fuzz target `differential_schema`'s to explore.
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let result = TestRunner::new_with_rng(config, rng).run(&vec(any::<u8>(), 0..384), |bytes| {
        one_case(&bytes, &mut tally.borrow_mut()).map_err(TestCaseError::fail)
    });
    let tally = tally.into_inner();
    eprintln!("differential_schema outcomes (with shrinking, if any): {tally:?}");
    if let Err(e) = result {
        panic!("{e}");
    }
    // Without accepted instances the check proves nothing.
    assert!(
        tally.get("clean").copied().unwrap_or(0) >= 100,
        "too few instances accepted clean to compare: {tally:?}"
    );
}

/// The generator is total on any input: the empty one gives the simplest schema.
#[test]
fn the_empty_input_gives_a_schema() {
    let schema = schema(&mut Choices::new(&[]), MAX_DEPTH);
    assert_eq!(schema, serde_json::json!({"type": "object"}));
}

/// The second of [`KNOWN_GAPS`](crate::schema_gen::KNOWN_GAPS), pinned: when `jsonschema`
/// takes `1.0` under a list of types, this fails, and the gap is to be removed.
#[test]
fn jsonschema_rejects_an_integral_float_under_a_list_of_types() {
    let one: Value = serde_json::from_str("1.0").unwrap();
    let listed = serde_json::json!({"type": ["integer", "boolean"]});
    let single = serde_json::json!({"type": "integer"});
    assert!(crate::common::validator_ignoring_formats(&single).is_valid(&one));
    assert!(!crate::common::validator_ignoring_formats(&listed).is_valid(&one));
    // The case the random schemas met: the spec takes it as sent, as draft 2020-12 says.
    let schema = serde_json::json!({"type": "array", "contains": listed});
    let spec = toolargs::dynamic::Spec::from_schema(&schema).unwrap();
    let parsed = spec.parse(crate::common::instance(&serde_json::json!([1.0])));
    assert!(parsed.is_ok_and(|parsed| parsed.repairs.is_empty()));
}
