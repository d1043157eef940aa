//! The semantic gate on golden pairs: an original call, the corrected call that followed it, and
//! what the gate decides before the corrected call runs. One line per pair: tool, field,
//! original value, corrected value, decision and reason.
//!
//! ```sh
//! cargo run --example semantic_gate
//! ```

#[path = "golden/semantic.rs"]
mod golden;

use serde_json::Value;
use toolargs::semantic::{Rate, Review};

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "-".to_owned(), Value::to_string)
}

fn line(case: &str, path: &str, review: &Review) {
    let finding = review.findings.iter().find(|f| f.path == path);
    let (original, corrected, reason) = finding.map_or_else(
        || ("-".to_owned(), "-".to_owned(), String::new()),
        |f| {
            (
                shown(f.original.as_ref()),
                shown(f.corrected.as_ref()),
                f.reason.clone(),
            )
        },
    );
    println!(
        "{:<17} {:<15} {:<16} {:<14} {:<19} {}",
        review.tool,
        path.trim_start_matches("$."),
        original,
        corrected,
        review.decision,
        if reason.is_empty() {
            case.to_owned()
        } else {
            reason
        }
    );
}

fn main() {
    println!(
        "{:<17} {:<15} {:<16} {:<14} {:<19} reason",
        "tool", "field", "original", "corrected", "decision"
    );
    let gate = golden::gate();
    for pair in golden::pairs() {
        let (_, review) = pair.review(&gate);
        line(pair.case, pair.path, &review);
    }

    // A pinned rate makes amounts in two currencies comparable, and no more: 100 USD is
    // 137.00 CAD at 1.37, not 100 CAD.
    let pinned = golden::gate().with_rate(Rate::new("USD", "CAD", "1.37").expect("a valid rate"));
    let invoice = &golden::pairs()[0];
    let (_, review) = invoice.review(&pinned);
    println!();
    line("with a pinned rate", invoice.path, &review);

    // What a confirmation asks, what the log keeps, and the audit record of the correction.
    let (correction, review) = golden::pairs()[2].review(&gate);
    println!("\n{}", review.prompt());
    println!("\n{}", review.log_line());
    println!(
        "\n{}",
        serde_json::to_string_pretty(&correction.to_json()).unwrap_or_default()
    );
}
