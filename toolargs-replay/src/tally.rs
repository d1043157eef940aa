//! Counters of a replay, overall and per group, and their JSON form.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use toolargs_dynamic::{LoadWarning, RefusedDefinition};

use crate::drill::Drill;
use crate::outcome::{merge_locations, BadRecord, Location, Outcome};
use crate::recorded::{ChainCheck, Recorded};
use crate::shown::Shown;

/// How many line numbers are kept per bad-record reason.
pub const BAD_LINES_KEPT: usize = 5;

/// How many load warnings a report shows (it counts them all).
pub const LOAD_WARNINGS_SHOWN: usize = 5;

/// The counters of a set of calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Every record counted here: calls, unchecked calls and bad records.
    pub total: u64,
    /// Calls accepted without repairs.
    pub ok_clean: u64,
    /// Calls accepted with at least one repair.
    pub ok_repaired: u64,
    /// Calls rejected.
    pub rejected: u64,
    /// Calls to a tool whose definition was refused: not judged, so in no rate.
    pub unchecked: u64,
    /// Unchecked calls by tool name.
    pub unchecked_tools: BTreeMap<String, u64>,
    /// Records that are not calls, by reason.
    pub bad_records: BTreeMap<BadRecord, u64>,
    /// The first few line numbers (1-based) of bad records, by reason: the lines of
    /// [`Tally::bad_locations`].
    pub bad_lines: BTreeMap<BadRecord, Vec<u64>>,
    /// The first few locations of bad records, by reason.
    pub bad_locations: BTreeMap<BadRecord, Vec<Location>>,
    /// Records of a provider log that hold no tool call (a reply in plain text, an MCP message
    /// other than `tools/call`): not calls, not bad, in no count but this one.
    pub without_calls: u64,
    /// Repairs of accepted calls, by rule name (every repair counts).
    pub repairs: BTreeMap<&'static str, u64>,
    /// Rejected calls, by code (a call counts once per distinct code).
    pub rejections: BTreeMap<&'static str, u64>,
}

impl Tally {
    /// Counts one call's outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        self.total += 1;
        match outcome {
            Outcome::Clean => self.ok_clean += 1,
            Outcome::Repaired(rules) => {
                self.ok_repaired += 1;
                for rule in rules {
                    *self.repairs.entry(rule.as_str()).or_default() += 1;
                }
            }
            Outcome::Rejected(codes) => {
                self.rejected += 1;
                for code in codes {
                    *self.rejections.entry(code.as_str()).or_default() += 1;
                }
            }
        }
    }

    /// Counts one call to `tool`, whose definition was refused.
    pub fn add_unchecked(&mut self, tool: &str) {
        self.total += 1;
        self.unchecked += 1;
        match self.unchecked_tools.get_mut(tool) {
            Some(n) => *n += 1,
            None => {
                self.unchecked_tools.insert(tool.to_owned(), 1);
            }
        }
    }

    /// Counts one bad record found at `at`.
    pub fn add_bad_at(&mut self, reason: BadRecord, at: Location) {
        self.total += 1;
        *self.bad_records.entry(reason).or_default() += 1;
        let kept = self.bad_locations.entry(reason).or_default();
        // A record with several bad calls is one location; locations come in order.
        if kept.len() < BAD_LINES_KEPT && kept.last() != Some(&at) {
            kept.push(at);
            self.bad_lines.entry(reason).or_default().push(at.line);
        }
    }

    /// Adds another tally's counts to this one; line numbers stay the smallest few.
    pub fn merge(&mut self, other: &Tally) {
        self.total += other.total;
        self.ok_clean += other.ok_clean;
        self.ok_repaired += other.ok_repaired;
        self.rejected += other.rejected;
        self.unchecked += other.unchecked;
        for (tool, n) in &other.unchecked_tools {
            *self.unchecked_tools.entry(tool.clone()).or_default() += n;
        }
        for (reason, n) in &other.bad_records {
            *self.bad_records.entry(*reason).or_default() += n;
        }
        self.without_calls += other.without_calls;
        for (reason, kept) in &other.bad_locations {
            let mine = self.bad_locations.entry(*reason).or_default();
            merge_locations(mine, kept, BAD_LINES_KEPT);
            self.bad_lines
                .insert(*reason, mine.iter().map(|at| at.line).collect());
        }
        for (rule, n) in &other.repairs {
            *self.repairs.entry(rule).or_default() += n;
        }
        for (code, n) in &other.rejections {
            *self.rejections.entry(code).or_default() += n;
        }
    }

    /// Calls that reached the gate (accepted or rejected; unchecked calls and bad records
    /// excluded). Rates are per such call.
    pub fn calls(&self) -> u64 {
        self.ok_clean + self.ok_repaired + self.rejected
    }

    /// Total bad records.
    pub fn bad_total(&self) -> u64 {
        self.bad_records.values().sum()
    }

    /// The counters as a JSON object (the shape of `toolargs replay --format json`).
    pub fn to_json(&self) -> Map<String, Value> {
        let counts = |m: &BTreeMap<&'static str, u64>| {
            Value::Object(m.iter().map(|(k, v)| ((*k).to_owned(), json!(v))).collect())
        };
        let mut out = Map::new();
        out.insert("total".into(), json!(self.total));
        out.insert("ok_clean".into(), json!(self.ok_clean));
        out.insert("ok_repaired".into(), json!(self.ok_repaired));
        out.insert("rejected".into(), json!(self.rejected));
        out.insert("unchecked".into(), json!(self.unchecked));
        out.insert("unchecked_tools".into(), json!(self.unchecked_tools));
        out.insert("without_calls".into(), json!(self.without_calls));
        out.insert(
            "bad_records".into(),
            Value::Object(
                self.bad_records
                    .iter()
                    .map(|(reason, n)| {
                        let lines = self.bad_lines.get(reason).cloned().unwrap_or_default();
                        (
                            reason.as_str().to_owned(),
                            json!({"count": n, "first_lines": lines}),
                        )
                    })
                    .collect(),
            ),
        );
        out.insert("repairs".into(), counts(&self.repairs));
        out.insert("rejections".into(), counts(&self.rejections));
        out
    }
}

/// A load warning of one tool of a [`ToolSet`](crate::ToolSet).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolWarning {
    /// The tool's name.
    pub tool: String,
    /// The warning; its pointer starts at the definition's index when the set was loaded
    /// from a list (`/2/parameters/...`), as the pointers of refused definitions do.
    pub warning: LoadWarning,
}

impl ToolWarning {
    /// The warning `warning` of the tool named `tool`.
    pub fn new(tool: impl Into<String>, warning: LoadWarning) -> ToolWarning {
        ToolWarning {
            tool: tool.into(),
            warning,
        }
    }
}

/// The values of the `--by` fields for one record (`null` when a record lacks a field).
pub type GroupKey = Vec<Value>;

/// The result of a replay: overall counters and, when grouping, counters per group.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// The grouping fields, in order.
    pub by: Vec<String>,
    /// Counters over every record.
    pub overall: Tally,
    /// Counters per group key, in key order (empty without grouping).
    pub groups: BTreeMap<String, (GroupKey, Tally)>,
    /// The tool definitions that did not load; calls to their tools are `unchecked`.
    pub refused: Vec<RefusedDefinition>,
    /// The load warnings of the tools that loaded.
    pub load_warnings: Vec<ToolWarning>,
    /// The inputs replayed, in order, as named to the replayer; a [`Location`]'s `source` is
    /// an index into it.
    pub sources: Vec<String>,
    /// Per tool and per field: the rate of every rule and code, and example locations.
    pub drill: Drill,
    /// The verdicts a gate's verdict log recorded ([`InputFormat::Gate`](crate::InputFormat::Gate));
    /// empty for other logs.
    pub recorded: Recorded,
    /// The hash chains of the verdict logs whose lines carry `prev`, as checked by the caller
    /// (a replay reads each line once and does not check them).
    pub chains: Vec<ChainCheck>,
    /// What the model was not shown of each tool, when the caller says which dialect it was
    /// shown the tools in ([`Shown::of`]).
    pub shown: Option<Shown>,
}

impl Report {
    /// An empty report grouped by `by`.
    pub fn new(by: Vec<String>) -> Report {
        Report {
            by,
            ..Report::default()
        }
    }

    /// The tally of the group `key`, created on first use.
    pub fn group_mut(&mut self, key: GroupKey) -> &mut Tally {
        // Keyed by the key's JSON text, which orders and compares any value deterministically.
        // Written by serde_json's writer, without a copy of the key; a list of values always
        // serializes.
        let text = serde_json::to_string(&key).unwrap_or_default();
        &mut self
            .groups
            .entry(text)
            .or_insert_with(|| (key, Tally::default()))
            .1
    }

    /// Adds another report's counters (same grouping) into this one; the refused definitions,
    /// load warnings, sources and chains stay this report's.
    pub fn merge(&mut self, other: &Report) {
        self.overall.merge(&other.overall);
        self.drill.merge(&other.drill);
        self.recorded.merge(&other.recorded);
        for (text, (key, tally)) in &other.groups {
            self.groups
                .entry(text.clone())
                .or_insert_with(|| (key.clone(), Tally::default()))
                .1
                .merge(tally);
        }
    }

    /// A location as text: `FILE:LINE` (`LINE` alone when the report has no source names).
    pub fn location_text(&self, at: Location) -> String {
        match self.sources.get(at.source as usize) {
            Some(name) => format!("{name}:{}", at.line),
            None => at.line.to_string(),
        }
    }

    /// A tally's JSON with the locations of its bad records (`bad_locations`).
    fn tally_json(&self, tally: &Tally) -> Map<String, Value> {
        let mut out = tally.to_json();
        let located: Map<String, Value> = tally
            .bad_locations
            .iter()
            .map(|(reason, kept)| {
                let texts: Vec<String> = kept.iter().map(|at| self.location_text(*at)).collect();
                (reason.as_str().to_owned(), json!(texts))
            })
            .collect();
        out.insert("bad_locations".into(), Value::Object(located));
        out
    }

    /// The report as one JSON object:
    /// `{"total", "ok_clean", "ok_repaired", "rejected", "unchecked", "unchecked_tools",
    /// "without_calls", "bad_records": {REASON: {"count", "first_lines"}}, "bad_locations":
    /// {REASON: ["FILE:LINE"]}, "repairs", "rejections", "groups": [{"key": {FIELD: VALUE}, ...same counters}],
    /// "refused_definitions": [{"index", "tool", "pointer", "reason"}], "load_warnings":
    /// {"count", "first": [{"tool", "pointer", "message"}]}, "sources", "drill"}`, with the
    /// first [`LOAD_WARNINGS_SHOWN`] warnings; `drill` is [`Drill::to_json`]. A gate's verdict
    /// log adds `"recorded"` ([`Recorded::to_json`]), and a chained one `"chains"`
    /// ([`ChainCheck::to_json`]).
    pub fn to_json(&self) -> Value {
        let mut out = self.tally_json(&self.overall);
        let groups: Vec<Value> = self
            .groups
            .values()
            .map(|(key, tally)| {
                let mut g = Map::new();
                let key: Map<String, Value> =
                    self.by.iter().cloned().zip(key.iter().cloned()).collect();
                g.insert("key".into(), Value::Object(key));
                g.extend(self.tally_json(tally));
                Value::Object(g)
            })
            .collect();
        out.insert("groups".into(), Value::Array(groups));
        let refused: Vec<Value> = self
            .refused
            .iter()
            .map(|r| {
                json!({
                    "index": r.index,
                    "tool": r.name,
                    "pointer": r.error.pointer,
                    "reason": r.error.message,
                })
            })
            .collect();
        out.insert("refused_definitions".into(), Value::Array(refused));
        let first: Vec<Value> = self
            .load_warnings
            .iter()
            .take(LOAD_WARNINGS_SHOWN)
            .map(|w| {
                json!({
                    "tool": w.tool,
                    "pointer": w.warning.pointer,
                    "message": w.warning.message,
                })
            })
            .collect();
        out.insert(
            "load_warnings".into(),
            json!({"count": self.load_warnings.len(), "first": first}),
        );
        out.insert("sources".into(), json!(self.sources));
        out.insert(
            "drill".into(),
            self.drill.to_json(|at| self.location_text(at)),
        );
        if !self.recorded.is_empty() {
            out.insert(
                "recorded".into(),
                self.recorded.to_json(|at| self.location_text(at)),
            );
        }
        if !self.chains.is_empty() {
            let chains: Vec<Value> = self.chains.iter().map(ChainCheck::to_json).collect();
            out.insert("chains".into(), Value::Array(chains));
        }
        if let Some(shown) = &self.shown {
            out.insert("not_shown".into(), shown.to_json());
        }
        Value::Object(out)
    }
}
