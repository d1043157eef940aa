//! Reading logs of tool calls, one JSON record per line in any of the
//! [`InputFormat`](crate::InputFormat)s, in parallel and in constant memory.

mod blocks;
mod gated;
mod replayer;
mod run;
mod streamed;
mod tools;
mod verdicts;

pub use replayer::Replayer;
pub use run::LogSource;
pub use tools::ToolSet;

#[cfg(test)]
mod tests;
