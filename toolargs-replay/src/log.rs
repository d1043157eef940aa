//! Reading logs of tool calls, one JSON record per line in any of the [`InputFormat`]s, in
//! parallel and in constant memory.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{channel, sync_channel, TrySendError};
use std::sync::Mutex;

use serde_json::{json, Value};

use crate::formats::lines::with_unescaped;
use crate::formats::{self, Args, Call, InputFormat};
use crate::gate::Gate;
use crate::outcome::Location;
use crate::outcome::{BadRecord, Judgement, Outcome};
use crate::tally::{Report, Tally, ToolWarning};
use toolargs_core::__private::text::same_text;
use toolargs_core::decode::RawArgs;
use toolargs_core::options::ParseOptions;
use toolargs_dynamic::{LoadError, LoadErrorKind, LoadWarning, RefusedDefinition};

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
                    set.refused.push(RefusedDefinition::new(
                        index,
                        None,
                        LoadError::new(
                            LoadErrorKind::UnnamedTool,
                            &pointer,
                            "a tool definition without a name; every tool in a set needs one",
                        ),
                    ));
                    continue;
                }
            };
            if set.tools.contains_key(&name) {
                let error = LoadError::new(
                    LoadErrorKind::DuplicateTool,
                    &pointer,
                    format!(
                        "a second tool named `{name}`; its calls are checked against the first"
                    ),
                );
                set.refused
                    .push(RefusedDefinition::new(index, Some(name), error));
                continue;
            }
            set.insert(name.clone(), spec);
            set.pointers.insert(name, pointer);
        }
        set.refused.sort_by_key(|r| r.index);
        Ok(set)
    }

    /// Adds the tools of `other` that this set does not name (loaded or refused): a set loaded
    /// from `--tools` wins over the definitions found in a log.
    pub fn add_missing(&mut self, other: ToolSet) {
        let ToolSet {
            tools,
            mut pointers,
            refused,
        } = other;
        let named = |set: &ToolSet, name: &str| {
            set.tools.contains_key(name)
                || set.refused.iter().any(|r| r.name.as_deref() == Some(name))
        };
        let mut added = Vec::new();
        for (name, gate) in tools {
            if !named(self, &name) {
                if let Some(pointer) = pointers.remove(&name) {
                    self.pointers.insert(name.clone(), pointer);
                }
                added.push((name, gate));
            }
        }
        let refused: Vec<RefusedDefinition> = refused
            .into_iter()
            .filter(|r| r.name.as_deref().is_some_and(|name| !named(self, name)))
            .collect();
        self.tools.extend(added);
        self.refused.extend(refused);
    }

    /// Prefixes the message of every refused definition with where it was found
    /// (`origins[index]`).
    pub(crate) fn note_origins(&mut self, origins: &[String]) {
        for refused in &mut self.refused {
            if let Some(origin) = origins.get(refused.index) {
                refused.error.message = format!("(found at {origin}) {}", refused.error.message);
            }
        }
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
                    warning: LoadWarning::new(format!("{at}{}", w.pointer), w.message.clone()),
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
        self.named_gate(name).map(|(_, gate)| gate)
    }

    /// The gate for a record's `tool` field with the tool's name, as [`ToolSet::gate`].
    pub fn named_gate(&self, name: Option<&str>) -> Result<(&str, &dyn Gate), BadRecord> {
        match name {
            Some(name) => self
                .tools
                .get_key_value(name)
                .map(|(k, g)| (k.as_str(), g.as_ref()))
                .ok_or(BadRecord::UnknownTool),
            None if self.tools.len() == 1 && self.refused.is_empty() => self
                .tools
                .iter()
                .next()
                .map(|(k, g)| (k.as_str(), g.as_ref()))
                .ok_or(BadRecord::MissingTool),
            None => Err(BadRecord::MissingTool),
        }
    }
}

/// What became of one call.
enum Verdict<'r> {
    /// The gate's judgement of a call to the named tool.
    Judged(&'r str, Judgement),
    /// A call to a tool whose definition was refused: nothing to judge it against.
    Unchecked(&'r str),
    /// Not a call.
    Bad(BadRecord),
}

/// Bytes handed to a worker at once: large enough to amortise the channel, and at least as
/// large as the buffers of the readers [`Input::open`](crate::inputs::Input::open) gives, so that a block is read straight
/// from the file or the decompressor rather than copied out of that buffer; small enough to
/// keep memory flat (at most two blocks per worker are in flight).
const BLOCK_BYTES: usize = crate::inputs::READ_BUFFER;

/// The most tools [`Replayer`] looks up by name in a list rather than in the set's map.
const FEW_TOOLS: usize = 8;

/// One input of [`Replayer::run_sources`]: a name for locations, a format and a reader.
pub struct LogSource<'a> {
    /// The name locations use (`FILE` in `FILE:LINE`).
    pub name: String,
    /// The format of its records; [`InputFormat::Auto`] detects it from the first records.
    pub format: InputFormat,
    /// The records, one per line.
    pub reader: Box<dyn BufRead + 'a>,
}

/// A block of whole lines of one source, as handed to a worker.
struct Block {
    /// The block's place among all blocks of the run, to write verdicts in order.
    seq: u64,
    source: u32,
    name: std::sync::Arc<str>,
    format: InputFormat,
    /// The number of the block's first line.
    first: u64,
    /// The buffer, whose first `len` bytes are the lines; the rest was never written, or is
    /// left from an earlier block.
    bytes: Vec<u8>,
    len: usize,
}

/// Replays logs against a tool set, grouping by record fields.
pub struct Replayer<'t> {
    tools: &'t ToolSet,
    /// The set's tools when they are few, looked up by comparing names inline (every call
    /// names one); `None` for a larger set, looked up in its map.
    few: Option<Vec<(&'t str, &'t dyn Gate)>>,
    by: Vec<String>,
    options: ParseOptions,
    /// Write a verdict per call; `Some(true)` with its arguments.
    verdicts: Option<bool>,
    /// The size of the blocks read ([`BLOCK_BYTES`]; smaller in tests, to cross many block
    /// boundaries).
    block_bytes: usize,
}

impl<'t> Replayer<'t> {
    /// A replayer over `tools`, grouping by the record fields in `by` (may be empty).
    pub fn new(tools: &'t ToolSet, by: Vec<String>) -> Replayer<'t> {
        let few = (tools.len() <= FEW_TOOLS).then(|| {
            tools
                .tools
                .iter()
                .map(|(name, gate)| (name.as_str(), gate.as_ref()))
                .collect()
        });
        Replayer {
            tools,
            few,
            by,
            options: ParseOptions::DEFAULT,
            verdicts: None,
            block_bytes: BLOCK_BYTES,
        }
        .with_options(ParseOptions::DEFAULT)
    }

    /// Parses calls with these options instead of the defaults. Replay counts codes, rules
    /// and paths, never messages: errors are always judged without them
    /// ([`ParseOptions::omit_messages`]).
    pub fn with_options(mut self, options: ParseOptions) -> Self {
        self.options = options.with_omit_messages(true);
        self
    }

    /// Makes [`Replayer::run_sources`] write one verdict per record to its `verdicts` writer,
    /// as a JSON line: `{"file", "line", "tool", "outcome", "codes", "rules", "fields"}`
    /// (`outcome` is `clean`, `repaired`, `rejected`, `unchecked` or `bad` with a `reason`;
    /// `fields` the paths of the repairs or errors; `group` the `by` values when grouping),
    /// with the call's `arguments` too when `with_arguments`. Verdicts come in input order,
    /// whatever the number of workers.
    pub fn with_verdicts(mut self, with_arguments: bool) -> Self {
        self.verdicts = Some(with_arguments);
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

    /// Counts one log line (1-based `line` number) of the replay's own format
    /// ([`InputFormat::Lines`]) into `report`. Blank lines are skipped.
    pub fn record(&self, line: u64, text: &str, report: &mut Report) {
        let at = Location { source: 0, line };
        self.record_in(InputFormat::Lines, at, text, report);
    }

    /// Counts one log line of `format` found at `at` into `report`: every call it holds.
    /// [`InputFormat::Auto`] detects the format of this record alone. Blank lines are skipped.
    pub fn record_in(&self, format: InputFormat, at: Location, text: &str, report: &mut Report) {
        self.record_into(format, at, "", text, report, None);
    }

    fn record_into(
        &self,
        format: InputFormat,
        at: Location,
        name: &str,
        text: &str,
        report: &mut Report,
        mut out: Option<&mut Vec<u8>>,
    ) {
        // A record starts with a visible character; only other lines may be blank.
        let starts_visible = text.as_bytes().first().is_some_and(u8::is_ascii_graphic);
        if !starts_visible && text.trim().is_empty() {
            return;
        }
        if format == InputFormat::Lines {
            return formats::lines::read(text, &self.by, &self.options.limits, |call| {
                self.count(at, name, call, report, out)
            });
        }
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return self.count(at, name, Err(BadRecord::NotJson), report, out);
        };
        let format = match format {
            InputFormat::Auto => InputFormat::detect(&value).unwrap_or(InputFormat::Lines),
            format => format,
        };
        if format == InputFormat::Lines {
            return formats::lines::read(text, &self.by, &self.options.limits, |call| {
                self.count(at, name, call, report, out)
            });
        }
        // Bound before the match: the calls borrow `value` and must be dropped before it.
        let calls = formats::calls(format, &value, &self.by);
        match calls {
            Err(reason) => self.count(at, name, Err(reason), report, out),
            Ok(calls) if calls.is_empty() => report.overall.without_calls += 1,
            Ok(calls) => {
                for call in calls {
                    self.count(at, name, Ok(call), report, out.as_deref_mut());
                }
            }
        }
    }

    /// [`ToolSet::named_gate`], from the list of a few tools when the set is small.
    fn named_gate(&self, name: Option<&str>) -> Result<(&'t str, &'t dyn Gate), BadRecord> {
        match (&self.few, name) {
            (Some(few), Some(name)) => few
                .iter()
                .find(|(known, _)| same_text(known, name))
                .copied()
                .ok_or(BadRecord::UnknownTool),
            _ => self.tools.named_gate(name),
        }
    }

    /// Counts one call (or why a record is none) into `report`, and writes its verdict.
    fn count(
        &self,
        at: Location,
        name: &str,
        call: Result<Call<'_>, BadRecord>,
        report: &mut Report,
        out: Option<&mut Vec<u8>>,
    ) {
        let call = match call {
            Ok(call) => call,
            Err(reason) => {
                report.overall.add_bad_at(reason, at);
                if let Some(out) = out {
                    self.write_verdict(out, name, at, None, &Verdict::Bad(reason), &[], None);
                }
                return;
            }
        };
        let verdict = match (&call.arguments, self.named_gate(call.tool)) {
            (None, _) => Verdict::Bad(BadRecord::MissingArguments),
            (_, Err(reason)) => match self.tools.refusal(call.tool) {
                Some(refused) => Verdict::Unchecked(refused.name.as_deref().unwrap_or("")),
                None => Verdict::Bad(reason),
            },
            (Some(arguments), Ok((tool, gate))) => {
                let judge =
                    |text: &str| gate.judge(&RawArgs::Text(Cow::Borrowed(text)), &self.options);
                let judgement = match arguments {
                    Args::Text(text) => Some(judge(text)),
                    // Read where they stand where the gate can, else from their text.
                    Args::Logged(text, read) => read
                        .as_ref()
                        .and_then(|payload| gate.judge_logged(payload, &self.options))
                        .or_else(|| Some(judge(text))),
                    Args::Escaped(logged, read) => read
                        .as_ref()
                        .and_then(|payload| gate.judge_logged(payload, &self.options))
                        .or_else(|| with_unescaped(logged, judge)),
                    Args::Value(value) => Some(gate.judge(
                        &RawArgs::Value(Cow::Borrowed(value.as_ref())),
                        &self.options,
                    )),
                };
                match judgement {
                    Some(judgement) => Verdict::Judged(tool, judgement),
                    // Not as the scan checked it: the line is not one it would hand over.
                    None => Verdict::Bad(BadRecord::NotJson),
                }
            }
        };
        let count = |tally: &mut Tally| match &verdict {
            Verdict::Judged(_, judgement) => tally.add(&judgement.outcome),
            Verdict::Unchecked(tool) => tally.add_unchecked(tool),
            Verdict::Bad(reason) => tally.add_bad_at(*reason, at),
        };
        count(&mut report.overall);
        if let Verdict::Judged(tool, judgement) = &verdict {
            report.drill.add(tool, at, judgement);
        }
        if let Some(out) = out {
            self.write_verdict(
                out,
                name,
                at,
                call.tool,
                &verdict,
                &call.key,
                call.arguments.as_ref(),
            );
        }
        if !self.by.is_empty() {
            count(report.group_mut(call.key));
        }
    }

    /// Writes one verdict line.
    #[allow(clippy::too_many_arguments)]
    fn write_verdict(
        &self,
        out: &mut Vec<u8>,
        name: &str,
        at: Location,
        tool: Option<&str>,
        verdict: &Verdict<'_>,
        key: &[Value],
        arguments: Option<&Args<'_>>,
    ) {
        let mut line = serde_json::Map::new();
        line.insert("file".into(), json!(name));
        line.insert("line".into(), json!(at.line));
        let tool = match verdict {
            Verdict::Judged(tool, _) | Verdict::Unchecked(tool) => Some(*tool),
            Verdict::Bad(_) => tool,
        };
        line.insert("tool".into(), json!(tool));
        let (outcome, codes, rules, fields): (&str, Vec<&str>, Vec<&str>, BTreeSet<String>) =
            match verdict {
                Verdict::Judged(_, judgement) => {
                    let fields = judgement
                        .findings
                        .iter()
                        .map(|(path, _)| path.clone())
                        .collect();
                    match &judgement.outcome {
                        Outcome::Clean => ("clean", vec![], vec![], fields),
                        Outcome::Repaired(rules) => (
                            "repaired",
                            vec![],
                            rules.iter().map(|r| r.as_str()).collect(),
                            fields,
                        ),
                        Outcome::Rejected(codes) => (
                            "rejected",
                            codes.iter().map(|c| c.as_str()).collect(),
                            vec![],
                            fields,
                        ),
                    }
                }
                Verdict::Unchecked(_) => ("unchecked", vec![], vec![], BTreeSet::new()),
                Verdict::Bad(reason) => {
                    line.insert("reason".into(), json!(reason.as_str()));
                    ("bad", vec![], vec![], BTreeSet::new())
                }
            };
        line.insert("outcome".into(), json!(outcome));
        line.insert("codes".into(), json!(codes));
        line.insert("rules".into(), json!(rules));
        line.insert("fields".into(), json!(fields));
        if !self.by.is_empty() && key.len() == self.by.len() {
            let group: serde_json::Map<String, Value> =
                self.by.iter().cloned().zip(key.iter().cloned()).collect();
            line.insert("group".into(), Value::Object(group));
        }
        // Arguments logged as a value are written as logged, numbers exactly: appended to the
        // line's text rather than read into a `Value`.
        let mut logged = None;
        if self.verdicts == Some(true) {
            let arguments = match arguments {
                Some(Args::Text(text)) => json!(text),
                Some(Args::Escaped(text, _)) => {
                    with_unescaped(text, |text| json!(text)).unwrap_or(Value::Null)
                }
                Some(Args::Logged(text, _)) => {
                    logged = Some(text.as_ref());
                    Value::Null
                }
                Some(Args::Value(value)) => value.as_ref().clone(),
                None => Value::Null,
            };
            line.insert("arguments".into(), arguments);
        }
        let start = out.len();
        if serde_json::to_writer(&mut *out, &Value::Object(line)).is_err() {
            out.truncate(start);
            return;
        }
        if let Some(text) = logged {
            // `"arguments":null}` closes the line: `null}` gives way to the logged text.
            out.truncate(out.len() - "null}".len());
            out.extend_from_slice(text.as_bytes());
            out.push(b'}');
        }
        out.push(b'\n');
    }

    /// Replays every line of `input` ([`InputFormat::Lines`]) on `workers` threads (at least
    /// one), in constant memory. `progress` is called on the reading thread with the number of
    /// bytes read so far. The report does not depend on the number of workers.
    pub fn run<R: BufRead>(
        &self,
        input: R,
        workers: usize,
        progress: impl FnMut(u64),
    ) -> io::Result<Report> {
        let source = LogSource {
            name: String::new(),
            format: InputFormat::Lines,
            reader: Box::new(input),
        };
        let mut report = self.run_sources([Ok(source)], workers, progress, None)?;
        report.sources.clear();
        Ok(report)
    }

    /// Replays every line of every source, one after the other, on `workers` threads (at
    /// least one), in constant memory; sources are opened as they are reached (an `Err` ends
    /// the run with it). `progress` is called on the reading thread with the number of
    /// (decompressed) bytes read so far over all sources. With
    /// [`Replayer::with_verdicts`], one verdict per record goes to `verdicts`, in input order.
    /// The report, and the verdicts, do not depend on the number of workers.
    pub fn run_sources<'a>(
        &self,
        sources: impl IntoIterator<Item = io::Result<LogSource<'a>>>,
        workers: usize,
        mut progress: impl FnMut(u64),
        mut verdicts: Option<&mut dyn Write>,
    ) -> io::Result<Report> {
        let workers = workers.max(1);
        let verdicts_on = self.verdicts.is_some() && verdicts.is_some();
        let (send, receive) = sync_channel::<Block>(workers * 2);
        let receive = Mutex::new(receive);
        // Blocks go back to the reader once counted, so a long replay reuses a few buffers
        // instead of asking the system for fresh pages block after block.
        let (give_back, take_back) = sync_channel::<Vec<u8>>(workers * 3);
        let (written, to_write) = channel::<(u64, Vec<u8>)>();
        std::thread::scope(|scope| {
            // The reading thread counts blocks too: alone with one worker, and whenever the
            // other workers have a full queue, so that no core waits on a hand-over.
            let handles: Vec<_> = (1..workers)
                .map(|_| {
                    let give_back = give_back.clone();
                    let written = written.clone();
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
                            let Ok(block) = next else { break };
                            let mut out = verdicts_on.then(Vec::new);
                            self.record_block(&block, &mut report, out.as_mut());
                            if let Some(out) = out {
                                let _ = written.send((block.seq, out));
                            }
                            // A block stretched by one very long line is not kept.
                            if block.bytes.capacity() <= 4 * BLOCK_BYTES {
                                let _ = give_back.try_send(block.bytes);
                            }
                        }
                        report
                    })
                })
                .collect();
            drop(give_back);
            drop(written);
            let mut names = Vec::new();
            // Verdicts that arrived before those of an earlier block.
            let mut pending: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
            let mut next_out = 0u64;
            let mut flush = |pending: &mut BTreeMap<u64, Vec<u8>>,
                             next_out: &mut u64,
                             wait: bool|
             -> io::Result<()> {
                let Some(out) = verdicts.as_deref_mut().filter(|_| verdicts_on) else {
                    return Ok(());
                };
                loop {
                    let arrived = if wait {
                        to_write.recv().ok()
                    } else {
                        to_write.try_recv().ok()
                    };
                    let done = arrived.is_none();
                    if let Some((seq, bytes)) = arrived {
                        pending.insert(seq, bytes);
                    }
                    while let Some(bytes) = pending.remove(next_out) {
                        out.write_all(&bytes)?;
                        *next_out += 1;
                    }
                    if done {
                        return Ok(());
                    }
                }
            };
            let mut local = Report::new(self.by.clone());
            let spare: std::cell::Cell<Option<Vec<u8>>> = std::cell::Cell::new(None);
            let read_result = (|| -> io::Result<()> {
                let mut seq = 0u64;
                let mut done = 0u64;
                for (index, source) in sources.into_iter().enumerate() {
                    let LogSource {
                        name,
                        format,
                        mut reader,
                    } = source?;
                    let shared: std::sync::Arc<str> = name.as_str().into();
                    names.push(name);
                    let mut format = format;
                    let mut read_here = 0;
                    let mut flushed = Ok(());
                    read_blocks(
                        &mut reader,
                        self.block_bytes,
                        || spare.take().or_else(|| take_back.try_recv().ok()),
                        |first, bytes, len, read| {
                            if format == InputFormat::Auto {
                                format = formats::detect_block(&bytes[..len]);
                            }
                            read_here = read;
                            progress(done + read);
                            let block = Block {
                                seq,
                                source: index as u32,
                                name: shared.clone(),
                                format,
                                first,
                                bytes,
                                len,
                            };
                            seq += 1;
                            let here = if workers == 1 {
                                Some(block)
                            } else {
                                match send.try_send(block) {
                                    Ok(()) => None,
                                    Err(TrySendError::Full(block)) => Some(block),
                                    Err(TrySendError::Disconnected(_)) => return false,
                                }
                            };
                            if let Some(block) = here {
                                self.count_here(&block, &mut local, &mut pending, verdicts_on);
                                if block.bytes.capacity() <= 4 * BLOCK_BYTES {
                                    spare.set(Some(block.bytes));
                                }
                            }
                            flushed = flush(&mut pending, &mut next_out, false);
                            flushed.is_ok()
                        },
                    )?;
                    flushed?;
                    done += read_here;
                }
                Ok(())
            })();
            drop(send);
            // Blocks still queued for the other workers are counted here too, so that the
            // reading thread does not wait idle at the end of the input while they finish.
            // They come before the last blocks counted here, so they get a report of their
            // own: a report keeps the first few locations it meets.
            let mut tail = Report::new(self.by.clone());
            while let Ok(block) = receive
                .lock()
                .map_err(drop)
                .and_then(|r| r.try_recv().map_err(drop))
            {
                self.count_here(&block, &mut tail, &mut pending, verdicts_on);
            }
            let flushed = flush(&mut pending, &mut next_out, true);
            let mut total = self.empty_report();
            total.merge(&local);
            total.merge(&tail);
            for handle in handles {
                match handle.join() {
                    Ok(report) => total.merge(&report),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            total.sources = names;
            read_result.and(flushed).map(|()| total)
        })
    }

    /// Counts a block on the reading thread, keeping its verdicts (when written) until the
    /// earlier blocks' are out.
    fn count_here(
        &self,
        block: &Block,
        report: &mut Report,
        pending: &mut BTreeMap<u64, Vec<u8>>,
        verdicts: bool,
    ) {
        let mut out = verdicts.then(Vec::new);
        self.record_block(block, report, out.as_mut());
        if let Some(out) = out {
            pending.insert(block.seq, out);
        }
    }

    /// Counts every line of a block.
    fn record_block(&self, block: &Block, report: &mut Report, mut out: Option<&mut Vec<u8>>) {
        let bytes = &block.bytes[..block.len];
        // One UTF-8 check for the whole block; lines are checked one by one only when it fails.
        // A line's bounds are newlines, which never fall inside a character.
        let valid = std::str::from_utf8(bytes).ok();
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
        for (offset, end) in ends.enumerate() {
            let (line_start, line_end) = (start, end);
            start = end + 1;
            let line_end = match bytes[line_start..line_end].last() {
                Some(b'\r') => line_end - 1,
                _ => line_end,
            };
            let text = match valid {
                Some(valid) => valid.get(line_start..line_end),
                None => std::str::from_utf8(&bytes[line_start..line_end]).ok(),
            };
            let at = Location {
                source: block.source,
                line: block.first + offset as u64,
            };
            match text {
                Some(text) => self.record_into(
                    block.format,
                    at,
                    &block.name,
                    text,
                    report,
                    out.as_deref_mut(),
                ),
                None => self.count(
                    at,
                    &block.name,
                    Err(BadRecord::NotJson),
                    report,
                    out.as_deref_mut(),
                ),
            }
        }
    }
}

/// Reads `input` in blocks of whole lines (about `block_bytes` each, without the final newline)
/// and hands each to `send` as a buffer and the length of its lines, with the number of its
/// first line and the bytes read so far. A block's buffer comes from `reuse` when it has one.
/// Stops early when `send` returns false.
fn read_blocks<R: BufRead + ?Sized>(
    input: &mut R,
    block_bytes: usize,
    mut reuse: impl FnMut() -> Option<Vec<u8>>,
    mut send: impl FnMut(u64, Vec<u8>, usize, u64) -> bool,
) -> io::Result<()> {
    let mut first_line = 1u64;
    let mut bytes = 0u64;
    // The start of the line the last block stopped in, which opens the next block.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        // Input is read into the buffer's length, which a recycled buffer keeps, so that its
        // bytes are set to zero once in its life rather than block after block (and a new one
        // asks the allocator for zeroed memory, which fresh pages already are). The room past
        // `block_bytes` holds the usual carried line without growing the buffer, and lets
        // every read ask for at least `block_bytes`, which the input's buffer passes straight
        // to the file or the decompressor once it is empty.
        let mut block = reuse().unwrap_or_else(|| vec![0; block_bytes + block_bytes / 16]);
        let mut target = carry.len() + block_bytes;
        if block.len() < target {
            block.resize(target, 0);
        }
        block[..carry.len()].copy_from_slice(&carry);
        let mut filled = carry.len();
        // The carried bytes hold no newline.
        let mut searched = filled;
        carry.clear();
        let mut at_end = false;
        let end = loop {
            while filled < target {
                match input.read(&mut block[filled..]) {
                    Ok(0) => {
                        at_end = true;
                        break;
                    }
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if at_end {
                break filled;
            }
            // The block ends after its last newline, so that no line is split between workers.
            match memchr::memrchr(b'\n', &block[searched..filled]) {
                Some(at) => break searched + at + 1,
                // A line longer than the block: the block grows to hold it.
                None => {
                    searched = filled;
                    target = filled + block_bytes;
                    block.resize(target.max(block.len()), 0);
                }
            }
        };
        if end == 0 {
            return Ok(());
        }
        carry.extend_from_slice(&block[end..filled]);
        bytes += end as u64;
        let len = match block[end - 1] {
            b'\n' => end - 1,
            _ => end,
        };
        let lines = memchr::memchr_iter(b'\n', &block[..len]).count() as u64 + 1;
        if !send(first_line, block, len, bytes) || at_end {
            return Ok(());
        }
        first_line += lines;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most three bytes per read, behind a buffer that passes large
    /// reads straight through, as a decompressor or a pipe may.
    struct Trickle<'a>(&'a [u8]);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(3).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// A log with every kind of line end: CRLF, blank lines, a line much longer than the small
    /// blocks, a line that is not UTF-8, and a last line without a newline.
    fn awkward_log() -> Vec<u8> {
        let mut log = Vec::new();
        for i in 0..40 {
            let line = match i % 8 {
                0 => format!(r#"{{"tool":"t","arguments":"{{\"n\":{i}}}","model":"a"}}"#),
                1 => format!(r#"{{"tool":"t","arguments":"{{\"n\":\"{i}\"}}","model":"b"}}"#),
                2 => r#"{"tool":"t","arguments":{"n":"x"},"model":"a"}"#.to_owned(),
                3 => String::new(),
                4 => format!(
                    r#"{{"tool":"t","arguments":"{{\"n\":1,\"s\":\"{}\"}}"}}"#,
                    "é".repeat(300)
                ),
                5 => "not json".to_owned(),
                6 => "  ".to_owned(),
                _ => r#"{"tool":"u","arguments":{}}"#.to_owned(),
            };
            log.extend_from_slice(line.as_bytes());
            if i == 13 {
                log.extend_from_slice(b"\xff");
            }
            log.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
        }
        log.extend_from_slice(br#"{"tool":"t","arguments":"{\"n\":7}"}"#);
        log
    }

    #[test]
    fn blocks_hold_whole_lines_whatever_their_size() {
        let log = awkward_log();
        for block_bytes in [1, 2, 3, 7, 64, 1000, BLOCK_BYTES] {
            for trickle in [false, true] {
                let mut input: Box<dyn BufRead> = match trickle {
                    true => Box::new(io::BufReader::with_capacity(5, Trickle(&log))),
                    false => Box::new(&log[..]),
                };
                let mut lines = Vec::new();
                let mut last_read = 0;
                read_blocks(
                    &mut input,
                    block_bytes,
                    || None,
                    |first, block, len, read| {
                        assert_eq!(first, lines.len() as u64 + 1);
                        lines.extend(block[..len].split(|b| *b == b'\n').map(<[u8]>::to_vec));
                        assert!(read > last_read);
                        last_read = read;
                        true
                    },
                )
                .unwrap();
                let expected: Vec<Vec<u8>> =
                    log.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
                assert_eq!(lines, expected, "blocks of {block_bytes}");
                assert_eq!(last_read, log.len() as u64);
            }
        }
    }

    #[test]
    fn a_replay_does_not_depend_on_the_block_size() {
        let tools = ToolSet::from_json(
            r#"[{"name": "t", "input_schema": {"type": "object",
                "properties": {"n": {"type": "integer"}, "s": {"type": "string", "maxLength": 10}},
                "required": ["n"], "additionalProperties": false}}]"#,
        )
        .unwrap();
        let log = awkward_log();
        let mut first: Option<(Report, Vec<u8>)> = None;
        for block_bytes in [1, 2, 3, 7, 64, 1000, BLOCK_BYTES] {
            for workers in [1, 3] {
                let mut replayer =
                    Replayer::new(&tools, vec!["model".to_owned()]).with_verdicts(true);
                replayer.block_bytes = block_bytes;
                let mut verdicts = Vec::new();
                let sources = [log.clone(), log.clone()].map(|log| {
                    Ok(LogSource {
                        name: "log".to_owned(),
                        format: InputFormat::Auto,
                        reader: Box::new(io::Cursor::new(log)),
                    })
                });
                let report = replayer
                    .run_sources(sources, workers, |_| {}, Some(&mut verdicts))
                    .unwrap();
                match &first {
                    None => first = Some((report, verdicts)),
                    Some((report_1, verdicts_1)) => {
                        assert_eq!(
                            &report, report_1,
                            "blocks of {block_bytes}, {workers} workers"
                        );
                        assert_eq!(
                            &verdicts, verdicts_1,
                            "blocks of {block_bytes}, {workers} workers"
                        );
                    }
                }
            }
        }
        let (report, _) = first.unwrap();
        // Per source: 31 records (10 blank lines skipped), the line that is not UTF-8 one of
        // the 5 that are not JSON, and the last line, without a newline, one of the 6 clean.
        assert_eq!(report.overall.total, 2 * 31);
        assert_eq!(report.overall.bad_records[&BadRecord::NotJson], 2 * 5);
        assert_eq!(
            report.overall.bad_lines[&BadRecord::NotJson],
            [6, 14, 22, 30, 38]
        );
        assert_eq!(report.overall.ok_clean, 2 * 6);
    }
}
