//! The async-openai adapter: tool definitions equal to the OpenAI dialects, and function calls
//! (Chat Completions and Responses) parsed by the gate, from the wire JSON the API sends.

use async_openai::types::chat::{ChatCompletionRequestMessage, CreateChatCompletionResponse};
use async_openai::types::responses::{InputItem, Item, OutputItem, Response};
use serde_json::{json, Value};
use toolargs::async_openai::{
    chat_tool, function_object, function_tool, parse_call, parse_call_with, parse_response_call,
    parse_response_call_with, rejection_message, rejection_output, response_tool, Function,
};
use toolargs::{Dialect, ToolArgs};

use crate::common::TagOrder;

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
struct IssueRefund {
    /// The order to refund.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    /// A note for the customer.
    #[arg(max_len = 200)]
    note: Option<String>,
}

#[test]
fn definitions_are_the_openai_dialects() {
    for strict in [false, true] {
        assert_eq!(
            serde_json::to_value(chat_tool::<IssueRefund>(strict)).unwrap(),
            IssueRefund::tool_definition(Dialect::OpenAiChat { strict })
        );
        assert_eq!(
            serde_json::to_value(function_object::<IssueRefund>(strict)).unwrap(),
            IssueRefund::tool_definition(Dialect::OpenAiChat { strict })["function"]
        );
        assert_eq!(
            serde_json::to_value(response_tool::<IssueRefund>(strict)).unwrap(),
            IssueRefund::tool_definition(Dialect::OpenAiResponses { strict })
        );
        let mut flat = IssueRefund::tool_definition(Dialect::OpenAiResponses { strict });
        flat.as_object_mut().unwrap().remove("type");
        assert_eq!(
            serde_json::to_value(function_tool::<IssueRefund>(strict)).unwrap(),
            flat
        );
    }
}

fn chat_response(arguments: &str) -> CreateChatCompletionResponse {
    serde_json::from_value(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-test",
        "choices": [{
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "issue_refund", "arguments": arguments},
                }],
            },
        }],
    }))
    .unwrap()
}

fn chat_call(arguments: &str) -> async_openai::types::chat::ChatCompletionMessageToolCall {
    let response = chat_response(arguments);
    let calls = response.choices[0].message.tool_calls.clone().unwrap();
    match calls.into_iter().next().unwrap() {
        async_openai::types::chat::ChatCompletionMessageToolCalls::Function(call) => call,
        other => panic!("not a function call: {other:?}"),
    }
}

#[test]
fn chat_calls_parse_repair_and_reject() {
    let call = chat_call(r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999}"#);
    let parsed = parse_call::<IssueRefund>(&call.function).unwrap();
    assert_eq!(parsed.args.amount_cents, 1999);
    assert!(parsed.is_clean());

    let call = chat_call("```json\n{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"1999\"}\n```");
    let parsed = parse_call::<IssueRefund>(&call.function).unwrap();
    let rules: Vec<&str> = parsed.repairs.iter().map(|r| r.rule.as_str()).collect();
    assert_eq!(rules, ["strip_code_fence", "numeric_string_to_int"]);

    let arguments = r#"{"order_id":"ord_A1b2C3d4","order_id":"x","amount_cents":"19.99"}"#;
    let call = chat_call(arguments);
    let rejection = parse_call::<IssueRefund>(&call.function).unwrap_err();
    assert_eq!(rejection, IssueRefund::parse(arguments).unwrap_err());
    assert_eq!(rejection.errors()[0].code, "duplicate_key");

    let message: ChatCompletionRequestMessage = rejection_message(&call.id, &rejection).into();
    assert_eq!(
        serde_json::to_value(message).unwrap(),
        json!({"role": "tool", "tool_call_id": "call_1", "content": rejection.for_model()})
    );
}

#[test]
fn strict_mode_calls_send_null_for_what_they_leave_out() {
    let call = chat_call(r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"note":null}"#);
    let options = Dialect::OpenAiChat { strict: true }.parse_options();
    let parsed = parse_call_with::<IssueRefund>(&call.function, &options).unwrap();
    assert!(parsed.is_clean());
    assert_eq!(parsed.args.note, None);

    let parsed = parse_call::<IssueRefund>(&call.function).unwrap();
    assert_eq!(parsed.repairs[0].rule, "null_to_absent");
}

fn response_call(arguments: &str) -> async_openai::types::responses::FunctionToolCall {
    let response: Response = serde_json::from_value(json!({
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "gpt-test",
        "status": "completed",
        "output": [{
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_9",
            "name": "issue_refund",
            "arguments": arguments,
            "status": "completed",
        }],
    }))
    .unwrap();
    match response.output.into_iter().next().unwrap() {
        OutputItem::FunctionCall(call) => call,
        other => panic!("not a function call: {other:?}"),
    }
}

#[test]
fn responses_calls_parse_repair_and_reject() {
    let call = response_call(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999"}"#);
    let parsed = parse_response_call::<IssueRefund>(&call).unwrap();
    assert_eq!(parsed.args.amount_cents, 1999);
    assert_eq!(parsed.repairs[0].rule, "numeric_string_to_int");

    let call = response_call(r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"note":null}"#);
    let options = Dialect::OpenAiResponses { strict: true }.parse_options();
    assert!(parse_response_call_with::<IssueRefund>(&call, &options)
        .unwrap()
        .is_clean());

    let arguments = r#"{"order_id":"ord_1","amount":5,"note":7}"#;
    let call = response_call(arguments);
    let rejection = parse_response_call::<IssueRefund>(&call).unwrap_err();
    assert_eq!(rejection.errors().len(), 4);
    let item = InputItem::Item(Item::FunctionCallOutput(rejection_output(
        &call, &rejection,
    )));
    assert_eq!(
        serde_json::to_value(item).unwrap(),
        json!({"type": "function_call_output", "call_id": "call_9", "output": rejection.for_model()})
    );
    let body: Value = serde_json::from_str(&rejection.for_model()).unwrap();
    assert_eq!(body["errors"].as_array().unwrap().len(), 4);
}

#[test]
fn a_function_parses_its_calls_as_it_is_published() {
    let strict = Function::<IssueRefund>::new(true);
    assert!(strict.is_strict());
    assert_eq!(strict.name(), "issue_refund");
    assert_eq!(
        serde_json::to_value(strict.chat_tool()).unwrap(),
        IssueRefund::tool_definition(Dialect::OpenAiChat { strict: true })
    );
    assert_eq!(
        serde_json::to_value(strict.response_tool()).unwrap(),
        IssueRefund::tool_definition(Dialect::OpenAiResponses { strict: true })
    );
    assert_eq!(
        strict.options(),
        Dialect::OpenAiChat { strict: true }.parse_options()
    );

    // Strict mode's nulls are no repairs, through Chat Completions and the Responses API.
    let arguments = r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"note":null}"#;
    let parsed = strict.parse_call(&chat_call(arguments).function).unwrap();
    assert!(parsed.is_clean());
    assert_eq!(parsed.args.note, None);
    assert!(strict
        .parse_response_call(&response_call(arguments))
        .unwrap()
        .is_clean());
    // A real repair is still recorded.
    let arguments = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"5","note":null}"#;
    let parsed = strict.parse_call(&chat_call(arguments).function).unwrap();
    assert_eq!(parsed.repairs.len(), 1);
    assert_eq!(parsed.repairs[0].rule, "numeric_string_to_int");

    // Published without strict mode, the same null is a repair.
    let plain = Function::<IssueRefund>::new(false);
    assert_eq!(
        serde_json::to_value(plain.chat_tool()).unwrap(),
        IssueRefund::tool_definition(Dialect::OpenAiChat { strict: false })
    );
    let arguments = r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"note":null}"#;
    let parsed = plain.parse_call(&chat_call(arguments).function).unwrap();
    assert_eq!(parsed.repairs[0].rule, "null_to_absent");
}

#[test]
fn a_tool_with_no_strict_form_is_published_and_parsed_without_strict_mode() {
    for strict in [false, true] {
        assert_eq!(
            serde_json::to_value(chat_tool::<TagOrder>(strict)).unwrap(),
            TagOrder::tool_definition(Dialect::OpenAiChat { strict })
        );
        assert_eq!(
            serde_json::to_value(response_tool::<TagOrder>(strict)).unwrap(),
            TagOrder::tool_definition(Dialect::OpenAiResponses { strict })
        );
    }
    let tool = Function::<TagOrder>::new(true);
    assert!(!tool.is_strict());
    assert_eq!(
        serde_json::to_value(tool.chat_tool()).unwrap()["function"]["strict"],
        false
    );
    assert_eq!(tool.options(), toolargs::ParseOptions::DEFAULT);
}

/// Streamed responses, as async-openai deserializes them from the wire, read into calls and
/// judged while they arrive: the verdict at the end is the one of the same call sent whole.
#[test]
fn streamed_chat_and_responses_calls_are_assembled_and_judged() {
    use async_openai::types::chat::CreateChatCompletionStreamResponse;
    use async_openai::types::responses::ResponseStreamEvent;
    use toolargs::async_openai::{push_chunk, push_response_event};
    use toolargs::stream::provider::{ToolCallStreams, Update};

    let whole = r#"{"ghost": 1, "order_id": "A-1", "labels": {"gift": "yes"}}"#;
    let pieces = [
        "{\"ghost\": 1, \"order_id\": \"A-1\", ",
        "\"labels\": {\"gift\"",
        ": \"yes\"}}",
    ];
    let mut chat = vec![
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-x",
        "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "tag_order", "arguments": ""}}]}}]}),
    ];
    for piece in pieces {
        chat.push(json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-x",
            "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}}]}));
    }
    chat.push(json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-x",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "tag_order", "arguments": "", "status": "in_progress"});
    let mut responses = vec![
        json!({"type": "response.output_item.added", "output_index": 0, "sequence_number": 1, "item": item}),
    ];
    for (i, piece) in pieces.iter().enumerate() {
        responses.push(json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0,
            "sequence_number": i + 2, "delta": piece}));
    }
    responses.push(json!({"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0,
        "sequence_number": 9, "arguments": whole, "name": "tag_order"}));

    let expected = TagOrder::parse(whole).unwrap_err();
    let judge = |push: &mut dyn FnMut(&mut ToolCallStreams, &Value) -> Vec<Update>,
                 events: &[Value]| {
        let mut calls = ToolCallStreams::new();
        let mut stream = TagOrder::stream();
        let mut early = None;
        let mut verdict = None;
        for (at, event) in events.iter().enumerate() {
            for update in push(&mut calls, event) {
                match update {
                    Update::Started { call } => {
                        assert_eq!(calls.call(call).unwrap().name.as_deref(), Some("tag_order"))
                    }
                    Update::Arguments { call, from } => {
                        let text = calls.call(call).unwrap().arguments[from..].to_owned();
                        if stream.feed(&text).is_err() && early.is_none() {
                            early = Some(at);
                        }
                    }
                    Update::Completed { .. } => {
                        verdict = Some(std::mem::replace(&mut stream, TagOrder::stream()).finish());
                    }
                }
            }
        }
        (early, verdict.expect("the call completed"))
    };
    let (early, verdict) = judge(
        &mut |calls, event| {
            let chunk: CreateChatCompletionStreamResponse =
                serde_json::from_value(event.clone()).unwrap();
            push_chunk(calls, &chunk)
        },
        &chat,
    );
    // `tag_order` is additive: the invented key is rejected as soon as its member is
    // complete, in the chunk of the first piece, long before the call is.
    assert_eq!((early, verdict.unwrap_err()), (Some(1), expected.clone()));
    let (early, verdict) = judge(
        &mut |calls, event| {
            let event: ResponseStreamEvent = serde_json::from_value(event.clone()).unwrap();
            push_response_event(calls, &event)
        },
        &responses,
    );
    assert_eq!((early, verdict.unwrap_err()), (Some(1), expected));
}
