//! What `parse` returns: the verdict, with the arguments, repairs and errors as Python objects,
//! and within a session what the call's meaning decides.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use serde_json::Value;
use toolargs_bindings::Verdict;
use toolargs_core::{Parsed, Rejection};

use crate::convert::to_python;

/// The verdict on one call: accepted (with the arguments, as sent or repaired, and the
/// repairs) or rejected (with every error).
#[pyclass(frozen, module = "toolargs")]
pub(crate) struct ParseResult {
    /// The verdict, and within a session what the call's meaning decides.
    verdict: Verdict,
    /// The arguments as a Python dict, built once, when first asked for.
    arguments: PyOnceLock<Py<PyAny>>,
}

impl ParseResult {
    pub(crate) fn new(verdict: Result<Parsed<Value>, Rejection>) -> ParseResult {
        ParseResult::of(Verdict::of(verdict))
    }

    /// A verdict as Python's.
    pub(crate) fn of(verdict: Verdict) -> ParseResult {
        ParseResult {
            verdict,
            arguments: PyOnceLock::new(),
        }
    }

    /// The schema's accepted call, unless the session refused it.
    fn accepted(&self) -> Option<&Parsed<Value>> {
        self.verdict.accepted()
    }

    /// The arguments, or `toolargs.Rejected` raised with the errors.
    pub(crate) fn into_arguments(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.accepted() {
            Some(parsed) => Ok(to_python(py, &parsed.args)?.unbind()),
            None => {
                static REJECTED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
                let rejected = REJECTED.import(py, "toolargs", "Rejected")?;
                Err(PyErr::from_value(
                    rejected.call1((self.errors(), self.for_model()))?,
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
        self.accepted().is_some()
    }

    /// The arguments (a dict, as sent or repaired), or None when rejected.
    #[getter]
    fn arguments(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some(parsed) = self.accepted() else {
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
        let Some(parsed) = self.accepted() else {
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
        self.verdict
            .errors()
            .into_iter()
            .map(|e| ArgumentError {
                path: e.path,
                code: e.code.into_owned(),
                message: e.message,
            })
            .collect()
    }

    /// The tool result to send back to the model: `{"ok":false,"errors":[...]}` when
    /// rejected, and for a call a session holds for confirmation (`decision == "confirm"`),
    /// what to tell the model when it is not made (`duplicate_action`,
    /// `confirmation_required`); `{"ok":true}` otherwise.
    fn for_model(&self) -> String {
        self.verdict.for_model()
    }

    /// What to do with the call: `"proceed"`, `"proceed_and_report"`, `"confirm"` (ask the
    /// user first) or `"reject"`. Outside a session, and for a tool whose meaning is not
    /// declared, the schema's verdict: `"proceed"` or `"reject"`.
    #[getter]
    fn decision(&self) -> &'static str {
        self.verdict.decision().as_str()
    }

    /// What the session found of the call's meaning: dicts with `path`, `verdict` and `code`
    /// (`meaning_changed`, `confirmation_required`, `duplicate_action`,
    /// `retry_budget_exhausted`), and the rest known (`meaning`, `critical`, `reason`).
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &Value::Array(self.verdict.findings().to_vec()))
    }

    fn __repr__(&self) -> String {
        let decision = match &self.verdict.meaning {
            Some(meaning) => format!(", decision={:?}", meaning.decision.as_str()),
            None => String::new(),
        };
        match self.accepted() {
            Some(parsed) => format!(
                "ParseResult(ok=True, arguments={}, repairs={}{decision})",
                parsed.args,
                parsed.repairs.len()
            ),
            None => format!(
                "ParseResult(ok=False, errors={}{decision})",
                self.for_model()
            ),
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
