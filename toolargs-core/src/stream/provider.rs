//! Provider streams read into calls: the events in which OpenAI and Anthropic stream tool
//! calls, assembled into each call's name and arguments text.
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
enum Key {
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
            Some(kind) if kind.starts_with("response.") => {
                self.responses(kind, event, &mut updates)
            }
            Some(kind) => self.anthropic(kind, event, &mut updates),
            None => self.chat(event, &mut updates),
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

    fn start(
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

    fn append(&mut self, call: usize, text: &str, updates: &mut Vec<Update>) {
        let Some(started) = self.calls.get_mut(&call).filter(|_| !text.is_empty()) else {
            return;
        };
        let arguments = &mut started.arguments;
        let from = arguments.len();
        arguments.push_str(text);
        updates.push(Update::Arguments { call, from });
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

    /// A `chat.completion.chunk`.
    fn chat(&mut self, event: &Value, updates: &mut Vec<Update>) {
        let response = text_of(event, "id").unwrap_or_default().to_owned();
        let choices = event.get("choices").and_then(Value::as_array);
        for choice in choices.into_iter().flatten() {
            let index = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
            let calls = choice
                .pointer("/delta/tool_calls")
                .and_then(Value::as_array);
            for piece in calls.into_iter().flatten() {
                let position = piece.get("index").and_then(Value::as_u64).unwrap_or(0);
                let function = piece.get("function");
                let key = Key::Chat(response.clone(), index, position);
                let name = function.and_then(|f| text_of(f, "name"));
                let call = self.start(key, text_of(piece, "id"), name, updates);
                if let Some(text) = function.and_then(|f| text_of(f, "arguments")) {
                    self.append(call, text, updates);
                }
            }
            if choice.get("finish_reason").is_some_and(|f| !f.is_null()) {
                let mut ended: Vec<Key> = self
                    .open
                    .keys()
                    .filter(
                        |key| matches!(key, Key::Chat(r, c, _) if *r == response && *c == index),
                    )
                    .cloned()
                    .collect();
                ended.sort_by_key(|key| self.open[key]);
                for key in ended {
                    self.complete(&key, updates);
                }
            }
        }
    }

    /// A Responses event.
    fn responses(&mut self, kind: &str, event: &Value, updates: &mut Vec<Update>) {
        if let Some(model) = event.pointer("/response/model").and_then(Value::as_str) {
            self.model = Some(model.to_owned());
        }
        let item = event.get("item");
        let item_id = text_of(event, "item_id")
            .or_else(|| item.and_then(|i| text_of(i, "id")))
            .map(|id| Key::Item(id.to_owned()));
        let is_call = item.is_none_or(|i| text_of(i, "type") == Some("function_call"));
        let (Some(key), true) = (item_id, is_call) else {
            return;
        };
        match kind {
            "response.output_item.added" => {
                let item = item.unwrap_or(&Value::Null);
                let call = self.start(
                    key,
                    text_of(item, "call_id"),
                    text_of(item, "name"),
                    updates,
                );
                if let Some(text) = text_of(item, "arguments") {
                    self.append(call, text, updates);
                }
            }
            "response.function_call_arguments.delta" => {
                if let (Some(&call), Some(text)) = (self.open.get(&key), text_of(event, "delta")) {
                    self.append(call, text, updates);
                }
            }
            "response.function_call_arguments.done" | "response.output_item.done" => {
                // The whole text comes again at the end; it is taken only when no piece came.
                let whole = text_of(event, "arguments")
                    .or_else(|| item.and_then(|i| text_of(i, "arguments")));
                if let (Some(&call), Some(whole)) = (self.open.get(&key), whole) {
                    if self.is_empty(call) {
                        self.append(call, whole, updates);
                    }
                }
                self.complete(&key, updates);
            }
            _ => {}
        }
    }

    /// An Anthropic Messages event.
    fn anthropic(&mut self, kind: &str, event: &Value, updates: &mut Vec<Update>) {
        let key = || Key::Block(event.get("index").and_then(Value::as_u64).unwrap_or(0));
        match kind {
            "message_start" => {
                // A new message: blocks are numbered again from zero.
                let mut ended = self.end();
                updates.append(&mut ended);
                if let Some(model) = event.pointer("/message/model").and_then(Value::as_str) {
                    self.model = Some(model.to_owned());
                }
            }
            "content_block_start" => {
                let Some(block) = event.get("content_block") else {
                    return;
                };
                if text_of(block, "type") != Some("tool_use") {
                    return;
                }
                self.start(key(), text_of(block, "id"), text_of(block, "name"), updates);
            }
            "content_block_delta" => {
                let delta = event.get("delta");
                if delta.and_then(|d| text_of(d, "type")) != Some("input_json_delta") {
                    return;
                }
                let text = delta.and_then(|d| text_of(d, "partial_json"));
                if let (Some(&call), Some(text)) = (self.open.get(&key()), text) {
                    self.append(call, text, updates);
                }
            }
            "content_block_stop" => {
                // A block with no piece of input has the input of its start, which is `{}`.
                if let Some(&call) = self.open.get(&key()) {
                    if self.is_empty(call) {
                        self.append(call, "{}", updates);
                    }
                }
                self.complete(&key(), updates);
            }
            _ => {}
        }
    }
}

fn text_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
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
        Some(kind) => {
            kind.starts_with("response.")
                || matches!(
                    kind,
                    "message_start"
                        | "content_block_start"
                        | "content_block_delta"
                        | "content_block_stop"
                        | "message_delta"
                        | "message_stop"
                )
        }
        None => record.get("object").and_then(Value::as_str) == Some("chat.completion.chunk"),
    }
}
