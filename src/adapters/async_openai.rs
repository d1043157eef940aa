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
//! is sent as `null`, which conforms to the schema the model was shown and is no repair when
//! the call is parsed with that dialect's options ([`Dialect::parse_options`]). A [`Function`]
//! keeps the two together: the definition it publishes and the parse of its calls come from
//! the same `strict`.
//!
//! ```
//! use async_openai::types::chat::FunctionCall;
//! use toolargs::async_openai::Function;
//! use toolargs::ToolArgs;
//!
//! /// Refund part of an order.
//! #[derive(ToolArgs, Debug)]
//! #[toolargs(name = "issue_refund", effect = "external")]
//! struct IssueRefund {
//!     #[arg(min = 1, max = 50000)]
//!     amount_cents: i64,
//!     note: Option<String>,
//! }
//!
//! let refund = Function::<IssueRefund>::new(true);
//! let _tools = vec![refund.chat_tool()]; // the request's `tools`, in strict mode
//!
//! let call = FunctionCall {
//!     name: refund.name().into(),
//!     arguments: r#"{"amount_cents":1999,"note":null}"#.into(),
//! };
//! let parsed = refund.parse_call(&call).unwrap();
//! assert!(parsed.repairs.is_empty()); // the null is how strict mode leaves `note` out
//! ```
//!
//! [`parse_call`] and [`parse_response_call`] parse with the default options, for tools
//! published with `strict: false`; [`parse_call_with`] and [`parse_response_call_with`] take
//! the options explicitly.

use std::fmt;
use std::marker::PhantomData;

use async_openai::types::chat::{
    ChatCompletionRequestToolMessage, ChatCompletionRequestToolMessageContent, ChatCompletionTool,
    ChatCompletionTools, CreateChatCompletionStreamResponse, FunctionCall, FunctionObject,
};
use async_openai::types::responses::{
    FunctionCallOutput, FunctionCallOutputItemParam, FunctionTool, FunctionToolCall,
    ResponseStreamEvent, Tool,
};

use crate::stream::provider::{ToolCallStreams, Update};
use crate::{parse_with, Dialect, ParseOptions, Parsed, Rejection, ToolArgs};

/// A tool of `T` as it is published to OpenAI, with the parse of its calls to match: under
/// `strict`, the `null` the model sends for an optional field is no repair.
///
/// It is `strict` as published: a tool with a map or an open value field has no strict form
/// and is published, and parsed, with `strict: false`, as
/// [`ToolArgs::tool_definition`] publishes it.
pub struct Function<T> {
    strict: bool,
    args: PhantomData<fn() -> T>,
}

impl<T: ToolArgs> Function<T> {
    /// The tool of `T`, in OpenAI's strict mode (Structured Outputs) when `strict` and `T` has
    /// a strict form.
    pub fn new(strict: bool) -> Self {
        Function {
            strict: published_strict::<T>(strict),
            args: PhantomData,
        }
    }

    /// The tool's name, `T::NAME`: the name of the calls to parse with this tool.
    pub fn name(&self) -> &'static str {
        T::NAME
    }

    /// Whether the tool is published, and its calls parsed, in strict mode.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The options its calls are parsed with: [`Dialect::parse_options`] of the dialect it is
    /// published in.
    pub fn options(&self) -> ParseOptions {
        Dialect::OpenAiChat {
            strict: self.strict,
        }
        .parse_options()
    }

    /// The Chat Completions tool, as [`chat_tool`].
    pub fn chat_tool(&self) -> ChatCompletionTools {
        chat_tool::<T>(self.strict)
    }

    /// The Responses API tool, as [`response_tool`].
    pub fn response_tool(&self) -> Tool {
        response_tool::<T>(self.strict)
    }

    /// Parses the arguments of a Chat Completions function call made to this tool, with
    /// [`Function::options`]. The caller has matched `call.name` to [`Function::name`].
    pub fn parse_call(&self, call: &FunctionCall) -> Result<Parsed<T>, Rejection> {
        parse_call_with(call, &self.options())
    }

    /// Parses the arguments of a Responses API `function_call` made to this tool, with
    /// [`Function::options`].
    pub fn parse_response_call(&self, call: &FunctionToolCall) -> Result<Parsed<T>, Rejection> {
        parse_response_call_with(call, &self.options())
    }
}

impl<T> Clone for Function<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Function<T> {}

impl<T: ToolArgs> fmt::Debug for Function<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Function")
            .field("name", &T::NAME)
            .field("strict", &self.strict)
            .finish()
    }
}

/// Strict mode as `T` is published under it: a map or an open value field has no strict form
/// (see [`has_open_parts`](crate::dialect::has_open_parts)).
fn published_strict<T: ToolArgs>(strict: bool) -> bool {
    strict && !crate::dialect::has_open_parts(&T::json_schema())
}

/// The function of a Chat Completions tool: name, description, the arguments' schema in
/// [`Dialect::OpenAiChat`] (strict mode's subset when `strict`), and `strict`. A tool with a
/// map or an open value field has no strict form and is written with `strict: false`, as
/// [`ToolArgs::tool_definition`] writes it.
pub fn function_object<T: ToolArgs>(strict: bool) -> FunctionObject {
    let strict = published_strict::<T>(strict);
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
/// left out); `false` for a tool with no strict form, as in [`function_object`].
pub fn function_tool<T: ToolArgs>(strict: bool) -> FunctionTool {
    let strict = published_strict::<T>(strict);
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
/// text as the model wrote it) with the default options, those of a tool published with
/// `strict: false` ([`Function::parse_call`] parses as the tool was published). The caller has
/// matched `call.name` to `T::NAME`.
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
/// options, those of a tool published with `strict: false`
/// ([`Function::parse_response_call`] parses as the tool was published). The caller has
/// matched `call.name` to `T::NAME`.
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

/// Reads one chunk of a streamed Chat Completions response into `calls`: the calls it starts,
/// the arguments it adds (parallel calls by `index`) and the calls its `finish_reason` ends.
/// Feed each call's new text to a stream of its own ([`ToolArgs::stream`]) for an early
/// rejection and the strict verdict at the end (see [`crate::guide::streaming`]).
///
/// ```
/// use async_openai::types::chat::CreateChatCompletionStreamResponse;
/// use toolargs::async_openai::push_chunk;
/// use toolargs::stream::provider::{ToolCallStreams, Update};
///
/// let chunk: CreateChatCompletionStreamResponse = serde_json::from_str(r#"{
///     "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-x",
///     "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
///         "type": "function", "function": {"name": "issue_refund", "arguments": "{\"n\""}}]}}]
/// }"#).unwrap();
/// let mut calls = ToolCallStreams::new();
/// let updates = push_chunk(&mut calls, &chunk);
/// assert_eq!(updates, [Update::Started { call: 0 }, Update::Arguments { call: 0, from: 0 }]);
/// assert_eq!(calls.call(0).unwrap().arguments, r#"{"n""#);
/// ```
pub fn push_chunk(
    calls: &mut ToolCallStreams,
    chunk: &CreateChatCompletionStreamResponse,
) -> Vec<Update> {
    serde_json::to_value(chunk).map_or_else(|_| Vec::new(), |event| calls.push(&event))
}

/// [`push_chunk`] for an event of a streamed Responses API response:
/// `response.output_item.added` of a `function_call` starts a call,
/// `response.function_call_arguments.delta` adds to it and `.done` ends it.
pub fn push_response_event(
    calls: &mut ToolCallStreams,
    event: &ResponseStreamEvent,
) -> Vec<Update> {
    serde_json::to_value(event).map_or_else(|_| Vec::new(), |event| calls.push(&event))
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
