//! The dynamic spec loader on arbitrary schema text: loading never panics, and a spec that loads
//! parses calls (its own text, and a few fixed ones) without panicking, with well-formed results.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolargs::Spec;
use toolargs_fuzz::check_rejection;

const CALLS: &[&str] = &[
    r#"{}"#,
    r#"{"a":1,"b":"x","c":[1,"2",null],"d":{"e":true}}"#,
    r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"Damaged","tags":"a"}"#,
    r#""{\"a\":1}""#,
    r#"[1,2,3]"#,
];

fn exercise(spec: &Spec, own_text: &str) {
    let _ = spec.name();
    let _ = spec.unknown_policy();
    for call in CALLS.iter().copied().chain([own_text]) {
        match spec.parse(call) {
            Ok(parsed) => {
                for repair in &parsed.repairs {
                    assert!(repair.path.starts_with('$'));
                }
            }
            Err(rejection) => check_rejection(&rejection),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = Spec::from_json(text) {
        exercise(&spec, text);
    }
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        if let Ok(spec) = Spec::from_schema(&value) {
            exercise(&spec, text);
        }
        if let Ok(spec) = Spec::from_tool_definition(&value) {
            exercise(&spec, text);
        }
    }
});
