//! OpenAI through [async-openai](https://docs.rs/async-openai): tool definitions for Chat
//! Completions and the Responses API from a derived type, and the model's function calls
//! parsed by the gate.
//!
//! Only async-openai's request and response types are used (its `chat-completion-types` and
//! `response-types` features); the client that sends them is the application's.
//!
//! ```
//! use async_openai::types::chat::{ChatCompletionMessageToolCall, FunctionCall};
//! use toolargs::async_openai::{chat_tool, parse_call, rejection_message};
//! use toolargs::ToolArgs;
//!
//! /// Refund part of an order.
//! #[derive(ToolArgs, Debug)]
//! #[toolargs(name = "issue_refund", effect = "external")]
//! struct IssueRefund {
//!     #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
//!     order_id: String,
//!     #[arg(min = 1, max = 50000)]
//!     amount_cents: i64,
//! }
//!
//! // `tools: vec![...]` of a `CreateChatCompletionRequest`
//! let tool = chat_tool::<IssueRefund>(false);
//!
//! // a tool call from the assistant's message
//! let call = ChatCompletionMessageToolCall {
//!     id: "call_1".into(),
//!     function: FunctionCall {
//!         name: "issue_refund".into(),
//!         arguments: r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99"}"#.into(),
//!     },
//! };
//! match parse_call::<IssueRefund>(&call.function) {
//!     Ok(parsed) => println!("refund {} cents", parsed.args.amount_cents),
//!     Err(rejection) => {
//!         // the tool message to send back: every error, for the model to correct its call
//!         let message = rejection_message(&call.id, &rejection);
//!         assert_eq!(rejection.errors()[0].code, "ambiguous_integer");
//!         # let _ = message;
//!     }
//! }
//! ```
//!
//! With `strict: true` (Structured Outputs), every property is required and an optional one
//! is sent as `null`; parse those calls with [`parse_call_with`] and
//! [`Dialect::parse_options`] so such a `null` is no repair.

use async_openai::types::chat::{
    ChatCompletionRequestToolMessage, ChatCompletionRequestToolMessageContent, ChatCompletionTool,
    ChatCompletionTools, FunctionCall, FunctionObject,
};
use async_openai::types::responses::{
    FunctionCallOutput, FunctionCallOutputItemParam, FunctionTool, FunctionToolCall, Tool,
};

use crate::{parse_with, Dialect, ParseOptions, Parsed, Rejection, ToolArgs};

/// The function of a Chat Completions tool: name, description, the arguments' schema in
/// [`Dialect::OpenAiChat`] (strict mode's subset when `strict`), and `strict`.
pub fn function_object<T: ToolArgs>(strict: bool) -> FunctionObject {
    let dialect = Dialect::OpenAiChat { strict };
    FunctionObject {
        name: T::NAME.to_owned(),
        description: T::DESCRIPTION.map(str::to_owned),
        parameters: Some(dialect.parameters(&T::json_schema(), T::DESCRIPTION)),
        strict: Some(strict),
    }
}

/// A Chat Completions tool, as the `tools` of a `CreateChatCompletionRequest` take it:
/// `T::tool_definition(Dialect::OpenAiChat { strict })` as async-openai's type.
pub fn chat_tool<T: ToolArgs>(strict: bool) -> ChatCompletionTools {
    ChatCompletionTools::Function(ChatCompletionTool {
        function: function_object::<T>(strict),
    })
}

/// A Responses API function tool: name, description, the arguments' schema in
/// [`Dialect::OpenAiResponses`], and `strict`, always written (the API turns it on when it is
/// left out).
pub fn function_tool<T: ToolArgs>(strict: bool) -> FunctionTool {
    let dialect = Dialect::OpenAiResponses { strict };
    FunctionTool {
        name: T::NAME.to_owned(),
        parameters: Some(dialect.parameters(&T::json_schema(), T::DESCRIPTION)),
        strict: Some(strict),
        description: T::DESCRIPTION.map(str::to_owned),
        ..FunctionTool::default()
    }
}

/// A Responses API tool, as the `tools` of a `CreateResponse` take it:
/// `T::tool_definition(Dialect::OpenAiResponses { strict })` as async-openai's type.
pub fn response_tool<T: ToolArgs>(strict: bool) -> Tool {
    Tool::Function(function_tool::<T>(strict))
}

/// Parses the arguments of a Chat Completions function call (`FunctionCall.arguments`, JSON
/// text as the model wrote it) with the default options. The caller has matched `call.name`
/// to `T::NAME`.
pub fn parse_call<T: ToolArgs>(call: &FunctionCall) -> Result<Parsed<T>, Rejection> {
    T::parse(call.arguments.as_str())
}

/// [`parse_call`] with explicit options, such as
/// `Dialect::OpenAiChat { strict: true }.parse_options()` for a tool published in strict mode.
pub fn parse_call_with<T: ToolArgs>(
    call: &FunctionCall,
    options: &ParseOptions,
) -> Result<Parsed<T>, Rejection> {
    parse_with(&call.arguments.as_str().into(), options)
}

/// Parses the arguments of a Responses API `function_call` output item with the default
/// options. The caller has matched `call.name` to `T::NAME`.
pub fn parse_response_call<T: ToolArgs>(call: &FunctionToolCall) -> Result<Parsed<T>, Rejection> {
    T::parse(call.arguments.as_str())
}

/// [`parse_response_call`] with explicit options, such as
/// `Dialect::OpenAiResponses { strict: true }.parse_options()`.
pub fn parse_response_call_with<T: ToolArgs>(
    call: &FunctionToolCall,
    options: &ParseOptions,
) -> Result<Parsed<T>, Rejection> {
    parse_with(&call.arguments.as_str().into(), options)
}

/// The Chat Completions tool message answering the call `tool_call_id` with a rejection:
/// [`Rejection::for_model`], every error, for the model to correct its call. It converts into
/// a `ChatCompletionRequestMessage` with `.into()`.
pub fn rejection_message(
    tool_call_id: &str,
    rejection: &Rejection,
) -> ChatCompletionRequestToolMessage {
    ChatCompletionRequestToolMessage {
        content: ChatCompletionRequestToolMessageContent::Text(rejection.for_model()),
        tool_call_id: tool_call_id.to_owned(),
    }
}

/// The Responses API `function_call_output` item answering `call` with a rejection:
/// [`Rejection::for_model`], every error, for the model to correct its call.
pub fn rejection_output(
    call: &FunctionToolCall,
    rejection: &Rejection,
) -> FunctionCallOutputItemParam {
    FunctionCallOutputItemParam {
        call_id: Some(call.call_id.clone()),
        output: FunctionCallOutput::Text(rejection.for_model()),
        id: None,
        status: None,
        name: None,
        namespace: None,
        caller: None,
    }
}
