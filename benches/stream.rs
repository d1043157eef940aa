//! Streams against one parse of the same text, and where rejections come.
//!
//! - `one_mb`: a payload of about 1 MB parsed once (`parse`), and fed to a stream in pieces of
//!   one byte (`feed_1`), 16 bytes (`feed_16`) and 256 bytes (`feed_256`), then finished;
//!   for the refund tool (one long list of strings) and for a loaded schema of many
//!   members (an object of 9 000 strings). `serde` reads the same text into a
//!   `serde_json::Value`, for scale. The table gives, per payload, the median over
//!   interleaved rounds of the ratio of each contender to `parse`.
//! - The early-rejection table: of the calls a parse rejects, fed one character at a time, how
//!   many a stream rejected before their last byte, and how much of a call had arrived then
//!   (median and mean). On the refund corpus (`scripts/corpus.sh`) and on BFCL's model
//!   calls (`scripts/bfcl.py`), when they are there, and on a generated corpus always.
//!
//! ```sh
//! cargo bench --bench stream                 # criterion groups, then both tables
//! cargo bench --bench stream -- --table-only
//! ```
//!
//! `TOOLARGS_REPEAT=<payload>:<contender>:<runs>` runs one contender on one payload `runs`
//! times and nothing else, for `valgrind --tool=callgrind --toggle-collect='stream::repeat'`
//! (instructions that do not drift with the machine's speed).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use serde_json::{json, Value};
use toolargs::stream::ArgStream;
use toolargs::{Judge, Spec, ToolArgs};

#[path = "../tests/it/common.rs"]
mod common;

#[path = "shared/bfcl.rs"]
mod bfcl;
use common::IssueRefund;

/// The refund tool with about 1 MB of tags, sent first so that its member is read long
/// before the call is complete.
fn refund_mb() -> String {
    let tags: Vec<String> = (0..80_000).map(|i| format!("tag-{i:07}")).collect();
    json!({"tags": tags, "order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late"})
        .to_string()
}

/// An object of 9 000 members (the default limit is 10 000 keys) of about 110 bytes, and the
/// schema it is judged by.
fn wide_mb() -> (Spec, String) {
    let spec = Spec::from_schema(&json!({
        "type": "object",
        "additionalProperties": {"type": "string", "maxLength": 200}
    }))
    .unwrap();
    let members: serde_json::Map<String, Value> = (0..9_000)
        .map(|i| (format!("k{i:06}"), json!(format!("{i:0>100}"))))
        .collect();
    (spec, Value::Object(members).to_string())
}

/// Feeds `text` in pieces of `piece` bytes (moved to character boundaries) and finishes.
/// Pieces of one byte are one character each, each written into a small buffer: slicing the
/// text at each byte, as the loop below does, costs some 30 instructions a byte, which would
/// be measured as the stream's.
fn feed<C: Judge>(mut stream: ArgStream<C>, text: &str, piece: usize) -> bool {
    if piece == 1 {
        let mut buffer = [0; 4];
        for character in text.chars() {
            let _ = stream.feed(character.encode_utf8(&mut buffer));
        }
        return stream.finish().is_ok();
    }
    let mut from = 0;
    while from < text.len() {
        let mut to = (from + piece).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let _ = stream.feed(&text[from..to]);
        from = to;
    }
    stream.finish().is_ok()
}

type Run<'a> = Box<dyn Fn() -> bool + 'a>;

/// A payload: its name, its size and its contenders.
type Payload<'a> = (&'static str, usize, Vec<(&'static str, Run<'a>)>);

/// The contenders on one payload, `parse` first.
fn contenders<'a, C: Judge + 'a>(
    make: impl Fn() -> ArgStream<C> + Copy + 'a,
    parse: impl Fn() -> bool + 'a,
    text: &'a str,
) -> Vec<(&'static str, Run<'a>)> {
    vec![
        ("parse", Box::new(parse)),
        ("feed_1", Box::new(move || feed(make(), text, 1))),
        ("feed_16", Box::new(move || feed(make(), text, 16))),
        ("feed_256", Box::new(move || feed(make(), text, 256))),
        (
            "serde",
            Box::new(move || serde_json::from_str::<Value>(text).is_ok()),
        ),
    ]
}

fn main() {
    let table_only = std::env::args().any(|a| a == "--table-only");
    let refund = refund_mb();
    let (wide_spec, wide) = wide_mb();
    assert!(IssueRefund::parse(refund.as_str()).is_ok());
    assert!(wide_spec.parse(wide.as_str()).is_ok());
    let payloads: Vec<Payload<'_>> = vec![
        (
            "refund_1mb",
            refund.len(),
            contenders(
                IssueRefund::stream,
                || IssueRefund::parse(refund.as_str()).is_ok(),
                &refund,
            ),
        ),
        (
            "wide_1mb",
            wide.len(),
            contenders(
                || wide_spec.stream(),
                || wide_spec.parse(wide.as_str()).is_ok(),
                &wide,
            ),
        ),
    ];
    if let Ok(request) = std::env::var("TOOLARGS_REPEAT") {
        let parts: Vec<&str> = request.split(':').collect();
        let [payload, contender, runs] = parts[..] else {
            panic!("TOOLARGS_REPEAT={request}: expected <payload>:<contender>:<runs>");
        };
        let run = payloads
            .iter()
            .filter(|(name, _, _)| *name == payload)
            .flat_map(|(_, _, runs)| runs)
            .find(|(name, _)| *name == contender);
        let (Some((_, run)), Ok(runs)) = (run, runs.parse()) else {
            panic!("TOOLARGS_REPEAT={request}: unknown payload or contender, or not a count");
        };
        println!("accepted {} of {runs}", repeat(run, runs));
        return;
    }
    if !table_only {
        let mut criterion = Criterion::default()
            .sample_size(10)
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        for (name, bytes, runs) in &payloads {
            let mut group = criterion.benchmark_group(*name);
            group.throughput(Throughput::Bytes(*bytes as u64));
            for (contender, run) in runs {
                group.bench_function(*contender, |b| b.iter(|| black_box(run())));
            }
            group.finish();
        }
        criterion.final_summary();
    }
    ratio_table(&payloads);
    early_table();
}

/// Runs `run` `runs` times: the only code `TOOLARGS_REPEAT` measures (not inlined, so that
/// callgrind can count it alone).
#[inline(never)]
fn repeat(run: &Run<'_>, runs: usize) -> usize {
    (0..runs).filter(|_| black_box(run())).count()
}

/// The median over interleaved rounds of each contender's time over `parse`'s.
fn ratio_table(payloads: &[Payload<'_>]) {
    println!("\n| payload | bytes | parse | feed_1 / parse | feed_16 / parse | feed_256 / parse | serde / parse |");
    println!("|---|---|---|---|---|---|---|");
    for (name, bytes, runs) in payloads {
        let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); runs.len()];
        let mut parse_times = Vec::new();
        for _ in 0..9 {
            let times: Vec<f64> = runs
                .iter()
                .map(|(_, run)| {
                    let start = Instant::now();
                    black_box(run());
                    start.elapsed().as_secs_f64()
                })
                .collect();
            parse_times.push(times[0]);
            for (i, t) in times.iter().enumerate() {
                ratios[i].push(t / times[0]);
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let parse = median(&mut parse_times);
        let cells: Vec<String> = ratios[1..]
            .iter_mut()
            .map(|r| format!("{:.2}", median(r)))
            .collect();
        println!(
            "| {name} | {bytes} | {:.2} ms | {} |",
            parse * 1e3,
            cells.join(" | ")
        );
    }
}

/// Where, in the calls a parse rejects, a stream fed one character at a time rejected them.
fn early_table() {
    println!(
        "\n| corpus | calls | rejected | rejected before the end | median arrived | mean arrived |"
    );
    println!("|---|---|---|---|---|---|");
    if let Some(calls) = refund_corpus() {
        early_row(
            "refund",
            calls.iter().map(|text| {
                (
                    IssueRefund::stream(),
                    IssueRefund::parse(text.as_str()).is_err(),
                    text.as_str(),
                )
            }),
        );
    }
    if let Some((specs, calls)) = bfcl::bfcl_calls("stream") {
        early_row(
            "bfcl",
            calls.iter().map(|(tool, text)| {
                let spec = &specs[tool];
                (
                    spec.stream(),
                    spec.parse(text.as_str()).is_err(),
                    text.as_str(),
                )
            }),
        );
    }
    let generated = generated_corpus();
    early_row(
        "generated",
        generated.iter().map(|text| {
            (
                IssueRefund::stream(),
                IssueRefund::parse(text.as_str()).is_err(),
                text.as_str(),
            )
        }),
    );
}

fn early_row<'t, C: Judge>(name: &str, calls: impl Iterator<Item = (ArgStream<C>, bool, &'t str)>) {
    let (mut total, mut arrived) = (0usize, Vec::new());
    let mut rejected = 0;
    for (mut stream, is_rejected, text) in calls {
        total += 1;
        if !is_rejected {
            continue;
        }
        rejected += 1;
        let mut at = text.len();
        for (i, c) in text.char_indices() {
            if stream.feed(&text[i..i + c.len_utf8()]).is_err() {
                at = i + c.len_utf8();
                break;
            }
        }
        if at < text.len() {
            arrived.push(at as f64 / text.len() as f64);
        }
    }
    arrived.sort_by(f64::total_cmp);
    let early = arrived.len();
    let median = arrived.get(early / 2).copied().unwrap_or(1.0);
    let mean = if early == 0 {
        1.0
    } else {
        arrived.iter().sum::<f64>() / early as f64
    };
    println!(
        "| {name} | {total} | {rejected} | {early} ({:.0}%) | {:.0}% | {:.0}% |",
        100.0 * early as f64 / rejected.max(1) as f64,
        100.0 * median,
        100.0 * mean
    );
}

/// Refund calls with one fault each, at varied places.
fn generated_corpus() -> Vec<String> {
    let faults: [(&str, Value); 6] = [
        ("amount_cents", json!(19.99)),
        ("order_id", json!("ord_1")),
        ("reason", json!("broken")),
        ("notify_customer", json!("yes")),
        ("amount", json!(5)),
        ("tags", json!("a, b")),
    ];
    let mut calls = Vec::new();
    for (i, (field, value)) in faults.iter().enumerate() {
        for at in 0..5 {
            let mut members = vec![
                ("order_id", json!("ord_A1b2C3d4")),
                ("amount_cents", json!(1999)),
                ("reason", json!("late")),
                ("tags", json!(["fragile", "gift"])),
                ("notify_customer", json!(true)),
            ];
            members.retain(|(k, _)| k != field);
            members.insert(at.min(members.len()), (field, value.clone()));
            let object: serde_json::Map<String, Value> = members
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            calls.push(Value::Object(object).to_string());
            if i == 0 {
                calls.push(
                    r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 1999 "reason": "late"}"#
                        .to_owned(),
                );
            }
        }
    }
    calls
}

fn refund_corpus() -> Option<Vec<String>> {
    let path = std::env::var_os("TOOLARGS_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/corpus/refund.jsonl"),
        PathBuf::from,
    );
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "stream: {} not found; the refund row is skipped (scripts/corpus.sh)",
            path.display()
        );
        return None;
    };
    Some(
        text.lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .map(|record| match &record["arguments"] {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect(),
    )
}
