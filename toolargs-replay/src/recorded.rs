//! The verdicts a gate recorded ([`InputFormat::Gate`](crate::InputFormat::Gate)), counted
//! as they were made: by tool and outcome, by code, by rule, by session and over time, and
//! what the gate made of their meaning (decisions by tool, findings by tool, field and
//! verdict); and, for the calls judged again, where today's verdict differs from the recorded
//! one.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::clock::{self, DAY, HOUR};
use crate::drill::field_of;
use crate::formats::gate::GateRecord;
use crate::outcome::{merge_locations, Location};

/// Records per outcome name.
pub type OutcomeCounts = BTreeMap<String, u64>;

/// How many changed decisions a report keeps as examples (it counts them all).
pub const CHANGES_KEPT: usize = 10;

/// A log whose times span more hours than this is shown in day buckets.
pub const HOURS_SHOWN: i64 = 48;

/// The most buckets a [`Timeline`] fills in between the first and the last: a log with
/// farther-apart times (a stray `time`, say) lists only the buckets that hold records.
pub const BUCKETS_FILLED: i64 = 1000;

/// The decision counted in [`Recorded::meaning_decisions`] for a call the gate found to
/// repeat an action it had forwarded lately (the verdict's `meaning.duplicate_of`).
pub const DUPLICATE: &str = "duplicate";

/// Why a recorded verdict was not judged again.
pub const NO_ARGUMENTS: &str = "no_arguments";
/// The tool of a recorded verdict has no definition to judge it against today.
pub const NO_DEFINITION: &str = "no_definition";

/// The counters of recorded verdicts. Replay's [`Tally`](crate::Tally) counts only the calls
/// judged again (and the lines that are no verdict, as bad records); these count every
/// verdict the log holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recorded {
    /// Every verdict read.
    pub records: u64,
    /// Verdicts by outcome, as written (an open set: names no gate wrote yet are counted too).
    pub outcomes: OutcomeCounts,
    /// Verdicts by tool, then outcome.
    pub tools: BTreeMap<String, OutcomeCounts>,
    /// Verdicts by error code (a verdict counts once per distinct code).
    pub codes: BTreeMap<String, u64>,
    /// Repairs by rule (every repair counts).
    pub rules: BTreeMap<String, u64>,
    /// Verdicts by session (`None`: no session named), then outcome.
    pub sessions: BTreeMap<Option<String>, OutcomeCounts>,
    /// Verdicts by hour (the hour's start, Unix seconds, UTC), then outcome.
    pub hours: BTreeMap<i64, OutcomeCounts>,
    /// Verdicts without a time that reads (no `time`, no `timestamp`).
    pub untimed: u64,
    /// Verdicts on calls the user confirmed.
    pub confirmed: u64,
    /// Decisions on meaning by tool, then decision: a correction's (`proceed`,
    /// `proceed_and_report`, `confirm`, `reject`), and [`DUPLICATE`] for an action repeated.
    pub meaning_decisions: BTreeMap<String, OutcomeCounts>,
    /// The findings of corrections' reviews by tool and field (the argument path, its array
    /// indices as `[*]`), then verdict (`changed`, `equivalent`, `unverified`, ...).
    pub meaning_findings: BTreeMap<(String, String), OutcomeCounts>,
    /// Verdicts whose call was judged again (they carry their arguments and the tool is
    /// defined); these are the calls of the report's [`Tally`](crate::Tally).
    pub judged: u64,
    /// Verdicts not judged again, by reason ([`NO_ARGUMENTS`], [`NO_DEFINITION`]).
    pub not_judged: BTreeMap<&'static str, u64>,
    /// Verdicts judged again whose recorded outcome says a decision on the arguments
    /// (`clean`, `repaired`, `rejected`, `unchecked`, `blocked`), compared with today's.
    pub compared: u64,
    /// Compared verdicts where today's decision differs.
    pub changed: u64,
    /// Changed decisions by (recorded outcome, today's outcome).
    pub changes: BTreeMap<(String, String), u64>,
    /// The first [`CHANGES_KEPT`] changed decisions, in log order.
    pub changed_examples: Vec<ChangedDecision>,
}

/// One call whose recorded verdict today's policy decides differently.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ChangedDecision {
    /// Where the verdict is.
    pub at: Location,
    /// The tool called.
    pub tool: String,
    /// The outcome recorded.
    pub recorded: String,
    /// The codes recorded, each once.
    pub recorded_codes: Vec<String>,
    /// Today's outcome: `clean`, `repaired`, `rejected` or `unchecked`.
    pub today: &'static str,
    /// Today's codes of a rejection, each once.
    pub codes: Vec<&'static str>,
    /// Today's rules of a repair.
    pub rules: Vec<&'static str>,
}

/// The hash chain of one verdict log whose lines carry `prev` (the SHA-256 of the line
/// before), as checked by the caller that reads the log again (`toolargs replay` checks it
/// with `toolargs_gate::verify_chain`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ChainCheck {
    /// The input, as [`Report::sources`](crate::Report::sources) names it.
    pub source: String,
    /// The lines read.
    pub lines: u64,
    /// Where the chain first breaks: the line (1-based) and why; `None` when it holds.
    pub broken: Option<(u64, String)>,
}

impl ChainCheck {
    /// The check of the log `source`, `lines` long, broken at `broken`.
    pub fn new(source: impl Into<String>, lines: u64, broken: Option<(u64, String)>) -> Self {
        ChainCheck {
            source: source.into(),
            lines,
            broken,
        }
    }

    /// `{"file", "lines", "intact", "broken_at", "reason"}` (`broken_at` and `reason` null
    /// for an intact chain).
    pub fn to_json(&self) -> Value {
        json!({
            "file": self.source,
            "lines": self.lines,
            "intact": self.broken.is_none(),
            "broken_at": self.broken.as_ref().map(|(line, _)| line),
            "reason": self.broken.as_ref().map(|(_, reason)| reason),
        })
    }
}

/// Today's verdict on a call judged again, for [`Recorded::compare`].
pub(crate) struct Today {
    pub outcome: &'static str,
    pub codes: Vec<&'static str>,
    pub rules: Vec<&'static str>,
}

/// The width of a [`Timeline`]'s buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BucketSpan {
    /// One hour.
    Hour,
    /// One day (UTC).
    Day,
}

impl BucketSpan {
    /// `hour` or `day`.
    pub fn as_str(self) -> &'static str {
        match self {
            BucketSpan::Hour => "hour",
            BucketSpan::Day => "day",
        }
    }

    /// The bucket's length in seconds.
    pub fn seconds(self) -> i64 {
        match self {
            BucketSpan::Hour => HOUR,
            BucketSpan::Day => DAY,
        }
    }

    /// The bucket start `start` as text: `2026-12-04T13:00Z` for an hour, `2026-12-04` for a
    /// day.
    pub fn label(self, start: i64) -> String {
        let text = clock::format_utc(start);
        match self {
            BucketSpan::Hour => format!("{}Z", &text[..16]),
            BucketSpan::Day => text[..10].to_owned(),
        }
    }
}

/// One bucket of a [`Timeline`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimeBucket {
    /// The bucket's start, Unix seconds (UTC).
    pub start: i64,
    /// Verdicts by outcome (empty for a bucket without any).
    pub outcomes: OutcomeCounts,
}

impl TimeBucket {
    /// Verdicts in the bucket.
    pub fn total(&self) -> u64 {
        self.outcomes.values().sum()
    }
}

/// Recorded verdicts over time: hour buckets, or day buckets when the times span more than
/// [`HOURS_SHOWN`] hours; every bucket from the first to the last, empty ones included
/// (unless more than [`BUCKETS_FILLED`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timeline {
    /// The buckets' width.
    pub span: BucketSpan,
    /// The buckets, in time order.
    pub buckets: Vec<TimeBucket>,
}

fn add_to(counts: &mut OutcomeCounts, outcome: &str) {
    match counts.get_mut(outcome) {
        Some(n) => *n += 1,
        None => {
            counts.insert(outcome.to_owned(), 1);
        }
    }
}

fn merge_counts<K: Ord + Clone>(mine: &mut BTreeMap<K, u64>, other: &BTreeMap<K, u64>) {
    for (k, n) in other {
        *mine.entry(k.clone()).or_default() += n;
    }
}

fn merge_nested<K: Ord + Clone>(
    mine: &mut BTreeMap<K, OutcomeCounts>,
    other: &BTreeMap<K, OutcomeCounts>,
) {
    for (k, counts) in other {
        merge_counts(mine.entry(k.clone()).or_default(), counts);
    }
}

/// The decision on a call's arguments a recorded outcome stands for, when it says one: a call
/// `blocked` was refused unchecked. Outcomes after the judgement (`not_confirmed`, ...) and
/// names unknown here say none.
fn decision(outcome: &str) -> Option<&'static str> {
    match outcome {
        "clean" => Some("clean"),
        "repaired" => Some("repaired"),
        "rejected" => Some("rejected"),
        "unchecked" | "blocked" => Some("unchecked"),
        _ => None,
    }
}

/// The string member `key` of `value`, if it is one.
fn name<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// Each distinct name once, in order.
fn distinct<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut out = names.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

impl Recorded {
    /// True when no verdict was read.
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// Counts one recorded verdict.
    pub(crate) fn add(&mut self, record: &GateRecord<'_>) {
        self.records += 1;
        add_to(&mut self.outcomes, record.outcome);
        match self.tools.get_mut(record.tool) {
            Some(counts) => add_to(counts, record.outcome),
            None => {
                let counts = self.tools.entry(record.tool.to_owned()).or_default();
                add_to(counts, record.outcome);
            }
        }
        for code in distinct(&record.codes) {
            *self.codes.entry(code.to_owned()).or_default() += 1;
        }
        for rule in &record.rules {
            *self.rules.entry((*rule).to_owned()).or_default() += 1;
        }
        let session = self
            .sessions
            .entry(record.session.map(str::to_owned))
            .or_default();
        add_to(session, record.outcome);
        match record.time {
            Some(time) => {
                let hour = (time as i64).div_euclid(HOUR) * HOUR;
                add_to(self.hours.entry(hour).or_default(), record.outcome);
            }
            None => self.untimed += 1,
        }
        if record.confirmed {
            self.confirmed += 1;
        }
        if let Some(meaning) = record.meaning {
            self.add_meaning(record.tool, meaning);
        }
    }

    /// Counts what the gate made of the meaning of a call to `tool`: a correction's decision
    /// and findings, and a duplicate action.
    fn add_meaning(&mut self, tool: &str, meaning: &Value) {
        let mut decide = |decision: &str| match self.meaning_decisions.get_mut(tool) {
            Some(counts) => add_to(counts, decision),
            None => add_to(
                self.meaning_decisions.entry(tool.to_owned()).or_default(),
                decision,
            ),
        };
        let correction = meaning.get("correction");
        if let Some(decision) = correction.and_then(|c| name(c, "decision")) {
            decide(decision);
        }
        if meaning.get("duplicate_of").is_some() {
            decide(DUPLICATE);
        }
        let findings = correction
            .and_then(|c| c.get("findings"))
            .and_then(Value::as_array);
        for finding in findings.into_iter().flatten() {
            if let (Some(path), Some(verdict)) = (name(finding, "path"), name(finding, "verdict")) {
                let key = (tool.to_owned(), field_of(path).into_owned());
                add_to(self.meaning_findings.entry(key).or_default(), verdict);
            }
        }
    }

    /// Counts a verdict not judged again, for `reason`.
    pub(crate) fn not_judged(&mut self, reason: &'static str) {
        *self.not_judged.entry(reason).or_default() += 1;
    }

    /// Counts a verdict judged again, and compares today's decision with the recorded one;
    /// `Some(changed)` when compared.
    pub(crate) fn compare(
        &mut self,
        at: Location,
        record: &GateRecord<'_>,
        today: Today,
    ) -> Option<bool> {
        self.judged += 1;
        let recorded = decision(record.outcome)?;
        self.compared += 1;
        if recorded == today.outcome {
            return Some(false);
        }
        self.changed += 1;
        *self
            .changes
            .entry((record.outcome.to_owned(), today.outcome.to_owned()))
            .or_default() += 1;
        if self.changed_examples.len() < CHANGES_KEPT {
            self.changed_examples.push(ChangedDecision {
                at,
                tool: record.tool.to_owned(),
                recorded: record.outcome.to_owned(),
                recorded_codes: distinct(&record.codes)
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
                today: today.outcome,
                codes: today.codes,
                rules: today.rules,
            });
        }
        Some(true)
    }

    /// Adds another report's counts; the examples stay the first few in log order.
    pub fn merge(&mut self, other: &Recorded) {
        self.records += other.records;
        merge_counts(&mut self.outcomes, &other.outcomes);
        merge_nested(&mut self.tools, &other.tools);
        merge_counts(&mut self.codes, &other.codes);
        merge_counts(&mut self.rules, &other.rules);
        merge_nested(&mut self.sessions, &other.sessions);
        merge_nested(&mut self.hours, &other.hours);
        self.untimed += other.untimed;
        self.confirmed += other.confirmed;
        merge_nested(&mut self.meaning_decisions, &other.meaning_decisions);
        merge_nested(&mut self.meaning_findings, &other.meaning_findings);
        self.judged += other.judged;
        merge_counts(&mut self.not_judged, &other.not_judged);
        self.compared += other.compared;
        self.changed += other.changed;
        merge_counts(&mut self.changes, &other.changes);
        if !other.changed_examples.is_empty() {
            let mut at: Vec<Location> = self.changed_examples.iter().map(|c| c.at).collect();
            let theirs: Vec<Location> = other.changed_examples.iter().map(|c| c.at).collect();
            merge_locations(&mut at, &theirs, CHANGES_KEPT);
            let mut all = std::mem::take(&mut self.changed_examples);
            all.extend(other.changed_examples.iter().cloned());
            all.retain(|c| at.contains(&c.at));
            all.sort_by_key(|c| c.at);
            all.dedup_by_key(|c| c.at);
            self.changed_examples = all;
        }
    }

    /// The verdicts over time ([`Timeline`]); no bucket when no verdict has a time.
    pub fn timeline(&self) -> Timeline {
        let (first, last) = match (self.hours.keys().next(), self.hours.keys().next_back()) {
            (Some(first), Some(last)) => (*first, *last),
            _ => {
                return Timeline {
                    span: BucketSpan::Hour,
                    buckets: Vec::new(),
                }
            }
        };
        let span = if (last - first) / HOUR >= HOURS_SHOWN {
            BucketSpan::Day
        } else {
            BucketSpan::Hour
        };
        let width = span.seconds();
        let mut buckets: BTreeMap<i64, OutcomeCounts> = BTreeMap::new();
        for (hour, counts) in &self.hours {
            merge_counts(
                buckets.entry(hour.div_euclid(width) * width).or_default(),
                counts,
            );
        }
        let (from, to) = (first.div_euclid(width), last.div_euclid(width));
        if to - from < BUCKETS_FILLED {
            for slot in from..=to {
                buckets.entry(slot * width).or_default();
            }
        }
        Timeline {
            span,
            buckets: buckets
                .into_iter()
                .map(|(start, outcomes)| TimeBucket { start, outcomes })
                .collect(),
        }
    }

    /// The counters as JSON: `{"records", "outcomes", "confirmed", "untimed", "tools":
    /// {TOOL: {OUTCOME: N}}, "codes", "rules", "meaning": {"decisions": {TOOL: {DECISION: N}},
    /// "findings": [{"tool", "field", "total", "verdicts": {VERDICT: N}}]}, "sessions":
    /// [{"session", "total", "outcomes"}],
    /// "over_time": {"bucket": "hour"|"day", "buckets": [{"start", "label", "total",
    /// "outcomes"}]}, "judged_again": {"judged", "not_judged", "compared", "changed",
    /// "changes": [{"recorded", "today", "count"}], "examples": [{"at", "tool", "recorded",
    /// "recorded_codes", "today", "codes", "rules"}]}}`; `at` as `location` writes it.
    pub fn to_json(&self, location: impl Fn(Location) -> String) -> Value {
        let total = |counts: &OutcomeCounts| counts.values().sum::<u64>();
        let sessions: Vec<Value> = self
            .sessions
            .iter()
            .map(|(session, counts)| {
                json!({"session": session, "total": total(counts), "outcomes": counts})
            })
            .collect();
        let timeline = self.timeline();
        let buckets: Vec<Value> = timeline
            .buckets
            .iter()
            .map(|b| {
                json!({
                    "start": clock::format_utc(b.start),
                    "label": timeline.span.label(b.start),
                    "total": b.total(),
                    "outcomes": b.outcomes,
                })
            })
            .collect();
        let changes: Vec<Value> = self
            .changes
            .iter()
            .map(|((recorded, today), n)| json!({"recorded": recorded, "today": today, "count": n}))
            .collect();
        let examples: Vec<Value> = self
            .changed_examples
            .iter()
            .map(|c| {
                json!({
                    "at": location(c.at),
                    "tool": c.tool,
                    "recorded": c.recorded,
                    "recorded_codes": c.recorded_codes,
                    "today": c.today,
                    "codes": c.codes,
                    "rules": c.rules,
                })
            })
            .collect();
        let findings: Vec<Value> = self
            .meaning_findings
            .iter()
            .map(|((tool, field), verdicts)| {
                json!({"tool": tool, "field": field, "total": total(verdicts), "verdicts": verdicts})
            })
            .collect();
        let mut out = Map::new();
        out.insert("records".into(), json!(self.records));
        out.insert("outcomes".into(), json!(self.outcomes));
        out.insert("confirmed".into(), json!(self.confirmed));
        out.insert("untimed".into(), json!(self.untimed));
        out.insert("tools".into(), json!(self.tools));
        out.insert("codes".into(), json!(self.codes));
        out.insert("rules".into(), json!(self.rules));
        out.insert(
            "meaning".into(),
            json!({"decisions": self.meaning_decisions, "findings": findings}),
        );
        out.insert("sessions".into(), Value::Array(sessions));
        out.insert(
            "over_time".into(),
            json!({"bucket": timeline.span.as_str(), "buckets": buckets}),
        );
        out.insert(
            "judged_again".into(),
            json!({
                "judged": self.judged,
                "not_judged": self.not_judged,
                "compared": self.compared,
                "changed": self.changed,
                "changes": changes,
                "examples": examples,
            }),
        );
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::gate;

    fn record(line: Value) -> Recorded {
        let mut recorded = Recorded::default();
        recorded.add(&gate::read(&line).unwrap());
        recorded
    }

    fn verdict(time: f64, session: Option<&str>, tool: &str, outcome: &str) -> Value {
        json!({"time": time, "session": session, "tool": tool, "outcome": outcome,
               "codes": if outcome == "rejected" { json!(["type", "type", "required"]) } else { json!([]) },
               "rules": if outcome == "repaired" { json!(["numeric_string_to_int"]) } else { json!([]) },
               "latency_us": 5})
    }

    /// 2026-12-04T13:00:00Z.
    const T0: f64 = 1_796_389_200.0;

    #[test]
    fn verdicts_count_by_tool_code_rule_session_and_hour() {
        let mut all = Recorded::default();
        for line in [
            verdict(T0 + 10.0, Some("a"), "refund", "clean"),
            verdict(T0 + 20.0, Some("a"), "refund", "rejected"),
            verdict(T0 + 3700.0, None, "lookup", "repaired"),
            verdict(T0 + 3.0 * 3600.0, Some("b"), "lookup", "unknown_tool"),
            json!({"latency_us": 1, "tool": "lookup", "outcome": "clean", "codes": []}),
        ] {
            all.merge(&record(line));
        }
        assert_eq!(all.records, 5);
        assert_eq!(all.untimed, 1);
        let counts = |pairs: &[(&str, u64)]| -> OutcomeCounts {
            pairs.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
        };
        assert_eq!(
            all.outcomes,
            counts(&[
                ("clean", 2),
                ("rejected", 1),
                ("repaired", 1),
                ("unknown_tool", 1)
            ])
        );
        assert_eq!(
            all.tools["refund"],
            counts(&[("clean", 1), ("rejected", 1)])
        );
        assert_eq!(
            all.tools["lookup"],
            counts(&[("clean", 1), ("repaired", 1), ("unknown_tool", 1)])
        );
        // A code counts once per verdict, a rule once per repair.
        assert_eq!(all.codes, counts(&[("required", 1), ("type", 1)]));
        assert_eq!(all.rules["numeric_string_to_int"], 1);
        assert_eq!(
            all.sessions[&None],
            counts(&[("clean", 1), ("repaired", 1)])
        );
        assert_eq!(all.sessions[&Some("a".to_owned())].len(), 2);
        let timeline = all.timeline();
        assert_eq!(timeline.span, BucketSpan::Hour);
        let starts: Vec<String> = timeline
            .buckets
            .iter()
            .map(|b| timeline.span.label(b.start))
            .collect();
        // The empty hour between is a bucket too.
        assert_eq!(
            starts,
            [
                "2026-12-04T13:00Z",
                "2026-12-04T14:00Z",
                "2026-12-04T15:00Z",
                "2026-12-04T16:00Z"
            ]
        );
        let totals: Vec<u64> = timeline.buckets.iter().map(TimeBucket::total).collect();
        assert_eq!(totals, [2, 1, 0, 1]);
        let json = all.to_json(|at| at.line.to_string());
        assert_eq!(json["over_time"]["bucket"], "hour");
        assert_eq!(
            json["over_time"]["buckets"][0]["start"],
            "2026-12-04T13:00:00Z"
        );
        assert_eq!(
            json["sessions"][0],
            json!({"session": null, "total": 2, "outcomes": {"clean": 1, "repaired": 1}})
        );
    }

    #[test]
    fn meaning_counts_decisions_by_tool_and_findings_by_field_and_verdict() {
        let with = |tool: &str, meaning: Value| {
            let mut line = verdict(T0, Some("s"), tool, "refused");
            line["meaning"] = meaning;
            line
        };
        let changed = |path: &str| json!({"path": path, "meaning": "money", "verdict": "changed", "critical": true});
        let lines = [
            with(
                "refund",
                json!({"correction": {"decision": "reject", "findings": [changed("$.amount_cents")]},
                       "fingerprint": "ab"}),
            ),
            with(
                "refund",
                json!({"correction": {"decision": "proceed", "findings": []}, "fingerprint": "cd"}),
            ),
            with(
                "refund",
                json!({"duplicate_of": {"label": "4", "seconds_ago": 0}, "fingerprint": "cd"}),
            ),
            with(
                "ship",
                json!({"correction": {"decision": "confirm", "findings": [
                    changed("$.items[0].qty"),
                    {"path": "$.items[3].qty", "verdict": "unverified"},
                    {"path": "$.date", "verdict": "ambiguous"},
                    {"verdict": "changed"},
                ]}}),
            ),
            // Only a fingerprint, and a meaning that is no object: nothing to count.
            with("refund", json!({"fingerprint": "ef"})),
            with("refund", json!("odd")),
            verdict(T0, None, "refund", "clean"),
        ];
        // Counted in two parts and merged.
        let mut all = Recorded::default();
        let mut part = Recorded::default();
        for (i, line) in lines.into_iter().enumerate() {
            part.add(&gate::read(&line).unwrap());
            if i == 2 {
                all.merge(&std::mem::take(&mut part));
            }
        }
        all.merge(&part);
        let counts = |pairs: &[(&str, u64)]| -> OutcomeCounts {
            pairs.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
        };
        assert_eq!(
            all.meaning_decisions["refund"],
            counts(&[("reject", 1), ("proceed", 1), (DUPLICATE, 1)])
        );
        assert_eq!(all.meaning_decisions["ship"], counts(&[("confirm", 1)]));
        let field = |tool: &str, field: &str| &all.meaning_findings[&(tool.into(), field.into())];
        assert_eq!(
            field("refund", "$.amount_cents"),
            &counts(&[("changed", 1)])
        );
        // Indices fold: one field however long the list.
        assert_eq!(
            field("ship", "$.items[*].qty"),
            &counts(&[("changed", 1), ("unverified", 1)])
        );
        assert_eq!(field("ship", "$.date"), &counts(&[("ambiguous", 1)]));
        assert_eq!(all.meaning_findings.len(), 3);
        let json = all.to_json(|at| at.line.to_string());
        assert_eq!(
            json["meaning"]["decisions"],
            json!({"refund": {"duplicate": 1, "proceed": 1, "reject": 1}, "ship": {"confirm": 1}})
        );
        assert_eq!(
            json["meaning"]["findings"],
            json!([
                {"tool": "refund", "field": "$.amount_cents", "total": 1, "verdicts": {"changed": 1}},
                {"tool": "ship", "field": "$.date", "total": 1, "verdicts": {"ambiguous": 1}},
                {"tool": "ship", "field": "$.items[*].qty", "total": 2,
                 "verdicts": {"changed": 1, "unverified": 1}},
            ])
        );
        // A log without meaning says so with empty counts.
        let none = record(verdict(T0, None, "t", "clean")).to_json(|at| at.line.to_string());
        assert_eq!(none["meaning"], json!({"decisions": {}, "findings": []}));
    }

    #[test]
    fn a_log_of_more_than_two_days_counts_by_day() {
        let mut all = Recorded::default();
        for hours in [0.0, 1.0, 30.0, 49.0] {
            all.merge(&record(verdict(T0 + hours * 3600.0, None, "t", "clean")));
        }
        let timeline = all.timeline();
        assert_eq!(timeline.span, BucketSpan::Day);
        let days: Vec<(String, u64)> = timeline
            .buckets
            .iter()
            .map(|b| (timeline.span.label(b.start), b.total()))
            .collect();
        assert_eq!(
            days,
            [
                ("2026-12-04".to_owned(), 2),
                ("2026-12-05".to_owned(), 1),
                ("2026-12-06".to_owned(), 1)
            ]
        );
        // A stray time far off: only the buckets that hold verdicts.
        all.merge(&record(verdict(1.0, None, "t", "clean")));
        assert_eq!(all.timeline().buckets.len(), 4);
    }

    #[test]
    fn today_s_decision_is_compared_with_the_recorded_one() {
        let mut all = Recorded::default();
        let today = |outcome, codes: &[&'static str]| Today {
            outcome,
            codes: codes.to_vec(),
            rules: Vec::new(),
        };
        let lines = [
            (
                verdict(T0, None, "t", "repaired"),
                today("rejected", &["type"]),
            ),
            (verdict(T0, None, "t", "clean"), today("clean", &[])),
            (verdict(T0, None, "t", "blocked"), today("unchecked", &[])),
            (verdict(T0, None, "t", "not_confirmed"), today("clean", &[])),
            (verdict(T0, None, "t", "rejected"), today("clean", &[])),
        ];
        // Counted in two halves, merged in reverse: the examples stay in log order.
        let mut halves = [Recorded::default(), Recorded::default()];
        let mut changed = Vec::new();
        for (line, (value, today)) in lines.into_iter().enumerate() {
            let record = gate::read(&value).unwrap();
            changed.push(halves[usize::from(line < 2)].compare(
                Location::new(0, line as u64 + 1),
                &record,
                today,
            ));
        }
        assert_eq!(
            changed,
            [Some(true), Some(false), Some(false), None, Some(true)]
        );
        all.merge(&halves[0]);
        all.merge(&halves[1]);
        assert_eq!((all.judged, all.compared, all.changed), (5, 4, 2));
        assert_eq!(all.changes[&("repaired".into(), "rejected".into())], 1);
        let at: Vec<u64> = all.changed_examples.iter().map(|c| c.at.line).collect();
        assert_eq!(at, [1, 5]);
        assert_eq!(all.changed_examples[0].codes, ["type"]);
        let json = all.to_json(|at| format!("gate.jsonl:{}", at.line));
        assert_eq!(json["judged_again"]["examples"][1]["at"], "gate.jsonl:5");
        assert_eq!(
            json["judged_again"]["examples"][1]["recorded_codes"],
            json!(["required", "type"])
        );
    }
}
