//! A streamed OpenAI Chat Completions response, replayed chunk by chunk: two parallel calls to
//! the refund tool, one of which is rejected before the model finished writing it.
//!
//! ```sh
//! cargo run --example streaming
//! ```

use std::collections::HashMap;

use serde_json::{json, Value};
use toolargs::stream::provider::{Sse, ToolCallStreams, Update};
use toolargs::ToolArgs;

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
#[allow(dead_code)]
struct IssueRefund {
    /// The order to refund.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    /// Email the customer.
    #[arg(default)]
    notify_customer: bool,
}

/// The server-sent events of the response, as the API sends them.
fn response() -> String {
    let chunk = |calls: Value, finish: Value| {
        json!({"object": "chat.completion.chunk", "id": "chatcmpl-7", "model": "gpt-x",
               "choices": [{"index": 0, "delta": {"tool_calls": calls}, "finish_reason": finish}]})
    };
    let piece = |index: u32, text: &str| {
        chunk(
            json!([{"index": index, "function": {"arguments": text}}]),
            Value::Null,
        )
    };
    let events = [
        chunk(
            json!([{"index": 0, "id": "call_a", "type": "function", "function": {"name": "issue_refund", "arguments": ""}},
                   {"index": 1, "id": "call_b", "type": "function", "function": {"name": "issue_refund", "arguments": ""}}]),
            Value::Null,
        ),
        piece(0, "{\"order_id\": \"ord_A1b2"),
        piece(
            1,
            "{\"order_id\": \"ord_Z9y8X7w6\", \"amount_cents\": 19.99, ",
        ),
        piece(0, "C3d4\", \"amount_cents\": \"1999\", "),
        piece(1, "\"notify_customer\": true}"),
        piece(0, "\"notify_customer\": \"true\"}"),
        chunk(json!([]), json!("tool_calls")),
    ];
    let mut sse: String = events
        .iter()
        .map(|event| format!("data: {event}\n\n"))
        .collect();
    sse.push_str("data: [DONE]\n\n");
    sse
}

fn main() {
    let mut reader = Sse::new();
    let mut calls = ToolCallStreams::new();
    let mut streams = HashMap::new();
    for line in response().lines() {
        let Some(data) = reader.line(line) else {
            continue;
        };
        let Ok(event) = serde_json::from_str::<Value>(&data) else {
            println!("not JSON: {data}");
            continue;
        };
        for update in calls.push(&event) {
            match update {
                Update::Started { call } => {
                    let name = calls
                        .call(call)
                        .and_then(|c| c.name.clone())
                        .unwrap_or_default();
                    println!("call {call}: {name} started");
                    streams.insert(call, IssueRefund::stream());
                }
                Update::Arguments { call, from } => {
                    let (Some(stream), Some(streamed)) = (streams.get_mut(&call), calls.call(call))
                    else {
                        continue;
                    };
                    // Fed to the end even once rejected, for the verdict on the whole call.
                    let known = stream.is_rejected();
                    match stream.feed(&streamed.arguments[from..]) {
                        Ok(()) => println!("call {call}: so far {}", stream.partial()),
                        Err(_) if known => {}
                        Err(rejection) => println!(
                            "call {call}: rejected after {} bytes, before the call is complete: {}",
                            stream.received(),
                            rejection.for_model()
                        ),
                    }
                }
                Update::Completed { call } => {
                    let Some(stream) = streams.remove(&call) else {
                        continue;
                    };
                    match stream.finish() {
                        Ok(parsed) => {
                            let rules: Vec<String> = parsed
                                .repairs
                                .iter()
                                .map(|r| format!("{} at {}", r.rule, r.path))
                                .collect();
                            println!(
                                "call {call}: accepted {:?}, repairs: {}",
                                parsed.args,
                                rules.join(", ")
                            );
                        }
                        Err(rejection) => {
                            println!("call {call}: rejected: {}", rejection.for_model())
                        }
                    }
                }
            }
        }
    }
}
