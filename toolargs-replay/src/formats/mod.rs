//! The log formats replay reads, one JSON record per line, and what each record holds: tool
//! calls (name and arguments, as JSON text or an already-decoded value) and, where the log
//! carries them, tool definitions.
//!
//! | format | a call is | definitions come from |
//! |---|---|---|
//! | [`InputFormat::Lines`] | the record `{"tool", "arguments", ...}` | - |
//! | [`InputFormat::OpenAiChat`] | `choices[].message.tool_calls[].function` | the request's `tools` |
//! | [`InputFormat::OpenAiResponses`] | `output[]` items of type `function_call` | the request's `tools` of type `function` |
//! | [`InputFormat::Anthropic`] | `content[]` blocks of type `tool_use` (`input` decoded) | the request's `tools` with an `input_schema` |
//! | [`InputFormat::Otel`] | a span with `gen_ai.tool.name` and `gen_ai.tool.call.arguments` | a span's `gen_ai.tool.definitions` |
//! | [`InputFormat::Mcp`] | a `tools/call` request's `params` | a `tools/list` result's `tools` |
//! | [`InputFormat::Stream`] | the pieces of a streamed call, assembled (server-sent events, or one event per line) | - |
//! | [`InputFormat::Gate`] | a verdict of `toolargs gate` (counted as recorded), with its `arguments` when logged | - |
//!
//! The provider formats accept the bare response object or a record
//! `{"request": {...}, "response": {...}}` (request optional).

mod anthropic;
pub(crate) mod gate;
pub(crate) mod lines;
mod mcp;
mod openai_chat;
mod openai_responses;
mod otel;

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};
use std::str::FromStr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use serde_json::Value;
use toolargs_core::decode::LoggedPayload;
use toolargs_core::stream::provider::is_stream_event;

use crate::inputs::Input;
use crate::outcome::BadRecord;

/// The format of a log. Every line of one file is read in the same format; [`InputFormat::Auto`]
/// detects it from the file's first records ([`InputFormat::detect`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum InputFormat {
    /// Detect the format of each file from its first records.
    #[default]
    Auto,
    /// `{"tool": NAME, "arguments": STRING_OR_OBJECT, ...}`, any other field a grouping key.
    Lines,
    /// OpenAI Chat Completions: responses, or `{"request", "response"}` records.
    OpenAiChat,
    /// OpenAI Responses: responses, or `{"request", "response"}` records.
    OpenAiResponses,
    /// Anthropic Messages: responses, or `{"request", "response"}` records.
    Anthropic,
    /// OpenTelemetry GenAI spans: OTLP JSON (`resourceSpans`) or one span per line.
    Otel,
    /// MCP JSON-RPC messages: `tools/call` requests and `tools/list` results.
    Mcp,
    /// Provider streams: server-sent events as sent, or one stream event per line (OpenAI
    /// `chat.completion.chunk`s, Responses events, Anthropic events). Each call is assembled
    /// from its pieces and judged as if logged whole.
    Stream,
    /// The verdict log of `toolargs gate`: `{"time", "session", "tool", "outcome", "codes",
    /// "rules", ...}` per `tools/call`. Its verdicts are counted as recorded
    /// ([`Recorded`](crate::Recorded)); a record with its `arguments` is judged again when the
    /// tool is defined, and today's verdict compared with the recorded one.
    Gate,
}

/// Every format, with its name.
const NAMES: [(InputFormat, &str); 9] = [
    (InputFormat::Auto, "auto"),
    (InputFormat::Lines, "lines"),
    (InputFormat::OpenAiChat, "openai-chat"),
    (InputFormat::OpenAiResponses, "openai-responses"),
    (InputFormat::Anthropic, "anthropic"),
    (InputFormat::Otel, "otel"),
    (InputFormat::Mcp, "mcp"),
    (InputFormat::Stream, "stream"),
    (InputFormat::Gate, "gate"),
];

impl InputFormat {
    /// Every format, [`InputFormat::Auto`] first.
    pub const ALL: [InputFormat; 9] = [
        InputFormat::Auto,
        InputFormat::Lines,
        InputFormat::OpenAiChat,
        InputFormat::OpenAiResponses,
        InputFormat::Anthropic,
        InputFormat::Otel,
        InputFormat::Mcp,
        InputFormat::Stream,
        InputFormat::Gate,
    ];

    /// The stable name (`lines`, `openai-chat`, ...), as [`FromStr`] reads it.
    pub fn as_str(self) -> &'static str {
        NAMES
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("auto", |(_, n)| n)
    }

    /// The format of one record, when it tells:
    ///
    /// ```
    /// use toolargs_replay::InputFormat;
    ///
    /// let record = |text: &str| serde_json::from_str(text).unwrap();
    /// assert_eq!(InputFormat::detect(&record(r#"{"tool":"a","arguments":"{}"}"#)), Some(InputFormat::Lines));
    /// assert_eq!(InputFormat::detect(&record(r#"{"object":"chat.completion","choices":[]}"#)), Some(InputFormat::OpenAiChat));
    /// assert_eq!(InputFormat::detect(&record(r#"{"jsonrpc":"2.0","method":"tools/call"}"#)), Some(InputFormat::Mcp));
    /// assert_eq!(InputFormat::detect(&record(r#"{"object":"chat.completion.chunk","choices":[]}"#)), Some(InputFormat::Stream));
    /// let verdict = r#"{"time":1796390503.1,"session":null,"tool":"a","outcome":"clean","codes":[],"rules":[],"paths":[],"latency_us":40}"#;
    /// assert_eq!(InputFormat::detect(&record(verdict)), Some(InputFormat::Gate));
    /// assert_eq!(InputFormat::detect(&record("[1, 2]")), None);
    /// ```
    pub fn detect(record: &Value) -> Option<InputFormat> {
        let object = record.as_object()?;
        if is_stream_event(record) {
            return Some(InputFormat::Stream);
        }
        if object.contains_key("jsonrpc") {
            return Some(InputFormat::Mcp);
        }
        if object.contains_key("resourceSpans") || otel::is_span(record) {
            return Some(InputFormat::Otel);
        }
        if gate::is_verdict(object) {
            return Some(InputFormat::Gate);
        }
        if object.contains_key("tool") || object.contains_key("arguments") {
            return Some(InputFormat::Lines);
        }
        let (request, response) = split(record);
        if let Some(response) = response {
            let kind = response.get("object").and_then(Value::as_str);
            if response.get("choices").is_some() || kind == Some("chat.completion") {
                return Some(InputFormat::OpenAiChat);
            }
            if response.get("output").is_some() || kind == Some("response") {
                return Some(InputFormat::OpenAiResponses);
            }
            if response.get("content").is_some_and(Value::is_array)
                || response.get("type").and_then(Value::as_str) == Some("message")
            {
                return Some(InputFormat::Anthropic);
            }
        }
        let request = request?;
        if request.get("input").is_some() {
            Some(InputFormat::OpenAiResponses)
        } else if request.get("max_tokens").is_some() && request.get("system").is_some()
            || request
                .get("tools")
                .and_then(Value::as_array)
                .is_some_and(|t| t.iter().any(|t| t.get("input_schema").is_some()))
        {
            Some(InputFormat::Anthropic)
        } else if request.get("messages").is_some() {
            Some(InputFormat::OpenAiChat)
        } else {
            None
        }
    }

    /// The format of an input's records, as a replay in [`InputFormat::Auto`] detects it: from
    /// the records at its start ([`InputFormat::Lines`] when none tells). Standard input,
    /// which can be read only once, is not read: [`InputFormat::Auto`].
    pub fn of_input(input: &Input) -> io::Result<InputFormat> {
        if *input == Input::Stdin {
            return Ok(InputFormat::Auto);
        }
        let mut reader = input.open(Arc::new(AtomicU64::new(0)))?;
        let mut line = Vec::new();
        let mut records = 0;
        while records < DETECT_RECORDS {
            line.clear();
            if reader.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            if line.trim_ascii().is_empty() {
                continue;
            }
            records += 1;
            if let Some(format) = detect_record(line.trim_ascii_end()) {
                return Ok(format);
            }
        }
        Ok(InputFormat::Lines)
    }

    /// True when records of this format may carry tool definitions.
    pub fn carries_definitions(self) -> bool {
        !matches!(
            self,
            InputFormat::Lines | InputFormat::Stream | InputFormat::Gate
        )
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for InputFormat {
    type Err = String;

    fn from_str(name: &str) -> Result<InputFormat, String> {
        NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(f, _)| *f)
            .ok_or_else(|| {
                let names: Vec<&str> = NAMES.iter().map(|(_, n)| *n).collect();
                format!(
                    "unknown input format `{name}` (one of {})",
                    names.join(", ")
                )
            })
    }
}

/// The arguments of one call.
pub(crate) enum Args<'a> {
    /// JSON text, as the model wrote it.
    Text(&'a str),
    /// A value a JSON Lines record holds as JSON rather than as a string of JSON text, as the
    /// record writes it: judged from that text, so that its numbers are judged as logged, not
    /// as a reader of doubles would round them. With it, the object as the scan read it from
    /// that text, when it could ([`read_embedded`](toolargs_core::decode::read_embedded)).
    Logged(Cow<'a, str>, Option<LoggedPayload<'a>>),
    /// JSON text a record holds as a JSON string, as it stands in the record, from after the
    /// string's opening quote to its closing quote included; every escape in it is of one
    /// character, checked by the scan that found it. With it, the arguments as the scan read
    /// them from that text, when it could ([`read_logged`](toolargs_core::decode::read_logged)).
    Escaped(&'a str, Option<LoggedPayload<'a>>),
    /// An already-decoded value.
    Value(Cow<'a, Value>),
}

/// One call found in a record.
pub(crate) struct Call<'a> {
    /// The tool's name (`None` when the call names none).
    pub tool: Option<&'a str>,
    /// The arguments (`None` when the call has none).
    pub arguments: Option<Args<'a>>,
    /// The values of the grouping fields.
    pub key: Vec<Value>,
}

/// The calls of one record of `format` (not [`InputFormat::Lines`] or `Auto`, which
/// [`lines::read`] reads, nor [`InputFormat::Gate`], which [`gate::read`] does), with the values of the `by` fields; `Err` when the record is not of
/// the format at all.
pub(crate) fn calls<'a>(
    format: InputFormat,
    record: &'a Value,
    by: &[String],
) -> Result<Vec<Call<'a>>, BadRecord> {
    if !record.is_object() {
        return Err(BadRecord::NotObject);
    }
    let found = match format {
        InputFormat::Auto | InputFormat::Lines | InputFormat::Stream | InputFormat::Gate => None,
        InputFormat::OpenAiChat => openai_chat::calls(record),
        InputFormat::OpenAiResponses => openai_responses::calls(record),
        InputFormat::Anthropic => anthropic::calls(record),
        InputFormat::Mcp => mcp::calls(record),
        InputFormat::Otel => return otel::calls(record, by).ok_or(BadRecord::UnrecognizedRecord),
    };
    let found = found.ok_or(BadRecord::UnrecognizedRecord)?;
    Ok(found
        .into_iter()
        .map(|(tool, arguments)| Call {
            tool,
            arguments,
            key: by.iter().map(|f| group_field(record, f)).collect(),
        })
        .collect())
}

/// The tool definitions one record of `format` carries, as the lenient loader reads them.
pub fn definitions(format: InputFormat, record: &Value) -> Vec<Cow<'_, Value>> {
    let borrowed = match format {
        InputFormat::Auto | InputFormat::Lines | InputFormat::Stream | InputFormat::Gate => {
            Vec::new()
        }
        InputFormat::OpenAiChat => openai_chat::definitions(record),
        InputFormat::OpenAiResponses => openai_responses::definitions(record),
        InputFormat::Anthropic => anthropic::definitions(record),
        InputFormat::Mcp => mcp::definitions(record),
        InputFormat::Otel => return otel::definitions(record),
    };
    borrowed.into_iter().map(Cow::Borrowed).collect()
}

/// The request and the response of a record: `{"request", "response"}`, or a bare response.
fn split(record: &Value) -> (Option<&Value>, Option<&Value>) {
    match (record.get("request"), record.get("response")) {
        (None, None) => (None, Some(record)),
        (request, response) => (request, response),
    }
}

/// The tools of a record's request (or of the record itself), as an array.
fn request_tools(record: &Value) -> &[Value] {
    let (request, _) = split(record);
    request
        .unwrap_or(record)
        .get("tools")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// True when the record has the request side of a provider exchange but no response.
fn request_only(record: &Value) -> bool {
    let (request, response) = split(record);
    request.is_some() && response.is_none()
        || ["messages", "input", "tools"]
            .iter()
            .any(|k| record.get(k).is_some())
}

/// A grouping field of a provider record: a top-level field, else one of the response, else
/// one of the request (`model` is in all three places, depending on the logger).
fn group_field(record: &Value, name: &str) -> Value {
    [Some(record), record.get("response"), record.get("request")]
        .into_iter()
        .flatten()
        .find_map(|v| v.get(name))
        .cloned()
        .unwrap_or(Value::Null)
}

/// A call's name: a string, `Some("")` for a name that is not one (an unknown tool), `None`
/// when absent or null.
fn name_of(value: Option<&Value>) -> Option<&str> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name),
        Some(_) => Some(""),
    }
}

/// Arguments that are text (as the model wrote them) or an already-decoded value.
fn args_of(value: Option<&Value>) -> Option<Args<'_>> {
    match value? {
        Value::String(text) => Some(Args::Text(text)),
        other => Some(Args::Value(Cow::Borrowed(other))),
    }
}

/// How many records [`detect_block`] reads at most to tell a file's format.
pub(crate) const DETECT_RECORDS: usize = 32;

/// The format of a file from the records at its start (the first that tell;
/// [`InputFormat::Lines`] when none does).
pub(crate) fn detect_block(block: &[u8]) -> InputFormat {
    block
        .split(|b| *b == b'\n')
        .filter(|line| !line.trim_ascii().is_empty())
        .take(DETECT_RECORDS)
        .find_map(detect_record)
        .unwrap_or(InputFormat::Lines)
}

/// The format one record tells, if it tells one (a line that is not JSON tells none).
pub(crate) fn detect_record(line: &[u8]) -> Option<InputFormat> {
    if line.starts_with(b"data:") || line.starts_with(b"event:") {
        return Some(InputFormat::Stream);
    }
    serde_json::from_slice::<Value>(line)
        .ok()
        .and_then(|v| InputFormat::detect(&v))
}
