//! The replayer: its settings, and the counting of one record's calls into a report.

use std::borrow::Cow;

use serde_json::Value;

use super::blocks::BLOCK_BYTES;
use super::verdicts::Verdict;
use super::ToolSet;
use crate::formats::lines::with_unescaped;
use crate::formats::{self, Args, Call, InputFormat};
use crate::outcome::{BadRecord, Judgement, Location};
use crate::tally::{Report, Tally};
use toolargs_core::decode::{LoggedPayload, RawArgs};
use toolargs_core::internal::text::same_text;
use toolargs_core::judge::Judge;
use toolargs_core::options::ParseOptions;

/// The most tools [`Replayer`] looks up by name in a list rather than in the set's map.
const FEW_TOOLS: usize = 8;

/// Replays logs against a tool set, grouping by record fields.
pub struct Replayer<'t> {
    pub(super) tools: &'t ToolSet,
    /// The set's tools when they are few, looked up by comparing names inline (every call
    /// names one); `None` for a larger set, looked up in its map.
    few: Option<Vec<(&'t str, &'t dyn Judge)>>,
    pub(super) by: Vec<String>,
    options: ParseOptions,
    /// Write a verdict per call; `Some(true)` with its arguments.
    pub(super) verdicts: Option<bool>,
    /// The size of the blocks read ([`BLOCK_BYTES`]; smaller in tests, to cross many block
    /// boundaries).
    pub(super) block_bytes: usize,
}

impl<'t> Replayer<'t> {
    /// A replayer over `tools`, grouping by the record fields in `by` (may be empty).
    pub fn new(tools: &'t ToolSet, by: Vec<String>) -> Replayer<'t> {
        let few = (tools.len() <= FEW_TOOLS).then(|| {
            tools
                .tools
                .iter()
                .map(|(name, judge)| (name.as_str(), judge.as_ref()))
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
    /// with the call's `arguments` too when `with_arguments`. The MCP gate's verdict log adds
    /// `recorded`, `{"outcome", "codes", "rules", "changed"}` (`changed` when today's decision
    /// was compared with it), and its verdicts not judged again have the outcome
    /// `not_judged`, with a `reason` ([`NO_ARGUMENTS`](crate::NO_ARGUMENTS),
    /// [`NO_DEFINITION`](crate::NO_DEFINITION)). Verdicts come in input order,
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

    pub(super) fn record_into(
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
        if format == InputFormat::Gate {
            return self.gate_record(at, name, &value, report, out);
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

    /// [`ToolSet::named_judge`], from the list of a few tools when the set is small.
    pub(super) fn named_judge(
        &self,
        name: Option<&str>,
    ) -> Result<(&'t str, &'t dyn Judge), BadRecord> {
        match (&self.few, name) {
            (Some(few), Some(name)) => few
                .iter()
                .find(|(known, _)| same_text(known, name))
                .copied()
                .ok_or(BadRecord::UnknownTool),
            _ => self.tools.named_judge(name),
        }
    }

    /// Counts one call (or why a record is none) into `report`, and writes its verdict.
    pub(super) fn count(
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
                    let verdict = Verdict::Bad(reason);
                    self.write_verdict(out, name, at, None, &verdict, &[], None, None);
                }
                return;
            }
        };
        let verdict = self.verdict_of(&call);
        self.count_verdict(at, name, call, verdict, report, out, None);
    }

    /// What the tool's judge makes of one call: judged, unchecked, or why it is no call.
    pub(super) fn verdict_of(&self, call: &Call<'_>) -> Verdict<'t> {
        match (&call.arguments, self.named_judge(call.tool)) {
            (None, _) => Verdict::Bad(BadRecord::MissingArguments),
            (_, Err(reason)) => match self.tools.refusal(call.tool) {
                Some(refused) => Verdict::Unchecked(refused.name.as_deref().unwrap_or("")),
                None => Verdict::Bad(reason),
            },
            (Some(arguments), Ok((tool, judge))) => {
                let check =
                    |raw: &RawArgs<'_>| Judgement::from_result(judge.check(raw, &self.options));
                let text = |text: &str| check(&RawArgs::Text(Cow::Borrowed(text)));
                let logged = |payload: &LoggedPayload<'_>| {
                    judge
                        .check_logged(payload, &self.options)
                        .map(Judgement::from_result)
                };
                let judgement = match arguments {
                    Args::Text(arguments) => Some(text(arguments)),
                    // Read where they stand where the judge can, else from their text.
                    Args::Logged(arguments, read) => read
                        .as_ref()
                        .and_then(logged)
                        .or_else(|| Some(text(arguments))),
                    Args::Escaped(escaped, read) => read
                        .as_ref()
                        .and_then(logged)
                        .or_else(|| with_unescaped(escaped, text)),
                    Args::Value(value) => {
                        Some(check(&RawArgs::Value(Cow::Borrowed(value.as_ref()))))
                    }
                };
                match judgement {
                    Some(judgement) => Verdict::Judged(tool, judgement),
                    // Not as the scan checked it: the line is not one it would hand over.
                    None => Verdict::Bad(BadRecord::NotJson),
                }
            }
        }
    }

    /// Counts one call's verdict into `report`, and writes it (with `recorded`, the verdict the
    /// MCP gate recorded for it, when there is one).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn count_verdict(
        &self,
        at: Location,
        name: &str,
        call: Call<'_>,
        verdict: Verdict<'_>,
        report: &mut Report,
        out: Option<&mut Vec<u8>>,
        recorded: Option<Value>,
    ) {
        let count = |tally: &mut Tally| match &verdict {
            Verdict::Judged(_, judgement) => tally.add(&judgement.outcome),
            Verdict::Unchecked(tool) => tally.add_unchecked(tool),
            Verdict::Bad(reason) => tally.add_bad_at(*reason, at),
            Verdict::NotJudged(_) => {}
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
                recorded,
            );
        }
        if !self.by.is_empty() {
            count(report.group_mut(call.key));
        }
    }
}
