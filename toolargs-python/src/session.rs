//! `Session`: one conversation's calls to the tools of a `ToolSet` (or to one `Spec`), judged
//! by their declared meaning as well as by their schemas. Every decision is `toolargs_semantic`'s
//! [`Session`](toolargs_semantic::Session), as the gate's is.

use std::borrow::Cow;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyString, PyTuple, PyType};
use serde_json::Value;
use toolargs_bindings::session::{Scope, Sent, Unnamed};
use toolargs_bindings::Tool;
use toolargs_core::Limits;
use toolargs_semantic::SessionOptions;

use crate::convert::to_json_text;
use crate::result::ParseResult;
use crate::spec::{parse, Spec, ToolSet, DETACH_AT_BYTES};

/// One conversation's calls: a call after its tool's call was rejected is a correction,
/// compared with the original; an action repeated within the duplicate window (ten minutes)
/// is a duplicate; corrections are capped (two per tool, twenty per session), as the options
/// of `session()` say. `tools.session()` and `spec.session()` make one over their tools;
/// `Session(...)` one whose calls each come with their tool's `Spec`.
#[pyclass(frozen, module = "toolargs")]
pub(crate) struct Session {
    scope: Scope,
    session: Mutex<toolargs_bindings::Session>,
}

impl Session {
    pub(crate) fn new(scope: Scope, options: SessionOptions) -> Session {
        Session {
            scope,
            session: Mutex::new(toolargs_bindings::Session::new(options)),
        }
    }

    fn session(&self) -> MutexGuard<'_, toolargs_bindings::Session> {
        self.session.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The tool a call (`tool, arguments`, or `arguments` alone in a session over one spec)
    /// goes to, and its arguments: `tool` is a `Spec`, or the name of one of the session's
    /// tools.
    fn called<'a, 'py>(
        &'a self,
        call: &'a Bound<'py, PyTuple>,
    ) -> PyResult<(Cow<'a, Tool>, Bound<'py, PyAny>)> {
        let (tool, arguments) = match call.len() {
            1 => (None, call.get_item(0)?),
            2 => (Some(call.get_item(0)?), call.get_item(1)?),
            n => {
                return Err(PyTypeError::new_err(format!(
                    "takes (tool, arguments), or (arguments) over one spec; {n} given"
                )))
            }
        };
        if let Some(spec) = tool.as_ref().and_then(|tool| tool.cast::<Spec>().ok()) {
            return Ok((Cow::Owned(spec.get().tool.clone()), arguments));
        }
        let name = tool.map(|name| name.extract::<String>()).transpose()?;
        let tool = self.scope.tool(name.as_deref()).map_err(|e| match e {
            Unnamed::NameNeeded => {
                PyTypeError::new_err("a session over a ToolSet takes (name, arguments)")
            }
            Unnamed::NotInSet(why) => PyKeyError::new_err(why),
            Unnamed::NotTheTool(name) => {
                PyKeyError::new_err(format!("{name}: not the tool of this session"))
            }
            Unnamed::ToolNeeded => PyTypeError::new_err(
                "a session made by Session() takes (spec, arguments): the tool's Spec, not its name",
            ),
        })?;
        Ok((Cow::Borrowed(tool), arguments))
    }

    /// Judges a call to `tool` with `arguments` within the session.
    fn judge(
        &self,
        py: Python<'_>,
        tool: &Tool,
        arguments: &Bound<'_, PyAny>,
    ) -> PyResult<ParseResult> {
        if tool.profile.is_none() {
            return Ok(parse(py, &tool.spec, arguments));
        }
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
            return Ok(parse(py, &tool.spec, arguments));
        };
        let judge = || self.session().judge(tool, Sent::Text(&text));
        let judged = if text.len() >= DETACH_AT_BYTES {
            py.detach(judge)
        } else {
            judge()
        };
        Ok(ParseResult::of(judged))
    }

    /// Records that a call to `tool` with `arguments` ran.
    fn record(&self, tool: &Tool, arguments: &Bound<'_, PyAny>) -> PyResult<()> {
        if tool.profile.is_none() {
            return Ok(());
        }
        let not_json = |why: String| PyValueError::new_err(format!("arguments: {why}"));
        let value: Value = if let Ok(text) = arguments.cast::<PyString>() {
            serde_json::from_str(&text.to_cow()?).map_err(|e| not_json(e.to_string()))?
        } else if let Ok(bytes) = arguments.cast::<PyBytes>() {
            serde_json::from_slice(bytes.as_bytes()).map_err(|e| not_json(e.to_string()))?
        } else {
            let text = to_json_text(arguments, &Limits::DEFAULT)
                .map_err(|e| not_json(format!("{}: {}", e.0.path, e.0.message)))?;
            serde_json::from_str(&text).map_err(|e| not_json(e.to_string()))?
        };
        self.session().executed(tool, &value, None);
        Ok(())
    }
}

/// The options of a session: each given one laid over the defaults.
fn options(
    corrections_per_tool: Option<&Bound<'_, PyAny>>,
    corrections_per_session: Option<&Bound<'_, PyAny>>,
    duplicate_window: Option<&Bound<'_, PyAny>>,
) -> PyResult<SessionOptions> {
    toolargs_bindings::session::options(
        (
            corrections_per_tool,
            corrections_per_session,
            duplicate_window,
        ),
        ["corrections_per_tool", "corrections_per_session"],
        count_of,
        window_of,
    )
}

/// A count of corrections: an `int` from 0 to 2^32 - 1.
fn count_of(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            type_name(value)
        )));
    }
    if value.lt(0)? {
        return Err(PyValueError::new_err(format!(
            "{what} must be 0 or more, not {value}"
        )));
    }
    value.extract::<u32>().map_err(|_| {
        PyValueError::new_err(format!("{what} must be at most {}, not {value}", u32::MAX))
    })
}

/// The duplicate window: seconds (an `int` or a `float`) or a `datetime.timedelta`, finite
/// and not negative.
fn window_of(value: &Bound<'_, PyAny>) -> PyResult<Duration> {
    static TIMEDELTA: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let timedelta = TIMEDELTA.import(value.py(), "datetime", "timedelta")?;
    let seconds: f64 = if value.is_instance(timedelta)? {
        value.call_method0("total_seconds")?.extract()?
    } else if value.is_instance_of::<PyFloat>()
        || (value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>())
    {
        value.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "duplicate_window must be a finite number of seconds, not {value}"
            ))
        })?
    } else {
        return Err(PyTypeError::new_err(format!(
            "duplicate_window must be seconds (an int or a float) or a datetime.timedelta, not {}",
            type_name(value)
        )));
    };
    if seconds.is_nan() || seconds < 0.0 {
        return Err(PyValueError::new_err(format!(
            "duplicate_window must be 0 seconds or more, not {}",
            value.repr()?
        )));
    }
    let shown = value.repr()?;
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        PyValueError::new_err(format!(
            "duplicate_window must be a finite number of seconds, not {shown}"
        ))
    })
}

/// The name of `value`'s type, for errors.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |name| name.to_string())
}

// The sessions' constructors live here, with the sessions, not with the tools: a module of
// their own methods (pyo3's `multiple-pymethods`).
#[pymethods]
impl Spec {
    /// A session over this tool: one conversation's calls, judged by its declared meaning as
    /// well as by its schema. `corrections_per_tool` (2) and `corrections_per_session` (20)
    /// cap the calls after a rejected one; `duplicate_window` (600 seconds; an int, a float
    /// or a `datetime.timedelta`) is how long an action makes the same action a duplicate.
    #[pyo3(signature = (*, corrections_per_tool=None, corrections_per_session=None, duplicate_window=None))]
    fn session(
        slf: &Bound<'_, Spec>,
        corrections_per_tool: Option<&Bound<'_, PyAny>>,
        corrections_per_session: Option<&Bound<'_, PyAny>>,
        duplicate_window: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Session> {
        let options = options(
            corrections_per_tool,
            corrections_per_session,
            duplicate_window,
        )?;
        Ok(Session::new(Scope::One(slf.get().tool.clone()), options))
    }
}

#[pymethods]
impl ToolSet {
    /// A session over the tools: one conversation's calls, judged by their declared meaning
    /// as well as by their schemas. `corrections_per_tool` (2) and `corrections_per_session`
    /// (20) cap the calls after a rejected one; `duplicate_window` (600 seconds; an int, a
    /// float or a `datetime.timedelta`) is how long an action makes the same action a
    /// duplicate.
    #[pyo3(signature = (*, corrections_per_tool=None, corrections_per_session=None, duplicate_window=None))]
    fn session(
        slf: &Bound<'_, ToolSet>,
        corrections_per_tool: Option<&Bound<'_, PyAny>>,
        corrections_per_session: Option<&Bound<'_, PyAny>>,
        duplicate_window: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Session> {
        let options = options(
            corrections_per_tool,
            corrections_per_session,
            duplicate_window,
        )?;
        Ok(Session::new(Scope::Set(slf.get().tools.clone()), options))
    }
}

#[pymethods]
impl Session {
    /// `Session(corrections_per_tool=None, corrections_per_session=None,
    /// duplicate_window=None)`: a session over no tools in particular, whose calls each come
    /// with their tool's `Spec` (`parse(spec, arguments)`), told apart by the specs' names:
    /// one conversation's calls to tools loaded one by one (the FastMCP and pydantic-ai
    /// integrations hold theirs so). The options are `ToolSet.session`'s.
    #[new]
    #[pyo3(signature = (*, corrections_per_tool=None, corrections_per_session=None, duplicate_window=None))]
    fn py_new(
        corrections_per_tool: Option<&Bound<'_, PyAny>>,
        corrections_per_session: Option<&Bound<'_, PyAny>>,
        duplicate_window: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Session> {
        let options = options(
            corrections_per_tool,
            corrections_per_session,
            duplicate_window,
        )?;
        Ok(Session::new(Scope::Given, options))
    }

    /// `parse(tool, arguments)` (`parse(arguments)` over one spec): judges a call within the
    /// session, as `ToolSet.parse` does, with the `decision` and `findings` its meaning gives.
    /// `tool` is the tool's `Spec`, or in a session over a `ToolSet` or a `Spec` its name; a
    /// name that is not a loaded tool raises `KeyError`.
    #[pyo3(signature = (*call))]
    fn parse(&self, py: Python<'_>, call: &Bound<'_, PyTuple>) -> PyResult<ParseResult> {
        let (spec, arguments) = self.called(call)?;
        self.judge(py, &spec, &arguments)
    }

    /// `executed(tool, arguments)` (`executed(arguments)` over one spec): records that a call
    /// with `arguments` (a dict or JSON text, as the call ran) ran: its tool's corrections are
    /// over, and the same action again within the window is a duplicate. `tool` is as
    /// `parse` takes it.
    #[pyo3(signature = (*call))]
    fn executed(&self, call: &Bound<'_, PyTuple>) -> PyResult<()> {
        let (spec, arguments) = self.called(call)?;
        self.record(&spec, &arguments)
    }

    fn __repr__(&self) -> String {
        match &self.scope {
            Scope::Set(tools) => format!("Session(names={:?})", tools.names()),
            Scope::One(tool) => format!("Session(name={:?})", tool.spec.name()),
            Scope::Given => "Session()".to_owned(),
        }
    }
}
