//! toolargs against the alternatives, side by side on the same payloads:
//!
//! - `serde`: plain `serde_json` typed deserialization of an equivalent struct (the floor: no
//!   repairs, no bounds, no pattern, first error only),
//! - `toolargs`: the derived parser,
//! - `jsonschema_serde`: `jsonschema` validation of a `Value` against the tool's schema, then
//!   `serde_json::from_value` (what a Rust user would write to get validation),
//! - `spec`: the dynamic [`toolargs::Spec`] loaded from the tool's emitted schema.
//!
//! Each group is one kind of call (clean, repairable, rejected) for one tool. After the run a
//! table of ratios to the floor is printed and written to `<criterion dir>/ratios.md`, along with
//! the heap allocations of one call of each contender.
//!
//! ```sh
//! cargo bench --bench parse                 # everything
//! cargo bench --bench parse -- refund_clean # one group
//! scripts/instructions.sh                   # instructions per call, under callgrind
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::Criterion;
use serde::Deserialize;
use serde_json::Value;
use toolargs::{Spec, ToolArgs};

// ---------------------------------------------------------------------------------------------
// Counting allocator: every allocation and reallocation of the process, read around one call.

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only an
// atomic integer.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap allocations (including reallocations) made by one call of `f`, after a warm-up call.
fn allocations<R>(mut f: impl FnMut() -> R) -> usize {
    drop(black_box(f()));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let out = black_box(f());
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    drop(out);
    after - before
}

// ---------------------------------------------------------------------------------------------
// The refund tool, as toolargs declares it and as plain serde would.

// The refund tool of the integration tests, so that the benchmark measures the same contract.
#[path = "../tests/it/common.rs"]
mod common;
use common::IssueRefund;

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

const REFUND_CLEAN: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"notify_customer":true,"reason":"damaged","tags":["fragile","priority"],"effective_date":"2024-05-01"}"#;
/// Four repairs: `numeric_string_to_int`, `string_to_bool`, `enum_casefold`, `scalar_to_list`.
const REFUND_REPAIRED: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","notify_customer":"true","reason":"Damaged","tags":"fragile","effective_date":"2024-05-01"}"#;
/// One error, the most common kind: `ambiguous_integer` at `$.amount_cents`.
const REFUND_REJECTED: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","notify_customer":true,"reason":"damaged","tags":["fragile","priority"],"effective_date":"2024-05-01"}"#;
/// Five errors at once: `pattern`, `ambiguous_integer`, `enum`, `ambiguous_list`, `unknown_field`.
const REFUND_REJECTED_MANY: &str = r#"{"order_id":"ord_123","amount_cents":"19.99","reason":"refund","tags":"a, b","effective_date":"2024-05-01","amount":1999}"#;

// ---------------------------------------------------------------------------------------------
// A nested tool: a list of objects, a nested object, optional and defaulted fields.

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

const SHIPMENT_CLEAN: &str = r#"{"customer_id":"cus_Ab12Cd","items":[{"sku":"ABC-0001","quantity":2,"unit_price":19.99,"options":["gift_wrap"]},{"sku":"ABC-0002","quantity":1,"unit_price":5.5},{"sku":"XYZ-1234","quantity":10,"unit_price":0.99,"options":["bulk","no_invoice"]},{"sku":"DEF-0042","quantity":1,"unit_price":120},{"sku":"GHI-7777","quantity":3,"unit_price":7.25}],"address":{"line1":"1 Main Street","city":"Springfield","country":"US","postal_code":"12345"},"express":true,"notes":"leave at the door"}"#;
/// Three repairs: two `numeric_string_to_int`, one `scalar_to_list`.
const SHIPMENT_REPAIRED: &str = r#"{"customer_id":"cus_Ab12Cd","items":[{"sku":"ABC-0001","quantity":"2","unit_price":19.99,"options":"gift_wrap"},{"sku":"ABC-0002","quantity":1,"unit_price":5.5},{"sku":"XYZ-1234","quantity":"10","unit_price":0.99,"options":["bulk","no_invoice"]},{"sku":"DEF-0042","quantity":1,"unit_price":120},{"sku":"GHI-7777","quantity":3,"unit_price":7.25}],"address":{"line1":"1 Main Street","city":"Springfield","country":"US","postal_code":"12345"},"express":true,"notes":"leave at the door"}"#;
/// Two errors deep in the list: `pattern` at `$.items[2].sku`, `out_of_range` at `$.items[3].quantity`.
const SHIPMENT_REJECTED: &str = r#"{"customer_id":"cus_Ab12Cd","items":[{"sku":"ABC-0001","quantity":2,"unit_price":19.99,"options":["gift_wrap"]},{"sku":"ABC-0002","quantity":1,"unit_price":5.5},{"sku":"xyz-1234","quantity":10,"unit_price":0.99,"options":["bulk","no_invoice"]},{"sku":"DEF-0042","quantity":0,"unit_price":120},{"sku":"GHI-7777","quantity":3,"unit_price":7.25}],"address":{"line1":"1 Main Street","city":"Springfield","country":"US","postal_code":"12345"},"express":true,"notes":"leave at the door"}"#;

// ---------------------------------------------------------------------------------------------
// The contenders, each on JSON text.

/// What a parse came to, so every contender's result is consumed the same way.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Outcome {
    Clean,
    Repaired,
    Rejected,
}

struct Contenders {
    name: &'static str,
    serde: fn(&str) -> Outcome,
    toolargs: fn(&str) -> Outcome,
    validator: jsonschema::Validator,
    spec: Spec,
}

impl Contenders {
    fn new<T: ToolArgs>(
        name: &'static str,
        serde: fn(&str) -> Outcome,
        toolargs: fn(&str) -> Outcome,
    ) -> Contenders {
        let schema = T::json_schema();
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the emitted schema compiles");
        let spec = Spec::from_json(&schema.to_string()).expect("the emitted schema loads");
        Contenders {
            name,
            serde,
            toolargs,
            validator,
            spec,
        }
    }

    fn jsonschema_serde<T: for<'de> Deserialize<'de>>(&self, text: &str) -> Outcome {
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return Outcome::Rejected;
        };
        if !self.validator.is_valid(&value) {
            // Every error, as toolargs reports them.
            let errors: Vec<(String, String)> = self
                .validator
                .iter_errors(&value)
                .map(|e| (e.instance_path.to_string(), e.to_string()))
                .collect();
            black_box(errors);
            return Outcome::Rejected;
        }
        match serde_json::from_value::<T>(value) {
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

    fn spec(&self, text: &str) -> Outcome {
        outcome(self.spec.parse(text))
    }
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

fn serde_refund(text: &str) -> Outcome {
    serde_outcome(serde_json::from_str::<SerdeRefund>(text))
}

fn toolargs_refund(text: &str) -> Outcome {
    outcome(IssueRefund::parse(text))
}

fn serde_shipment(text: &str) -> Outcome {
    serde_outcome(serde_json::from_str::<SerdeShipment>(text))
}

fn toolargs_shipment(text: &str) -> Outcome {
    outcome(CreateShipment::parse(text))
}

/// The contender names, in the order they are measured and reported.
const NAMES: [&str; 4] = ["serde", "toolargs", "jsonschema_serde", "spec"];

/// One group: every contender on one payload.
struct Case {
    group: String,
    /// What toolargs makes of the payload (checked before measuring).
    expect: Outcome,
    run: [Box<dyn Fn() -> Outcome>; 4],
}

fn cases() -> Vec<Case> {
    let refund = std::rc::Rc::new(Contenders::new::<IssueRefund>(
        "refund",
        serde_refund,
        toolargs_refund,
    ));
    let shipment = std::rc::Rc::new(Contenders::new::<CreateShipment>(
        "shipment",
        serde_shipment,
        toolargs_shipment,
    ));
    let mut cases = Vec::new();
    let mut add = |c: &std::rc::Rc<Contenders>,
                   kind: &str,
                   text: &'static str,
                   expect: Outcome,
                   typed: fn(&Contenders, &str) -> Outcome| {
        let (a, d) = (c.clone(), c.clone());
        let (serde, toolargs) = (c.serde, c.toolargs);
        cases.push(Case {
            group: format!("{}_{kind}", c.name),
            expect,
            run: [
                Box::new(move || serde(black_box(text))),
                Box::new(move || toolargs(black_box(text))),
                Box::new(move || typed(&a, black_box(text))),
                Box::new(move || d.spec(black_box(text))),
            ],
        });
    };
    let refund_js: fn(&Contenders, &str) -> Outcome = |c, t| c.jsonschema_serde::<SerdeRefund>(t);
    let shipment_js: fn(&Contenders, &str) -> Outcome =
        |c, t| c.jsonschema_serde::<SerdeShipment>(t);
    add(&refund, "clean", REFUND_CLEAN, Outcome::Clean, refund_js);
    add(
        &refund,
        "repaired",
        REFUND_REPAIRED,
        Outcome::Repaired,
        refund_js,
    );
    add(
        &refund,
        "rejected",
        REFUND_REJECTED,
        Outcome::Rejected,
        refund_js,
    );
    add(
        &refund,
        "rejected_many",
        REFUND_REJECTED_MANY,
        Outcome::Rejected,
        refund_js,
    );
    add(
        &shipment,
        "clean",
        SHIPMENT_CLEAN,
        Outcome::Clean,
        shipment_js,
    );
    add(
        &shipment,
        "repaired",
        SHIPMENT_REPAIRED,
        Outcome::Repaired,
        shipment_js,
    );
    add(
        &shipment,
        "rejected",
        SHIPMENT_REJECTED,
        Outcome::Rejected,
        shipment_js,
    );
    cases
}

// ---------------------------------------------------------------------------------------------
// Running, then reporting ratios.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases = cases();
    if let Ok(request) = std::env::var("TOOLARGS_REPEAT") {
        return repeat(&cases, &request);
    }
    for case in &cases {
        let got: Vec<Outcome> = case.run.iter().map(|f| f()).collect();
        assert_eq!(got[1], case.expect, "toolargs on {}", case.group);
        assert_eq!(got[3], case.expect, "spec on {}", case.group);
    }

    let mut criterion = Criterion::default().configure_from_args();
    for case in &cases {
        let mut group = criterion.benchmark_group(&case.group);
        for (name, run) in NAMES.iter().zip(&case.run) {
            group.bench_function(*name, |b| b.iter(run));
        }
        group.finish();
    }
    criterion.final_summary();

    // Only after a real measurement run (not `cargo test --benches`, `--list` or profiling).
    let profiling = args
        .iter()
        .any(|a| a == "--list" || a.starts_with("--profile-time"));
    if args.iter().any(|a| a == "--bench") && !profiling {
        let filters = positional(&args);
        let selected: Vec<&Case> = cases
            .iter()
            .filter(|c| filters.is_empty() || filters.iter().any(|f| c.group.contains(f.as_str())))
            .collect();
        report(&selected, &cases);
    }
}

/// `TOOLARGS_REPEAT=<group>:<contender>:<n>`: one contender parses one group's payload `n`
/// times, and nothing else runs. Under `valgrind --tool=callgrind` the difference between two
/// values of `n` is an instruction count per call that does not drift with the machine's speed
/// (`scripts/instructions.sh`).
fn repeat(cases: &[Case], request: &str) {
    let parts: Vec<&str> = request.split(':').collect();
    let [group, contender, n] = parts[..] else {
        panic!("TOOLARGS_REPEAT={request}: expected <group>:<contender>:<n>");
    };
    let case = cases.iter().find(|c| c.group == group);
    let index = NAMES.iter().position(|name| *name == contender);
    let (Some(case), Some(index), Ok(n)) = (case, index, n.parse::<usize>()) else {
        panic!("TOOLARGS_REPEAT={request}: unknown group or contender, or not a count");
    };
    for _ in 0..n {
        black_box((case.run[index])());
    }
}

/// The filters among criterion's arguments: those that are neither flags nor flag values.
fn positional(args: &[String]) -> Vec<String> {
    const WITH_VALUE: &[&str] = &[
        "--save-baseline",
        "-s",
        "--baseline",
        "-b",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--plotting-backend",
        "--output-format",
        "--color",
        "-c",
        "--format",
    ];
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if arg.starts_with('-') {
            skip = WITH_VALUE.contains(&arg.as_str());
        } else {
            out.push(arg.clone());
        }
    }
    out
}

/// Median nanoseconds per call of each of `runs`, measured interleaved: round after round,
/// every one runs a short batch in turn, so a machine that slows down or speeds up during the
/// run (other processes, frequency changes) affects all of them alike.
fn interleaved(runs: &[&dyn Fn() -> Outcome]) -> Vec<f64> {
    const ROUNDS: usize = 301;
    const BATCH: std::time::Duration = std::time::Duration::from_millis(2);
    let batch: Vec<u32> = runs
        .iter()
        .map(|run| {
            let start = std::time::Instant::now();
            let mut n = 0u32;
            while start.elapsed() < BATCH {
                black_box(run());
                n += 1;
            }
            n.max(1)
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(ROUNDS); runs.len()];
    for _ in 0..ROUNDS {
        for (i, run) in runs.iter().enumerate() {
            let start = std::time::Instant::now();
            for _ in 0..batch[i] {
                black_box(run());
            }
            samples[i].push(start.elapsed().as_nanos() as f64 / f64::from(batch[i]));
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect()
}

/// Where criterion writes its results (the rule criterion itself follows).
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    let metadata = std::env::var_os("CARGO").and_then(|cargo| {
        std::process::Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .output()
            .ok()
    });
    metadata
        .and_then(|out| serde_json::from_slice::<Value>(&out.stdout).ok())
        .and_then(|m| m["target_directory"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("target"))
        .join("criterion")
}

fn report(cases: &[&Case], all: &[Case]) {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| group | serde | toolargs | jsonschema + serde | spec | floor | toolargs / floor | toolargs / jsonschema |"
    );
    let _ = writeln!(table, "|---|---|---|---|---|---|---|---|");
    for case in cases {
        // The floor (serde on the clean call of the same tool) runs in the same rounds.
        let tool = case.group.split('_').next().unwrap_or_default();
        let clean = format!("{tool}_clean");
        let Some(floor) = all.iter().find(|c| c.group == clean) else {
            continue;
        };
        let runs: Vec<&dyn Fn() -> Outcome> = case
            .run
            .iter()
            .map(|r| &**r as &dyn Fn() -> Outcome)
            .chain([&*floor.run[0] as &dyn Fn() -> Outcome])
            .collect();
        let t = interleaved(&runs);
        let _ = writeln!(
            table,
            "| {} | {:.0} ns | {:.0} ns | {:.0} ns | {:.0} ns | {:.0} ns | {:.2}x | {:.2}x |",
            case.group,
            t[0],
            t[1],
            t[2],
            t[3],
            t[4],
            t[1] / t[4],
            t[1] / t[2],
        );
    }
    let _ = writeln!(table);
    let _ = writeln!(
        table,
        "Heap allocations per call (allocations and reallocations):"
    );
    let _ = writeln!(table);
    let _ = writeln!(
        table,
        "| group | serde | toolargs | jsonschema + serde | spec |"
    );
    let _ = writeln!(table, "|---|---|---|---|---|");
    for case in cases {
        let counts: Vec<String> = case
            .run
            .iter()
            .map(|run| allocations(run).to_string())
            .collect();
        let _ = writeln!(table, "| {} | {} |", case.group, counts.join(" | "));
    }
    println!(
        "\nMedian ns per call, measured interleaved; floor = serde on the clean call of the same tool, in the same rounds:\n"
    );
    println!("{table}");
    let dir = criterion_dir();
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(dir.join("ratios.md"), &table);
    }
}
