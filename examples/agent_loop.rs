//! An agent loop with a scripted model (no network): the model first sends a call it must fix,
//! reads the error, corrects it; a second model never learns and hits the retry budget.
//! Shows the events, the counters and the audit record. Run with
//! `cargo run --example agent_loop`.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolargs::toolbox::{Dispatch, Session, ToolCall, Toolbox};
use toolargs::{Dialect, ToolArgs};

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
struct IssueRefund {
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    reason: Reason,
}

#[derive(ToolArgs, Debug)]
enum Reason {
    Damaged,
    Late,
}

/// A model that answers each tool result with the next scripted call.
struct ScriptedModel {
    calls: Vec<&'static str>,
}

impl ScriptedModel {
    fn next_call(&mut self, last_result: Option<&str>) -> Option<&'static str> {
        if let Some(result) = last_result {
            println!("   model reads: {result}");
        }
        (!self.calls.is_empty()).then(|| self.calls.remove(0))
    }
}

fn run(title: &str, tools: &Toolbox, mut model: ScriptedModel) {
    println!("== {title}");
    let mut session = Session::new();
    let mut last: Option<String> = None;
    while let Some(arguments) = model.next_call(last.as_deref()) {
        println!("   model calls issue_refund {arguments}");
        let outcome = tools.dispatch(
            &mut session,
            ToolCall::new("refund-1", "issue_refund", arguments),
        );
        match &outcome {
            Dispatch::Ran {
                output,
                repairs,
                attempt,
            } => {
                println!(
                    "   RAN on attempt {attempt} with {} repair(s): {output}",
                    repairs.len()
                );
                break;
            }
            Dispatch::Rejected { attempt, .. } => {
                println!("   REJECTED (attempt {attempt}), the error goes back to the model")
            }
            Dispatch::Exhausted { reason, .. } => {
                println!("   EXHAUSTED: {reason}; escalate to a human");
                break;
            }
            other => println!("   {other:?}"),
        }
        last = outcome.tool_result();
    }
    println!("   session spent {} repairs and retries\n", session.spent());
}

fn main() {
    // Events to stderr, without raw values: tool, path, rule or code.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .init();
    let recorder = metrics_util::debugging::DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::set_global_recorder(recorder).expect("no other recorder is installed");

    let audit: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = audit.clone();
    let mut tools = Toolbox::new()
        .with_redaction(|value| {
            if let Some(id) = value.get_mut("order_id") {
                *id = json!("ord_********");
            }
        })
        .with_audit(move |record| {
            sink.lock().unwrap().push(json!({
                "tool": record.tool, "call": record.call_id, "attempt": record.attempt,
                "outcome": record.outcome, "raw": record.raw, "repaired": record.repaired,
                "errors": record.errors.iter().map(|e| format!("{} {}", e.code, e.path)).collect::<Vec<_>>(),
            }));
        });
    tools.register(|args: IssueRefund| {
        Ok(json!({"refunded_cents": args.amount_cents, "reason": format!("{:?}", args.reason)}))
    });
    println!(
        "tools sent to the model: {}\n",
        Value::Array(tools.definitions(Dialect::Anthropic))
    );

    run(
        "a model that corrects itself",
        &tools,
        ScriptedModel {
            calls: vec![
                r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#,
                r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"Late"}"#,
            ],
        },
    );
    run(
        "a model that loops",
        &tools,
        ScriptedModel {
            calls: vec![r#"{"order_id":"ord_A1b2C3d4","amount":1999,"reason":"late"}"#; 5],
        },
    );

    println!("audit records:");
    for record in audit.lock().unwrap().iter() {
        println!("   {record}");
    }
    println!("\ncounters:");
    let mut counters: Vec<String> = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .map(|(key, _, _, value)| {
            let labels: Vec<String> = key
                .key()
                .labels()
                .map(|l| format!("{}={}", l.key(), l.value()))
                .collect();
            format!(
                "   {}{{{}}} {:?}",
                key.key().name(),
                labels.join(","),
                value
            )
        })
        .collect();
    counters.sort();
    println!("{}", counters.join("\n"));
}
