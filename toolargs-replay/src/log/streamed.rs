//! Logs of provider streams: server-sent events as the provider sent them, or one stream
//! event (a chunk, a delta) per line. Each tool call is assembled from its pieces
//! ([`ToolCallStreams`]) and judged once complete, at the line that completed it, exactly as
//! the same call logged whole; calls the log leaves open are judged at its end, as cut off.
//!
//! A stream's calls run across lines, so its blocks are read in order on one thread.

use std::collections::HashMap;

use serde_json::Value;
use toolargs_core::stream::provider::{is_sse_line, Sse, ToolCallStreams, Update};

use super::blocks::{lines_of, Block};
use super::Replayer;
use crate::formats::{Args, Call};
use crate::outcome::{BadRecord, Location};
use crate::tally::Report;

/// Where a stream source stands between its blocks.
pub(super) struct Streamed {
    streams: ToolCallStreams,
    sse: Sse,
    /// The values of the grouping fields each open call started under.
    keys: HashMap<usize, Vec<Value>>,
    /// The grouping fields as the stream last named them.
    current: Vec<Value>,
    /// The last line read.
    last: Location,
}

impl Streamed {
    pub(super) fn new(source: u32) -> Streamed {
        Streamed {
            streams: ToolCallStreams::new(),
            sse: Sse::new(),
            keys: HashMap::new(),
            current: Vec::new(),
            last: Location::new(source, 0),
        }
    }
}

impl Replayer<'_> {
    /// Reads the lines of one block of a stream source, judging each call they complete.
    pub(super) fn stream_block(
        &self,
        block: &Block,
        state: &mut Streamed,
        report: &mut Report,
        mut out: Option<&mut Vec<u8>>,
    ) {
        lines_of(block, |at, text| {
            state.last = at;
            let event = match text {
                None => None,
                // A line of server-sent events: an event once its blank line comes.
                Some(line)
                    if is_sse_line(line) || line.starts_with(':') || line.trim().is_empty() =>
                {
                    match state.sse.line(line) {
                        Some(data) => Some(data),
                        None => return,
                    }
                }
                Some(line) => Some(line.to_owned()),
            };
            self.stream_event(
                &block.name,
                at,
                event.as_deref(),
                state,
                report,
                out.as_deref_mut(),
            );
        });
    }

    /// The end of a stream source: an event not closed by a blank line, and the calls left
    /// open, judged as they were received.
    pub(super) fn stream_end(
        &self,
        name: &str,
        state: &mut Streamed,
        report: &mut Report,
        mut out: Option<&mut Vec<u8>>,
    ) {
        let at = state.last;
        if let Some(data) = state.sse.end() {
            self.stream_event(name, at, Some(&data), state, report, out.as_deref_mut());
        }
        let updates = state.streams.end();
        self.stream_updates(name, at, &Value::Null, updates, state, report, out);
    }

    /// Reads one event (`None`: a line that is not UTF-8), judging the calls it completes; an
    /// event that is not JSON is a bad record.
    fn stream_event(
        &self,
        name: &str,
        at: Location,
        event: Option<&str>,
        state: &mut Streamed,
        report: &mut Report,
        out: Option<&mut Vec<u8>>,
    ) {
        match event.and_then(|text| serde_json::from_str::<Value>(text).ok()) {
            Some(event) => {
                let updates = state.streams.push(&event);
                self.stream_updates(name, at, &event, updates, state, report, out);
            }
            None => self.count(at, name, Err(BadRecord::NotJson), report, out),
        }
    }

    /// Judges the calls an event completed.
    #[allow(clippy::too_many_arguments)]
    fn stream_updates(
        &self,
        name: &str,
        at: Location,
        event: &Value,
        updates: Vec<Update>,
        state: &mut Streamed,
        report: &mut Report,
        mut out: Option<&mut Vec<u8>>,
    ) {
        if !self.by.is_empty() {
            state.current.resize(self.by.len(), Value::Null);
            for (field, value) in self.by.iter().zip(&mut state.current) {
                if let Some(found) = group_field(event, field) {
                    *value = found.clone();
                }
            }
        }
        for update in updates {
            match update {
                Update::Started { call } => {
                    state.keys.insert(call, state.current.clone());
                }
                Update::Arguments { .. } => {}
                Update::Completed { call } => {
                    let key = state.keys.remove(&call).unwrap_or_default();
                    let Some(done) = state.streams.take(call) else {
                        continue;
                    };
                    let call = Call {
                        tool: done.name.as_deref(),
                        arguments: Some(Args::Text(&done.arguments)),
                        key,
                    };
                    self.count(at, name, Ok(call), report, out.as_deref_mut());
                }
            }
        }
    }
}

/// A grouping field of a stream event: at its top level, or in the response or message it
/// opens (`model` is there in Responses and Anthropic streams).
fn group_field<'v>(event: &'v Value, name: &str) -> Option<&'v Value> {
    [Some(event), event.get("response"), event.get("message")]
        .into_iter()
        .flatten()
        .find_map(|v| v.get(name))
        .filter(|v| !v.is_null())
}
