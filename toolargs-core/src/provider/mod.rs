//! Each provider in one place: how it wants a tool defined, where its definitions keep their
//! schema, how its streams send a call, and where its logged exchanges keep calls and
//! definitions.
//!
//! | provider | a definition | its schema | a streamed call | a logged call |
//! |---|---|---|---|---|
//! | [`Provider::OpenAiChat`] | `{"type": "function", "function": {...}}` | `function.parameters` | `choices[].delta.tool_calls[]` | `choices[].message.tool_calls[].function` |
//! | [`Provider::OpenAiResponses`] | `{"type": "function", name, ...}` | `parameters` | `response.function_call_arguments.*` events | `output[]` items of type `function_call` |
//! | [`Provider::Anthropic`] | `{name, description, input_schema}` | `input_schema` | `content_block_*` events of a `tool_use` block | `content[]` blocks of type `tool_use` |
//! | [`Provider::Gemini`] | `{name, description, parameters}` | `parameters` (OpenAPI subset) or `parametersJsonSchema` | - | `candidates[].content.parts[].functionCall` |
//! | [`Provider::Mcp`] | `{name, description, inputSchema, annotations}` | `inputSchema` | - | a `tools/call` request's `params` |
//!
//! The dialect writer ([`dialect`](crate::dialect)), the stream reader
//! ([`stream::provider`](crate::stream::provider)), the dynamic spec's definition reader and
//! replay's log formats all ask these modules, so a new provider is one file here and its
//! tests.
//!
//! ```
//! use serde_json::json;
//! use toolargs_core::provider::{LoggedArguments, Provider};
//!
//! let response = json!({
//!     "type": "message",
//!     "content": [{"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {"n": 1}}]
//! });
//! assert_eq!(Provider::detect(&response), Some(Provider::Anthropic));
//! let calls = Provider::Anthropic.logged_calls(&response).unwrap();
//! assert_eq!(calls[0].name, Some("refund"));
//! assert!(matches!(&calls[0].arguments, Some(LoggedArguments::Value(v)) if v["n"] == 1));
//! ```

mod anthropic;
mod gemini;
mod mcp;
pub(crate) mod openai;

use std::borrow::Cow;

use serde_json::Value;

pub(crate) use anthropic::Anthropic;
pub(crate) use gemini::Gemini;
pub(crate) use mcp::Mcp;
pub(crate) use openai::{OpenAiChat, OpenAiResponses};

/// A provider of tool calls: a model API, or MCP.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Provider {
    /// OpenAI Chat Completions.
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini (`generateContent`).
    Gemini,
    /// The Model Context Protocol: `tools/list` and `tools/call`.
    Mcp,
}

/// One tool call found in a logged record.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LoggedCall<'a> {
    /// The tool's name: `None` when absent or null, `Some("")` when it is not a string (a call
    /// of no tool that exists).
    pub name: Option<&'a str>,
    /// The arguments, `None` when the call has none.
    pub arguments: Option<LoggedArguments<'a>>,
}

/// The arguments of a logged call, as the record holds them.
#[derive(Clone, Debug, PartialEq)]
pub enum LoggedArguments<'a> {
    /// JSON text, as the model wrote it.
    Text(&'a str),
    /// A value the provider had already decoded.
    Value(Cow<'a, Value>),
}

/// What each provider's module answers: one implementation per file.
pub(crate) trait Home {
    /// The member that wraps a definition (OpenAI chat's `function`), if any.
    const WRAPPER: Option<&'static str> = None;
    /// The members a definition keeps its schema in.
    const SCHEMA_MEMBERS: &'static [&'static str];
    /// The calls of a logged record; `None` when the record is not of this provider.
    fn logged_calls(record: &Value) -> Option<Vec<LoggedCall<'_>>>;
    /// The tool definitions a logged record carries.
    fn logged_definitions(record: &Value) -> Vec<&Value>;
    /// True when a logged response (the response side of a record) is of this provider.
    fn is_response(response: &Value) -> bool;
    /// True when a logged request alone is of this provider.
    fn is_request(request: &Value) -> bool;
}

/// Calls `method` of the provider's module.
macro_rules! home {
    ($provider:expr, $method:ident($($arg:expr),*)) => {
        match $provider {
            Provider::OpenAiChat => <OpenAiChat as Home>::$method($($arg),*),
            Provider::OpenAiResponses => <OpenAiResponses as Home>::$method($($arg),*),
            Provider::Anthropic => <Anthropic as Home>::$method($($arg),*),
            Provider::Gemini => <Gemini as Home>::$method($($arg),*),
            Provider::Mcp => <Mcp as Home>::$method($($arg),*),
        }
    };
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 5] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Mcp,
    ];

    /// The calls a logged record of this provider holds: a whole response, or a record
    /// `{"request": {...}, "response": {...}}` (request optional; a request alone holds no
    /// call). `None` when the record is not of this provider.
    pub fn logged_calls(self, record: &Value) -> Option<Vec<LoggedCall<'_>>> {
        home!(self, logged_calls(record))
    }

    /// The tool definitions a logged record of this provider carries (its request's tools, or
    /// an MCP `tools/list` result's), those with a schema to check.
    pub fn logged_definitions(self, record: &Value) -> Vec<&Value> {
        home!(self, logged_definitions(record))
    }

    /// The provider of a logged record, when it tells: an MCP message, a response, or a
    /// request alone.
    pub fn detect(record: &Value) -> Option<Provider> {
        let object = record.as_object()?;
        if object.contains_key("jsonrpc") {
            return Some(Provider::Mcp);
        }
        let (request, response) = split(record);
        use Provider::{Anthropic, Gemini, OpenAiChat, OpenAiResponses};
        if let Some(response) = response {
            let found = [OpenAiChat, OpenAiResponses, Anthropic, Gemini]
                .into_iter()
                .find(|p| p.is_response(response));
            if found.is_some() {
                return found;
            }
        }
        // The most specific request shapes first: a Chat request is any one with messages.
        let request = request?;
        [OpenAiResponses, Anthropic, Gemini, OpenAiChat]
            .into_iter()
            .find(|p| p.is_request(request))
    }

    fn is_response(self, response: &Value) -> bool {
        home!(self, is_response(response))
    }

    fn is_request(self, request: &Value) -> bool {
        home!(self, is_request(request))
    }

    /// The members that wrap a tool definition in some provider's shape (OpenAI chat's
    /// `function`): a reader looks for the definition's parts inside.
    pub fn definition_wrappers() -> impl Iterator<Item = &'static str> {
        [
            OpenAiChat::WRAPPER,
            OpenAiResponses::WRAPPER,
            Anthropic::WRAPPER,
            Gemini::WRAPPER,
            Mcp::WRAPPER,
        ]
        .into_iter()
        .flatten()
    }

    /// The members a tool definition of some provider keeps its arguments' schema in, once
    /// each, in the order a reader tries them: `parameters`, `input_schema`, `inputSchema`,
    /// `parametersJsonSchema`.
    pub fn schema_members() -> Vec<&'static str> {
        let mut members: Vec<&'static str> = Vec::new();
        let all = [
            OpenAiChat::SCHEMA_MEMBERS,
            OpenAiResponses::SCHEMA_MEMBERS,
            Anthropic::SCHEMA_MEMBERS,
            Mcp::SCHEMA_MEMBERS,
            Gemini::SCHEMA_MEMBERS,
        ];
        for member in all.into_iter().flatten() {
            if !members.contains(member) {
                members.push(member);
            }
        }
        members
    }
}

/// The request and the response of a record: `{"request", "response"}`, or a bare response.
pub(crate) fn split(record: &Value) -> (Option<&Value>, Option<&Value>) {
    match (record.get("request"), record.get("response")) {
        (None, None) => (None, Some(record)),
        (request, response) => (request, response),
    }
}

/// The tools of a record's request (or of the record itself), as an array.
pub(crate) fn request_tools(record: &Value) -> &[Value] {
    let (request, _) = split(record);
    request
        .unwrap_or(record)
        .get("tools")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The response's array `key` that holds calls: `Ok(None)` for a record that has only the
/// request side of an exchange (no calls), `Err(())` when the record is not of the shape.
pub(crate) fn response_array<'a>(record: &'a Value, key: &str) -> Result<Option<&'a [Value]>, ()> {
    match split(record).1.and_then(|r| r.get(key)) {
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(_) => Err(()),
        None if request_only(record) => Ok(None),
        None => Err(()),
    }
}

/// True when the record has the request side of a provider exchange but no response.
fn request_only(record: &Value) -> bool {
    let (request, response) = split(record);
    request.is_some() && response.is_none()
        || ["messages", "input", "tools", "contents"]
            .iter()
            .any(|k| record.get(k).is_some())
}

/// A call's name: a string, `Some("")` for a name that is not one (an unknown tool), `None`
/// when absent or null.
pub(crate) fn name_of(value: Option<&Value>) -> Option<&str> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name),
        Some(_) => Some(""),
    }
}

/// Arguments that are text (as the model wrote them) or an already-decoded value.
pub(crate) fn arguments_of(value: Option<&Value>) -> Option<LoggedArguments<'_>> {
    value.map(LoggedArguments::of)
}

impl<'a> LoggedArguments<'a> {
    /// The arguments a record's member holds: JSON text when it is a string, else the value.
    pub fn of(value: &'a Value) -> LoggedArguments<'a> {
        match value {
            Value::String(text) => LoggedArguments::Text(text),
            other => LoggedArguments::Value(Cow::Borrowed(other)),
        }
    }
}

/// True when `name` is `1..=max` bytes, each one `allowed` takes: the shape of the tool-name
/// rules of the providers.
pub(crate) fn name_fits(name: &str, max: usize, allowed: impl Fn(u8) -> bool) -> bool {
    (1..=max).contains(&name.len()) && name.bytes().all(allowed)
}

/// A letter, a digit, `_` or `-`: what OpenAI and Anthropic take in a tool's name.
pub(crate) fn word_or_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// A string member of a JSON value.
pub(crate) fn text_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}
