//! `Session`: one conversation's calls to the tools of a `ToolSet` (or to one `Spec`), judged
//! by their declared meaning as well as by their schemas. Every decision is `toolargs_semantic`'s
//! [`Session`](toolargs_semantic::Session), as the gate's is.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString, PyTuple};
use serde_json::Value;
use toolargs_core::{Judge, Limits, ParseOptions};
use toolargs_semantic::SessionOptions;

use crate::convert::to_json_text;
use crate::result::ParseResult;
use crate::spec::{parse, Spec, ToolSet, DETACH_AT_BYTES};

/// One conversation's calls: a call after its tool's call was rejected is a correction,
/// compared with the original; an action repeated within ten minutes is a duplicate;
/// corrections are capped.
#[pyclass(frozen, module = "toolargs")]
pub(crate) struct Session {
    tools: Tools,
    state: Mutex<State>,
}

/// What a session's calls go to.
pub(crate) enum Tools {
    Set(Py<ToolSet>),
    One(Py<Spec>),
}

struct State {
    session: toolargs_semantic::Session,
    /// Calls recorded as run, to label them.
    ran: u64,
}

impl Session {
    pub(crate) fn new(tools: Tools) -> Session {
        Session {
            tools,
            state: Mutex::new(State {
                session: toolargs_semantic::Session::new(SessionOptions::default()),
                ran: 0,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The tool a call (`name, arguments`, or `arguments` alone in a session over one spec)
    /// goes to, and its arguments.
    fn called<'a, 'py>(
        &'a self,
        call: &'a Bound<'py, PyTuple>,
    ) -> PyResult<(&'a Spec, Bound<'py, PyAny>)> {
        let (name, arguments) = match call.len() {
            1 => (None, call.get_item(0)?),
            2 => (Some(call.get_item(0)?), call.get_item(1)?),
            n => {
                return Err(PyTypeError::new_err(format!(
                    "takes (name, arguments), or (arguments) over one spec; {n} given"
                )))
            }
        };
        let name = name.map(|name| name.extract::<String>()).transpose()?;
        let spec = match (&self.tools, name) {
            (Tools::Set(tools), Some(name)) => tools.get().spec(&name)?,
            (Tools::Set(_), None) => {
                return Err(PyTypeError::new_err(
                    "a session over a ToolSet takes (name, arguments)",
                ))
            }
            (Tools::One(spec), None) => spec.get(),
            (Tools::One(spec), Some(name)) => {
                let spec = spec.get();
                if spec.spec.name() != Some(name.as_str()) {
                    return Err(PyKeyError::new_err(format!(
                        "{name}: not the tool of this session"
                    )));
                }
                spec
            }
        };
        Ok((spec, arguments))
    }
}

// The sessions' constructors live here, with the sessions, not with the tools: a module of
// their own methods (pyo3's `multiple-pymethods`).
#[pymethods]
impl Spec {
    /// A session over this tool: one conversation's calls, judged by its declared meaning as
    /// well as by its schema.
    fn session(slf: &Bound<'_, Spec>) -> Session {
        Session::new(Tools::One(slf.clone().unbind()))
    }
}

#[pymethods]
impl ToolSet {
    /// A session over the tools: one conversation's calls, judged by their declared meaning
    /// as well as by their schemas.
    fn session(slf: &Bound<'_, ToolSet>) -> Session {
        Session::new(Tools::Set(slf.clone().unbind()))
    }
}

#[pymethods]
impl Session {
    /// `parse(name, arguments)` (`parse(arguments)` over one spec): judges a call within the
    /// session, as `ToolSet.parse` does, with the `decision` and `findings` its meaning gives;
    /// a name that is not a loaded tool raises `KeyError`.
    #[pyo3(signature = (*call))]
    fn parse(&self, py: Python<'_>, call: &Bound<'_, PyTuple>) -> PyResult<ParseResult> {
        let (spec, arguments) = self.called(call)?;
        let arguments = &arguments;
        let Some(profile) = &spec.profile else {
            return Ok(parse(py, &spec.spec, arguments));
        };
        // The arguments as the text received; what cannot be text is rejected as a parse
        // rejects it.
        let text = if let Ok(text) = arguments.cast::<PyString>() {
            text.to_cow().ok().map(|text| text.into_owned())
        } else if let Ok(bytes) = arguments.cast::<PyBytes>() {
            String::from_utf8(bytes.as_bytes().to_vec()).ok()
        } else if let Ok(bytes) = arguments.cast::<PyByteArray>() {
            String::from_utf8(bytes.to_vec()).ok()
        } else {
            to_json_text(arguments, &Limits::DEFAULT).ok()
        };
        let Some(text) = text else {
            return Ok(parse(py, &spec.spec, arguments));
        };
        let judge = || {
            let judge: &dyn Judge = spec.spec.as_ref();
            self.state().session.judge(
                profile,
                spec.idempotent,
                judge,
                &text,
                &ParseOptions::DEFAULT,
            )
        };
        let judged = if text.len() >= DETACH_AT_BYTES {
            py.detach(judge)
        } else {
            judge()
        };
        Ok(ParseResult::judged(judged))
    }

    /// `executed(name, arguments)` (`executed(arguments)` over one spec): records that a call
    /// with `arguments` (a dict or JSON text, as the call ran) ran: its tool's corrections are
    /// over, and the same action again within the window is a duplicate.
    #[pyo3(signature = (*call))]
    fn executed(&self, call: &Bound<'_, PyTuple>) -> PyResult<()> {
        let (spec, arguments) = self.called(call)?;
        let name = spec.spec.name().unwrap_or_default();
        let Some(profile) = &spec.profile else {
            return Ok(());
        };
        let not_json = |why: String| PyValueError::new_err(format!("arguments: {why}"));
        let value: Value = if let Ok(text) = arguments.cast::<PyString>() {
            serde_json::from_str(&text.to_cow()?).map_err(|e| not_json(e.to_string()))?
        } else if let Ok(bytes) = arguments.cast::<PyBytes>() {
            serde_json::from_slice(bytes.as_bytes()).map_err(|e| not_json(e.to_string()))?
        } else {
            let text = to_json_text(&arguments, &Limits::DEFAULT)
                .map_err(|e| not_json(format!("{}: {}", e.0.path, e.0.message)))?;
            serde_json::from_str(&text).map_err(|e| not_json(e.to_string()))?
        };
        let mut state = self.state();
        state.ran += 1;
        let label = format!("{name} #{}", state.ran);
        state
            .session
            .executed_call(profile, spec.idempotent, &value, &label);
        Ok(())
    }

    fn __repr__(&self) -> String {
        match &self.tools {
            Tools::Set(tools) => format!("Session(names={:?})", tools.get().names()),
            Tools::One(spec) => format!("Session(name={:?})", spec.get().spec.name()),
        }
    }
}
