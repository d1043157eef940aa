//! Guides: the policy, the attribute reference, and how to use each layer of toolargs.
//!
//! Every code block in these pages is compiled and run as a test.
//!
//! Always available:
//!
//! - [`policy`]: what is repaired, what is rejected, and why; errors, paths and the message for
//!   the model.
//! - [`attributes`]: every `#[toolargs(...)]` and `#[arg(...)]` key, and the supported types.
//! - [`compile_checks`]: the mistakes the derive refuses at compile time.
//! - [`effects`]: what the tool does, and the policy for unknown ("ghost") keys.
//! - [`dialects`]: tool definitions for OpenAI, Anthropic, Gemini and MCP.
//! - [`limits`]: limits on hostile input.
//! - [`streaming`]: arguments judged while the model writes them, and provider streams.
//!
//! With their cargo features (documented on docs.rs, which builds with every feature):
//!
//! - `agent_loop` (`agent`): the toolbox: dispatch, retry budgets, events, counters, audit.
//! - `semantic_gate` (`semantic`): a corrected call must mean what the original meant.
//! - `dynamic_spec` (`dynamic`, on by default): tools defined outside Rust, loaded from JSON
//!   Schema.
//! - `replay` (`replay`): replaying logs of tool calls, and the `toolargs` CLI.
//! - `serde` (`serde`, `schemars`): a derived type as `Deserialize` and `JsonSchema`.
//! - `rmcp`, `rig`, `async_openai` (the features of those names): the adapters.

#[doc = include_str!("docs/policy.md")]
pub mod policy {}

#[doc = include_str!("docs/attributes.md")]
pub mod attributes {}

#[doc = include_str!("docs/compile_checks.md")]
pub mod compile_checks {}

#[doc = include_str!("docs/effects.md")]
pub mod effects {}

#[doc = include_str!("docs/dialects.md")]
pub mod dialects {}

#[doc = include_str!("docs/limits.md")]
pub mod limits {}

#[doc = include_str!("docs/streaming.md")]
pub mod streaming {}

#[cfg(feature = "agent")]
#[doc = include_str!("docs/agent_loop.md")]
pub mod agent_loop {}

#[cfg(feature = "semantic")]
#[doc = include_str!("docs/semantic_gate.md")]
pub mod semantic_gate {}

#[cfg(feature = "dynamic")]
#[doc = include_str!("docs/dynamic_spec.md")]
pub mod dynamic_spec {}

#[cfg(feature = "replay")]
#[doc = include_str!("docs/replay.md")]
pub mod replay {}

#[cfg(all(feature = "serde", feature = "schemars"))]
#[doc = include_str!("docs/serde.md")]
pub mod serde {}

#[cfg(feature = "rmcp")]
#[doc = include_str!("docs/rmcp.md")]
pub mod rmcp {}

#[cfg(feature = "rig")]
#[doc = include_str!("docs/rig.md")]
pub mod rig {}

#[cfg(feature = "async-openai")]
#[doc = include_str!("docs/async_openai.md")]
pub mod async_openai {}

/// The README's code, compiled and run with the other doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
