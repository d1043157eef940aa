//! The WebAssembly module of the `toolargs` npm package: a loaded
//! [`Spec`](toolargs_dynamic::Spec), a set of tools, and a stream of one call, as JavaScript
//! classes. The package's JavaScript entry (`js/index.js`) wraps them in the public API
//! (`Spec`, `ToolSet`, `Rejected`, `LoadError`), writes JavaScript values as the JSON text the
//! gate reads, and turns the verdicts back into JavaScript values; its README is the user's
//! guide.
//!
//! Every policy decision is the Rust gate's, and what the Python package does too (loading,
//! options, verdicts, sessions) is `toolargs_bindings`'s: this crate only carries values
//! across. Text
//! crosses as text (or bytes), and each verdict comes back as a kind and one text
//! ([`convert`]) that names the integers a JavaScript number cannot hold exactly, which the
//! wrapper turns into `BigInt`s; or, for an accepted call under a plain schema, as a tape of
//! tagged values and places in the call's text ([`tape`]), from which the wrapper makes the
//! arguments and repairs itself. Call texts and verdicts cross through a buffer of the
//! module's own ([`io`]).

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[allow(unsafe_code)]
mod alloc;
pub mod convert;
pub mod io;
mod session;
mod spec;
pub mod tape;

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: alloc::Lists = alloc::Lists::new();

use toolargs_core::Limits;
use wasm_bindgen::prelude::*;

pub use io::{input_buffer, memory, output_at};
pub use session::Session;
pub use spec::{Failure, Spec, Stream, ToolSet};

/// The depth past which the gate rejects a payload (`too_deep`): the wrapper writes one level
/// more of a deeper (or cyclic) JavaScript value and stops there, for the gate to answer.
#[wasm_bindgen(js_name = maxDepth)]
pub fn max_depth() -> usize {
    Limits::DEFAULT.max_depth
}

/// The size in bytes past which the gate rejects a payload (`too_large`): the wrapper stops
/// writing a JavaScript value past it, for the gate to answer.
#[wasm_bindgen(js_name = maxPayloadBytes)]
pub fn max_payload_bytes() -> usize {
    Limits::DEFAULT.max_payload_bytes
}

/// The names of the repair rules, as a JSON array, in the order of the indices a tape gives a
/// repair's rule by ([`tape`]).
#[wasm_bindgen(js_name = ruleNames)]
pub fn rule_names() -> String {
    let names: Vec<&str> = toolargs_core::Rule::ALL
        .iter()
        .map(|r| r.as_str())
        .collect();
    serde_json::Value::from(names).to_string()
}

/// The verdict on a JavaScript value that is not JSON (a function, a `Map`, a `Date`, an
/// `undefined` item): `invalid_json` at its path, where `steps` is the path as a JSON array of
/// keys and indices, and `what` says what was found. Kept for the wrapper to read, as a
/// parse's verdict is ([`io::emit`]).
#[wasm_bindgen(js_name = notJson)]
pub fn not_json(steps: &str, what: &str) -> u32 {
    io::emit(convert::verdict(&Err(convert::not_json(steps, what)), 0))
}
