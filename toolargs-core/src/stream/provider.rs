//! Provider streams read into calls: the events in which OpenAI and Anthropic stream tool
//! calls, assembled into each call's name and arguments text. What each provider's events
//! mean is read in its own module of [`provider`](crate::provider); the bookkeeping of open
//! calls is here.
//!
//! | provider | a call starts | its arguments grow | it is complete |
//! |---|---|---|---|
//! | OpenAI Chat Completions (`chat.completion.chunk`) | a `choices[].delta.tool_calls[]` entry with a new `index` | its `function.arguments` | the choice's `finish_reason` |
//! | OpenAI Responses | `response.output_item.added` of a `function_call` | `response.function_call_arguments.delta` | `response.function_call_arguments.done` |
//! | Anthropic Messages | `content_block_start` of a `tool_use` block | `content_block_delta` of type `input_json_delta` | `content_block_stop` |
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

use std::collections::HashMap;

use serde_json::Value;

use crate::provider::{Anthropic, OpenAiChat, OpenAiResponses};

/// One tool call read from a stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamedCall {
    /// The call's id (`call_...`, `toolu_...`), when the stream gives one.
    pub id: Option<String>,
    /// The tool's name, when the stream gives one.
    pub name: Option<String>,
    /// The arguments' text received so far.
    pub arguments: String,
    /// The model named by the response the call belongs to, when the stream names it.
    pub model: Option<String>,
    /// The stream said the call is complete (or the stream ended, [`ToolCallStreams::end`]).
    pub complete: bool,
}

/// What one event changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// A call started: [`ToolCallStreams::call`] has its id and name.
    Started {
        /// The call's number, in the order calls started.
        call: usize,
    },
    /// More of a call's arguments: its `arguments[from..]` is new.
    Arguments {
        /// The call's number.
        call: usize,
        /// Where the new text starts in the call's arguments.
        from: usize,
    },
    /// A call is complete: no more of its arguments will come.
    Completed {
        /// The call's number.
        call: usize,
    },
}

/// Which open call an event speaks of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// Chat Completions: the response id, the choice and the tool call's index.
    Chat(String, u64, u64),
    /// Responses: the output item's id.
    Item(String),
    /// Anthropic: the content block's index in the current message.
    Block(u64),
}

/// The tool calls of one or more provider streams, assembled event by event (see the
/// [module](self)).
#[derive(Clone, Debug, Default)]
pub struct ToolCallStreams {
    /// The calls not taken yet, by number.
    calls: HashMap<usize, StreamedCall>,
    /// The number of the next call.
    next: usize,
    /// The calls not complete yet.
    open: HashMap<Key, usize>,
    /// The model the current response names.
    model: Option<String>,
}

impl ToolCallStreams {
    /// No calls yet.
    pub fn new() -> ToolCallStreams {
        ToolCallStreams::default()
    }

    /// The call numbered `call`, unless it was [taken](ToolCallStreams::take).
    pub fn call(&self, call: usize) -> Option<&StreamedCall> {
        self.calls.get(&call)
    }

    /// Takes the call numbered `call` out (once it is complete, nothing more comes for it):
    /// a long stream of calls is then held in memory only while each is open.
    pub fn take(&mut self, call: usize) -> Option<StreamedCall> {
        self.calls.remove(&call)
    }

    /// Reads one event of any of the three providers; events that carry no tool call (text,
    /// usage, pings) change nothing.
    pub fn push(&mut self, event: &Value) -> Vec<Update> {
        let mut updates = Vec::new();
        if let Some(model) = event.get("model").and_then(Value::as_str) {
            self.model = Some(model.to_owned());
        }
        match event.get("type").and_then(Value::as_str) {
            Some(kind) if OpenAiResponses::is_stream_event(kind) => {
                OpenAiResponses::stream_event(self, kind, event, &mut updates)
            }
            Some(kind) => Anthropic::stream_event(self, kind, event, &mut updates),
            None => OpenAiChat::stream_event(self, event, &mut updates),
        }
        updates
    }

    /// The streams ended: every call still open is complete now, as received (a call cut off
    /// mid-way keeps the text it got, which a parse then rejects).
    pub fn end(&mut self) -> Vec<Update> {
        let mut open: Vec<usize> = self.open.drain().map(|(_, call)| call).collect();
        open.sort_unstable();
        open.into_iter()
            .map(|call| {
                self.mark_complete(call);
                Update::Completed { call }
            })
            .collect()
    }

    /// The call `key` names, started now unless it is open already.
    pub(crate) fn start(
        &mut self,
        key: Key,
        id: Option<&str>,
        name: Option<&str>,
        updates: &mut Vec<Update>,
    ) -> usize {
        if let Some(&call) = self.open.get(&key) {
            return call;
        }
        let call = self.next;
        self.next += 1;
        let started = StreamedCall {
            id: id.map(str::to_owned),
            name: name.map(str::to_owned),
            model: self.model.clone(),
            ..StreamedCall::default()
        };
        self.calls.insert(call, started);
        self.open.insert(key, call);
        updates.push(Update::Started { call });
        call
    }

    /// Appends a piece of call `call`'s arguments.
    pub(crate) fn append(&mut self, call: usize, text: &str, updates: &mut Vec<Update>) {
        let Some(started) = self.calls.get_mut(&call).filter(|_| !text.is_empty()) else {
            return;
        };
        let arguments = &mut started.arguments;
        let from = arguments.len();
        arguments.push_str(text);
        updates.push(Update::Arguments { call, from });
    }

    /// The open call `key` names, if any.
    pub(crate) fn open_call(&self, key: &Key) -> Option<usize> {
        self.open.get(key).copied()
    }

    /// The model the events that follow belong to.
    pub(crate) fn set_model(&mut self, model: &str) {
        self.model = Some(model.to_owned());
    }

    /// Completes the open call `key` names; `whole`, the whole arguments a provider sends
    /// again at the end (or the start's own), is taken when no piece came.
    pub(crate) fn complete_with(
        &mut self,
        key: &Key,
        whole: Option<&str>,
        updates: &mut Vec<Update>,
    ) {
        if let (Some(call), Some(whole)) = (self.open_call(key), whole) {
            if self.is_empty(call) {
                self.append(call, whole, updates);
            }
        }
        self.complete(key, updates);
    }

    /// Completes every open call whose key `ends`, in the order they started.
    pub(crate) fn complete_where(
        &mut self,
        ends: impl Fn(&Key) -> bool,
        updates: &mut Vec<Update>,
    ) {
        let mut ended: Vec<Key> = self.open.keys().filter(|key| ends(key)).cloned().collect();
        ended.sort_by_key(|key| self.open[key]);
        for key in ended {
            self.complete(&key, updates);
        }
    }

    fn complete(&mut self, key: &Key, updates: &mut Vec<Update>) {
        if let Some(call) = self.open.remove(key) {
            self.mark_complete(call);
            updates.push(Update::Completed { call });
        }
    }

    fn mark_complete(&mut self, call: usize) {
        if let Some(done) = self.calls.get_mut(&call) {
            done.complete = true;
        }
    }

    /// True when call `call` has received no argument text.
    fn is_empty(&self, call: usize) -> bool {
        self.calls.get(&call).is_none_or(|c| c.arguments.is_empty())
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
/// whole response.
pub fn is_stream_event(record: &Value) -> bool {
    match record.get("type").and_then(Value::as_str) {
        Some(kind) => OpenAiResponses::is_stream_event(kind) || Anthropic::is_stream_event(kind),
        None => OpenAiChat::is_stream_event(record),
    }
}
