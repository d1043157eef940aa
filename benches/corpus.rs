//! toolargs against plain `serde_json` typed deserialization on corpora of varied calls, where
//! `benches/parse.rs` repeats one payload (the branch predictor's best case).
//!
//! Corpora:
//!
//! - `refund_written`: the refund calls of `scripts/corpus.sh` (`scripts/gen_corpus.py` at its
//!   default seed, 50 000 calls, about a third needing a repair or a rejection), with the
//!   spacing Python's `json.dumps` writes (`", "`, `": "`); decoded objects are written back the
//!   same way;
//! - `refund_compact`: the same calls re-serialised without spaces (fenced and double-encoded
//!   payloads keep their wrapping around the compacted JSON);
//! - `shipment`: a nested tool with lists of 1 to 12 line items, generated here from a fixed seed,
//!   about 15% repairable and 15% rejected;
//! - `five_errors`: refund calls that each carry five errors (pattern, ambiguous integer, enum,
//!   ambiguous list, unknown field), with varied values;
//! - `bfcl`: the Berkeley Function Calling Leaderboard's ground-truth calls, each judged by the
//!   dynamic spec of its own definition (`scripts/bfcl.py` writes both to `target/bfcl`), against
//!   serde reading the same arguments into a `serde_json::Value`.
//!
//! Each corpus is measured on all its calls and on its clean calls only (those toolargs accepts
//! without a repair). The table reports, per corpus, the median over interleaved rounds of the
//! ratio toolargs / serde on the same calls: in every round each contender parses the whole
//! corpus in turn, so a change of machine speed hits both alike.
//!
//! ```sh
//! scripts/corpus.sh                    # writes target/corpus/refund.jsonl (needs python3)
//! cargo bench --bench corpus           # criterion groups, then the ratio table
//! cargo bench --bench corpus -- --table-only
//! ```
//!
//! Without the refund corpus the refund groups are skipped with a message.
//! `TOOLARGS_REPEAT=<set>:<contender>:<passes>` parses one set `passes` times and nothing else,
//! for `valgrind --tool=callgrind` (instructions per call, see BENCHMARKS.md). `TOOLARGS_DUMP=1`
//! prints toolargs' report of every call, to compare two builds.

use std::collections::HashMap;
use std::hint::black_box;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use serde::Deserialize;
use serde_json::{json, Value};
use toolargs::ToolArgs;

#[path = "../tests/it/common.rs"]
mod common;

#[path = "shared/bfcl.rs"]
mod bfcl;
use common::IssueRefund;

// ---------------------------------------------------------------------------------------------
// The tools, as toolargs declares them and as plain serde would.

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SerdeRefund {
    order_id: String,
    amount_cents: i64,
    #[serde(default)]
    notify_customer: bool,
    reason: SerdeReason,
    #[serde(default)]
    tags: Vec<String>,
    effective_date: Option<chrono::NaiveDate>,
}

#[derive(Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
enum SerdeReason {
    Damaged,
    Late,
    Duplicate,
    Other,
}

/// Create a shipment.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "create_shipment", effect = "additive")]
#[allow(dead_code)]
struct CreateShipment {
    #[arg(pattern = r"cus_[A-Za-z0-9]{6}")]
    customer_id: String,
    #[arg(min_items = 1, max_items = 50)]
    items: Vec<LineItem>,
    address: Address,
    #[arg(default)]
    express: bool,
    notes: Option<String>,
}

#[derive(ToolArgs, Debug)]
#[allow(dead_code)]
struct LineItem {
    #[arg(pattern = r"[A-Z]{3}-[0-9]{4}")]
    sku: String,
    #[arg(min = 1, max = 1000)]
    quantity: u32,
    #[arg(min = 0.0)]
    unit_price: f64,
    #[arg(default)]
    options: Vec<String>,
}

#[derive(ToolArgs, Debug)]
#[allow(dead_code)]
struct Address {
    line1: String,
    city: String,
    #[arg(pattern = r"[A-Z]{2}")]
    country: String,
    #[arg(pattern = r"[0-9]{5}")]
    postal_code: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SerdeShipment {
    customer_id: String,
    items: Vec<SerdeLineItem>,
    address: SerdeAddress,
    #[serde(default)]
    express: bool,
    notes: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SerdeLineItem {
    sku: String,
    quantity: u32,
    unit_price: f64,
    #[serde(default)]
    options: Vec<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SerdeAddress {
    line1: String,
    city: String,
    country: String,
    postal_code: String,
}

// ---------------------------------------------------------------------------------------------
// The contenders: what each does with one call, as in benches/parse.rs (a rejection writes
// `for_model()`, serde's error its `to_string()`: what goes back to the model).

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Outcome {
    Clean,
    Repaired,
    Rejected,
}

fn outcome<T>(result: Result<toolargs::Parsed<T>, toolargs::Rejection>) -> Outcome {
    match result {
        Ok(parsed) if parsed.repairs.is_empty() => {
            black_box(parsed);
            Outcome::Clean
        }
        Ok(parsed) => {
            black_box(parsed);
            Outcome::Repaired
        }
        Err(rejection) => {
            black_box(rejection.for_model());
            Outcome::Rejected
        }
    }
}

fn serde_outcome<T>(result: serde_json::Result<T>) -> Outcome {
    match result {
        Ok(v) => {
            black_box(v);
            Outcome::Clean
        }
        Err(e) => {
            black_box(e.to_string());
            Outcome::Rejected
        }
    }
}

type Parse = fn(&str) -> Outcome;

fn serde_refund(text: &str) -> Outcome {
    serde_outcome(serde_json::from_str::<SerdeRefund>(text))
}

fn toolargs_refund(text: &str) -> Outcome {
    outcome(IssueRefund::parse(text))
}

fn serde_scan(text: &str) -> Outcome {
    serde_outcome(serde_json::from_str::<serde::de::IgnoredAny>(text))
}

/// The envelope and the tree of a typed tool's parse (`expect_object`, the tool's policy),
/// and no coercion.
fn toolargs_read(text: &str) -> Outcome {
    let raw = toolargs::RawArgs::from(text);
    outcome(toolargs::ext::parse_payload(
        &raw,
        &toolargs::ParseOptions::DEFAULT,
        true,
        toolargs::UnknownPolicy::Reject,
        |node, _| Some(matches!(black_box(node), toolargs::ext::Node::Null)),
    ))
}

/// The stream's reader serving a whole payload: the call fed in one piece, each member read
/// into its field as the scan delimits it, and the verdict assembled at the close.
fn stream_whole<C: toolargs::Judge>(
    mut stream: toolargs::stream::ArgStream<C>,
    text: &str,
) -> Outcome {
    let _ = stream.feed(text);
    outcome(stream.finish())
}

fn toolargs_stream_refund(text: &str) -> Outcome {
    stream_whole(IssueRefund::stream(), text)
}

fn toolargs_stream_shipment(text: &str) -> Outcome {
    stream_whole(CreateShipment::stream(), text)
}

fn toolargs_stream_bfcl(call: &str) -> Outcome {
    by_bfcl_spec(call, |spec, arguments| {
        stream_whole(spec.stream(), arguments)
    })
}

fn serde_scan_bfcl(call: &str) -> Outcome {
    serde_scan(
        call.split_once('\t')
            .map_or(call, |(_, arguments)| arguments),
    )
}

fn toolargs_read_bfcl(call: &str) -> Outcome {
    toolargs_read(
        call.split_once('\t')
            .map_or(call, |(_, arguments)| arguments),
    )
}

fn serde_shipment(text: &str) -> Outcome {
    serde_outcome(serde_json::from_str::<SerdeShipment>(text))
}

fn toolargs_shipment(text: &str) -> Outcome {
    outcome(CreateShipment::parse(text))
}

/// BFCL: a call is `<tool>\t<arguments>`; the tool's loaded spec judges the arguments.
/// serde has no type for a definition known only at run time, so its contender reads the
/// arguments into a `serde_json::Value`, which is what a program without a gate would do.
fn serde_bfcl(call: &str) -> Outcome {
    let (_, arguments) = call.split_once('\t').unwrap_or(("", call));
    serde_outcome(serde_json::from_str::<Value>(arguments))
}

fn toolargs_bfcl(call: &str) -> Outcome {
    by_bfcl_spec(call, |spec, arguments| outcome(spec.parse(arguments)))
}

/// `judge` on a BFCL call's arguments and the loaded spec of its tool (rejected when the
/// tool is unknown).
fn by_bfcl_spec(
    call: &str,
    judge: impl FnOnce(&toolargs::dynamic::Spec, &str) -> Outcome,
) -> Outcome {
    let (tool, arguments) = call.split_once('\t').unwrap_or(("", call));
    match BFCL_TOOLS.get().and_then(|tools| tools.get(tool)) {
        Some(spec) => judge(spec, arguments),
        None => Outcome::Rejected,
    }
}

/// The BFCL definitions by name, loaded once by [`bfcl_corpus`].
static BFCL_TOOLS: std::sync::OnceLock<HashMap<String, toolargs::dynamic::Spec>> =
    std::sync::OnceLock::new();

/// The contender names, in the order they are measured and reported.
const NAMES: [&str; 2] = ["serde", "toolargs"];

/// Parts of a parse, counted only through `TOOLARGS_REPEAT` (where the gap between the two
/// contenders lies): serde checking the JSON without building anything (`IgnoredAny`, the
/// floor of any reader), toolargs' envelope and tree reading without coercion, and the
/// stream's one-pass reader given the whole call (`toolargs_stream`).
const PROBES: [&str; 3] = ["serde_scan", "toolargs_read", "toolargs_stream"];

/// One set of calls to one tool, and how each contender parses a call.
struct Set {
    name: String,
    calls: Vec<String>,
    /// The contenders of [`NAMES`], then the probes of [`PROBES`].
    run: [Parse; 5],
}

impl Set {
    // Not inlined, so that callgrind can count only the passes (`--toggle-collect`).
    #[inline(never)]
    fn pass(&self, contender: usize) -> usize {
        let run = self.run[contender];
        let mut n = 0;
        for call in &self.calls {
            n += run(black_box(call)) as usize;
        }
        n
    }
}

// ---------------------------------------------------------------------------------------------
// The corpora.

/// Python's `json.dumps` spacing: `", "` between items, `": "` after a key.
struct PySpacing;

impl serde_json::ser::Formatter for PySpacing {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

fn python_dumps(value: &Value) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, PySpacing);
    serde::Serialize::serialize(value, &mut ser).expect("a Value serialises");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The JSON inside a payload compacted, its wrapping (a fence, a second encoding) kept.
fn compact(text: &str) -> String {
    if let Some(inner) = text
        .strip_prefix("```json\n")
        .and_then(|t| t.strip_suffix("\n```"))
    {
        return format!("```json\n{}\n```", compact(inner));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::String(inner)) => Value::String(compact(&inner)).to_string(),
        Ok(value) => value.to_string(),
        Err(_) => text.to_owned(),
    }
}

fn corpus_path() -> PathBuf {
    if let Some(path) = std::env::var_os("TOOLARGS_CORPUS") {
        return PathBuf::from(path);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/corpus/refund.jsonl")
}

/// The argument texts of the refund corpus, as written; `None` (with a message) when missing.
fn refund_corpus() -> Option<Vec<String>> {
    let path = corpus_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "corpus: {} not found; the refund groups are skipped (write it with scripts/corpus.sh)",
            path.display()
        );
        return None;
    };
    let mut calls = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(record) = serde_json::from_str::<Value>(line) else {
            eprintln!("corpus: {}: a line is not JSON; skipped", path.display());
            return None;
        };
        match &record["arguments"] {
            Value::String(s) => calls.push(s.clone()),
            other => calls.push(python_dumps(other)),
        }
    }
    Some(calls)
}

/// The BFCL ground-truth calls to the definitions that load, as `<tool>\t<arguments>`
/// ([`bfcl::bfcl_calls`]); the definitions go to `BFCL_TOOLS`.
fn bfcl_corpus() -> Option<Vec<String>> {
    let (specs, calls) = bfcl::bfcl_calls("corpus")?;
    let _ = BFCL_TOOLS.set(specs);
    Some(
        calls
            .into_iter()
            .map(|(tool, arguments)| format!("{tool}\t{arguments}"))
            .collect(),
    )
}

/// A small deterministic generator (SplitMix64), so the generated corpora never change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    fn word(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| alphabet[self.below(alphabet.len() as u64) as usize] as char)
            .collect()
    }
}

const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS: &[u8] = b"0123456789";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Shipment calls with 1 to 12 line items; about 15% repairable, 15% rejected.
fn shipment_corpus(n: usize) -> Vec<String> {
    let mut rng = Rng(0x5EED_0001);
    let streets = [
        "Main Street",
        "Elm Road",
        "Harbour Lane",
        "Rue de la Paix",
        "Oak Avenue",
    ];
    let cities = [
        "Springfield",
        "Lyon",
        "Osaka",
        "Porto Alegre",
        "Leeds",
        "Tucson",
    ];
    let countries = ["US", "FR", "JP", "BR", "GB"];
    let options = ["gift_wrap", "bulk", "no_invoice", "fragile", "signature"];
    let notes = [
        "leave at the door",
        "call on arrival",
        "ring twice",
        "back entrance",
    ];
    (0..n)
        .map(|_| {
            let items: Vec<Value> = (0..1 + rng.below(12))
                .map(|_| {
                    let mut item = json!({
                        "sku": format!("{}-{}", rng.word(UPPER, 3), rng.word(DIGITS, 4)),
                        "quantity": 1 + rng.below(40),
                        "unit_price": (rng.below(50_000) as f64) / 100.0,
                    });
                    if rng.chance(40) {
                        let k = 1 + rng.below(2) as usize;
                        let opts: Vec<&str> = (0..k).map(|_| rng.pick(&options)).collect();
                        item["options"] = json!(opts);
                    }
                    item
                })
                .collect();
            let mut call = json!({
                "customer_id": format!("cus_{}", rng.word(ALNUM, 6)),
                "items": items,
                "address": {
                    "line1": format!("{} {}", 1 + rng.below(999), rng.pick(&streets)),
                    "city": rng.pick(&cities),
                    "country": rng.pick(&countries),
                    "postal_code": rng.word(DIGITS, 5),
                },
            });
            if rng.chance(50) {
                call["express"] = json!(rng.chance(50));
            }
            if rng.chance(40) {
                call["notes"] = json!(rng.pick(&notes));
            }
            let last = call["items"].as_array().map_or(0, Vec::len) - 1;
            let at = rng.below(last as u64 + 1) as usize;
            let r = rng.below(100);
            if r < 15 {
                // A repair: a quantity as a string, a lone option, an express flag as a string.
                match rng.below(3) {
                    0 => {
                        let q = call["items"][at]["quantity"].to_string();
                        call["items"][at]["quantity"] = json!(q);
                    }
                    1 => call["items"][at]["options"] = json!(rng.pick(&options)),
                    _ => call["express"] = json!("true"),
                }
            } else if r < 30 {
                // A rejection: a SKU in lower case, a quantity of zero, a fractional quantity,
                // an unknown key.
                match rng.below(4) {
                    0 => {
                        let sku = call["items"][at]["sku"].as_str().unwrap_or_default();
                        call["items"][at]["sku"] = json!(sku.to_lowercase());
                    }
                    1 => call["items"][at]["quantity"] = json!(0),
                    2 => call["items"][at]["quantity"] = json!("2.5"),
                    _ => call["address"]["zip"] = json!("12345"),
                }
            }
            python_dumps(&call)
        })
        .collect()
}

/// Refund calls with five errors each: pattern, ambiguous integer, enum, ambiguous list and an
/// unknown field.
fn five_error_corpus(n: usize) -> Vec<String> {
    let mut rng = Rng(0x5EED_0002);
    let reasons = ["refund", "broken", "lost", "wrong_item", "not_needed"];
    let tags = ["fragile, gift", "vip; bulk", "a, b", "gift\nvip"];
    let unknown = ["amount", "order", "notify", "currency"];
    (0..n)
        .map(|_| {
            let len = 3 + rng.below(4) as usize;
            let mut call = json!({
                "order_id": format!("ord_{}", rng.word(ALNUM, len)),
                "amount_cents": format!("{}.{:02}", rng.below(500), rng.below(100)),
                "reason": rng.pick(&reasons),
                "tags": rng.pick(&tags),
            });
            if rng.chance(50) {
                call["effective_date"] =
                    json!(format!("2026-0{}-1{}", 1 + rng.below(9), rng.below(9)));
            }
            call[rng.pick(&unknown)] = json!(1 + rng.below(50_000));
            python_dumps(&call)
        })
        .collect()
}

/// Every set: each corpus whole, and its clean calls only.
fn sets() -> Vec<Set> {
    let refund = [
        serde_refund,
        toolargs_refund,
        serde_scan,
        toolargs_read as Parse,
        toolargs_stream_refund,
    ];
    let shipment = [
        serde_shipment,
        toolargs_shipment,
        serde_scan,
        toolargs_read as Parse,
        toolargs_stream_shipment,
    ];
    let mut corpora: Vec<(&str, Vec<String>, [Parse; 5])> = Vec::new();
    if let Some(written) = refund_corpus() {
        let compacted = written.iter().map(|t| compact(t)).collect();
        corpora.push(("refund_written", written, refund));
        corpora.push(("refund_compact", compacted, refund));
    }
    corpora.push(("shipment", shipment_corpus(5_000), shipment));
    corpora.push(("five_errors", five_error_corpus(2_000), refund));
    if let Some(calls) = bfcl_corpus() {
        let bfcl = [
            serde_bfcl,
            toolargs_bfcl,
            serde_scan_bfcl,
            toolargs_read_bfcl as Parse,
            toolargs_stream_bfcl,
        ];
        corpora.push(("bfcl", calls, bfcl));
    }
    let mut sets = Vec::new();
    for (name, calls, run) in corpora {
        let clean: Vec<String> = calls
            .iter()
            .filter(|c| run[1](c) == Outcome::Clean)
            .cloned()
            .collect();
        if !clean.is_empty() {
            sets.push(Set {
                name: format!("{name}/clean"),
                calls: clean,
                run,
            });
        }
        sets.push(Set {
            name: format!("{name}/all"),
            calls,
            run,
        });
    }
    sets
}

// ---------------------------------------------------------------------------------------------
// Running, then reporting ratios.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sets = sets();
    if let Ok(request) = std::env::var("TOOLARGS_REPEAT") {
        return repeat(&sets, &request);
    }
    if std::env::var_os("TOOLARGS_DUMP").is_some() {
        return dump(&sets);
    }
    let table_only = args.iter().any(|a| a == "--table-only");
    let filters: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with('-') && !table_only)
        .collect();
    let selected: Vec<&Set> = sets
        .iter()
        .filter(|s| filters.is_empty() || filters.iter().any(|f| s.name.contains(f.as_str())))
        .collect();
    summary(&selected);

    if !table_only {
        let mut criterion = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        for set in &sets {
            let mut group = criterion.benchmark_group(format!("corpus/{}", set.name));
            group.throughput(Throughput::Elements(set.calls.len() as u64));
            for (i, name) in NAMES.iter().enumerate() {
                group.bench_function(*name, |b| b.iter(|| set.pass(i)));
            }
            group.finish();
        }
        criterion.final_summary();
    }

    // Only after a real measurement run (not `cargo test --benches`, `--list` or profiling).
    let profiling = args
        .iter()
        .any(|a| a == "--list" || a.starts_with("--profile-time"));
    if (table_only || args.iter().any(|a| a == "--bench")) && !profiling {
        report(&selected);
    }
}

/// What toolargs made of each set, for the reader of the table.
fn summary(sets: &[&Set]) {
    for set in sets {
        let (mut clean, mut repaired, mut rejected) = (0, 0, 0);
        for call in &set.calls {
            match set.run[1](call) {
                Outcome::Clean => clean += 1,
                Outcome::Repaired => repaired += 1,
                Outcome::Rejected => rejected += 1,
            }
        }
        let serde_ok = set
            .calls
            .iter()
            .filter(|c| set.run[0](c) == Outcome::Clean)
            .count();
        println!(
            "{}: {} calls; toolargs: {clean} clean, {repaired} repaired, {rejected} rejected; serde accepts {serde_ok}",
            set.name,
            set.calls.len()
        );
    }
}

/// `TOOLARGS_DUMP=1`: what toolargs reports for every call of every set (the repairs, or
/// `for_model()`), one line each, to compare the reports of two builds byte for byte.
fn dump(sets: &[Set]) {
    use std::io::Write as _;
    let mut out = io::BufWriter::new(io::stdout().lock());
    for set in sets.iter().filter(|s| s.name.ends_with("/all")) {
        for call in &set.calls {
            let report = if set.name.starts_with("shipment") {
                reported(CreateShipment::parse(call.as_str()))
            } else if set.name.starts_with("bfcl") {
                let (tool, arguments) = call.split_once('\t').unwrap_or(("", call));
                match BFCL_TOOLS.get().and_then(|tools| tools.get(tool)) {
                    Some(spec) => reported(spec.parse(arguments)),
                    None => format!("no definition named {tool:?}"),
                }
            } else {
                reported(IssueRefund::parse(call.as_str()))
            };
            let _ = writeln!(out, "{}\t{report}", set.name);
        }
    }
}

fn reported<T>(result: Result<toolargs::Parsed<T>, toolargs::Rejection>) -> String {
    match result {
        Ok(parsed) => format!("{:?}", parsed.repairs),
        Err(rejection) => rejection.for_model(),
    }
}

/// `TOOLARGS_REPEAT=<set>:<contender>:<passes>`: one contender (or probe) parses one set
/// `passes` times.
fn repeat(sets: &[Set], request: &str) {
    let parts: Vec<&str> = request.split(':').collect();
    let [name, contender, n] = parts[..] else {
        panic!("TOOLARGS_REPEAT={request}: expected <set>:<contender>:<passes>");
    };
    let set = sets.iter().find(|s| s.name == name);
    let index = NAMES.iter().chain(&PROBES).position(|c| *c == contender);
    let (Some(set), Some(index), Ok(n)) = (set, index, n.parse::<usize>()) else {
        panic!("TOOLARGS_REPEAT={request}: unknown set or contender, or not a count");
    };
    println!("calls per pass: {}", set.calls.len());
    for _ in 0..n {
        black_box(set.pass(index));
    }
}

/// Per set, the median over interleaved rounds of each contender's time per call and of the
/// ratio toolargs / serde within a round.
fn report(sets: &[&Set]) {
    const ROUNDS: usize = 21;
    let mut times = vec![[Vec::new(), Vec::new()]; sets.len()];
    // One untimed pass each, to warm caches and the decoder's pools.
    for set in sets {
        black_box((set.pass(0), set.pass(1)));
    }
    for _ in 0..ROUNDS {
        for (s, set) in sets.iter().enumerate() {
            for (c, t) in times[s].iter_mut().enumerate() {
                let start = Instant::now();
                black_box(set.pass(c));
                t.push(start.elapsed().as_nanos() as f64 / set.calls.len() as f64);
            }
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut table = String::new();
    table.push_str("| set | calls | serde ns/call | toolargs ns/call | toolargs / serde (median of rounds) | range |\n");
    table.push_str("|---|---:|---:|---:|---:|---|\n");
    for (set, [serde, toolargs]) in sets.iter().zip(times) {
        let ratios: Vec<f64> = serde.iter().zip(&toolargs).map(|(s, t)| t / s).collect();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
        table.push_str(&format!(
            "| {} | {} | {:.0} | {:.0} | **{:.2}x** | {:.2}–{:.2} |\n",
            set.name,
            set.calls.len(),
            median(serde),
            median(toolargs),
            median(ratios),
            lo,
            hi
        ));
    }
    println!("\n{ROUNDS} interleaved rounds, each contender parsing each whole set in turn:\n");
    println!("{table}");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/criterion");
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(dir.join("corpus_ratios.md"), &table);
    }
}
