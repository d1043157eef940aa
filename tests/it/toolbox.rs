//! The dispatcher: retry budget, session cap, events, counters and the audit record.

use std::sync::{Arc, Mutex};

use crate::common::IssueRefund;
use serde_json::{json, Value};
use toolargs::toolbox::{AuditRecord, Budget, Dispatch, Session, ToolCall, Toolbox};
use toolargs::Dialect;

const BAD: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#;
const REPAIRABLE: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"LATE"}"#;
const GOOD: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late"}"#;

fn refunds() -> Toolbox {
    let mut tools = Toolbox::new();
    tools.register(|args: IssueRefund| Ok(json!({"refunded": args.amount_cents})));
    tools
}

#[test]
fn a_bad_call_is_rejected_then_corrected() {
    let tools = refunds();
    let mut session = Session::new();
    match tools.dispatch(&mut session, ToolCall::new("refund", "issue_refund", BAD)) {
        Dispatch::Rejected {
            message,
            attempt,
            rejection,
        } => {
            assert_eq!(attempt, 1);
            assert_eq!(message, rejection.for_model());
            assert_eq!(rejection.errors()[0].code, "ambiguous_integer");
        }
        other => panic!("{other:?}"),
    }
    match tools.dispatch(
        &mut session,
        ToolCall::new("refund", "issue_refund", REPAIRABLE),
    ) {
        Dispatch::Ran {
            output,
            repairs,
            attempt,
        } => {
            assert_eq!(output, json!({"refunded": 1999}));
            assert_eq!(repairs.len(), 2);
            assert_eq!(attempt, 2);
        }
        other => panic!("{other:?}"),
    }
    // The call settled: the same id starts again at attempt 1.
    assert_eq!(session.attempts("refund"), 0);
    assert_eq!(session.spent(), 3);
}

#[test]
fn the_budget_stops_a_looping_model() {
    let tools = refunds();
    let mut session = Session::new();
    let mut outcomes = Vec::new();
    for _ in 0..5 {
        let d = tools.dispatch(&mut session, ToolCall::new("refund", "issue_refund", BAD));
        let stop = matches!(d, Dispatch::Exhausted { .. });
        outcomes.push(match d {
            Dispatch::Rejected { attempt, .. } => format!("rejected {attempt}"),
            Dispatch::Exhausted { rejection, .. } => {
                format!("exhausted {}", rejection.map_or(0, |r| r.errors().len()))
            }
            other => format!("{other:?}"),
        });
        if stop {
            break;
        }
    }
    assert_eq!(outcomes, ["rejected 1", "rejected 2", "exhausted 1"]);

    let strict = refunds().with_budget(Budget {
        corrections_per_call: 0,
        ..Budget::default()
    });
    let mut session = Session::new();
    assert!(matches!(
        strict.dispatch(&mut session, ToolCall::new("x", "issue_refund", BAD)),
        Dispatch::Exhausted { .. }
    ));
}

#[test]
fn the_session_cap_counts_repairs_and_retries() {
    let tools = refunds().with_budget(Budget {
        corrections_per_call: 5,
        per_session: 3,
    });
    let mut session = Session::new();
    assert!(matches!(
        tools.dispatch(&mut session, ToolCall::new("a", "issue_refund", REPAIRABLE)),
        Dispatch::Ran { .. }
    ));
    assert_eq!(session.spent(), 2);
    assert!(matches!(
        tools.dispatch(&mut session, ToolCall::new("b", "issue_refund", BAD)),
        Dispatch::Rejected { .. }
    ));
    assert_eq!(session.spent(), 3);
    match tools.dispatch(&mut session, ToolCall::new("c", "issue_refund", GOOD)) {
        Dispatch::Exhausted { reason, .. } => {
            assert!(reason.contains("3 repairs and retries"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_tools_and_failing_handlers() {
    let mut tools = refunds();
    tools.register(|_: crate::common::StrictRefund| Err("the payment provider is down".into()));
    let mut session = Session::new();
    match tools.dispatch(&mut session, ToolCall::new("x", "refund_order", GOOD)) {
        Dispatch::UnknownTool { message } => {
            let body: Value = serde_json::from_str(&message).unwrap();
            assert_eq!(body["errors"][0]["error"], json!("unknown_tool"));
            assert!(message.contains("issue_refund"));
        }
        other => panic!("{other:?}"),
    }
    // Both types are named issue_refund: the second registration replaced the first.
    match tools.dispatch(&mut session, ToolCall::new("y", "issue_refund", GOOD)) {
        Dispatch::Failed { error, .. } => assert_eq!(error, "the payment provider is down"),
        other => panic!("{other:?}"),
    }
    assert_eq!(tools.definitions(Dialect::Anthropic).len(), 1);
}

#[test]
fn async_handlers_run_through_dispatch_async() {
    let mut tools = Toolbox::new();
    tools.register_async(|args: IssueRefund| async move { Ok(json!(args.amount_cents * 2)) });
    let mut session = Session::new();
    let d = pollster::block_on(
        tools.dispatch_async(&mut session, ToolCall::new("a", "issue_refund", GOOD)),
    );
    assert!(
        matches!(d, Dispatch::Ran { ref output, .. } if *output == json!(3998)),
        "{d:?}"
    );
    let d = tools.dispatch(&mut session, ToolCall::new("b", "issue_refund", GOOD));
    assert!(
        matches!(d, Dispatch::Failed { ref error, .. } if error.contains("dispatch_async")),
        "{d:?}"
    );
}

#[test]
fn audit_records_pass_through_the_redaction_hook() {
    let records: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
    let sink = records.clone();
    let tools = {
        let mut t = Toolbox::new()
            .with_redaction(|value: &mut Value| {
                if let Some(id) = value.get_mut("order_id") {
                    *id = json!("[redacted]");
                }
            })
            .with_audit(move |r| sink.lock().unwrap().push(r.clone()));
        t.register(|args: IssueRefund| Ok(json!(args.amount_cents)));
        t
    };
    let mut session = Session::new();
    tools.dispatch(&mut session, ToolCall::new("r", "issue_refund", BAD));
    tools.dispatch(&mut session, ToolCall::new("r", "issue_refund", REPAIRABLE));
    let records = records.lock().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!((records[0].outcome, records[0].attempt), ("rejected", 1));
    assert_eq!(records[0].raw["order_id"], json!("[redacted]"));
    assert_eq!(records[0].raw["amount_cents"], json!("19.99"));
    assert_eq!(records[0].errors[0].code, "ambiguous_integer");
    assert_eq!((records[1].outcome, records[1].attempt), ("repaired", 2));
    assert_eq!(
        records[1].repaired.as_ref().unwrap()["order_id"],
        json!("[redacted]")
    );
    assert_eq!(
        records[1].repaired.as_ref().unwrap()["amount_cents"],
        json!(1999)
    );
    assert_eq!(records[1].repairs.len(), 2);
}

/// Bill a customer; the amount is money in the `currency` field.
#[derive(toolargs::ToolArgs, Debug)]
#[toolargs(effect = "external")]
struct CreateInvoice {
    #[arg(semantic = "money", currency = "currency")]
    amount: f64,
    #[arg(pattern = "[A-Z]{3}")]
    currency: String,
}

/// Look orders up by day.
#[derive(toolargs::ToolArgs, Debug)]
#[toolargs(effect = "read_only")]
struct FindOrders {
    #[arg(semantic = "date")]
    day: chrono::NaiveDate,
}

#[test]
fn corrected_calls_pass_the_semantic_gate_before_they_run() {
    let mut tools = Toolbox::new().with_semantic_gate(toolargs::semantic::SemanticGate::new());
    tools.register(|args: CreateInvoice| {
        Ok(json!({"billed": args.amount, "currency": args.currency}))
    });
    tools.register(|args: FindOrders| Ok(json!({"day": args.day.to_string()})));
    let mut session = Session::new();

    // A retry that changed the currency: the amount means something else, and money moves.
    let first = tools.dispatch(
        &mut session,
        ToolCall::new(
            "inv",
            "create_invoice",
            r#"{"amount":100,"currency":"usd"}"#,
        ),
    );
    assert!(matches!(first, Dispatch::Rejected { .. }), "{first:?}");
    let pending = match tools.dispatch(
        &mut session,
        ToolCall::new(
            "inv",
            "create_invoice",
            r#"{"amount":100,"currency":"CAD"}"#,
        ),
    ) {
        Dispatch::Confirm { review, pending } => {
            assert_eq!(review.decision.as_str(), "confirm");
            assert!(
                review.concerns().any(|f| f.path.contains("amount")),
                "{review:?}"
            );
            pending
        }
        other => panic!("{other:?}"),
    };
    // Someone approved it: it runs as parsed.
    match tools.run_confirmed(&mut session, pending) {
        Dispatch::Ran { output, .. } => {
            assert_eq!(output, json!({"billed": 100.0, "currency": "CAD"}))
        }
        other => panic!("{other:?}"),
    }

    // A correction that keeps the meaning runs without asking.
    tools.dispatch(
        &mut session,
        ToolCall::new(
            "inv2",
            "create_invoice",
            r#"{"amount":"100.0","currency":"usd"}"#,
        ),
    );
    let d = tools.dispatch(
        &mut session,
        ToolCall::new(
            "inv2",
            "create_invoice",
            r#"{"amount":100,"currency":"USD"}"#,
        ),
    );
    assert!(matches!(d, Dispatch::Ran { .. }), "{d:?}");

    // A read-only tool runs even when the corrected day differs from an ambiguous original.
    tools.dispatch(
        &mut session,
        ToolCall::new("find", "find_orders", r#"{"day":"04/03/2026"}"#),
    );
    let d = tools.dispatch(
        &mut session,
        ToolCall::new("find", "find_orders", r#"{"day":"2026-03-04"}"#),
    );
    assert!(matches!(d, Dispatch::Ran { .. }), "{d:?}");
}

#[test]
fn a_toolbox_published_in_strict_mode_parses_like_it() {
    // OpenAI's strict mode sends null for every optional field the model leaves out.
    let strict = Dialect::OpenAiChat { strict: true };
    let call = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late","notify_customer":null,"tags":null,"effective_date":null}"#;
    let repairs = |tools: &Toolbox| match tools.dispatch(
        &mut Session::new(),
        ToolCall::new("c", "issue_refund", call),
    ) {
        Dispatch::Ran { repairs, .. } => repairs.len(),
        other => panic!("{other:?}"),
    };
    assert_eq!(repairs(&refunds()), 3);
    let published = refunds().published_in(strict);
    assert_eq!(repairs(&published), 0);
    assert_eq!(
        published.published_definitions(),
        Some(refunds().definitions(strict))
    );
    assert_eq!(refunds().published_definitions(), None);
}
