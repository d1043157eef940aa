//! `Spec` (one tool's contract) and `ToolSet` (the tools of a list), loaded from definitions
//! given as Python values or JSON text, with the meaning declared for their arguments.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString, PyType};
use serde_json::Value;
use toolargs_bindings::meaning::{self, MeaningError};
use toolargs_bindings::{Failure, Misfit, Tool};
use toolargs_core::decode::RawArgs;
use toolargs_core::{Limits, ParseOptions, Rejection};
use toolargs_semantic::Meanings;

use crate::convert::{to_json_text, to_python, NotJson};
use crate::result::ParseResult;
use crate::LoadError;

/// Payloads this long (in bytes) are parsed with the GIL released, so that other Python
/// threads run meanwhile; below it, releasing costs more than the parse.
pub(crate) const DETACH_AT_BYTES: usize = 64 * 1024;

/// One tool's argument contract, loaded from a JSON Schema or a tool definition.
#[pyclass(frozen, module = "toolargs")]
#[derive(Clone)]
pub(crate) struct Spec {
    /// The contract, what its arguments mean when declared (what a session judges its calls
    /// by), and whether a repeated call does one thing.
    pub(crate) tool: Tool,
}

#[pymethods]
impl Spec {
    #[new]
    #[pyo3(signature = (definition, effect=None, unknown=None, meaning=None))]
    fn new(
        definition: &Bound<'_, PyAny>,
        effect: Option<&str>,
        unknown: Option<&str>,
        meaning: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Spec> {
        let meanings = match meaning {
            Some(meaning) => meanings_of(meaning)?,
            None => Meanings::default(),
        };
        let text = definition_text(definition)?;
        let spec = toolargs_bindings::load_spec(&text, effect, unknown).map_err(failed)?;
        let tool = Tool::new(spec, None, &meanings, &text).map_err(misfit)?;
        Ok(Spec { tool })
    }

    /// The tool's name, when the definition gives one.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.tool.spec.name()
    }

    /// The tool's description, when the definition gives one.
    #[getter]
    fn description(&self) -> Option<&str> {
        self.tool.spec.description()
    }

    /// What the tool does, when set or annotated: `"read_only"`, `"additive"`,
    /// `"destructive"` or `"external"`.
    #[getter]
    fn effect(&self) -> Option<&'static str> {
        self.tool.effect()
    }

    /// What happens to keys the schema does not declare: `"strip"` or `"reject"`.
    #[getter]
    fn unknown(&self) -> &'static str {
        self.tool.unknown()
    }

    /// What loaded with a warning, one sentence each.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.tool.warnings()
    }

    /// Judges one call's arguments (JSON text, bytes, or a decoded dict): never raises for
    /// what the arguments hold.
    fn parse(&self, py: Python<'_>, arguments: &Bound<'_, PyAny>) -> ParseResult {
        parse(py, &self.tool.spec, arguments)
    }

    /// The arguments (as sent or repaired) of a call that passes; raises `Rejected` (with
    /// `errors` and `for_model()`) for one that does not.
    fn validate(&self, py: Python<'_>, arguments: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        parse(py, &self.tool.spec, arguments).into_arguments(py)
    }

    /// The tool's definition as `dialect`'s API takes it (a name of the stubs' `Dialect`:
    /// `"json_schema"`, then one per provider, such as `"openai_chat"`, `"openai_chat_strict"`,
    /// `"anthropic"` or `"gemini"`), its schema lowered to what that provider accepts;
    /// `lowering(dialect)` lists what it does not show. The spec enforces the full schema.
    fn tool_definition<'py>(&self, py: Python<'py>, dialect: &str) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.tool.tool_definition(dialect).map_err(failed)?)
    }

    /// What `tool_definition(dialect)` does not show as the schema says, keyword by keyword:
    /// dicts with `path` (JSON pointer in the schema), `keyword`, `instead` (what the
    /// provider is shown instead), `enforced` (true when the gate still enforces it) and
    /// `exact` (true when what is shown means the same).
    fn lowering<'py>(&self, py: Python<'py>, dialect: &str) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.tool.lowering(dialect).map_err(failed)?)
    }

    /// Loads a pydantic model's JSON Schema (`Model.model_json_schema()`).
    #[classmethod]
    #[pyo3(signature = (model, effect=None, unknown=None, meaning=None))]
    fn from_pydantic(
        _cls: &Bound<'_, PyType>,
        model: &Bound<'_, PyAny>,
        effect: Option<&str>,
        unknown: Option<&str>,
        meaning: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Spec> {
        // As an MCP tool named after the model, so that the spec has its name and description.
        let schema = model.call_method0("model_json_schema")?;
        let definition = PyDict::new(model.py());
        definition.set_item("name", model.getattr("__name__")?)?;
        if let Some(description) = schema.cast::<PyDict>()?.get_item("description")? {
            definition.set_item("description", description)?;
        }
        definition.set_item("inputSchema", schema)?;
        Spec::new(&definition, effect, unknown, meaning)
    }

    fn __repr__(&self) -> String {
        match self.tool.spec.name() {
            Some(name) => format!("Spec(name={name:?}, unknown={:?})", self.unknown()),
            None => format!("Spec(unknown={:?})", self.unknown()),
        }
    }
}

/// A definition that does not load raises `LoadError`, an option outside its set `ValueError`.
fn failed(failure: Failure) -> PyErr {
    match failure {
        Failure::Load(message) => LoadError::new_err(message),
        Failure::Option(message) => PyValueError::new_err(message),
    }
}

/// A meaning declared that does not fit the schema raises `LoadError` naming the tool.
fn misfit(Misfit { tool, error }: Misfit) -> PyErr {
    match tool.as_str() {
        "" => LoadError::new_err(format!(
            "the meaning declared does not fit the schema: {error}"
        )),
        name => LoadError::new_err(format!(
            "{name}: the meaning declared does not fit its schema: {error}"
        )),
    }
}

/// The tools of a list of definitions (or of an MCP `tools/list` result), each loaded on its
/// own: one whose schema does not load is named in `unchecked` and does not stop the others;
/// a declared meaning that does not fit its schema raises `LoadError`.
#[pyclass(frozen, module = "toolargs")]
pub(crate) struct ToolSet {
    pub(crate) tools: Arc<toolargs_bindings::ToolSet>,
    /// The definitions as loaded, for a replay against the same tools.
    pub(crate) text: String,
}

#[pymethods]
impl ToolSet {
    #[new]
    #[pyo3(signature = (definitions, meaning=None))]
    pub(crate) fn new(
        definitions: &Bound<'_, PyAny>,
        meaning: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ToolSet> {
        let mut meanings = BTreeMap::new();
        if let Some(meaning) = meaning {
            let tools: BTreeMap<String, Value> = meaning::object(&meaning_text(meaning)?)
                .map_err(|_| {
                    LoadError::new_err("meaning must be a dict of tool names to declarations")
                })?
                .into_iter()
                .collect();
            for (tool, declared) in tools {
                let what = format!("meaning[{tool:?}]");
                let declared = meaning::declarations(declared).map_err(|e| unread(e, &what))?;
                meanings.insert(tool, declared);
            }
        }
        let definitions = match definitions.cast::<PyDict>() {
            // A whole JSON-RPC response to `tools/list`: its result holds the tools.
            Ok(dict) if !dict.contains("tools")? => match dict.get_item("result")? {
                Some(result) => result,
                None => definitions.clone(),
            },
            _ => definitions.clone(),
        };
        let text = definition_text(&definitions)?;
        let loaded = toolargs_bindings::set::load(&text).map_err(failed)?;
        // A declaration that does not fit, given beside the definitions or in the schema under
        // `x-toolargs`, is a load error naming the tool and the argument; then one for a tool
        // that is not in the list.
        let tools = loaded
            .with_meanings(meanings)
            .map_err(|failure| match failure {
                toolargs_bindings::MeaningFailure {
                    misfit: Some(Misfit { tool, error }),
                    ..
                } => LoadError::new_err(format!(
                    "{tool}: the meaning declared does not fit its schema: {error}"
                )),
                toolargs_bindings::MeaningFailure { stray, .. } => LoadError::new_err(format!(
                    "meaning[{:?}]: no tool of this name",
                    stray.unwrap_or_default()
                )),
            })?;
        Ok(ToolSet {
            tools: Arc::new(tools),
            text,
        })
    }

    /// The names of the tools that loaded, in the order of the definitions.
    #[getter]
    pub(crate) fn names(&self) -> Vec<String> {
        self.tools.names().to_vec()
    }

    /// `(name, reason)` for each definition that did not load (`name` is None when the
    /// definition has none).
    #[getter]
    fn unchecked(&self) -> Vec<(Option<String>, String)> {
        self.tools.unchecked().to_vec()
    }

    /// Judges a call to the tool `name`; a name that is not a loaded tool raises `KeyError`.
    fn parse(
        &self,
        py: Python<'_>,
        name: &str,
        arguments: &Bound<'_, PyAny>,
    ) -> PyResult<ParseResult> {
        let tool = self.tool(name)?;
        Ok(parse(py, &tool.spec, arguments))
    }

    /// Judges many calls at once, with the GIL released, as `toolargs replay` judges them:
    /// for each tool name and arguments text, the outcome (`"clean"`, `"repaired"`,
    /// `"rejected"`; `"unchecked"` for a tool whose definition did not load, `"unknown_tool"`
    /// for a name no definition gives), the error codes and the repair rules, in the order
    /// found. A missing name (`None`) is an unknown tool; missing arguments are `null`
    /// (rejected as `not_object`).
    fn check_many(
        &self,
        py: Python<'_>,
        names: Vec<Option<String>>,
        arguments: Vec<Option<String>>,
    ) -> PyResult<Checked> {
        if names.len() != arguments.len() {
            return Err(PyValueError::new_err(format!(
                "{} names for {} arguments",
                names.len(),
                arguments.len()
            )));
        }
        let options = ParseOptions::DEFAULT.with_omit_messages(true);
        Ok(py.detach(|| {
            let mut checked = Checked::default();
            for (name, text) in names.iter().zip(&arguments) {
                let one = self.tools.check(name.as_deref(), text.as_deref(), &options);
                checked.0.push(one.outcome);
                checked.1.push(one.codes);
                checked.2.push(one.rules);
            }
            checked
        }))
    }

    fn __getitem__(&self, name: &str) -> PyResult<Spec> {
        Ok(Spec {
            tool: self.tool(name)?.clone(),
        })
    }

    fn __contains__(&self, name: &str) -> bool {
        self.tools.get(name).is_some()
    }

    fn __len__(&self) -> usize {
        self.tools.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolSet(names={:?}, unchecked={})",
            self.tools.names(),
            self.tools.unchecked().len()
        )
    }
}

impl ToolSet {
    /// The tool `name`; a name that is not a loaded tool raises `KeyError`.
    pub(crate) fn tool(&self, name: &str) -> PyResult<&Tool> {
        tool_of(&self.tools, name)
    }
}

/// The tool `name` of `tools`; a name that is not a loaded tool raises `KeyError`.
pub(crate) fn tool_of<'a>(tools: &'a toolargs_bindings::ToolSet, name: &str) -> PyResult<&'a Tool> {
    tools
        .get(name)
        .ok_or_else(|| PyKeyError::new_err(tools.why_not(name)))
}

/// A definition as JSON text: text and bytes as given, anything else written as JSON.
fn definition_text(definition: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = definition.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    if let Ok(bytes) = definition.cast::<PyBytes>() {
        return String::from_utf8(bytes.as_bytes().to_vec())
            .map_err(|_| LoadError::new_err("the definition is not valid UTF-8"));
    }
    to_json_text(definition, &Limits::DEFAULT)
        .map_err(|NotJson(e)| LoadError::new_err(format!("{}: {}", e.path, e.message)))
}

/// A `meaning` option as JSON text.
fn meaning_text(meaning: &Bound<'_, PyAny>) -> PyResult<String> {
    to_json_text(meaning, &Limits::DEFAULT)
        .map_err(|NotJson(e)| LoadError::new_err(format!("meaning: {}: {}", e.path, e.message)))
}

/// The declarations of a spec's `meaning` option: argument paths to declarations.
fn meanings_of(meaning: &Bound<'_, PyAny>) -> PyResult<Meanings> {
    meaning::declarations_in(&meaning_text(meaning)?).map_err(|e| unread(e, "meaning"))
}

/// A `meaning` option (`what` names it) that does not read raises `LoadError` naming the
/// declaration.
fn unread(error: MeaningError, what: &str) -> PyErr {
    LoadError::new_err(match error {
        MeaningError::Invalid(e) => format!("{what}: {e}"),
        MeaningError::NotObject => {
            format!("{what} must be a dict of argument paths to declarations")
        }
        MeaningError::Declaration { path, error } => format!("{what}[{path:?}]: {error}"),
    })
}

/// Outcomes, codes and rules of many calls, one entry each.
type Checked = (
    Vec<&'static str>,
    Vec<Vec<&'static str>>,
    Vec<Vec<&'static str>>,
);

/// Judges one call's arguments: a `str`, as the UTF-8 text Python encodes it in, and `bytes`,
/// both read where they are (neither can change while the GIL is released); a `bytearray`'s
/// bytes, copied (it could); any other value, written as JSON text. A payload past
/// [`DETACH_AT_BYTES`] is parsed with the GIL released.
pub(crate) fn parse(
    py: Python<'_>,
    spec: &toolargs_dynamic::Spec,
    arguments: &Bound<'_, PyAny>,
) -> ParseResult {
    let encoded;
    let copied;
    let written;
    let raw = if let Ok(text) = arguments.cast::<PyString>() {
        encoded = match text.encode_utf8() {
            Ok(bytes) => bytes,
            Err(_) => {
                return rejected(toolargs_core::ArgumentError::new(
                    "$",
                    toolargs_core::Code::InvalidJson,
                    "the text is not valid Unicode (it holds a lone surrogate)",
                ))
            }
        };
        // Python's UTF-8, read as text as a string's was.
        match std::str::from_utf8(encoded.as_bytes()) {
            Ok(text) => RawArgs::Text(Cow::Borrowed(text)),
            Err(_) => RawArgs::Bytes(Cow::Borrowed(encoded.as_bytes())),
        }
    } else if let Ok(bytes) = arguments.cast::<PyBytes>() {
        RawArgs::Bytes(Cow::Borrowed(bytes.as_bytes()))
    } else if let Ok(bytes) = arguments.cast::<PyByteArray>() {
        copied = bytes.to_vec();
        RawArgs::Bytes(Cow::Borrowed(&copied))
    } else {
        written = match to_json_text(arguments, &Limits::DEFAULT) {
            Ok(text) => text,
            Err(NotJson(error)) => return rejected(error),
        };
        RawArgs::Text(Cow::Borrowed(&written))
    };
    let run = || spec.parse_with(&raw, &ParseOptions::DEFAULT);
    let len = match &raw {
        RawArgs::Text(text) => text.len(),
        RawArgs::Bytes(bytes) => bytes.len(),
        RawArgs::Value(_) => 0,
    };
    ParseResult::new(if len >= DETACH_AT_BYTES {
        py.detach(run)
    } else {
        run()
    })
}

fn rejected(error: toolargs_core::ArgumentError) -> ParseResult {
    ParseResult::new(Err(Rejection::single(error)))
}
