//! The registry of providers: each provider is one module that says everything about it, how
//! it wants a tool defined and where its definitions keep their schema, its rules for a
//! tool's name and schema, how its streams send a call, where its logged exchanges keep calls
//! and definitions, and its names (its dialect's, and that of its logs for replay).
//!
//! | provider | a definition | its schema | a streamed call | a logged call |
//! |---|---|---|---|---|
//! | [`Provider::OpenAiChat`] | `{"type": "function", "function": {...}}` | `function.parameters` | `choices[].delta.tool_calls[]` pieces of `chat.completion.chunk`s, one call per `index`, complete at the choice's `finish_reason` | `choices[].message.tool_calls[].function` |
//! | [`Provider::OpenAiResponses`] | `{"type": "function", name, ...}` | `parameters` | `response.output_item.added` of a `function_call`, then `response.function_call_arguments.delta` and `.done` | `output[]` items of type `function_call` |
//! | [`Provider::Anthropic`] | `{name, description, input_schema}` | `input_schema` | `content_block_start` of a `tool_use` block, `input_json_delta`s, `content_block_stop` | `content[]` blocks of type `tool_use` |
//! | [`Provider::Gemini`] | `{name, description, parameters}` | `parameters` (OpenAPI subset) or `parametersJsonSchema` | - | `candidates[].content.parts[].functionCall` |
//! | [`Provider::Mcp`] | `{name, description, inputSchema, annotations}` | `inputSchema` | - | a `tools/call` request's `params` |
//! | [`Provider::BedrockConverse`] | `{"toolSpec": {name, description, inputSchema}}` | `toolSpec.inputSchema.json` | `contentBlockStart` with `start.toolUse`, `contentBlockDelta`s of `delta.toolUse.input`, `contentBlockStop`, by `contentBlockIndex` | `toolUse` blocks of `output.message.content` |
//!
//! Everything that lists providers is made from the one list of this module: [`Provider`]
//! and [`Provider::ALL`], the [`Dialect`](crate::Dialect)s with their names, replay's log
//! formats with theirs, the order in which a logged record's provider is recognised
//! ([`Provider::detect`]), and which provider reads each event of a stream
//! ([`ToolCallStreams::push`](crate::stream::provider::ToolCallStreams::push)). A new provider
//! is one module here, its tests, and one entry of the list.
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
//! assert_eq!(Provider::Anthropic.format_name(), "anthropic");
//! ```

mod anthropic;
mod bedrock;
mod gemini;
mod mcp;
mod openai;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::effect::Effect;
use crate::schema::Change;
use crate::stream::calls::{ToolCallStreams, Update};

/// The registry: every provider once, in the order every list of providers follows (new ones
/// at the end). Each entry gives the provider's docs, its variant (the same in [`Provider`],
/// [`Dialect`](crate::Dialect) and replay's `InputFormat`), the unit struct of its module that
/// implements `ProviderDef`, its dialect (`dialect { strict }` for one with a strict mode)
/// and the docs of the dialect and of the logs. The macro hands the list to `$callback`,
/// which makes what it needs of it: this module [`Provider`], the dialect module
/// [`Dialect`](crate::Dialect), replay its `InputFormat`.
#[doc(hidden)]
#[macro_export]
macro_rules! __providers {
    ($callback:ident) => {
        $callback! {
            /// OpenAI Chat Completions.
            OpenAiChat = openai::OpenAiChat, dialect { strict } [
                /// An OpenAI Chat Completions tool:
                /// `{"type": "function", "function": {name, description, parameters, strict}}`.
            ], logs [
                /// OpenAI Chat Completions: responses (calls in
                /// `choices[].message.tool_calls[]`), or `{"request", "response"}` records
                /// (definitions in the request's `tools`).
            ];
            /// OpenAI Responses.
            OpenAiResponses = openai::OpenAiResponses, dialect { strict } [
                /// An OpenAI Responses API tool:
                /// `{"type": "function", name, description, parameters, strict}`. `strict` is
                /// always written, since the Responses API turns it on when it is left out.
            ], logs [
                /// OpenAI Responses: responses (calls in `output[]` items of type
                /// `function_call`), or `{"request", "response"}` records (definitions in the
                /// request's `tools` of type `function`).
            ];
            /// Anthropic Messages.
            Anthropic = anthropic::Anthropic, dialect [
                /// An Anthropic Messages API tool: `{name, description, input_schema}`.
            ], logs [
                /// Anthropic Messages: responses (calls in `content[]` blocks of type
                /// `tool_use`, `input` decoded), or `{"request", "response"}` records
                /// (definitions in the request's `tools` with an `input_schema`).
            ];
            /// Google Gemini (`generateContent`).
            Gemini = gemini::Gemini, dialect [
                /// A Gemini function declaration: `{name, description, parameters}`, with
                /// `parameters` in the OpenAPI 3.0 subset Gemini reads (`nullable` instead of
                /// type arrays, no `additionalProperties`, only the `date-time` format), or
                /// `parametersJsonSchema` for a schema that needs more. A tool without
                /// arguments has no `parameters`, since Gemini refuses an object without
                /// properties.
            ], logs [
                /// Gemini `generateContent`: responses (calls in
                /// `candidates[].content.parts[].functionCall`, `args` decoded), or
                /// `{"request", "response"}` records (definitions in the request's
                /// `tools[].functionDeclarations`).
            ];
            /// The Model Context Protocol: `tools/list` and `tools/call`.
            Mcp = mcp::Mcp, dialect [
                /// An MCP tool: `{name, description, inputSchema, annotations}`, the
                /// annotations from [`Effect::mcp_annotations`].
            ], logs [
                /// MCP JSON-RPC messages: `tools/call` requests (calls) and `tools/list`
                /// results (definitions).
            ];
            /// Amazon Bedrock's Converse API (`Converse` and `ConverseStream`).
            BedrockConverse = bedrock::BedrockConverse, dialect [
                /// An Amazon Bedrock Converse tool, an item of `toolConfig.tools`:
                /// `{"toolSpec": {name, description, inputSchema: {"json": ...}}}`, the schema
                /// as plain JSON Schema whose top level is an object.
            ], logs [
                /// Amazon Bedrock Converse: responses (calls in `toolUse` blocks of
                /// `output.message.content`, `input` decoded), or `{"request", "response"}`
                /// records (definitions in the request's `toolConfig.tools[].toolSpec`).
            ];
        }
    };
}

/// True for a dialect written `dialect { strict }` in the registry.
macro_rules! strict_mode {
    () => {
        false
    };
    ($strict:ident) => {
        true
    };
}

/// Makes [`Provider`] and its table of modules from the registry.
macro_rules! providers {
    ($(
        $(#[$doc:meta])*
        $name:ident = $def:path, dialect $({ $strict:ident })? [$(#[$dialect:meta])*],
        logs [$(#[$logs:meta])*];
    )*) => {
        /// A provider of tool calls: a model API, or MCP. The variants are the registry's
        /// (see the [module](self)).
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Provider {
            $($(#[$doc])* $name,)*
        }

        impl Provider {
            /// Every provider, in the registry's order.
            pub const ALL: [Provider; [$(stringify!($name)),*].len()] = [$(Provider::$name),*];

            /// The module that says what the provider is.
            pub(crate) fn def(self) -> &'static dyn ProviderDef {
                match self {
                    $(Provider::$name => &$def,)*
                }
            }

            /// The provider's names, as its module states them.
            pub(crate) const fn names(self) -> Names {
                match self {
                    $(Provider::$name => <$def>::NAMES,)*
                }
            }

            /// True when the provider's dialect has a strict mode (`dialect { strict }`).
            pub(crate) const fn has_strict_mode(self) -> bool {
                match self {
                    $(Provider::$name => strict_mode!($($strict)?),)*
                }
            }
        }
    };
}

__providers!(providers);

/// A provider's names, which its module states as `NAMES`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Names {
    /// Its dialect's name ([`Dialect::name`](crate::Dialect::name)): `openai_chat`.
    pub dialect: &'static str,
    /// Its dialect's name in strict mode, for a provider that has one: `openai_chat_strict`.
    pub strict_dialect: Option<&'static str>,
    /// The name of its logs' format in replay: `openai-chat`.
    pub format: &'static str,
}

/// How well a record fits a provider's shape, for [`Provider::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Not this provider's.
    Not,
    /// This provider's shape, which another provider's records may have too (a request with
    /// `messages`): taken when no provider's records fit as [`Fit::Own`].
    Shared,
    /// A shape or a mark only this provider's records have.
    Own,
}

impl Fit {
    /// [`Fit::Own`] when `fits`, else [`Fit::Not`].
    pub(crate) fn own_if(fits: bool) -> Fit {
        if fits {
            Fit::Own
        } else {
            Fit::Not
        }
    }
}

/// How a definition is written besides its head and its schema.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Form {
    /// In the dialect's strict mode.
    pub strict: bool,
    /// What the tool does, for a provider that says it in the definition (MCP).
    pub effect: Effect,
    /// The schema is the full JSON Schema, as [`ProviderDef::whole_schema_instead`] asked.
    pub whole: bool,
}

/// What a keyword reshaped by [`ProviderDef::reshape`] became: the keyword, what is shown
/// instead, and whether it means the same.
pub(crate) type Reshaped = (&'static str, String, bool);

/// What one provider is: its module implements it on a unit struct, states its [`Names`] as
/// `NAMES`, and is one entry of the registry. The defaults suit a provider that takes JSON
/// Schema whole and has no streams of its own.
pub(crate) trait ProviderDef: Sync {
    /// Whether its dialect keeps `keyword` (with `value`) anywhere in a schema, in strict
    /// mode when `strict`. The JSON Schema dialects take 2020-12 whole; OpenAPI's `nullable`
    /// is said as a type array there.
    fn keeps(&self, keyword: &str, value: &Value, strict: bool) -> bool {
        let _ = (value, strict);
        keyword != "nullable"
    }

    /// True when it refuses `keyword` at the root of a schema, where it takes it below.
    fn refuses_at_root(&self, keyword: &str) -> bool {
        let _ = keyword;
        false
    }

    /// True when every schema it takes is an object: `true` and `false` are then shown as the
    /// empty schema.
    fn schemas_are_objects(&self) -> bool {
        false
    }

    /// Strict mode's reshaping of one object schema: every property required, the ones that
    /// were optional nullable. Returns the properties that were optional.
    fn require_all(&self, schema: &mut Map<String, Value>) -> Vec<String> {
        let _ = schema;
        Vec::new()
    }

    /// Its own spellings of one lowered schema (OpenAPI's `nullable`), with what changed.
    fn reshape(&self, schema: &mut Map<String, Value>) -> Vec<Reshaped> {
        let _ = schema;
        Vec::new()
    }

    /// Why strict mode cannot show `schema` as `lowered`, if it cannot: the definition is
    /// then written without strict mode.
    fn strict_refusal(&self, schema: &Value, lowered: &Value) -> Option<String> {
        let _ = (schema, lowered);
        None
    }

    /// The change to list when `schema` (lowered as `parameters`, `recursive` when the
    /// lowering met a type that contains itself) is better sent whole, as plain JSON Schema,
    /// in a member of its own ([`Form::whole`]).
    fn whole_schema_instead(
        &self,
        schema: &Value,
        parameters: &Value,
        recursive: bool,
    ) -> Option<Change> {
        let _ = (schema, parameters, recursive);
        None
    }

    /// The tool definition: `head` (name and description) with the lowered `parameters`.
    fn definition(&self, head: Map<String, Value>, parameters: Value, form: Form) -> Value;

    /// Why it refuses a tool named `name`, if it does.
    fn name_refusal(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// Why it refuses a tool whose arguments' schema, as lowered, is `parameters`, if it does
    /// (a root it cannot take): a refusal no lowering changes, listed with the name's.
    fn schema_refusal(&self, parameters: &Value) -> Option<String> {
        let _ = parameters;
        None
    }

    /// The member that wraps a definition (OpenAI chat's `function`), if any.
    fn wrapper(&self) -> Option<&'static str> {
        None
    }

    /// Where a definition keeps its arguments' schema, inside its wrapper: one path of
    /// members each, in the order a reader tries them.
    fn schema_paths(&self) -> &'static [&'static [&'static str]];

    /// True when a decoded record is an event of its streams (a chunk or a delta).
    fn is_stream_event(&self, event: &Value) -> bool {
        let _ = event;
        false
    }

    /// Reads one event of any stream into `streams`: its own events, the others left alone.
    fn stream_event(
        &self,
        streams: &mut ToolCallStreams,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        let _ = (streams, event, updates);
    }

    /// The calls of a logged record; `None` when the record is not of this provider.
    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>>;

    /// The tool definitions a logged record carries.
    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value>;

    /// How well a whole logged record fits, for a provider whose records are not
    /// request-response exchanges (MCP's messages).
    fn record_fit(&self, record: &Value) -> Fit {
        let _ = record;
        Fit::Not
    }

    /// How well a logged response (the response side of a record) fits.
    fn response_fit(&self, response: &Value) -> Fit {
        let _ = response;
        Fit::Not
    }

    /// How well a logged request alone fits.
    fn request_fit(&self, request: &Value) -> Fit {
        let _ = request;
        Fit::Not
    }
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

impl Provider {
    /// The calls a logged record of this provider holds: a whole response, or a record
    /// `{"request": {...}, "response": {...}}` (request optional; a request alone holds no
    /// call). `None` when the record is not of this provider.
    pub fn logged_calls(self, record: &Value) -> Option<Vec<LoggedCall<'_>>> {
        self.def().logged_calls(record)
    }

    /// The tool definitions a logged record of this provider carries (its request's tools, or
    /// an MCP `tools/list` result's), those with a schema to check.
    pub fn logged_definitions(self, record: &Value) -> Vec<&Value> {
        self.def().logged_definitions(record)
    }

    /// The provider of a logged record, when it tells: an MCP message, a response, or a
    /// request alone. Each side is asked of every provider in the registry's order; a shape
    /// only one provider's records have wins over one that others' may share.
    pub fn detect(record: &Value) -> Option<Provider> {
        if let Some(found) = Provider::detect_message(record) {
            return Some(found);
        }
        record.as_object()?;
        let (request, response) = split(record);
        if let Some(found) = response.and_then(|r| best(|p| p.response_fit(r))) {
            return Some(found);
        }
        request.and_then(|r| best(|p| p.request_fit(r)))
    }

    /// The provider of a record that is one of its messages rather than a request and a
    /// response (an MCP JSON-RPC message), when it tells.
    pub fn detect_message(record: &Value) -> Option<Provider> {
        record.as_object()?;
        best(|p| p.record_fit(record))
    }

    /// The name of the format of this provider's logs, as replay's `InputFormat` reads it:
    /// `openai-chat`, `openai-responses`, `anthropic`, `gemini`, `mcp`, ...
    pub const fn format_name(self) -> &'static str {
        self.names().format
    }

    /// The member that wraps this provider's tool definitions (OpenAI chat's `function`), if
    /// any.
    pub fn wrapper(self) -> Option<&'static str> {
        self.def().wrapper()
    }

    /// Where this provider's tool definitions keep their arguments' schema, inside the
    /// [wrapper](Provider::wrapper): one path of members each (`["parameters"]`), in the
    /// order a reader tries them.
    pub fn schema_paths(self) -> &'static [&'static [&'static str]] {
        self.def().schema_paths()
    }

    /// The parts of a tool definition in any provider's shape: the object that holds its name
    /// and description (inside the first provider's wrapper it has, else the definition
    /// itself), and its arguments' schema where some provider keeps it (that provider's
    /// [schema paths](Provider::schema_paths) first, then every provider's).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolargs_core::provider::Provider;
    ///
    /// let chat = json!({"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}});
    /// let (tool, schema) = Provider::definition_parts(&chat);
    /// assert_eq!((tool["name"].as_str(), schema), (Some("a"), Some(&json!({"type": "object"}))));
    /// let mcp = json!({"name": "b", "inputSchema": {"type": "object"}});
    /// assert_eq!(Provider::definition_parts(&mcp), (&mcp, Some(&json!({"type": "object"}))));
    /// ```
    pub fn definition_parts(definition: &Value) -> (&Value, Option<&Value>) {
        let wrapped = Provider::ALL.into_iter().find_map(|provider| {
            let inner = definition.get(provider.wrapper()?)?;
            inner.is_object().then_some((inner, provider))
        });
        let (tool, own) = match wrapped {
            Some((inner, provider)) => (inner, Some(provider)),
            None => (definition, None),
        };
        let paths = own.into_iter().chain(Provider::ALL);
        let schema = paths
            .flat_map(Provider::schema_paths)
            .find_map(|path| path.iter().try_fold(tool, |at, member| at.get(member)));
        (tool, schema)
    }

    /// The members that wrap a tool definition in some provider's shape (OpenAI chat's
    /// `function`): a reader looks for the definition's parts inside.
    pub fn definition_wrappers() -> impl Iterator<Item = &'static str> {
        Provider::ALL.into_iter().filter_map(Provider::wrapper)
    }

    /// The members a tool definition of some provider keeps its arguments' schema in (the
    /// first member of each of their [schema paths](Provider::schema_paths)), once each, in
    /// the registry's order: `parameters`, `input_schema`, `parametersJsonSchema`,
    /// `inputSchema`, ...
    pub fn schema_members() -> Vec<&'static str> {
        let mut members: Vec<&'static str> = Vec::new();
        let firsts = Provider::ALL
            .into_iter()
            .flat_map(|p| p.schema_paths().iter().filter_map(|path| path.first()));
        for member in firsts {
            if !members.contains(member) {
                members.push(member);
            }
        }
        members
    }
}

/// The first provider whose `fit` is [`Fit::Own`], else the first whose is [`Fit::Shared`].
fn best(fit: impl Fn(&dyn ProviderDef) -> Fit) -> Option<Provider> {
    let fits: Vec<(Provider, Fit)> = Provider::ALL
        .into_iter()
        .map(|p| (p, fit(p.def())))
        .collect();
    [Fit::Own, Fit::Shared]
        .into_iter()
        .find_map(|wanted| fits.iter().find(|(_, f)| *f == wanted).map(|(p, _)| *p))
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
pub(crate) fn request_only(record: &Value) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_has_names_of_its_own() {
        let mut seen: Vec<&str> = Vec::new();
        for provider in Provider::ALL {
            let names = provider.names();
            assert_eq!(
                names.strict_dialect.is_some(),
                provider.has_strict_mode(),
                "{provider:?}: a strict dialect's name goes with `dialect {{ strict }}`"
            );
            for name in [Some(names.dialect), names.strict_dialect]
                .into_iter()
                .flatten()
            {
                assert!(!seen.contains(&name), "{name} twice");
                seen.push(name);
            }
            assert!(!provider.schema_paths().is_empty(), "{provider:?}");
            let formats = Provider::ALL
                .iter()
                .filter(|p| p.format_name() == names.format);
            assert_eq!(formats.count(), 1, "{}", names.format);
        }
    }
}
