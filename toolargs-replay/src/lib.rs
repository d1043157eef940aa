//! Replay: run recorded tool calls through the gate and count what happened.
//!
//! Unit tests prove the policy; replay shows how it meets real traffic: how many calls were
//! clean, how many needed which repair, which rejections dominate, grouped by any field of the
//! log (model, prompt version). A [`Gate`] is anything that parses one call: a derived type
//! ([`Typed`]) or a loaded [`Spec`](toolargs_dynamic::Spec). [`Replayer`] reads JSON Lines logs, in
//! parallel and in constant memory, into a [`Report`].

mod gate;
mod log;
mod outcome;
mod tally;

pub use gate::{Gate, Typed};
pub use log::{Replayer, ToolSet};
pub use outcome::{BadRecord, Outcome};
pub use tally::{GroupKey, Report, Tally};
