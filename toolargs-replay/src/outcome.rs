//! What replay says about one line: the outcome of judging a call, or why the line was not one.

use toolargs_core::report::{Code, Rejection, Repair, Rule};

/// What judging one call gave. Exhaustive, as the semantic gate's `Decision` is: a
/// verdict a caller acts on is matched in full, so a new kind of verdict is a compile error
/// there rather than a silent default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted without any repair.
    Clean,
    /// Accepted after these repairs (one entry per repair, in order).
    Repaired(Vec<Rule>),
    /// Rejected with these codes (each distinct code once).
    Rejected(Vec<Code>),
}

impl Outcome {
    /// The outcome of a judge's verdict ([`Judge::check`](toolargs_core::Judge::check)).
    pub fn from_result(result: Result<Vec<Repair>, Rejection>) -> Outcome {
        Judgement::from_result(result).outcome
    }
}

/// One call's [`Outcome`] with where it happened: the JSON path of every repair of an
/// accepted call, or of every error of a rejected one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Judgement {
    /// The outcome.
    pub outcome: Outcome,
    /// `(path, rule or code)`: one per repair of an accepted call, one per error of a rejected
    /// call, in the verdict's order. Paths are the parser's (`$`, `$.field`, `$.list[3]`).
    pub findings: Vec<(String, &'static str)>,
}

impl Judgement {
    /// The judgement of a judge's verdict ([`Judge::check`](toolargs_core::Judge::check)).
    pub fn from_result(result: Result<Vec<Repair>, Rejection>) -> Judgement {
        match result {
            Ok(repairs) if repairs.is_empty() => Judgement {
                outcome: Outcome::Clean,
                findings: Vec::new(),
            },
            Ok(repairs) => {
                let mut rules = Vec::with_capacity(repairs.len());
                let mut findings = Vec::with_capacity(repairs.len());
                for repair in repairs {
                    rules.push(repair.rule);
                    findings.push((repair.path, repair.rule.as_str()));
                }
                Judgement {
                    outcome: Outcome::Repaired(rules),
                    findings,
                }
            }
            Err(rejection) => {
                let errors = rejection.into_errors();
                // Each distinct code once, in order: a sorted list, without a set to build.
                let mut codes: Vec<Code> = errors.iter().map(|e| e.code).collect();
                codes.sort_unstable();
                codes.dedup();
                Judgement {
                    outcome: Outcome::Rejected(codes),
                    findings: errors
                        .into_iter()
                        .map(|e| (e.path, e.code.as_str()))
                        .collect(),
                }
            }
        }
    }
}

/// Why a log line was not a call. Bad records are counted, never fatal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
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
    /// The record is a JSON object, but not of the log's format (a line of another provider's
    /// log, say).
    UnrecognizedRecord,
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
            BadRecord::UnrecognizedRecord => "unrecognized_record",
        }
    }
}

/// Where a record is: the input (an index into [`Report::sources`](crate::Report::sources))
/// and the line (1-based). Locations order by input, then line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct Location {
    /// The input's index in [`Report::sources`](crate::Report::sources) (0 for a single input).
    pub source: u32,
    /// The line number, 1-based.
    pub line: u64,
}

impl Location {
    /// Line `line` (1-based) of input `source`.
    pub fn new(source: u32, line: u64) -> Location {
        Location { source, line }
    }
}

/// Keeps the smallest `keep` locations of `mine` and `other`, in order.
pub(crate) fn merge_locations(mine: &mut Vec<Location>, other: &[Location], keep: usize) {
    mine.extend_from_slice(other);
    mine.sort_unstable();
    mine.dedup();
    mine.truncate(keep);
}
