//! Provider streams read into calls: the events in which providers stream tool calls,
//! assembled into each call's name and arguments text. What each provider's events
//! mean is read in its own module of [`provider`](crate::provider), into the bookkeeping of
//! open calls ([`ToolCallStreams`]); each event is handed to them here.
//!
//! How each provider's stream sends a call (which event starts it, which grow its arguments,
//! which complete it) is in the table of [`provider`](crate::provider) and in the provider's
//! module; every provider of the registry is asked of every event, and reads its own.
//!
//! [`ToolCallStreams::push`] takes one event (a decoded JSON object, as a chunk or the `data`
//! of a server-sent event); [`Sse`] reads server-sent events line by line. Each call's text is
//! exactly the concatenation of its pieces, so a stream of them fed to an
//! [`ArgStream`](super::ArgStream) gets the verdict of the whole call.
//!
//! ```
//! use serde_json::json;
//! use toolargs_core::stream::provider::{ToolCallStreams, Update};
//!
//! let mut streams = ToolCallStreams::new();
//! let chunk = |calls: serde_json::Value, finish: serde_json::Value| json!({
//!     "object": "chat.completion.chunk", "id": "chatcmpl-1",
//!     "choices": [{"index": 0, "delta": {"tool_calls": calls}, "finish_reason": finish}]
//! });
//! let started = streams.push(&chunk(
//!     json!([{"index": 0, "id": "call_1", "function": {"name": "refund", "arguments": ""}}]),
//!     json!(null),
//! ));
//! assert_eq!(started, [Update::Started { call: 0 }]);
//! streams.push(&chunk(json!([{"index": 0, "function": {"arguments": "{\"n\": "}}]), json!(null)));
//! let updates = streams.push(&chunk(json!([{"index": 0, "function": {"arguments": "1}"}}]), json!(null)));
//! assert_eq!(updates, [Update::Arguments { call: 0, from: 6 }]);
//! assert_eq!(streams.push(&chunk(json!([]), json!("tool_calls"))), [Update::Completed { call: 0 }]);
//! let call = streams.call(0).unwrap();
//! assert_eq!((call.name.as_deref(), call.arguments.as_str()), (Some("refund"), "{\"n\": 1}"));
//! ```

use serde_json::Value;

use crate::provider::Provider;

pub use super::calls::{StreamedCall, ToolCallStreams, Update};

impl ToolCallStreams {
    /// Reads one event of any provider's stream: each provider of the registry reads the
    /// events that are its own; events that carry no tool call (text, usage, pings) change
    /// nothing.
    pub fn push(&mut self, event: &Value) -> Vec<Update> {
        let mut updates = Vec::new();
        if let Some(model) = event.get("model").and_then(Value::as_str) {
            self.set_model(model);
        }
        for provider in Provider::ALL {
            provider.def().stream_event(self, event, &mut updates);
        }
        updates
    }
}

/// Server-sent events read line by line: the `data` of each event, once its blank line
/// arrives (several `data` lines of one event are joined with newlines, as the format says).
/// `event`, `id`, `retry` and comment lines are read past; OpenAI's `data: [DONE]` is not an
/// event.
///
/// ```
/// use toolargs_core::stream::provider::Sse;
///
/// let mut sse = Sse::new();
/// assert_eq!(sse.line("event: content_block_delta"), None);
/// assert_eq!(sse.line(r#"data: {"type": "ping"}"#), None);
/// assert_eq!(sse.line("").as_deref(), Some(r#"{"type": "ping"}"#));
/// assert_eq!(sse.line("data: [DONE]"), None);
/// assert_eq!(sse.line(""), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Sse {
    data: Option<String>,
}

impl Sse {
    /// Nothing read yet.
    pub fn new() -> Sse {
        Sse::default()
    }

    /// Reads one line (without its line ending); returns the data of the event it ends.
    pub fn line(&mut self, line: &str) -> Option<String> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return self.data.take().filter(|data| data != "[DONE]");
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        if field == "data" {
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            }
        }
        None
    }

    /// The data of an event the text ended without a blank line after.
    pub fn end(&mut self) -> Option<String> {
        self.line("")
    }
}

/// True when a line starts a server-sent event field that providers send (`data:` or
/// `event:`), as a log of server-sent events starts.
pub fn is_sse_line(line: &str) -> bool {
    line.starts_with("data:") || line.starts_with("event:")
}

/// True when a decoded record is an event of a provider stream (a chunk or a delta), not a
/// whole response: one of the events of some provider of the registry.
pub fn is_stream_event(record: &Value) -> bool {
    Provider::ALL
        .into_iter()
        .any(|provider| provider.def().is_stream_event(record))
}
