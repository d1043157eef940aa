//! What `parse` returns: the verdict, with the arguments, repairs and errors as Python objects.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use serde_json::Value;
use toolargs_core::{Parsed, Rejection};

use crate::convert::to_python;

/// The verdict on one call: accepted (with the arguments, as sent or repaired, and the
/// repairs) or rejected (with every error).
#[pyclass(frozen, module = "toolargs")]
pub(crate) struct ParseResult {
    verdict: Result<Parsed<Value>, Rejection>,
    /// The arguments as a Python dict, built once, when first asked for.
    arguments: PyOnceLock<Py<PyAny>>,
}

impl ParseResult {
    pub(crate) fn new(verdict: Result<Parsed<Value>, Rejection>) -> ParseResult {
        ParseResult {
            verdict,
            arguments: PyOnceLock::new(),
        }
    }
}

impl ParseResult {
    /// The arguments, or `toolargs.Rejected` raised with the errors.
    pub(crate) fn into_arguments(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.verdict {
            Ok(parsed) => Ok(to_python(py, &parsed.args)?.unbind()),
            Err(rejection) => {
                static REJECTED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
                let rejected = REJECTED.import(py, "toolargs", "Rejected")?;
                Err(PyErr::from_value(
                    rejected.call1((self.errors(), rejection.for_model()))?,
                ))
            }
        }
    }
}

#[pymethods]
impl ParseResult {
    /// True when the call was accepted, with or without repairs.
    #[getter]
    fn ok(&self) -> bool {
        self.verdict.is_ok()
    }

    /// The arguments (a dict, as sent or repaired), or None when rejected.
    #[getter]
    fn arguments(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Ok(parsed) = &self.verdict else {
            return Ok(None);
        };
        let arguments = self
            .arguments
            .get_or_try_init(py, || to_python(py, &parsed.args).map(Bound::unbind))?;
        Ok(Some(arguments.clone_ref(py)))
    }

    /// Every repair, in the order made; empty when rejected or clean.
    #[getter]
    fn repairs(&self, py: Python<'_>) -> PyResult<Vec<Repair>> {
        let Ok(parsed) = &self.verdict else {
            return Ok(Vec::new());
        };
        parsed
            .repairs
            .iter()
            .map(|r| {
                Ok(Repair {
                    path: r.path.clone(),
                    rule: r.rule.as_str().to_owned(),
                    before: to_python(py, &r.before)?.unbind(),
                    after: to_python(py, &r.after)?.unbind(),
                })
            })
            .collect()
    }

    /// Every error, in the order found; empty when accepted.
    #[getter]
    fn errors(&self) -> Vec<ArgumentError> {
        match &self.verdict {
            Ok(_) => Vec::new(),
            Err(rejection) => rejection
                .errors()
                .iter()
                .map(|e| ArgumentError {
                    path: e.path.clone(),
                    code: e.code.as_str().to_owned(),
                    message: e.message.clone(),
                })
                .collect(),
        }
    }

    /// The tool result to send back to the model: `{"ok":false,"errors":[...]}` when
    /// rejected, `{"ok":true}` when accepted.
    fn for_model(&self) -> String {
        match &self.verdict {
            Ok(_) => r#"{"ok":true}"#.to_owned(),
            Err(rejection) => rejection.for_model(),
        }
    }

    fn __repr__(&self) -> String {
        match &self.verdict {
            Ok(parsed) => format!(
                "ParseResult(ok=True, arguments={}, repairs={})",
                parsed.args,
                parsed.repairs.len()
            ),
            Err(rejection) => format!("ParseResult(ok=False, errors={})", rejection.for_model()),
        }
    }
}

/// One repair: where, by which rule, the value before and after.
#[pyclass(frozen, get_all, module = "toolargs")]
pub(crate) struct Repair {
    /// The JSON path of the repaired value (`$.amount_cents`).
    path: String,
    /// The rule's stable name (`numeric_string_to_int`).
    rule: String,
    /// The value as sent.
    before: Py<PyAny>,
    /// The value as repaired.
    after: Py<PyAny>,
}

#[pymethods]
impl Repair {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Repair(path={:?}, rule={:?}, before={}, after={})",
            self.path,
            self.rule,
            self.before.bind(py).repr()?,
            self.after.bind(py).repr()?
        ))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<Repair>() else {
            return Ok(false);
        };
        let other = other.get();
        Ok(self.path == other.path
            && self.rule == other.rule
            && self.before.bind(py).eq(other.before.bind(py))?
            && self.after.bind(py).eq(other.after.bind(py))?)
    }
}

/// One reason a call was rejected: where, its stable code, and a message for the model.
#[pyclass(frozen, get_all, eq, module = "toolargs")]
#[derive(PartialEq)]
pub(crate) struct ArgumentError {
    /// The JSON path of the value at fault (`$` for the whole call).
    path: String,
    /// The code's stable name (`out_of_range`).
    code: String,
    /// What is wrong, written for the model.
    message: String,
}

#[pymethods]
impl ArgumentError {
    fn __repr__(&self) -> String {
        format!(
            "ArgumentError(path={:?}, code={:?}, message={:?})",
            self.path, self.code, self.message
        )
    }
}
