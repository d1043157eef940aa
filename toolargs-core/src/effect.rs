//! What a tool does, which decides how hard its gate is.

use serde_json::{json, Value};

use crate::spec::UnknownPolicy;

/// The effect class of a tool. An undeclared effect is treated as [`Effect::Destructive`],
/// as the MCP specification does for tools without annotations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Reads only; calling it changes nothing (search, lookup).
    ReadOnly,
    /// Adds something without changing or removing what exists (create a draft, append a note).
    Additive,
    /// Deletes or overwrites (delete a file, update a record).
    #[default]
    Destructive,
    /// Acts on the outside world: money moves or messages leave, and a third party sees it.
    External,
}

impl Effect {
    /// The attribute spelling: `read_only`, `additive`, `destructive`, `external`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Effect::ReadOnly => "read_only",
            Effect::Additive => "additive",
            Effect::Destructive => "destructive",
            Effect::External => "external",
        }
    }

    /// Looks an effect up by its attribute spelling.
    pub fn from_name(name: &str) -> Option<Self> {
        [
            Effect::ReadOnly,
            Effect::Additive,
            Effect::Destructive,
            Effect::External,
        ]
        .into_iter()
        .find(|e| e.as_str() == name)
    }

    /// The unknown-key policy a tool gets when it does not choose one: read-only tools strip
    /// invented keys (nothing can go wrong by ignoring them), every other tool rejects them.
    pub const fn default_unknown_policy(self) -> UnknownPolicy {
        match self {
            Effect::ReadOnly => UnknownPolicy::Strip,
            _ => UnknownPolicy::Reject,
        }
    }

    /// MCP tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`).
    pub fn mcp_annotations(self) -> Value {
        let (read_only, destructive, idempotent, open_world) = match self {
            Effect::ReadOnly => (true, false, true, false),
            Effect::Additive => (false, false, false, false),
            Effect::Destructive => (false, true, false, false),
            Effect::External => (false, true, false, true),
        };
        json!({
            "readOnlyHint": read_only,
            "destructiveHint": destructive,
            "idempotentHint": idempotent,
            "openWorldHint": open_world,
        })
    }

    /// The effect MCP's tool annotations describe, read back: `hint` gives each of
    /// `readOnlyHint`, `destructiveHint` and `openWorldHint` when the annotations set it, and
    /// an absent hint takes MCP's default (not read-only, destructive, open world).
    ///
    /// ```
    /// use toolargs_core::Effect;
    ///
    /// for effect in [Effect::ReadOnly, Effect::Additive, Effect::Destructive, Effect::External] {
    ///     let hints = effect.mcp_annotations();
    ///     assert_eq!(Effect::from_mcp_hints(|key| hints[key].as_bool()), effect);
    /// }
    /// assert_eq!(Effect::from_mcp_hints(|_| None), Effect::External);
    /// ```
    pub fn from_mcp_hints(hint: impl Fn(&str) -> Option<bool>) -> Effect {
        let hint = |key: &str, default: bool| hint(key).unwrap_or(default);
        if hint("readOnlyHint", false) {
            Effect::ReadOnly
        } else if hint("openWorldHint", true) && hint("destructiveHint", true) {
            Effect::External
        } else if hint("destructiveHint", true) {
            Effect::Destructive
        } else {
            Effect::Additive
        }
    }
}
