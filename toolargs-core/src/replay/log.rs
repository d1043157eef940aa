//! Reading JSON Lines logs of tool calls: one record per line,
//! `{"tool": NAME, "arguments": STRING_OR_OBJECT, ...}`.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::mpsc::sync_channel;
use std::sync::Mutex;

use serde_json::Value;

use super::tally::Report;
use super::Gate;
use crate::decode::RawArgs;
use crate::dynamic::LoadError;
use crate::options::ParseOptions;

/// Why a log line was not a call. Bad records are counted, never fatal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BadRecord {
    /// The line is not JSON.
    NotJson,
    /// The line is JSON but not an object.
    NotObject,
    /// The record has no `arguments`.
    MissingArguments,
    /// The record has no `tool` and the tool set holds more than one tool.
    MissingTool,
    /// The record names a tool the tool set does not hold.
    UnknownTool,
}

impl BadRecord {
    /// The stable snake_case name used in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            BadRecord::NotJson => "not_json",
            BadRecord::NotObject => "not_object",
            BadRecord::MissingArguments => "missing_arguments",
            BadRecord::MissingTool => "missing_tool",
            BadRecord::UnknownTool => "unknown_tool",
        }
    }
}

/// The tools a log is replayed against, by name.
#[derive(Default)]
pub struct ToolSet {
    tools: BTreeMap<String, Box<dyn Gate>>,
}

impl ToolSet {
    /// An empty set.
    pub fn new() -> ToolSet {
        ToolSet::default()
    }

    /// Adds a gate under `name` (replacing one of the same name).
    pub fn insert(&mut self, name: impl Into<String>, gate: impl Gate + 'static) -> &mut Self {
        self.tools.insert(name.into(), Box::new(gate));
        self
    }

    /// Loads tool definitions: a JSON array of definitions, or an object with a `tools` array,
    /// in any of the OpenAI chat / responses, Anthropic, Gemini and MCP shapes, mixed freely.
    /// Every definition needs a name, unless there is only one.
    pub fn from_json(text: &str) -> Result<ToolSet, LoadError> {
        let mut set = ToolSet::new();
        let specs = crate::dynamic::load_tool_list(text)?;
        let single = specs.len() == 1;
        for (i, spec) in specs.into_iter().enumerate() {
            let name = match (spec.name(), single) {
                (Some(name), _) => name.to_owned(),
                (None, true) => String::new(),
                (None, false) => {
                    return Err(LoadError::new(
                        &format!("/{i}"),
                        "a tool definition without a name; every tool in a set needs one",
                    ));
                }
            };
            if set.tools.contains_key(&name) {
                return Err(LoadError::new(
                    &format!("/{i}"),
                    format!("a second tool named `{name}`"),
                ));
            }
            set.insert(name, spec);
        }
        Ok(set)
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

    /// The gate for a record's `tool` field (`None` allowed when there is exactly one tool).
    pub fn gate(&self, name: Option<&str>) -> Result<&dyn Gate, BadRecord> {
        match name {
            Some(name) => self
                .tools
                .get(name)
                .map(|g| g.as_ref())
                .ok_or(BadRecord::UnknownTool),
            None if self.tools.len() == 1 => self
                .tools
                .values()
                .next()
                .map(|g| g.as_ref())
                .ok_or(BadRecord::MissingTool),
            None => Err(BadRecord::MissingTool),
        }
    }
}

/// Lines handed to a worker at once: large enough to amortise the channel, small enough to
/// keep memory flat.
const CHUNK_LINES: usize = 2048;

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

    /// An empty report with this replayer's grouping.
    pub fn empty_report(&self) -> Report {
        Report::new(self.by.clone())
    }

    /// Counts one log line (1-based `line` number) into `report`. Blank lines are skipped.
    pub fn record(&self, line: u64, text: &str, report: &mut Report) {
        if text.trim().is_empty() {
            return;
        }
        let record: Value = match serde_json::from_str(text) {
            Ok(record) => record,
            Err(_) => return report.overall.add_bad(BadRecord::NotJson, line),
        };
        let Value::Object(fields) = &record else {
            return report.overall.add_bad(BadRecord::NotObject, line);
        };
        let key: Vec<Value> = self
            .by
            .iter()
            .map(|f| fields.get(f).cloned().unwrap_or(Value::Null))
            .collect();
        let tool = match fields.get("tool") {
            None | Some(Value::Null) => None,
            Some(Value::String(name)) => Some(name.as_str()),
            Some(_) => Some(""),
        };
        let outcome = match (fields.get("arguments"), self.tools.gate(tool)) {
            (None, _) => Err(BadRecord::MissingArguments),
            (_, Err(reason)) => Err(reason),
            (Some(arguments), Ok(gate)) => {
                Ok(gate.outcome(&RawArgs::from(arguments), &self.options))
            }
        };
        let grouped = !self.by.is_empty();
        match outcome {
            Ok(outcome) => {
                report.overall.add(&outcome);
                if grouped {
                    report.group_mut(key).add(&outcome);
                }
            }
            Err(reason) => {
                report.overall.add_bad(reason, line);
                if grouped {
                    report.group_mut(key).add_bad(reason, line);
                }
            }
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
        let (send, receive) = sync_channel::<(u64, Vec<String>)>(workers * 2);
        let receive = Mutex::new(receive);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    scope.spawn(|| {
                        let mut report = self.empty_report();
                        loop {
                            // Hold the lock only to take a chunk, not while working on it.
                            let next = match receive.lock() {
                                Ok(guard) => guard.recv(),
                                Err(_) => break,
                            };
                            let Ok((first, lines)) = next else { break };
                            for (offset, line) in lines.iter().enumerate() {
                                self.record(first + offset as u64, line, &mut report);
                            }
                        }
                        report
                    })
                })
                .collect();

            let read_result = (|| -> io::Result<()> {
                let mut line_no = 1u64;
                let mut bytes = 0u64;
                loop {
                    let mut chunk = Vec::with_capacity(CHUNK_LINES);
                    let first = line_no;
                    while chunk.len() < CHUNK_LINES {
                        let mut line = String::new();
                        let n = read_line_lossy(&mut input, &mut line)?;
                        if n == 0 {
                            break;
                        }
                        bytes += n as u64;
                        chunk.push(line);
                        line_no += 1;
                    }
                    if chunk.is_empty() {
                        return Ok(());
                    }
                    progress(bytes);
                    if send.send((first, chunk)).is_err() {
                        return Ok(());
                    }
                }
            })();
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
}

/// Reads one line; invalid UTF-8 becomes U+FFFD (the line is then simply not JSON).
fn read_line_lossy<R: BufRead>(input: &mut R, line: &mut String) -> io::Result<usize> {
    let mut raw = Vec::new();
    let n = input.read_until(b'\n', &mut raw)?;
    while raw.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        raw.pop();
    }
    *line = match String::from_utf8(raw) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    };
    Ok(n)
}
