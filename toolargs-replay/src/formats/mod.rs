//! The log formats replay reads, one JSON record per line, and what each record holds: tool
//! calls (name and arguments, as JSON text or an already-decoded value) and, where the log
//! carries them, tool definitions.
//!
//! | format | a call is | definitions come from |
//! |---|---|---|
//! | [`InputFormat::Lines`] | the record `{"tool", "arguments", ...}` | - |
//! | one per provider of the core's registry ([`Provider`]): [`InputFormat::OpenAiChat`], [`InputFormat::Anthropic`], [`InputFormat::Mcp`], ... | where the provider's responses or messages keep calls | where its requests or messages keep definitions |
//! | [`InputFormat::Otel`] | a span with `gen_ai.tool.name` and `gen_ai.tool.call.arguments` | a span's `gen_ai.tool.definitions` |
//! | [`InputFormat::Stream`] | the pieces of a streamed call, assembled (server-sent events, or one event per line) | - |
//! | [`InputFormat::Gate`] | a verdict of `toolargs gate` (counted as recorded), with its `arguments` when logged | - |
//!
//! The provider formats accept the bare response object or a record
//! `{"request": {...}, "response": {...}}` (request optional). Where a provider's records keep
//! calls and definitions, and the format's name, are read by the core's [`Provider`], one
//! module per provider; the variants are made from the core's registry of providers.

pub(crate) mod gate;
pub(crate) mod lines;
mod otel;

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};
use std::str::FromStr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use serde_json::Value;
use toolargs_core::decode::LoggedPayload;
use toolargs_core::provider::{LoggedArguments, Provider};
use toolargs_core::stream::provider::is_stream_event;

use crate::inputs::Input;
use crate::outcome::BadRecord;

/// Makes [`InputFormat`] from the core's registry of providers: one format per provider,
/// between `Lines` and `Otel`.
macro_rules! input_formats {
    ($(
        $(#[$doc:meta])*
        $name:ident = $def:path, dialect $({ $strict:ident })? [$(#[$dialect:meta])*],
        logs [$(#[$logs:meta])*];
    )*) => {
        /// The format of a log. Every line of one file is read in the same format;
        /// [`InputFormat::Auto`] detects it from the file's first records
        /// ([`InputFormat::detect`]). Besides the formats of its own, one per provider of the
        /// core's registry ([`Provider`]).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum InputFormat {
            /// Detect the format of each file from its first records.
            #[default]
            Auto,
            /// `{"tool": NAME, "arguments": STRING_OR_OBJECT, ...}`, any other field a grouping
            /// key.
            Lines,
            $($(#[$logs])* $name,)*
            /// OpenTelemetry GenAI spans: OTLP JSON (`resourceSpans`) or one span per line.
            Otel,
            /// Provider streams: server-sent events as sent, or one stream event per line (OpenAI
            /// `chat.completion.chunk`s, Responses events, Anthropic events, any provider's that
            /// streams). Each call is assembled from its pieces and judged as if logged whole.
            Stream,
            /// The verdict log of `toolargs gate`: `{"time", "session", "tool", "outcome",
            /// "codes", "rules", ...}` per `tools/call`. Its verdicts are counted as recorded
            /// ([`Recorded`](crate::Recorded)); a record with its `arguments` is judged again
            /// when the tool is defined, and today's verdict compared with the recorded one.
            Gate,
        }

        impl InputFormat {
            /// Every format: [`InputFormat::Auto`], [`InputFormat::Lines`], one per provider
            /// in the registry's order, then [`InputFormat::Otel`], [`InputFormat::Stream`] and
            /// [`InputFormat::Gate`].
            pub const ALL: [InputFormat; Provider::ALL.len() + 5] = [
                InputFormat::Auto,
                InputFormat::Lines,
                $(InputFormat::$name,)*
                InputFormat::Otel,
                InputFormat::Stream,
                InputFormat::Gate,
            ];

            /// The provider whose logged records this format reads, if it is one's.
            fn provider(self) -> Option<Provider> {
                match self {
                    $(InputFormat::$name => Some(Provider::$name),)*
                    _ => None,
                }
            }

            /// The format of a provider's logged records.
            fn of_provider(provider: Provider) -> Option<InputFormat> {
                match provider {
                    $(Provider::$name => Some(InputFormat::$name),)*
                    _ => None,
                }
            }
        }
    };
}

toolargs_core::__providers!(input_formats);

impl InputFormat {
    /// The stable name (`lines`, `openai-chat`, ...; a provider's as its module names it), as
    /// [`FromStr`] reads it.
    pub fn as_str(self) -> &'static str {
        if let Some(provider) = self.provider() {
            return provider.format_name();
        }
        match self {
            InputFormat::Lines => "lines",
            InputFormat::Otel => "otel",
            InputFormat::Stream => "stream",
            InputFormat::Gate => "gate",
            _ => "auto",
        }
    }

    /// Every format's name, in the order of [`InputFormat::ALL`].
    pub fn names() -> [&'static str; InputFormat::ALL.len()] {
        InputFormat::ALL.map(InputFormat::as_str)
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
        // A provider's own messages (MCP's JSON-RPC) before the shapes of the other formats.
        if let Some(provider) = Provider::detect_message(record) {
            return InputFormat::of_provider(provider);
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
        Provider::detect(record).and_then(InputFormat::of_provider)
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
        InputFormat::ALL
            .into_iter()
            .find(|format| format.as_str() == name)
            .ok_or_else(|| {
                format!(
                    "unknown input format `{name}` (one of {})",
                    InputFormat::names().join(", ")
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

impl<'a> From<LoggedArguments<'a>> for Args<'a> {
    fn from(arguments: LoggedArguments<'a>) -> Args<'a> {
        match arguments {
            LoggedArguments::Text(text) => Args::Text(text),
            LoggedArguments::Value(value) => Args::Value(value),
        }
    }
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
    if format == InputFormat::Otel {
        return otel::calls(record, by).ok_or(BadRecord::UnrecognizedRecord);
    }
    let found = format.provider().and_then(|p| p.logged_calls(record));
    let found = found.ok_or(BadRecord::UnrecognizedRecord)?;
    Ok(found
        .into_iter()
        .map(|call| Call {
            tool: call.name,
            arguments: call.arguments.map(Args::from),
            key: by.iter().map(|f| group_field(record, f)).collect(),
        })
        .collect())
}

/// The tool definitions one record of `format` carries, as the lenient loader reads them.
pub fn definitions(format: InputFormat, record: &Value) -> Vec<Cow<'_, Value>> {
    if format == InputFormat::Otel {
        return otel::definitions(record);
    }
    let borrowed = format.provider().map(|p| p.logged_definitions(record));
    borrowed.into_iter().flatten().map(Cow::Borrowed).collect()
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
