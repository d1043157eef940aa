//! Pinned tool definitions: what each tool's definition was when the operator approved it,
//! so that a server that changes a tool under the gate (a new property, a dropped `maximum`,
//! an annotation or a description rewritten) has its calls refused instead of judged by
//! what it lists now.
//!
//! A tool's definition, as pinned, is its `inputSchema`, `annotations` and `description`;
//! its digest is the SHA-256 of that object as canonical JSON
//! ([`canonical_json`]: keys sorted, numbers in one spelling), so that neither the order of
//! keys nor `10` written `10.0` changes it. A pin file keeps each tool's digest and the
//! definition itself, which says what changed when a listing no longer matches
//! ([`DefinitionChange`]).
//!
//! ```
//! use serde_json::json;
//! use toolargs_gate::{PinCheck, Pins};
//!
//! let quote = json!({"name": "quote", "inputSchema": {"type": "object",
//!     "properties": {"quantity": {"type": "integer", "maximum": 10}}}});
//! let pins = Pins::from_tools(&[quote.clone()])?;
//! // What `toolargs pin` writes, and `toolargs gate --pin` reads.
//! let pins: Pins = pins.to_json().parse()?;
//! assert_eq!(pins.check("quote", &quote), PinCheck::Pinned);
//!
//! // The server drops the maximum and adds a property.
//! let widened = json!({"name": "quote", "inputSchema": {"type": "object",
//!     "properties": {"quantity": {"type": "integer"}, "discount": {"type": "number"}}}});
//! let PinCheck::Changed(changes) = pins.check("quote", &widened) else { panic!() };
//! assert_eq!(
//!     toolargs_gate::describe_changes(&changes),
//!     "$.discount: property added; $.quantity: maximum 10 dropped"
//! );
//! assert_eq!(pins.check("refund", &widened), PinCheck::Unpinned);
//! # Ok::<(), toolargs_gate::PinError>(())
//! ```

mod changes;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use toolargs_semantic::canonical_json;

use crate::policy::write_located;

pub use changes::{describe_changes, DefinitionChange};

/// The version of the pin file's format, the one this crate writes and the only one it reads.
pub const PIN_FILE_VERSION: u64 = 1;

/// The members of a tool's definition that are pinned, in the order the file writes them.
const PINNED: [&str; 3] = ["annotations", "description", "inputSchema"];

/// The most changes [`describe_changes`] names before it counts the rest.
pub(crate) const NAMED_CHANGES: usize = 10;

/// One tool as pinned.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pinned {
    /// The pinned members of its definition ([`PINNED`]), those present and not `null`.
    definition: Value,
    /// The SHA-256 of `definition` as canonical JSON, in lower-case hex.
    sha256: String,
}

/// The definitions a gate holds its tools to ([`Gate::with_pins`](crate::Gate::with_pins)),
/// by tool name: what `toolargs pin` writes and `toolargs gate --pin` reads.
///
/// The file is JSON: its `version` ([`PIN_FILE_VERSION`]) and its `tools`, sorted by name,
/// each with its `name`, its `sha256` and its `definition` (`annotations`, `description` and
/// `inputSchema`, those the server gave). Cloning is cheap: the gate of every HTTP session
/// shares one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pins {
    tools: Arc<BTreeMap<String, Pinned>>,
}

/// What a listed definition is to its pin ([`Pins::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PinCheck {
    /// The definition is the one pinned.
    Pinned,
    /// The definition is not the one pinned: what changed, from the pinned definition to
    /// the listed one.
    Changed(Vec<DefinitionChange>),
    /// No definition is pinned for the tool.
    Unpinned,
}

/// A listed tool whose definition is not the one pinned, or that is not pinned: its calls
/// are refused (`tool_changed`, `tool_unpinned`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PinMismatch {
    /// The tool.
    pub tool: String,
    /// What changed from the pinned definition to the listed one; `None` for a tool that is
    /// not pinned.
    pub changes: Option<Vec<DefinitionChange>>,
}

impl PinMismatch {
    /// The code its calls are refused with: `tool_changed`, or `tool_unpinned`.
    pub fn code(&self) -> &'static str {
        match self.changes {
            Some(_) => "tool_changed",
            None => "tool_unpinned",
        }
    }

    /// What changed, as one line ([`describe_changes`]), or that the tool is not pinned.
    pub fn describe(&self) -> String {
        match &self.changes {
            Some(changes) => describe_changes(changes),
            None => "not pinned".to_owned(),
        }
    }
}

impl fmt::Display for PinMismatch {
    /// ``` `quote` changed since it was pinned: $.quantity: maximum 10 dropped ```, or
    /// ``` `quote` is not pinned ```.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.changes {
            Some(changes) => write!(
                f,
                "`{}` changed since it was pinned: {}",
                self.tool,
                describe_changes(changes)
            ),
            None => write!(f, "`{}` is not pinned", self.tool),
        }
    }
}

/// A pin file or a tool list that does not make pins: a file that is not JSON, not of this
/// format, or whose digest does not match its definition; a tool without a name, or named
/// twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinError {
    file: Option<PathBuf>,
    /// Line and column, both from 1.
    position: Option<(usize, usize)>,
    message: String,
}

impl PinError {
    fn new(message: impl Into<String>) -> PinError {
        PinError {
            file: None,
            position: None,
            message: message.into(),
        }
    }

    /// What is wrong, without the place.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The line and column (both from 1) the error is at, when it is at one.
    pub fn position(&self) -> Option<(usize, usize)> {
        self.position
    }
}

impl fmt::Display for PinError {
    /// `file:line:column: message`, with what is known of the place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, self.file.as_deref(), self.position, &self.message)
    }
}

impl std::error::Error for PinError {}

/// The pinned members of `tool`, a tool definition as a `tools/list` result gives it: its
/// `annotations`, `description` and `inputSchema`, those present and not `null`.
fn definition_of(tool: &Value) -> Value {
    let mut definition = Map::new();
    for member in PINNED {
        match tool.get(member) {
            None | Some(Value::Null) => {}
            Some(value) => {
                definition.insert(member.to_owned(), value.clone());
            }
        }
    }
    Value::Object(definition)
}

/// The SHA-256 of `definition` as canonical JSON, in lower-case hex.
fn digest_of(definition: &Value) -> String {
    let digest = Sha256::digest(canonical_json(definition).as_bytes());
    toolargs_core::internal::text::lower_hex(&digest)
}

/// The digest a pin file keeps for `tool`, a tool definition as a `tools/list` result gives
/// it: the SHA-256, in lower-case hex, of its `annotations`, `description` and `inputSchema`
/// (those present and not `null`) as one object written as canonical JSON. Its name and
/// anything else it carries (`title`, `outputSchema`, `_meta`) are not part of it.
///
/// ```
/// use serde_json::json;
///
/// let a = json!({"name": "quote", "inputSchema": {"type": "object", "maximum": 10}});
/// let b = json!({"inputSchema": {"maximum": 10.0, "type": "object"}, "name": "quote", "annotations": null});
/// assert_eq!(toolargs_gate::definition_digest(&a), toolargs_gate::definition_digest(&b));
/// ```
pub fn definition_digest(tool: &Value) -> String {
    digest_of(&definition_of(tool))
}

impl Pins {
    /// Pins every tool of `tools` (tool definitions as a `tools/list` result lists them).
    /// A tool that is not an object with a string `name`, or a name given twice, is an error:
    /// no definition of such a tool could be the one approved.
    pub fn from_tools(tools: &[Value]) -> Result<Pins, PinError> {
        let mut pinned = BTreeMap::new();
        for (index, tool) in tools.iter().enumerate() {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                return Err(PinError::new(format!(
                    "the tool at index {index} of the list has no name"
                )));
            };
            let definition = definition_of(tool);
            let sha256 = digest_of(&definition);
            let entry = Pinned { definition, sha256 };
            if pinned.insert(name.to_owned(), entry).is_some() {
                return Err(PinError::new(format!(
                    "the server lists `{name}` more than once: no definition of it can be pinned"
                )));
            }
        }
        Ok(Pins {
            tools: Arc::new(pinned),
        })
    }

    /// Reads a pin file.
    pub fn load(path: &Path) -> Result<Pins, PinError> {
        let in_file = |mut error: PinError| {
            error.file = Some(path.to_owned());
            error
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| in_file(PinError::new(format!("cannot read the pin file: {e}"))))?;
        text.parse().map_err(in_file)
    }

    /// The pin file's text: pretty JSON, its tools sorted by name, and a line feed at its end.
    pub fn to_json(&self) -> String {
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|(name, pinned)| {
                let mut tool = Map::new();
                tool.insert("name".to_owned(), Value::from(name.as_str()));
                tool.insert("sha256".to_owned(), Value::from(pinned.sha256.as_str()));
                tool.insert("definition".to_owned(), pinned.definition.clone());
                Value::Object(tool)
            })
            .collect();
        let mut file = Map::new();
        file.insert("version".to_owned(), Value::from(PIN_FILE_VERSION));
        file.insert("tools".to_owned(), Value::Array(tools));
        let mut text = serde_json::to_string_pretty(&Value::Object(file)).unwrap_or_default();
        text.push('\n');
        text
    }

    /// How many tools are pinned.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool is pinned.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The names of the tools pinned, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// The digest pinned for `name` ([`definition_digest`]), if it is pinned.
    pub fn digest(&self, name: &str) -> Option<&str> {
        self.tools.get(name).map(|pinned| pinned.sha256.as_str())
    }

    /// The definition pinned for `name` (its `annotations`, `description` and `inputSchema`,
    /// those the server gave), if it is pinned.
    pub fn definition(&self, name: &str) -> Option<&Value> {
        self.tools.get(name).map(|pinned| &pinned.definition)
    }

    /// Whether `listed`, the definition of `name` a `tools/list` result gives, is the one
    /// pinned for it, and if not, what changed.
    pub fn check(&self, name: &str, listed: &Value) -> PinCheck {
        let Some(pinned) = self.tools.get(name) else {
            return PinCheck::Unpinned;
        };
        let definition = definition_of(listed);
        if digest_of(&definition) == pinned.sha256 {
            return PinCheck::Pinned;
        }
        PinCheck::Changed(changes::between(&pinned.definition, &definition))
    }
}

impl FromStr for Pins {
    type Err = PinError;

    /// Reads a pin file's text: every tool's `sha256` must be its `definition`'s digest
    /// (a definition edited by hand is an error, not a pin), and no tool named twice.
    fn from_str(text: &str) -> Result<Pins, PinError> {
        let file: Value = serde_json::from_str(text).map_err(|e| {
            let why = e.to_string();
            // The place is said once, before the message.
            let why = why.split(" at line ").next().unwrap_or_default();
            PinError {
                file: None,
                position: Some((e.line(), e.column())),
                message: format!("not a pin file: {why}"),
            }
        })?;
        let Value::Object(file) = file else {
            return Err(PinError::new(
                "not a pin file: it is not a JSON object with `version` and `tools`",
            ));
        };
        if let Some(key) = file
            .keys()
            .find(|k| !matches!(k.as_str(), "version" | "tools"))
        {
            return Err(PinError::new(format!(
                "the pin file has a key `{key}` its format does not know (`version`, `tools`)"
            )));
        }
        match file.get("version").and_then(Value::as_u64) {
            Some(PIN_FILE_VERSION) => {}
            Some(version) => {
                return Err(PinError::new(format!(
                    "the pin file is of version {version}; this toolargs reads version {PIN_FILE_VERSION}"
                )))
            }
            None => {
                return Err(PinError::new(
                    "the pin file has no `version` (a whole number)",
                ))
            }
        }
        let Some(tools) = file.get("tools").and_then(Value::as_array) else {
            return Err(PinError::new("the pin file has no `tools` array"));
        };
        let mut pinned = BTreeMap::new();
        for (index, tool) in tools.iter().enumerate() {
            let (name, entry) = read_tool(index, tool)?;
            if pinned.insert(name.to_owned(), entry).is_some() {
                return Err(PinError::new(format!(
                    "the pin file pins `{name}` more than once"
                )));
            }
        }
        Ok(Pins {
            tools: Arc::new(pinned),
        })
    }
}

/// The tool at `index` of a pin file's `tools`: its name and what is pinned for it.
fn read_tool(index: usize, tool: &Value) -> Result<(&str, Pinned), PinError> {
    let at = |what: String| PinError::new(format!("the pin file's tool at index {index} {what}"));
    let Value::Object(tool) = tool else {
        return Err(at("is not an object".to_owned()));
    };
    if let Some(key) = tool
        .keys()
        .find(|k| !matches!(k.as_str(), "name" | "sha256" | "definition"))
    {
        return Err(at(format!(
            "has a key `{key}` the format does not know (`name`, `sha256`, `definition`)"
        )));
    }
    let Some(name) = tool.get("name").and_then(Value::as_str) else {
        return Err(at("has no `name` string".to_owned()));
    };
    let Some(sha256) = tool.get("sha256").and_then(Value::as_str) else {
        return Err(at(format!("(`{name}`) has no `sha256` string")));
    };
    let Some(Value::Object(members)) = tool.get("definition") else {
        return Err(at(format!("(`{name}`) has no `definition` object")));
    };
    if let Some(key) = members.keys().find(|k| !PINNED.contains(&k.as_str())) {
        return Err(at(format!(
            "(`{name}`) has a definition with `{key}`, which is not pinned (`annotations`, `description`, `inputSchema`)"
        )));
    }
    let definition = definition_of(&Value::Object(members.clone()));
    let digest = digest_of(&definition);
    if digest != sha256 {
        return Err(PinError::new(format!(
            "the sha256 pinned for `{name}` is not its definition's ({digest}): the file was edited; pin the server again"
        )));
    }
    Ok((
        name,
        Pinned {
            definition,
            sha256: digest,
        },
    ))
}

#[cfg(test)]
mod tests;
