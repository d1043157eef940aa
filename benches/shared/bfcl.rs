//! BFCL's ground-truth calls, as `scripts/bfcl.py` writes them, for the benchmarks that read
//! them.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use toolargs::Spec;

/// The definitions by name, and the calls as (tool, arguments).
pub type Bfcl = (HashMap<String, Spec>, Vec<(String, String)>);

/// The definitions that load, by name, and the calls to them as (tool, arguments), the
/// arguments compact (as models send them); `None` (with a message naming `bench`) when
/// `scripts/bfcl.py` has not written them to `target/bfcl` (or `TOOLARGS_BFCL`).
pub fn bfcl_calls(bench: &str) -> Option<Bfcl> {
    let dir = std::env::var_os("TOOLARGS_BFCL").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bfcl"),
        PathBuf::from,
    );
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let (Some(tools), Some(calls)) = (read("tools.json"), read("calls.jsonl")) else {
        eprintln!(
            "{bench}: {} has no tools.json and calls.jsonl; the bfcl rows are skipped (write them with scripts/bfcl.py)",
            dir.display()
        );
        return None;
    };
    let list = toolargs::dynamic::load_tool_list_lenient(&tools).ok()?;
    let specs: HashMap<String, Spec> = list
        .specs
        .into_iter()
        .filter_map(|spec| Some((spec.name()?.to_owned(), spec)))
        .collect();
    let calls = calls
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|record| {
            let tool = record["tool"].as_str()?.to_owned();
            let arguments = match &record["arguments"] {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            specs.contains_key(&tool).then_some((tool, arguments))
        })
        .collect();
    Some((specs, calls))
}
