//! Ghost arguments: keys the tool never declared, stripped or blocked at every depth.
//!
//! Six calls to a `send_email` tool (clean, an invented `cc`, an invented nested key, a wrong
//! type, enum drift, a missing field) under both policies, then a read-only search tool whose
//! list items carry invented keys. Run with `cargo run --example send_email`.

use serde_json::{json, Value};
use toolargs::{ParseOptions, RawArgs, ToolArgs, UnknownPolicy};

/// Send an email. Messages leave the building, so unknown keys are blocked by default.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
struct SendEmail {
    to: String,
    subject: String,
    body: String,
    priority: Option<Priority>,
    options: Option<EmailOptions>,
}

#[derive(ToolArgs, Debug)]
enum Priority {
    Low,
    Normal,
    High,
}

#[derive(ToolArgs, Debug)]
struct EmailOptions {
    track_opens: Option<bool>,
}

/// Search the documentation. Read-only, so invented keys are stripped by default.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "read_only")]
struct SearchDocs {
    query: String,
    #[arg(default)]
    filters: Vec<Filter>,
}

#[derive(ToolArgs, Debug)]
struct Filter {
    field: String,
    value: String,
}

fn calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "clean call",
            json!({"to": "a@example.com", "subject": "Q3", "body": "attached"}),
        ),
        (
            "invented cc",
            json!({"to": "a@example.com", "subject": "Q3", "body": "attached", "cc": "someone@example.org"}),
        ),
        (
            "invented nested key",
            json!({"to": "a@example.com", "subject": "Q3", "body": "x", "options": {"track_opens": false, "bcc_all": true}}),
        ),
        (
            "wrong type",
            json!({"to": ["a@example.com"], "subject": "Q3", "body": "x"}),
        ),
        (
            "enum drift",
            json!({"to": "a@example.com", "subject": "Q3", "body": "x", "priority": "urgent"}),
        ),
        ("missing field", json!({"to": "a@example.com", "body": "x"})),
    ]
}

/// Parses every call under `policy` and prints one row per call.
fn table<T: ToolArgs>(title: &str, calls: &[(&str, Value)], policy: Option<UnknownPolicy>) {
    let mut options = ParseOptions::DEFAULT;
    options.unknown = policy;
    let policy = policy.unwrap_or(T::UNKNOWN);
    println!(
        "{title}: {} ({:?}), unknown keys: {}",
        T::NAME,
        T::EFFECT,
        policy.as_str()
    );
    println!("{:<24}{:<9}{:<40}errors", "call", "verdict", "stripped");
    let (mut allowed, mut blocked, mut stripped_total) = (0, 0, 0);
    for (label, raw) in calls {
        match toolargs::parse_with::<T>(&RawArgs::from(raw), &options) {
            Ok(parsed) => {
                allowed += 1;
                let stripped: Vec<&str> = parsed
                    .repairs
                    .iter()
                    .filter(|r| r.rule == "strip_unknown_field")
                    .map(|r| r.path.as_str())
                    .collect();
                stripped_total += stripped.len();
                let shown = if stripped.is_empty() {
                    "-".to_owned()
                } else {
                    stripped.join(",")
                };
                println!("{label:<24}{:<9}{shown:<40}-", "ALLOW");
                if !stripped.is_empty() {
                    println!("{:<24}runs with {}", "", parsed.args.to_json());
                }
            }
            Err(rejection) => {
                blocked += 1;
                let errors: Vec<String> = rejection
                    .errors()
                    .iter()
                    .map(|e| format!("{} {}", e.code, e.path))
                    .collect();
                println!("{label:<24}{:<9}{:<40}{}", "BLOCK", "-", errors.join("; "));
            }
        }
    }
    println!("\n{allowed} allowed, {blocked} blocked, {stripped_total} invented keys stripped\n");
}

fn main() {
    let calls = calls();
    table::<SendEmail>("strip", &calls, Some(UnknownPolicy::Strip));
    table::<SendEmail>("block (the default for a tool that sends)", &calls, None);

    let searches = vec![
        (
            "clean search",
            json!({"query": "refund policy", "filters": [{"field": "lang", "value": "en"}]}),
        ),
        (
            "invented item keys",
            json!({"query": "refund policy", "filters": [{"field": "lang", "value": "en", "boost": 2}, {"field": "year", "value": "2026", "weight": "high"}]}),
        ),
        (
            "invented top-level key",
            json!({"query": "refund policy", "limit": 500}),
        ),
    ];
    table::<SearchDocs>("read-only default", &searches, None);
}
