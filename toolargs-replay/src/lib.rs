//! Replay: judge recorded tool calls again and count what happened.
//!
//! Unit tests prove the policy; replay shows how it meets real traffic: how many calls were clean,
//! how many needed which repair, which rejections dominate, grouped by any field of the log (model,
//! prompt version). A [`ToolSet`] holds each tool's [`Judge`], what judges one call: a derived type
//! ([`Typed`]) or a loaded [`Spec`](toolargs_dynamic::Spec). [`Replayer`] reads logs, in parallel
//! and in constant memory, into a [`Report`]: its own JSON Lines format, OpenAI Chat Completions
//! and Responses, Anthropic Messages, OpenTelemetry GenAI spans, MCP JSON-RPC traces and the
//! verdict logs of `toolargs gate` ([`InputFormat`], detected per file), from files, directories,
//! globs and standard input, gzip or zstd compressed ([`inputs`]). Logs that carry tool definitions
//! supply them ([`LogTools`]). The report's [`Drill`] counts every rule and code per tool and per
//! field, with example locations; [`Replayer::with_verdicts`] writes one verdict per call.
//!
//! A tool definition that does not load does not stop a replay:
//! [`ToolSet::from_json_lenient`] loads the others and keeps it as a [`RefusedDefinition`]
//! (where and why), the calls to its tool count as `unchecked` ([`Tally::unchecked`]), and the
//! report lists it with the load warnings of the tools that loaded.
//!
//! The MCP gate's verdict log is read as it is: its verdicts are counted as recorded ([`Recorded`]:
//! by tool and outcome, code, rule, session and over time, and the gate's decisions on meaning
//! with their findings by tool, field and verdict), and those that carry their arguments
//! are judged again against the tools given, today's decision compared with the recorded one
//! ([`ChangedDecision`]).

mod clock;
mod definitions;
mod drill;
mod formats;
pub mod inputs;
mod log;
mod outcome;
mod recorded;
mod shown;
mod tally;

pub use definitions::LogTools;
pub use drill::{
    field_of, Drill, FailingField, FieldDrill, ToolDrill, EXAMPLES_KEPT, TOP_FIELDS_SHOWN,
};
pub use formats::{definitions, InputFormat};
pub use inputs::decompressed;
pub use log::{LogSource, Replayer, ToolSet};
pub use outcome::{BadRecord, Judgement, Location, Outcome};
pub use recorded::{
    BucketSpan, ChainCheck, ChangedDecision, OutcomeCounts, Recorded, TimeBucket, Timeline,
    BUCKETS_FILLED, CHANGES_KEPT, DUPLICATE, HOURS_SHOWN, NO_ARGUMENTS, NO_DEFINITION,
};
pub use shown::{field_of_pointer, NotShown, Shown};
pub use tally::{GroupKey, Report, Tally, ToolWarning, BAD_LINES_KEPT, LOAD_WARNINGS_SHOWN};
pub use toolargs_core::judge::Judge;
pub use toolargs_core::tool::Typed;
pub use toolargs_dynamic::RefusedDefinition;
