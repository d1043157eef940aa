//! A search tool whose `filter` is a recursive union: `and`, `or` and `not` of other filters,
//! down to label tests. Beside it, a map of labels with a key pattern and a set of statuses.
//! Prints the JSON Schema (the filter is one definition in `$defs`, used by `$ref`), then a
//! clean, a repaired and a rejected call with what the model reads back. Run with
//! `cargo run --example search_tool`.

use std::collections::{BTreeMap, BTreeSet};

use toolargs::ToolArgs;

/// Search the tickets.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "read_only")]
struct SearchTickets {
    /// Words to look for.
    #[arg(min_len = 1)]
    query: String,
    /// Labels every ticket must carry, key to value.
    #[arg(key_pattern = "[a-z][a-z0-9_]*")]
    labels: Option<BTreeMap<String, String>>,
    /// Only tickets in one of these states.
    statuses: Option<BTreeSet<Status>>,
    /// A condition on the labels, as a tree.
    filter: Option<Filter>,
}

#[derive(ToolArgs, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Open,
    Pending,
    Closed,
}

/// A condition on a ticket's labels.
#[derive(ToolArgs, Debug)]
#[toolargs(tag = "op")]
enum Filter {
    /// Every filter holds.
    And { all: Vec<Filter> },
    /// At least one filter holds.
    Or { any: Vec<Filter> },
    /// The filter does not hold.
    Not { not: Box<Filter> },
    /// The label `key` has the value `value`.
    Label { key: String, value: String },
}

fn main() {
    println!(
        "== the JSON Schema\n{}\n",
        serde_json::to_string_pretty(&SearchTickets::json_schema()).expect("JSON")
    );
    let calls = [
        (
            "clean",
            r#"{"query": "login", "labels": {"team": "auth"}, "statuses": ["open", "pending"],
                "filter": {"op": "not", "not": {"op": "label", "key": "priority", "value": "low"}}}"#,
        ),
        (
            "repaired",
            r#"{"query": "login", "statuses": "Open",
                "filter": {"op": "OR", "any": [{"op": "label", "key": "team", "value": "auth"}]}}"#,
        ),
        (
            "rejected",
            r#"{"query": "login", "labels": {"Team": "auth"},
                "filter": {"op": "and", "all": [{"op": "xor"}]}}"#,
        ),
    ];
    for (label, raw) in calls {
        println!("== {label}: {raw}");
        match SearchTickets::parse(raw) {
            Ok(parsed) => {
                println!("   args: {:?}", parsed.args);
                for repair in &parsed.repairs {
                    println!(
                        "   repair {} at {}: {} -> {}",
                        repair.rule, repair.path, repair.before, repair.after
                    );
                }
                println!("   canonical: {}", parsed.args.to_json());
            }
            Err(rejection) => println!("   for the model: {}", rejection.for_model()),
        }
        println!();
    }
}
