//! The `tracing` events of the `Deserialize` impl (feature `serde`), in a test binary of its
//! own: `tracing` caches each callsite's interest for the whole process (see
//! `toolbox_events.rs`).

#[path = "it/common.rs"]
mod common;

use std::sync::{Arc, Mutex};

#[test]
fn each_repair_is_an_event_with_tool_path_and_rule_but_no_value() {
    let events = Arc::new(Mutex::new(Vec::<u8>::new()));
    let writer = events.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || common::WriterHandle(writer.clone()))
        .with_ansi(false)
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        let refund: common::IssueRefund = serde_json::from_str(
            r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"LATE"}"#,
        )
        .unwrap();
        assert_eq!(refund.amount_cents, 1999);
    });
    let text = String::from_utf8(events.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (line, (path, rule)) in lines.iter().zip([
        ("$.amount_cents", "numeric_string_to_int"),
        ("$.reason", "enum_casefold"),
    ]) {
        assert!(line.contains("repaired a tool argument"), "{line}");
        assert!(line.contains("tool=\"issue_refund\""), "{line}");
        assert!(line.contains(&format!("path={path}")), "{line}");
        assert!(line.contains(&format!("rule={rule}")), "{line}");
        assert!(!line.contains("1999") && !line.contains("LATE"), "{line}");
    }
}
