//! `Spec` (one tool's contract) and `ToolSet` (the tools of a list), loaded from definitions
//! given as Python values or JSON text, with the meaning declared for their arguments.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString, PyType};
use serde_json::Value;
use toolargs_core::decode::RawArgs;
use toolargs_core::{Dialect, Effect, Judge, Limits, ParseOptions, Rejection, UnknownPolicy};
use toolargs_semantic::{Meanings, Profile, SemanticError};

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
    pub(crate) spec: Arc<toolargs_dynamic::Spec>,
    /// What its arguments mean, when declared: what a session judges its calls by.
    pub(crate) profile: Option<Arc<Profile>>,
    /// Whether a repeated call does one thing (the annotation `idempotentHint`).
    pub(crate) idempotent: bool,
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
            Some(meaning) => meanings_of(meaning, "meaning")?,
            None => Meanings::default(),
        };
        let text = definition_text(definition)?;
        let mut spec = toolargs_dynamic::Spec::from_json(&text)
            .map_err(|e| LoadError::new_err(e.to_string()))?;
        if let Some(effect) = effect {
            spec = spec.with_effect(Effect::from_name(effect).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "effect must be \"read_only\", \"additive\", \"destructive\" or \"external\", not {effect:?}"
                ))
            })?);
        }
        if let Some(unknown) = unknown {
            spec = spec.with_unknown_policy(match unknown {
                "strip" => UnknownPolicy::Strip,
                "reject" => UnknownPolicy::Reject,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "unknown must be \"strip\" or \"reject\", not {other:?}"
                    )))
                }
            });
        }
        let name = spec.name().unwrap_or_default().to_owned();
        let profile = profile_of(&spec, &name, &meanings).map_err(|e| match name.as_str() {
            "" => LoadError::new_err(format!("the meaning declared does not fit the schema: {e}")),
            name => LoadError::new_err(format!(
                "{name}: the meaning declared does not fit its schema: {e}"
            )),
        })?;
        let idempotent = serde_json::from_str(&text).is_ok_and(|d: Value| is_idempotent(&d));
        Ok(Spec {
            spec: Arc::new(spec),
            profile: profile.map(Arc::new),
            idempotent,
        })
    }

    /// The tool's name, when the definition gives one.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.spec.name()
    }

    /// The tool's description, when the definition gives one.
    #[getter]
    fn description(&self) -> Option<&str> {
        self.spec.description()
    }

    /// What the tool does, when set or annotated: `"read_only"`, `"additive"`,
    /// `"destructive"` or `"external"`.
    #[getter]
    fn effect(&self) -> Option<&'static str> {
        self.spec.effect().map(Effect::as_str)
    }

    /// What happens to keys the schema does not declare: `"strip"` or `"reject"`.
    #[getter]
    fn unknown(&self) -> &'static str {
        self.spec.unknown_policy().as_str()
    }

    /// What loaded with a warning, one sentence each.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.spec
            .warnings()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// Judges one call's arguments (JSON text, bytes, or a decoded dict): never raises for
    /// what the arguments hold.
    fn parse(&self, py: Python<'_>, arguments: &Bound<'_, PyAny>) -> ParseResult {
        parse(py, &self.spec, arguments)
    }

    /// The arguments (as sent or repaired) of a call that passes; raises `Rejected` (with
    /// `errors` and `for_model()`) for one that does not.
    fn validate(&self, py: Python<'_>, arguments: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        parse(py, &self.spec, arguments).into_arguments(py)
    }

    /// The tool's definition as `dialect`'s API takes it (a name of the stubs' `Dialect`:
    /// `"json_schema"`, then one per provider, such as `"openai_chat"`, `"openai_chat_strict"`,
    /// `"anthropic"` or `"gemini"`), its schema lowered to what that provider accepts;
    /// `lowering(dialect)` lists what it does not show. The spec enforces the full schema.
    fn tool_definition<'py>(&self, py: Python<'py>, dialect: &str) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.spec.tool_definition(dialect_named(dialect)?))
    }

    /// What `tool_definition(dialect)` does not show as the schema says, keyword by keyword:
    /// dicts with `path` (JSON pointer in the schema), `keyword`, `instead` (what the
    /// provider is shown instead), `enforced` (true when the gate still enforces it) and
    /// `exact` (true when what is shown means the same).
    fn lowering<'py>(&self, py: Python<'py>, dialect: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let lowering = self.spec.lowering(dialect_named(dialect)?);
        lowering
            .changes
            .iter()
            .map(|change| {
                let row = PyDict::new(py);
                row.set_item("path", &change.path)?;
                row.set_item("keyword", &change.keyword)?;
                row.set_item("instead", &change.instead)?;
                row.set_item("enforced", change.enforced)?;
                row.set_item("exact", change.exact)?;
                Ok(row)
            })
            .collect()
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
        match self.spec.name() {
            Some(name) => format!("Spec(name={name:?}, unknown={:?})", self.unknown()),
            None => format!("Spec(unknown={:?})", self.unknown()),
        }
    }
}

/// The dialect named `name`, or a `ValueError` that lists the names.
fn dialect_named(name: &str) -> PyResult<Dialect> {
    Dialect::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "dialect must be one of {}, not {name:?}",
            Dialect::names()
        ))
    })
}

/// The tools of a list of definitions (or of an MCP `tools/list` result), each loaded on its
/// own: one whose schema does not load is named in `unchecked` and does not stop the others;
/// a declared meaning that does not fit its schema raises `LoadError`.
#[pyclass(frozen, module = "toolargs")]
pub(crate) struct ToolSet {
    names: Vec<String>,
    specs: HashMap<String, Spec>,
    unchecked: Vec<(Option<String>, String)>,
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
            let tools: BTreeMap<String, Value> = serde_json::from_str(&meaning_text(meaning)?)
                .map_err(|_| {
                    LoadError::new_err("meaning must be a dict of tool names to declarations")
                })?;
            for (tool, declared) in tools {
                let declared = Meanings(declarations(declared, &format!("meaning[{tool:?}]"))?);
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
        let list = toolargs_dynamic::load_tool_list_lenient(&text)
            .map_err(|e| LoadError::new_err(e.to_string()))?;
        let named = list.by_name();
        let unchecked = named.unchecked;
        let mut names = Vec::with_capacity(named.specs.len());
        let mut specs = HashMap::with_capacity(named.specs.len());
        let idempotent = idempotent_tools(&text);
        for (name, spec) in named.specs {
            let given = meanings.remove(&name).unwrap_or_default();
            // A declaration that does not fit, given beside the definitions or in the schema
            // under `x-toolargs`, is a load error naming the tool and the argument.
            let profile = profile_of(&spec, &name, &given).map_err(|e| {
                LoadError::new_err(format!(
                    "{name}: the meaning declared does not fit its schema: {e}"
                ))
            })?;
            let spec = Spec {
                spec: Arc::new(spec),
                profile: profile.map(Arc::new),
                idempotent: idempotent.contains(&name),
            };
            names.push(name.clone());
            specs.insert(name, spec);
        }
        let refused = |tool: &str| unchecked.iter().any(|(n, _)| n.as_deref() == Some(tool));
        if let Some(tool) = meanings.keys().find(|tool| !refused(tool)) {
            return Err(LoadError::new_err(format!(
                "meaning[{tool:?}]: no tool of this name"
            )));
        }
        Ok(ToolSet {
            names,
            specs,
            unchecked,
            text,
        })
    }

    /// The names of the tools that loaded, in the order of the definitions.
    #[getter]
    pub(crate) fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// `(name, reason)` for each definition that did not load (`name` is None when the
    /// definition has none).
    #[getter]
    fn unchecked(&self) -> Vec<(Option<String>, String)> {
        self.unchecked.clone()
    }

    /// Judges a call to the tool `name`; a name that is not a loaded tool raises `KeyError`.
    fn parse(
        &self,
        py: Python<'_>,
        name: &str,
        arguments: &Bound<'_, PyAny>,
    ) -> PyResult<ParseResult> {
        let spec = self.spec(name)?;
        Ok(parse(py, &spec.spec, arguments))
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
                let spec = name.as_deref().and_then(|n| self.specs.get(n));
                let (outcome, codes, rules) = match spec {
                    None if self.is_refused(name.as_deref()) => {
                        ("unchecked", Vec::new(), Vec::new())
                    }
                    None => ("unknown_tool", Vec::new(), Vec::new()),
                    Some(spec) => {
                        let text = text.as_deref().unwrap_or("null");
                        match spec.spec.check(&RawArgs::from(text), &options) {
                            Ok(repairs) if repairs.is_empty() => ("clean", Vec::new(), Vec::new()),
                            Ok(repairs) => (
                                "repaired",
                                Vec::new(),
                                repairs.iter().map(|r| r.rule.as_str()).collect(),
                            ),
                            Err(rejection) => (
                                "rejected",
                                rejection.errors().iter().map(|e| e.code.as_str()).collect(),
                                Vec::new(),
                            ),
                        }
                    }
                };
                checked.0.push(outcome);
                checked.1.push(codes);
                checked.2.push(rules);
            }
            checked
        }))
    }

    fn __getitem__(&self, name: &str) -> PyResult<Spec> {
        self.spec(name).cloned()
    }

    fn __contains__(&self, name: &str) -> bool {
        self.specs.contains_key(name)
    }

    fn __len__(&self) -> usize {
        self.names.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolSet(names={:?}, unchecked={})",
            self.names,
            self.unchecked.len()
        )
    }
}

impl ToolSet {
    /// True when `name` is a tool whose definition did not load.
    fn is_refused(&self, name: Option<&str>) -> bool {
        name.is_some_and(|name| {
            self.unchecked
                .iter()
                .any(|(n, _)| n.as_deref() == Some(name))
        })
    }

    pub(crate) fn spec(&self, name: &str) -> PyResult<&Spec> {
        self.specs.get(name).ok_or_else(|| {
            let reason = self
                .unchecked
                .iter()
                .find(|(n, _)| n.as_deref() == Some(name))
                .map_or_else(
                    || "no tool of this name".to_owned(),
                    |(_, why)| format!("its definition did not load: {why}"),
                );
            PyKeyError::new_err(format!("{name}: {reason}"))
        })
    }
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

/// The meaning of `spec`'s arguments, when `meanings` or its schema (under `x-toolargs`)
/// declares any; a tool without annotations is taken to destroy, as MCP says.
fn profile_of(
    spec: &toolargs_dynamic::Spec,
    name: &str,
    meanings: &Meanings,
) -> Result<Option<Profile>, SemanticError> {
    let effect = spec.effect().unwrap_or(Effect::Destructive);
    Profile::declared_if_any(name, effect, spec.schema(), meanings)
}

/// A `meaning` option as JSON text.
fn meaning_text(meaning: &Bound<'_, PyAny>) -> PyResult<String> {
    to_json_text(meaning, &Limits::DEFAULT)
        .map_err(|NotJson(e)| LoadError::new_err(format!("meaning: {}: {}", e.path, e.message)))
}

/// The declarations of a `meaning` option (`what` names it in errors): argument paths to
/// declarations.
fn meanings_of(meaning: &Bound<'_, PyAny>, what: &str) -> PyResult<Meanings> {
    let value = serde_json::from_str(&meaning_text(meaning)?)
        .map_err(|e| LoadError::new_err(format!("{what}: {e}")))?;
    declarations(value, what).map(Meanings)
}

/// Each declaration of `value` (argument paths to declarations), or a `LoadError` naming the
/// one that does not read.
fn declarations(
    value: Value,
    what: &str,
) -> PyResult<BTreeMap<String, toolargs_semantic::Declared>> {
    let Value::Object(paths) = value else {
        return Err(LoadError::new_err(format!(
            "{what} must be a dict of argument paths to declarations"
        )));
    };
    paths
        .into_iter()
        .map(|(path, declared)| {
            serde_json::from_value(declared)
                .map(|declared| (path.clone(), declared))
                .map_err(|e| LoadError::new_err(format!("{what}[{path:?}]: {e}")))
        })
        .collect()
}

/// Whether a tool's definition is annotated `idempotentHint: true`.
fn is_idempotent(definition: &Value) -> bool {
    definition.pointer("/annotations/idempotentHint") == Some(&Value::Bool(true))
}

/// The names of the tools of a list of definitions (or a `tools/list` result) annotated
/// `idempotentHint: true`.
fn idempotent_tools(text: &str) -> Vec<String> {
    let Ok(definitions) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let list = match &definitions {
        Value::Object(object) => object.get("tools").unwrap_or(&Value::Null),
        list => list,
    };
    list.as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|definition| is_idempotent(definition))
        .filter_map(|definition| definition.get("name")?.as_str())
        .map(str::to_owned)
        .collect()
}

/// Outcomes, codes and rules of many calls, one entry each.
type Checked = (
    Vec<&'static str>,
    Vec<Vec<&'static str>>,
    Vec<Vec<&'static str>>,
);

/// The arguments as the gate reads them, owned so that the GIL can be released.
enum Arguments {
    Text(String),
    Bytes(Vec<u8>),
}

pub(crate) fn parse(
    py: Python<'_>,
    spec: &toolargs_dynamic::Spec,
    arguments: &Bound<'_, PyAny>,
) -> ParseResult {
    let arguments = if let Ok(text) = arguments.cast::<PyString>() {
        match text.to_cow() {
            Ok(text) => Arguments::Text(text.into_owned()),
            Err(_) => {
                return rejected(toolargs_core::ArgumentError::new(
                    "$",
                    toolargs_core::Code::InvalidJson,
                    "the text is not valid Unicode (it holds a lone surrogate)",
                ))
            }
        }
    } else if let Ok(bytes) = arguments.cast::<PyBytes>() {
        Arguments::Bytes(bytes.as_bytes().to_vec())
    } else if let Ok(bytes) = arguments.cast::<PyByteArray>() {
        Arguments::Bytes(bytes.to_vec())
    } else {
        match to_json_text(arguments, &Limits::DEFAULT) {
            Ok(text) => Arguments::Text(text),
            Err(NotJson(error)) => return rejected(error),
        }
    };
    let run = || match &arguments {
        Arguments::Text(text) => spec.parse(RawArgs::Text(Cow::Borrowed(text))),
        Arguments::Bytes(bytes) => spec.parse(RawArgs::Bytes(Cow::Borrowed(bytes))),
    };
    let len = match &arguments {
        Arguments::Text(text) => text.len(),
        Arguments::Bytes(bytes) => bytes.len(),
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
