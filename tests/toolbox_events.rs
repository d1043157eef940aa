//! Events and counters of the dispatcher. In a test binary of its own: `tracing` caches each
//! callsite's interest for the whole process, and a callsite that another test's thread is
//! registering while this test's scoped subscriber is installed can keep the interest computed
//! without it, so an event is lost. Registering the callsites first and rebuilding the cache
//! inside the scope (`tracing::callsite::rebuild_interest_cache`) still lost one in about 300
//! runs next to the dispatcher tests.

#[path = "it/common.rs"]
mod common;

use std::sync::{Arc, Mutex};

use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use serde_json::json;
use toolargs::toolbox::{Session, ToolCall, Toolbox};

const BAD: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#;
const REPAIRABLE: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"LATE"}"#;

fn refunds() -> Toolbox {
    let mut tools = Toolbox::new();
    tools.register(|args: common::IssueRefund| Ok(json!({"refunded": args.amount_cents})));
    tools
}

#[test]
fn counters_and_events_name_tool_rule_and_code_but_no_values() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let events = Arc::new(Mutex::new(Vec::<u8>::new()));
    let writer = events.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || common::WriterHandle(writer.clone()))
        .with_ansi(false)
        .finish();
    metrics::with_local_recorder(&recorder, || {
        tracing::subscriber::with_default(subscriber, || {
            let tools = refunds();
            let mut session = Session::new();
            tools.dispatch(&mut session, ToolCall::new("r", "issue_refund", BAD));
            tools.dispatch(&mut session, ToolCall::new("r", "issue_refund", REPAIRABLE));
        });
    });
    let mut counters: Vec<(String, Vec<String>, u64)> = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .filter_map(|(key, _, _, value)| match value {
            DebugValue::Counter(n) => Some((
                key.key().name().to_owned(),
                key.key()
                    .labels()
                    .map(|l| format!("{}={}", l.key(), l.value()))
                    .collect(),
                n,
            )),
            _ => None,
        })
        .collect();
    counters.sort();
    assert_eq!(
        counters,
        [
            (
                "toolargs_calls_total".to_owned(),
                vec![
                    "tool=issue_refund".to_owned(),
                    "outcome=rejected".to_owned()
                ],
                1
            ),
            (
                "toolargs_calls_total".to_owned(),
                vec![
                    "tool=issue_refund".to_owned(),
                    "outcome=repaired".to_owned()
                ],
                1
            ),
            (
                "toolargs_rejections_total".to_owned(),
                vec![
                    "tool=issue_refund".to_owned(),
                    "code=ambiguous_integer".to_owned()
                ],
                1
            ),
            (
                "toolargs_repairs_total".to_owned(),
                vec![
                    "tool=issue_refund".to_owned(),
                    "rule=enum_casefold".to_owned()
                ],
                1
            ),
            (
                "toolargs_repairs_total".to_owned(),
                vec![
                    "tool=issue_refund".to_owned(),
                    "rule=numeric_string_to_int".to_owned()
                ],
                1
            ),
        ]
    );
    let log = String::from_utf8(events.lock().unwrap().clone()).unwrap();
    assert!(
        log.contains("argument rejected")
            && log.contains("code=\"ambiguous_integer\"")
            && log.contains("path=$.amount_cents"),
        "{log}"
    );
    assert!(
        log.contains("argument repaired") && log.contains("rule=\"numeric_string_to_int\""),
        "{log}"
    );
    assert!(
        !log.contains("19.99") && !log.contains("ord_A1b2C3d4"),
        "raw values leaked: {log}"
    );
}
