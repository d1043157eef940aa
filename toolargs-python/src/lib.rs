//! The native module of the `toolargs` Python package (`toolargs._toolargs`): a loaded
//! [`Spec`](toolargs_dynamic::Spec), a set of tools, a session over them, their parse results
//! and replay, as Python objects. The package (`python/toolargs`) re-exports them, adds what is written in Python
//! (`Spec.validate`, `Spec.from_pydantic`, `Rejected`) and carries the type stubs; its README
//! is the user's guide.
//!
//! Every policy decision is the Rust gate's, and every decision on a call's meaning
//! `toolargs_semantic`'s; what the npm package does too (loading, options, verdicts,
//! sessions) is `toolargs_bindings`'s: this crate only carries values across.

mod convert;
mod replay;
mod result;
mod session;
mod spec;

use pyo3::prelude::*;

pyo3::create_exception!(
    toolargs,
    LoadError,
    pyo3::exceptions::PyValueError,
    "A tool definition that cannot be loaded; the message says where and why."
);

#[pymodule]
fn _toolargs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<spec::Spec>()?;
    m.add_class::<spec::ToolSet>()?;
    m.add_class::<session::Session>()?;
    m.add_class::<result::ParseResult>()?;
    m.add_class::<result::Repair>()?;
    m.add_class::<result::ArgumentError>()?;
    m.add("LoadError", m.py().get_type::<LoadError>())?;
    m.add_function(wrap_pyfunction!(replay::replay, m)?)?;
    Ok(())
}
