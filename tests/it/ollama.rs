//! ollama-rs, a framework with no toolargs adapter, running a derived type on its own dispatch
//! path: the derived type is an ollama-rs `Tool`'s `Params` as is (`Deserialize` and
//! `JsonSchema` from the derive), and ollama-rs' `Coordinator` shows the model its schema, reads
//! the model's tool calls and decodes their arguments itself. The model is a stand-in Ollama
//! server on the loopback address that answers `/api/chat` with a scripted tool call. Each
//! repair is also a `tracing` event.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use ollama_rs::coordinator::Coordinator;
use ollama_rs::error::{OllamaError, ToolCallError};
use ollama_rs::generation::chat::ChatMessage;
use ollama_rs::generation::tools::Tool;
use ollama_rs::Ollama;
use serde_json::{json, Value};
use toolargs::ToolArgs;

use crate::common::IssueRefund;

/// The tool: it keeps the arguments it was called with.
struct Refunds {
    calls: Arc<Mutex<Vec<IssueRefund>>>,
}

impl Tool for Refunds {
    type Params = IssueRefund;

    fn name() -> &'static str {
        IssueRefund::NAME
    }

    fn description() -> &'static str {
        IssueRefund::DESCRIPTION.unwrap_or_default()
    }

    async fn call(&mut self, refund: IssueRefund) -> ollama_rs::generation::tools::Result<String> {
        let answer = format!("refunded {} cents", refund.amount_cents);
        self.calls.lock().unwrap().push(refund);
        Ok(answer)
    }
}

/// A stand-in Ollama server: the first `/api/chat` request is answered with one call of
/// `issue_refund` with `arguments`, every later one (after the tool's answer) with plain text.
/// Returns its address and the request bodies it received.
fn model(arguments: Value) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}/", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap();
                    }
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let request: Value = serde_json::from_slice(&body).unwrap();
            let first = seen.lock().unwrap().is_empty();
            seen.lock().unwrap().push(request);
            let message = if first {
                json!({"role": "assistant", "content": "", "tool_calls": [
                    {"function": {"name": "issue_refund", "arguments": arguments}}
                ]})
            } else {
                json!({"role": "assistant", "content": "done"})
            };
            let answer = json!({
                "model": "stand-in", "created_at": "2026-01-01T00:00:00Z",
                "message": message, "done": true
            })
            .to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    (address, requests)
}

/// One turn of ollama-rs' own loop: the model calls the tool with `arguments`. Returns what
/// the tool was called with, the coordinator's result, and the requests the model received.
async fn turn(arguments: Value) -> (Vec<IssueRefund>, Result<String, OllamaError>, Vec<Value>) {
    let (address, requests) = model(arguments);
    let calls = Arc::new(Mutex::new(Vec::new()));
    let ollama = Ollama::from_url(address.parse().unwrap());
    let mut coordinator =
        Coordinator::new(ollama, "stand-in".to_owned(), Vec::new()).add_tool(Refunds {
            calls: calls.clone(),
        });
    let result = coordinator
        .chat(vec![ChatMessage::user(
            "Refund order ord_A1b2C3d4.".to_owned(),
        )])
        .await
        .map(|answer| answer.message.content);
    let calls = calls.lock().unwrap().clone();
    let requests = requests.lock().unwrap().clone();
    (calls, result, requests)
}

#[tokio::test]
async fn the_model_is_shown_the_derived_schema() {
    let (_, _, requests) = turn(json!({
        "order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late"
    }))
    .await;
    let tool = &requests[0]["tools"][0];
    assert_eq!(tool["type"], "function");
    assert_eq!(tool["function"]["name"], "issue_refund");
    assert_eq!(tool["function"]["description"], "Refund part of an order.");
    // ollama-rs asks schemars for a draft-07 root schema, which writes its own `$schema`; the
    // rest is the derived schema, keyword for keyword.
    let mut shown = tool["function"]["parameters"].clone();
    let mut derived = IssueRefund::json_schema();
    assert_eq!(
        shown.as_object_mut().unwrap().remove("$schema"),
        Some(json!("http://json-schema.org/draft-07/schema#"))
    );
    derived.as_object_mut().unwrap().remove("$schema");
    assert_eq!(shown, derived);
}

#[tokio::test]
async fn a_clean_call_reaches_the_tool_exactly() {
    let clean = json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late"});
    let (calls, result, requests) = turn(clean.clone()).await;
    assert_eq!(calls, [IssueRefund::parse(&clean).unwrap().args]);
    assert_eq!(result.unwrap(), "done");
    // The tool's answer went back to the model as ollama-rs' tool message.
    let messages = requests[1]["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    assert_eq!(
        (last["role"].as_str(), last["content"].as_str()),
        (Some("tool"), Some("refunded 1999 cents"))
    );
}

#[tokio::test]
async fn a_repairable_call_reaches_the_tool_repaired() {
    let repairable = json!({
        "order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "Late", "tags": "vip"
    });
    let parsed = IssueRefund::parse(&repairable).unwrap();
    assert_eq!(parsed.repairs.len(), 3);

    // Each repair is a `tracing` event, emitted while ollama-rs decodes the call.
    let events = Arc::new(Mutex::new(Vec::<u8>::new()));
    let writer = events.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || crate::common::WriterHandle(writer.clone()))
        .with_ansi(false)
        .finish();
    let guard = tracing::subscriber::set_default(subscriber);
    let (calls, result, _) = turn(repairable).await;
    drop(guard);
    assert_eq!(calls, [parsed.args]);
    assert_eq!(result.unwrap(), "done");

    let text = String::from_utf8(events.lock().unwrap().clone()).unwrap();
    let repairs: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("repaired a tool argument"))
        .collect();
    assert_eq!(repairs.len(), 3, "{text}");
    for (line, repair) in repairs.iter().zip(&parsed.repairs) {
        assert!(line.contains("tool=\"issue_refund\""), "{line}");
        assert!(line.contains(&format!("path={}", repair.path)), "{line}");
        assert!(line.contains(&format!("rule={}", repair.rule)), "{line}");
    }
}

#[tokio::test]
async fn a_rejected_call_never_reaches_the_tool_and_its_error_is_the_model_facing_text() {
    let bad = json!({"order_id": "ORD-1", "amount_cents": "19.99", "reason": "late"});
    let (calls, result, requests) = turn(bad.clone()).await;
    assert!(calls.is_empty());
    // ollama-rs hands a tool whose arguments do not decode back to its caller (it does not
    // answer the model itself); the error it carries reads as `for_model()`, every error at
    // once, ready to be sent to the model as the tool's answer.
    let Err(OllamaError::ToolCallError(ToolCallError::InternalToolError(error))) = result else {
        panic!("{result:?}")
    };
    assert_eq!(
        error.to_string(),
        IssueRefund::parse(&bad).unwrap_err().for_model()
    );
    assert!(error
        .to_string()
        .starts_with(r#"{"ok":false,"errors":[{"error":"pattern""#));
    assert_eq!(requests.len(), 1);
}
