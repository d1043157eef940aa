//! The bookkeeping of the calls of provider streams: each call's key, name and text so far,
//! and what an event changed. The providers' modules read their own events into it, and
//! [`stream::provider`](crate::stream::provider) dispatches events to them; both depend on
//! this module, which depends on neither.

use std::collections::HashMap;

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

/// The tool calls of one or more provider streams, assembled event by event (see
/// [`stream::provider`](crate::stream::provider)).
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
