//! Random schemas against the `jsonschema` crate: the bytes choose a small schema and four
//! instances (see `toolargs_fuzz::schema_gen`), and an instance the dynamic spec accepts with no
//! repair must be valid to `jsonschema`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolargs_fuzz::schema_gen::{check, instance_for, schema, Choices, MAX_DEPTH};

fuzz_target!(|data: &[u8]| {
    let mut choices = Choices::new(data);
    let schema = schema(&mut choices, MAX_DEPTH);
    let instances: Vec<Value> = (0..4)
        .map(|_| instance_for(&mut choices, &schema))
        .collect();
    if let Err(disagreement) = check(&schema, &instances) {
        panic!("{disagreement}");
    }
});
