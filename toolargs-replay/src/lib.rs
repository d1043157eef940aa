//! Replay: run recorded tool calls through the gate and count what happened.
//!
//! Unit tests prove the policy; replay shows how it meets real traffic: how many calls were
//! clean, how many needed which repair, which rejections dominate, grouped by any field of the
//! log (model, prompt version). A [`Gate`] is anything that parses one call: a derived type
//! ([`Typed`]) or a loaded [`Spec`](toolargs_dynamic::Spec). [`Replayer`] reads JSON Lines logs, in
//! parallel and in constant memory, into a [`Report`].
//!
//! A tool definition that does not load does not stop a replay:
//! [`ToolSet::from_json_lenient`] loads the others and keeps it as a [`RefusedDefinition`]
//! (where and why), the calls to its tool count as `unchecked` ([`Tally::unchecked`]), and the
//! report lists it with the load warnings of the tools that loaded.

mod gate;
mod log;
mod outcome;
mod tally;

pub use gate::{Gate, Typed};
pub use log::{Replayer, ToolSet};
pub use outcome::{BadRecord, Outcome};
pub use tally::{GroupKey, Report, Tally, ToolWarning, BAD_LINES_KEPT, LOAD_WARNINGS_SHOWN};
pub use toolargs_dynamic::RefusedDefinition;
