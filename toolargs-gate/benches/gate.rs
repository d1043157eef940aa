//! What the gate's judgment of one `tools/call` costs, side by side on the same lines:
//!
//! - `read`: `serde_json` reading the line into a `Value` (the floor: what any proxy that
//!   looks at a message pays);
//! - `gate`: [`Gate::from_client`] on a call to `issue_refund`, its envelope read with
//!   certainty and its arguments judged;
//! - `gate_meaning`: the same with the meaning of the amount declared (each call a new refund,
//!   weighed and fingerprinted; every 8th the correction of a rejected call in dollars, compared
//!   with it, the rejected call judged too).
//!
//! Each kind is a clean call and a repaired one.
//!
//! ```sh
//! cargo bench -p toolargs-gate --bench gate
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use serde_json::{json, Value};
use toolargs_gate::{Gate, Policy, Route, SessionOptions};

const MEANING: &str = r#"
[[tools]]
name = "issue_refund"
[tools.meaning]
amount_cents = { semantic = "money", currency = "currency", minor_units = true, critical = true }
"#;

/// A gate that learned `issue_refund`, with `policy`; its duplicate window is zero, so that
/// the calls, which come round again, run each time (the lookup is made all the same), and
/// its corrections are not capped.
fn gate(policy: &str) -> Gate {
    let options = SessionOptions::default()
        .with_duplicate_window(Duration::ZERO)
        .with_corrections_per_session(u32::MAX);
    let mut gate = Gate::new()
        .with_policy(Policy::from_toml(policy).unwrap())
        .with_session_options(options);
    gate.from_client(r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#);
    let tools = json!({"jsonrpc": "2.0", "id": 0, "result": {"tools": [{"name": "issue_refund",
        "annotations": {"destructiveHint": true},
        "inputSchema": {"type": "object", "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[0-9]+$"},
            "amount_cents": {"type": "integer", "minimum": 1},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "reason": {"type": "string", "enum": ["damaged", "late", "other"]}},
        "required": ["order_id", "amount_cents", "currency"]}}]}});
    gate.from_server(&tools.to_string());
    gate
}

/// 4 096 calls to different orders (no two the same action), `amount` as written.
fn calls(amount: &str) -> Vec<String> {
    (0..4096)
        .map(|n| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"issue_refund","arguments":{{"order_id":"ord_{n}","amount_cents":{amount},"currency":"USD","reason":"late"}}}}}}"#
            )
        })
        .collect()
}

/// Judges the calls in turn; with `corrections`, every 8th follows a rejected call of the
/// same refund, which it is compared with.
fn judge_all(gate: &mut Gate, lines: &[String], at: &mut usize, corrections: bool) -> bool {
    let line = &lines[*at % lines.len()];
    *at += 1;
    if corrections && *at % 8 == 0 {
        // The same refund in dollars, rejected (`ambiguous_integer`): the call is its
        // correction, which means the same.
        let (before, after) = line.split_once(r#""amount_cents":"#).unwrap();
        let (_, rest) = after.split_once(',').unwrap();
        let rejected = format!(r#"{before}"amount_cents":"19.99",{rest}"#);
        black_box(gate.from_client(&rejected));
    }
    let handled = gate.from_client(line);
    matches!(handled.routes.first(), Some(Route::ToServer(_)))
}

fn main() {
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (kind, amount) in [("clean", "1999"), ("repaired", r#""1999""#)] {
        let lines = calls(amount);
        let mut group = criterion.benchmark_group(format!("refund_{kind}"));
        let mut at = 0;
        group.bench_function("read", |b| {
            b.iter(|| {
                at += 1;
                black_box(serde_json::from_str::<Value>(&lines[at % lines.len()]).unwrap())
            })
        });
        for (name, policy, corrections) in [("gate", "", false), ("gate_meaning", MEANING, true)] {
            // One gate judges them all, as one session would.
            let mut gate = gate(policy);
            let mut at = 0;
            group.bench_function(name, |b| {
                b.iter(|| assert!(judge_all(&mut gate, &lines, &mut at, corrections)))
            });
        }
        group.finish();
    }
    criterion.final_summary();
}
