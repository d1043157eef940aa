//! What the toolargs Python and npm packages share, before any language's values: a tool
//! loaded from its definition with the options both take ([`tool`]), the `meaning` option and
//! the profile it gives a tool ([`meaning`]), the tools of a list ([`set`]), a stream of one
//! call ([`stream`]), the verdict on a call as data ([`verdict`]) and one conversation's calls
//! judged by their meaning too ([`session`]). Each package's bindings (`toolargs-python` with PyO3, `toolargs-js` with
//! wasm-bindgen) keep only the conversions of their language's values to these and back, and
//! the wording of their errors.
//!
//! Every policy decision is `toolargs-dynamic`'s, and every decision on a call's meaning
//! `toolargs-semantic`'s.

pub mod meaning;
pub mod session;
pub mod set;
pub mod stream;
pub mod tool;
pub mod verdict;

pub use meaning::{MeaningError, Misfit};
pub use session::{Scope, Sent, Session};
pub use set::{Checked, Loaded, MeaningFailure, ToolSet};
pub use stream::Stream;
pub use tool::{dialect_named, load_spec, Failure, Tool};
pub use verdict::{Meaning, Verdict};
