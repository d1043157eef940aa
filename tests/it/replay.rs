//! Replay from Rust: derived types and loaded specs as gates, counted over JSON Lines logs.

use crate::common::IssueRefund;
use serde_json::json;
use toolargs::replay::{BadRecord, Outcome, Replayer, ToolSet, Typed};
use toolargs::{ParseOptions, RawArgs, Rule, Spec, ToolArgs};

/// The five sample lines of the policy's replay walkthrough.
const SAMPLE: &str = r#"{"id": 1, "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\"}"}
{"id": 2, "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"1999\",\"reason\":\"late\"}"}
{"id": 3, "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"19.99\",\"reason\":\"late\"}"}
{"id": 4, "arguments": "```json\n{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\"}\n```"}
{"id": 5, "arguments": {"order_id": "ord_A1b2C3d4", "amount": 1999, "reason": "late"}}
"#;

fn typed_set() -> ToolSet {
    let mut tools = ToolSet::new();
    tools.insert(IssueRefund::NAME, Typed::<IssueRefund>::new());
    tools
}

#[test]
fn the_sample_log_counts_as_documented() {
    let tools = typed_set();
    let report = Replayer::new(&tools, vec![])
        .run(SAMPLE.as_bytes(), 2, |_| {})
        .unwrap();
    let t = &report.overall;
    assert_eq!(
        (t.total, t.ok_clean, t.ok_repaired, t.rejected),
        (5, 1, 2, 2)
    );
    assert_eq!(t.repairs.get("numeric_string_to_int"), Some(&1));
    assert_eq!(t.repairs.get("strip_code_fence"), Some(&1));
    assert_eq!(t.rejections.get("ambiguous_integer"), Some(&1));
    assert_eq!(t.rejections.get("unknown_field"), Some(&1));
}

#[test]
fn a_derived_type_and_its_loaded_schema_replay_the_same() {
    let mut spec_tools = ToolSet::new();
    spec_tools.insert(
        IssueRefund::NAME,
        Spec::from_schema(&IssueRefund::json_schema()).unwrap(),
    );
    let typed = typed_set();
    let a = Replayer::new(&typed, vec![])
        .run(SAMPLE.as_bytes(), 1, |_| {})
        .unwrap();
    let b = Replayer::new(&spec_tools, vec![])
        .run(SAMPLE.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!(a.to_json(), b.to_json());
}

#[test]
fn outcomes_list_every_repair_and_each_code_once() {
    let gate = Typed::<IssueRefund>::new();
    use toolargs::replay::Gate;
    let raw =
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "LATE", "tags": "x"});
    assert_eq!(
        gate.outcome(&RawArgs::from(&raw), &ParseOptions::DEFAULT),
        Outcome::Repaired(vec![
            Rule::NumericStringToInt,
            Rule::EnumCasefold,
            Rule::ScalarToList
        ])
    );
    let raw = json!({"order_id": 1, "amount_cents": true, "reason": "late", "tags": [1, 2]});
    match gate.outcome(&RawArgs::from(&raw), &ParseOptions::DEFAULT) {
        Outcome::Rejected(codes) => assert_eq!(
            codes.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            ["type"]
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn big_logs_keep_line_numbers_and_do_not_depend_on_workers() {
    let clean = r#"{"tool":"issue_refund","model":"m1","arguments":"{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":5,\"reason\":\"late\"}"}"#;
    let mut log = String::new();
    let bad_lines = [7u64, 40_001, 99_999];
    for line in 1..=100_000u64 {
        if bad_lines.contains(&line) {
            log.push_str("not json\n");
        } else if line % 3 == 0 {
            log.push_str(&clean.replace("m1", "m2"));
            log.push('\n');
        } else {
            log.push_str(clean);
            log.push('\n');
        }
    }
    log.push_str("   \n"); // a blank last line is not a record
    let tools = typed_set();
    let replayer = Replayer::new(&tools, vec!["model".into()]);
    let one = replayer.run(log.as_bytes(), 1, |_| {}).unwrap();
    let four = replayer.run(log.as_bytes(), 4, |_| {}).unwrap();
    assert_eq!(one, four);
    assert_eq!(one.overall.total, 100_000);
    assert_eq!(one.overall.bad_records.get(&BadRecord::NotJson), Some(&3));
    assert_eq!(
        one.overall.bad_lines.get(&BadRecord::NotJson),
        Some(&bad_lines.to_vec())
    );
    assert_eq!(one.groups.len(), 2);
    assert_eq!(one.overall.ok_clean, 100_000 - 3);
    let mut progress = 0;
    replayer
        .run(log.as_bytes(), 2, |bytes| progress = bytes)
        .unwrap();
    assert_eq!(progress, log.len() as u64);
}

#[test]
fn crlf_endings_and_invalid_utf8_lines_are_handled_line_by_line() {
    let clean = br#"{"tool":"issue_refund","arguments":{"order_id":"ord_A1b2C3d4","amount_cents":5,"reason":"late"}}"#;
    // Enough lines to span several blocks, CRLF endings throughout, and two lines that are not
    // UTF-8: each is its own bad record, and every other line of its block still counts.
    let mut log = Vec::new();
    let bad_lines = [3u64, 20_000];
    for line in 1..=20_000u64 {
        if bad_lines.contains(&line) {
            log.extend_from_slice(b"{\"tool\":\"issue_refund\",\"arguments\":\"\xff\xfe\"}");
        } else {
            log.extend_from_slice(clean);
        }
        log.extend_from_slice(b"\r\n");
    }
    let tools = typed_set();
    let replayer = Replayer::new(&tools, vec![]);
    let report = replayer.run(&log[..], 2, |_| {}).unwrap();
    assert_eq!(report.overall.total, 20_000);
    assert_eq!(report.overall.ok_clean, 20_000 - 2);
    assert_eq!(
        report.overall.bad_lines.get(&BadRecord::NotJson),
        Some(&bad_lines.to_vec())
    );
}
