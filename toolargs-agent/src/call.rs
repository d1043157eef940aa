//! One call from the model: its id, the tool it names and its arguments as sent.

use toolargs_core::decode::RawArgs;

/// One call from the model, built with [`ToolCall::new`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ToolCall<'a> {
    /// The id of the logical call: a corrected retry must reuse it, so that the budget can
    /// count attempts (a provider's tool-call id changes with every attempt, so callers usually
    /// key by the tool name within a turn).
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments as the model sent them.
    pub arguments: RawArgs<'a>,
}

impl<'a> ToolCall<'a> {
    /// A call with the given id, tool name and arguments.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<RawArgs<'a>>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}
