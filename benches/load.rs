//! Loading tool definitions: `load_tool_list_lenient` on 10 000 definitions, the real ones of
//! `tests/data/mcp-tools` (748 definitions from 40 MCP servers) repeated in order, and, beside
//! it for scale, `jsonschema` compiling the same schemas (what a Rust user would otherwise build
//! per tool).
//!
//! ```sh
//! cargo bench --bench load
//! ```

use std::fs;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use serde_json::Value;
use toolargs::dynamic::load_tool_list_lenient;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mcp-tools");
const DEFINITIONS: usize = 10_000;

/// Every definition of the fixtures, by server name and then in list order.
fn real_definitions() -> Vec<Value> {
    let mut paths: Vec<_> = fs::read_dir(FIXTURES)
        .expect("tests/data/mcp-tools")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .flat_map(|path| {
            let list: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
            list["tools"].as_array().unwrap().clone()
        })
        .collect()
}

fn main() {
    let real = real_definitions();
    let tools: Vec<Value> = real.iter().cycle().take(DEFINITIONS).cloned().collect();
    let text = serde_json::to_string(&serde_json::json!({ "tools": tools })).unwrap();
    let schemas: Vec<Value> = tools.iter().map(|t| t["inputSchema"].clone()).collect();

    let list = load_tool_list_lenient(&text).unwrap();
    assert_eq!(list.len(), DEFINITIONS);
    println!(
        "{DEFINITIONS} definitions ({} distinct), {:.1} MB of JSON, {} load",
        real.len(),
        text.len() as f64 / 1e6,
        list.specs.len()
    );

    let mut criterion = Criterion::default()
        .sample_size(10)
        // One load of 10 000 definitions takes most of a second.
        .measurement_time(Duration::from_secs(12))
        .configure_from_args();
    let mut group = criterion.benchmark_group("load");
    group.bench_function("load_tool_list_lenient_10000", |b| {
        b.iter(|| load_tool_list_lenient(black_box(&text)).unwrap())
    });
    group.bench_function("jsonschema_compile_10000", |b| {
        b.iter(|| {
            for schema in &schemas {
                black_box(jsonschema::validator_for(black_box(schema)).ok());
            }
        })
    });
    group.finish();
    criterion.final_summary();

    // One plain figure, for the README: the best of five loads.
    let best = (0..5)
        .map(|_| {
            let start = Instant::now();
            black_box(load_tool_list_lenient(black_box(&text)).unwrap());
            start.elapsed()
        })
        .min()
        .unwrap();
    println!(
        "load_tool_list_lenient: {DEFINITIONS} definitions in {:.1} ms (best of 5), {:.1} µs each",
        best.as_secs_f64() * 1e3,
        best.as_secs_f64() * 1e6 / DEFINITIONS as f64
    );
}
