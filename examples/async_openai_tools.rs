//! OpenAI tool definitions and function calls through async-openai's types, without a
//! network: the tools a request carries (Chat Completions and Responses, strict and not),
//! then scripted calls from a response parsed by the gate, and the tool messages that answer
//! the rejected ones.
//!
//! Run with `cargo run --example async_openai_tools --features async-openai`.

use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls, ChatCompletionRequestMessage,
    CreateChatCompletionResponse,
};
use serde_json::json;
use toolargs::async_openai::{chat_tool, parse_call_with, rejection_message, response_tool};
use toolargs::{Dialect, ToolArgs};

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
struct IssueRefund {
    /// The order to refund, e.g. ord_A1b2C3d4.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount to refund, in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    /// A note for the customer.
    #[arg(max_len = 200)]
    note: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("Chat Completions, strict:");
    println!(
        "{}",
        serde_json::to_string_pretty(&chat_tool::<IssueRefund>(true))?
    );
    println!("Responses, not strict:");
    println!(
        "{}",
        serde_json::to_string_pretty(&response_tool::<IssueRefund>(false))?
    );

    // What the API answers, with three tool calls of the assistant.
    let response: CreateChatCompletionResponse = serde_json::from_value(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "issue_refund",
                    "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"note\":null}"}},
                {"id": "call_2", "type": "function", "function": {"name": "issue_refund",
                    "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"1999\",\"note\":null}"}},
                {"id": "call_3", "type": "function", "function": {"name": "issue_refund",
                    "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"19.99\",\"note\":7}"}}
            ]}}]
    }))?;

    let options = Dialect::OpenAiChat { strict: true }.parse_options();
    let mut replies: Vec<ChatCompletionRequestMessage> = Vec::new();
    for call in response.choices[0].message.tool_calls.iter().flatten() {
        let ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
            id,
            function,
        }) = call
        else {
            continue;
        };
        println!("\n{id}: {}", function.arguments);
        match parse_call_with::<IssueRefund>(function, &options) {
            Ok(parsed) => {
                let rules: Vec<&str> = parsed.repairs.iter().map(|r| r.rule.as_str()).collect();
                println!("ok: {:?}, repairs: {rules:?}", parsed.args);
            }
            Err(rejection) => {
                println!("rejected: {rejection}");
                replies.push(rejection_message(id, &rejection).into());
            }
        }
    }
    println!("\ntool messages for the next request:");
    println!("{}", serde_json::to_string_pretty(&replies)?);
    Ok(())
}
