//! Reading JSON Lines logs of tool calls: one record per line,
//! `{"tool": NAME, "arguments": STRING_OR_OBJECT, ...}`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::mpsc::sync_channel;
use std::sync::Mutex;

use serde_json::Value;

use crate::gate::Gate;
use crate::outcome::{BadRecord, Outcome};
use crate::tally::{Report, Tally, ToolWarning};
use toolargs_core::decode::RawArgs;
use toolargs_core::node::Node;
use toolargs_core::options::ParseOptions;
use toolargs_dynamic::{LoadError, LoadWarning, RefusedDefinition};

/// The tools a log is replayed against, by name, and the definitions that did not load.
#[derive(Default)]
pub struct ToolSet {
    tools: BTreeMap<String, Box<dyn Gate>>,
    /// Where each tool's definition is in the text it was loaded from.
    pointers: BTreeMap<String, String>,
    refused: Vec<RefusedDefinition>,
}

impl ToolSet {
    /// An empty set.
    pub fn new() -> ToolSet {
        ToolSet::default()
    }

    /// Adds a gate under `name` (replacing one of the same name).
    pub fn insert(&mut self, name: impl Into<String>, gate: impl Gate + 'static) -> &mut Self {
        let name = name.into();
        self.pointers.remove(&name);
        self.tools.insert(name, Box::new(gate));
        self
    }

    /// Loads tool definitions: a JSON array of definitions, or an object with a `tools` array,
    /// in any of the OpenAI chat / responses, Anthropic, Gemini and MCP shapes, mixed freely.
    /// Every definition needs a name, unless there is only one.
    ///
    /// Strict: the first definition that does not load is the error. See
    /// [`ToolSet::from_json_lenient`] to load the others.
    pub fn from_json(text: &str) -> Result<ToolSet, LoadError> {
        let set = ToolSet::from_json_lenient(text)?;
        match set.refused.first() {
            Some(refused) => Err(refused.error.clone()),
            None => Ok(set),
        }
    }

    /// Loads every tool definition that loads, as [`ToolSet::from_json`] reads them, and keeps
    /// the others as [`ToolSet::refused`]: a schema the gate cannot enforce, a definition
    /// without a name in a list of several, a second definition of a name (the first one
    /// stays). A replay counts the calls to a refused tool as `unchecked`.
    ///
    /// An error only when the text is not JSON or not a list of definitions.
    pub fn from_json_lenient(text: &str) -> Result<ToolSet, LoadError> {
        let list = toolargs_dynamic::load_tool_list_lenient(text)?;
        let single = list.len() == 1;
        let indices: Vec<usize> = list.indexed_specs().map(|(i, _)| i).collect();
        let pointers: Vec<String> = indices.iter().map(|&i| list.pointer(i)).collect();
        let mut set = ToolSet {
            refused: list.refused,
            ..ToolSet::default()
        };
        for ((index, pointer), spec) in indices.into_iter().zip(pointers).zip(list.specs) {
            let name = match (spec.name(), single) {
                (Some(name), _) => name.to_owned(),
                (None, true) => String::new(),
                (None, false) => {
                    set.refused.push(RefusedDefinition {
                        index,
                        name: None,
                        error: LoadError::new(
                            &pointer,
                            "a tool definition without a name; every tool in a set needs one",
                        ),
                    });
                    continue;
                }
            };
            if set.tools.contains_key(&name) {
                set.refused.push(RefusedDefinition {
                    index,
                    error: LoadError::new(
                        &pointer,
                        format!(
                            "a second tool named `{name}`; its calls are checked against the first"
                        ),
                    ),
                    name: Some(name),
                });
                continue;
            }
            set.insert(name.clone(), spec);
            set.pointers.insert(name, pointer);
        }
        set.refused.sort_by_key(|r| r.index);
        Ok(set)
    }

    /// The definitions that did not load, in list order (empty unless loaded with
    /// [`ToolSet::from_json_lenient`]).
    pub fn refused(&self) -> &[RefusedDefinition] {
        &self.refused
    }

    /// The refused definition a record's `tool` field points at, when no loaded tool answers
    /// to it: a refused definition of that name, or the only definition of the list when the
    /// record names none.
    pub fn refusal(&self, name: Option<&str>) -> Option<&RefusedDefinition> {
        match name {
            Some(name) if self.tools.contains_key(name) => None,
            Some(name) => self
                .refused
                .iter()
                .find(|r| r.name.as_deref() == Some(name)),
            None if self.tools.is_empty() && self.refused.len() == 1 => self.refused.first(),
            None => None,
        }
    }

    /// The load warnings of every tool, in name order.
    pub fn warnings(&self) -> Vec<ToolWarning> {
        self.tools
            .iter()
            .flat_map(|(name, gate)| {
                let at = self.pointers.get(name).map_or("", String::as_str);
                gate.load_warnings().iter().map(move |w| ToolWarning {
                    tool: name.clone(),
                    warning: LoadWarning {
                        pointer: format!("{at}{}", w.pointer),
                        message: w.message.clone(),
                    },
                })
            })
            .collect()
    }

    /// The tool names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when the set holds no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The gate for a record's `tool` field (`None` allowed when there is exactly one tool
    /// and no refused definition).
    pub fn gate(&self, name: Option<&str>) -> Result<&dyn Gate, BadRecord> {
        match name {
            Some(name) => self
                .tools
                .get(name)
                .map(|g| g.as_ref())
                .ok_or(BadRecord::UnknownTool),
            None if self.tools.len() == 1 && self.refused.is_empty() => self
                .tools
                .values()
                .next()
                .map(|g| g.as_ref())
                .ok_or(BadRecord::MissingTool),
            None => Err(BadRecord::MissingTool),
        }
    }
}

/// What became of one record.
enum Verdict<'r> {
    /// The gate's outcome for a call.
    Judged(Outcome),
    /// A call to a tool whose definition was refused: nothing to judge it against.
    Unchecked(&'r str),
    /// Not a call.
    Bad(BadRecord),
}

/// Bytes handed to a worker at once: large enough to amortise the channel, small enough to
/// keep memory flat (at most two blocks per worker are in flight).
const BLOCK_BYTES: usize = 256 << 10;

/// Replays logs against a tool set, grouping by record fields.
pub struct Replayer<'t> {
    tools: &'t ToolSet,
    by: Vec<String>,
    options: ParseOptions,
}

impl<'t> Replayer<'t> {
    /// A replayer over `tools`, grouping by the record fields in `by` (may be empty).
    pub fn new(tools: &'t ToolSet, by: Vec<String>) -> Replayer<'t> {
        Replayer {
            tools,
            by,
            options: ParseOptions::DEFAULT,
        }
    }

    /// Parses calls with these options instead of the defaults.
    pub fn with_options(mut self, options: ParseOptions) -> Self {
        self.options = options;
        self
    }

    /// An empty report with this replayer's grouping, and the tool set's refused definitions
    /// and load warnings.
    pub fn empty_report(&self) -> Report {
        Report {
            refused: self.tools.refused().to_vec(),
            load_warnings: self.tools.warnings(),
            ..Report::new(self.by.clone())
        }
    }

    /// Counts one log line (1-based `line` number) into `report`. Blank lines are skipped.
    pub fn record(&self, line: u64, text: &str, report: &mut Report) {
        if text.trim().is_empty() {
            return;
        }
        // toolargs' own reader borrows from the line; a line it refuses (a duplicate key,
        // say) is read again by serde_json, which keeps the last value as most loggers' readers do.
        let fallback: Value;
        let node = match toolargs_core::decode::parse_document(
            text,
            toolargs_core::options::Limits::DEFAULT.max_depth,
        ) {
            Ok(node) => node,
            Err(_) => match serde_json::from_str::<Value>(text) {
                Ok(value) => {
                    fallback = value;
                    match Node::from_value(&fallback, usize::MAX) {
                        Ok(node) => node,
                        Err(_) => return report.overall.add_bad(BadRecord::NotJson, line),
                    }
                }
                Err(_) => return report.overall.add_bad(BadRecord::NotJson, line),
            },
        };
        let Node::Object(fields) = &node else {
            return report.overall.add_bad(BadRecord::NotObject, line);
        };
        let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let key: Vec<Value> = self
            .by
            .iter()
            .map(|f| field(f).map_or(Value::Null, Node::to_value))
            .collect();
        let tool = match field("tool") {
            None | Some(Node::Null) => None,
            Some(Node::String(name)) => Some(name.as_ref()),
            Some(_) => Some(""),
        };
        let verdict = match (field("arguments"), self.tools.gate(tool)) {
            (None, _) => Verdict::Bad(BadRecord::MissingArguments),
            (_, Err(reason)) => match self.tools.refusal(tool) {
                Some(refused) => Verdict::Unchecked(refused.name.as_deref().unwrap_or("")),
                None => Verdict::Bad(reason),
            },
            (Some(Node::String(text)), Ok(gate)) => Verdict::Judged(
                gate.outcome(&RawArgs::Text(Cow::Borrowed(text.as_ref())), &self.options),
            ),
            (Some(arguments), Ok(gate)) => Verdict::Judged(gate.outcome(
                &RawArgs::Value(Cow::Owned(arguments.to_value())),
                &self.options,
            )),
        };
        let count = |tally: &mut Tally| match &verdict {
            Verdict::Judged(outcome) => tally.add(outcome),
            Verdict::Unchecked(tool) => tally.add_unchecked(tool),
            Verdict::Bad(reason) => tally.add_bad(*reason, line),
        };
        count(&mut report.overall);
        if !self.by.is_empty() {
            count(report.group_mut(key));
        }
    }

    /// Replays every line of `input` on `workers` threads (at least one), in constant memory.
    /// `progress` is called on the reading thread with the number of bytes read so far.
    /// The report does not depend on the number of workers.
    pub fn run<R: BufRead>(
        &self,
        mut input: R,
        workers: usize,
        mut progress: impl FnMut(u64),
    ) -> io::Result<Report> {
        let workers = workers.max(1);
        let (send, receive) = sync_channel::<(u64, Vec<u8>)>(workers * 2);
        let receive = Mutex::new(receive);
        // Blocks go back to the reader once counted, so a long replay reuses a few buffers
        // instead of asking the system for fresh pages block after block.
        let (give_back, take_back) = sync_channel::<Vec<u8>>(workers * 3);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    let give_back = give_back.clone();
                    let receive = &receive;
                    scope.spawn(move || {
                        // Counters only; the tool notes are the total's.
                        let mut report = Report::new(self.by.clone());
                        loop {
                            // Hold the lock only to take a block, not while working on it.
                            let next = match receive.lock() {
                                Ok(guard) => guard.recv(),
                                Err(_) => break,
                            };
                            let Ok((first, block)) = next else { break };
                            self.record_block(first, &block, &mut report);
                            // A block stretched by one very long line is not kept.
                            if block.capacity() <= 4 * BLOCK_BYTES {
                                let _ = give_back.try_send(block);
                            }
                        }
                        report
                    })
                })
                .collect();
            drop(give_back);
            let read_result = read_blocks(
                &mut input,
                || take_back.try_recv().ok(),
                |first, block, bytes| {
                    progress(bytes);
                    send.send((first, block)).is_ok()
                },
            );
            drop(send);
            let mut total = self.empty_report();
            for handle in handles {
                match handle.join() {
                    Ok(report) => total.merge(&report),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            read_result.map(|()| total)
        })
    }

    /// Counts every line of a block that starts at line `first`.
    fn record_block(&self, first: u64, block: &[u8], report: &mut Report) {
        // One UTF-8 check for the whole block; lines are checked one by one only when it fails.
        // A line's bounds are newlines, which never fall inside a character.
        let valid = std::str::from_utf8(block).ok();
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', block).chain(std::iter::once(block.len()));
        for (offset, end) in ends.enumerate() {
            let (line_start, line_end) = (start, end);
            start = end + 1;
            let line_end = match block[line_start..line_end].last() {
                Some(b'\r') => line_end - 1,
                _ => line_end,
            };
            let text = match valid {
                Some(valid) => valid.get(line_start..line_end),
                None => std::str::from_utf8(&block[line_start..line_end]).ok(),
            };
            let line = first + offset as u64;
            match text {
                Some(text) => self.record(line, text, report),
                None => report.overall.add_bad(BadRecord::NotJson, line),
            }
        }
    }
}

/// Reads `input` in blocks of whole lines (about [`BLOCK_BYTES`] each, without the final
/// newline) and hands each to `send` with the number of its first line and the bytes read so
/// far. A block's buffer comes from `reuse` when it has one. Stops early when `send` returns
/// false.
fn read_blocks<R: BufRead>(
    input: &mut R,
    mut reuse: impl FnMut() -> Option<Vec<u8>>,
    mut send: impl FnMut(u64, Vec<u8>, u64) -> bool,
) -> io::Result<()> {
    let mut first_line = 1u64;
    let mut bytes = 0u64;
    loop {
        let mut block = match reuse() {
            Some(mut block) => {
                block.clear();
                block
            }
            None => Vec::with_capacity(BLOCK_BYTES + 4096),
        };
        let mut at_end = false;
        while block.len() < BLOCK_BYTES {
            let buffer = input.fill_buf()?;
            if buffer.is_empty() {
                at_end = true;
                break;
            }
            let n = buffer.len();
            block.extend_from_slice(buffer);
            input.consume(n);
        }
        // Finish the line the block stopped in, so that no line is split between workers.
        if !at_end && input.read_until(b'\n', &mut block)? == 0 {
            at_end = true;
        }
        if block.is_empty() {
            return Ok(());
        }
        bytes += block.len() as u64;
        if block.last() == Some(&b'\n') {
            block.pop();
        }
        let lines = memchr::memchr_iter(b'\n', &block).count() as u64 + 1;
        if !send(first_line, block, bytes) || at_end {
            return Ok(());
        }
        first_line += lines;
    }
}
