//! `Spec` (one tool's contract), `ToolSet` (the tools of a list) and `Stream` (one call judged
//! as it arrives), loaded from definitions given as JSON text.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;
use toolargs_bindings::meaning::{self, MeaningError};
use toolargs_bindings::{MeaningFailure, Misfit, Tool};
use toolargs_core::decode::RawArgs;
use toolargs_core::{ParseOptions, Parsed};
use wasm_bindgen::prelude::*;

use toolargs_dynamic::Arguments;

use crate::tape::Tape;
use crate::{convert, io};

/// Why a definition or an option was refused: `kind` is `"load"` for a definition that cannot
/// be loaded (the wrapper throws `LoadError`) and `"option"` for an option outside its set (a
/// `RangeError`).
#[wasm_bindgen]
pub struct Failure {
    kind: &'static str,
    message: String,
}

#[wasm_bindgen]
impl Failure {
    /// `"load"` or `"option"`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.kind.to_owned()
    }

    /// Where and why, in one sentence.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }
}

impl Failure {
    pub(crate) fn load(message: impl Into<String>) -> Failure {
        Failure {
            kind: "load",
            message: message.into(),
        }
    }

    pub(crate) fn option(message: String) -> Failure {
        Failure {
            kind: "option",
            message,
        }
    }
}

impl From<toolargs_bindings::Failure> for Failure {
    fn from(failure: toolargs_bindings::Failure) -> Failure {
        match failure {
            toolargs_bindings::Failure::Load(message) => Failure::load(message),
            toolargs_bindings::Failure::Option(message) => Failure::option(message),
        }
    }
}

impl From<Misfit> for Failure {
    /// A meaning declared that does not fit the tool's schema.
    fn from(Misfit { tool, error }: Misfit) -> Failure {
        Failure::load(match tool.as_str() {
            "" => format!("the meaning: {error}"),
            _ => format!("the meaning of {tool}: {error}"),
        })
    }
}

/// A `meaning` option (`of` names it) that does not read: a load failure naming the
/// declaration.
fn unread(error: MeaningError, of: &str) -> Failure {
    Failure::load(match error {
        MeaningError::Invalid(_) | MeaningError::NotObject => format!("{of} must be an object"),
        MeaningError::Declaration { path, error } => format!("{of}: {path}: {error}"),
    })
}

/// One tool's argument contract, loaded from a JSON Schema or a tool definition.
#[wasm_bindgen]
#[derive(Clone)]
pub struct Spec {
    /// The contract, what its arguments mean when declared (by the `meaning` option or
    /// `x-toolargs`), whether a repeated call does one thing, and the name given over the
    /// definition's (the `name` option), by which a session tells tools apart.
    pub(crate) tool: Tool,
}

#[wasm_bindgen]
impl Spec {
    /// Loads `definition` (JSON text), with the tool's `effect` (`"read_only"`, `"additive"`,
    /// `"destructive"`, `"external"`) and the `unknown` policy (`"strip"`, `"reject"`) when
    /// given, over what its annotations say, what its arguments mean: `meaning`, JSON text
    /// of declarations by argument path, laid over those of `x-toolargs` in the schema, and
    /// its `name`, over the definition's.
    pub fn load(
        definition: &str,
        effect: Option<String>,
        unknown: Option<String>,
        meaning: Option<String>,
        name: Option<String>,
    ) -> Result<Spec, Failure> {
        let spec = toolargs_bindings::load_spec(definition, effect.as_deref(), unknown.as_deref())?;
        let meanings = match meaning.as_deref() {
            Some(text) => meaning::declarations_in(text).map_err(|e| unread(e, "the meaning"))?,
            None => Default::default(),
        };
        let tool = Tool::new(spec, name, &meanings, definition)?;
        Ok(Spec { tool })
    }

    /// Whether the tool's meaning is declared: its calls in a session are weighed by it.
    #[wasm_bindgen(getter, js_name = hasMeaning)]
    pub fn has_meaning(&self) -> bool {
        self.tool.profile.is_some()
    }

    /// The tool's name: the one given when loaded, or the definition's, when it gives one.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> Option<String> {
        self.tool.name().map(str::to_owned)
    }

    /// The tool's description, when the definition gives one.
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> Option<String> {
        self.tool.spec.description().map(str::to_owned)
    }

    /// What the tool does, when set or annotated.
    #[wasm_bindgen(getter)]
    pub fn effect(&self) -> Option<String> {
        self.tool.effect().map(str::to_owned)
    }

    /// What happens to keys the schema does not declare: `"strip"` or `"reject"`.
    #[wasm_bindgen(getter)]
    pub fn unknown(&self) -> String {
        self.tool.unknown().to_owned()
    }

    /// What loaded with a warning, one sentence each.
    #[wasm_bindgen(getter)]
    pub fn warnings(&self) -> Vec<String> {
        self.tool.warnings()
    }

    /// The verdict on the `len` bytes of a call's arguments the wrapper wrote at
    /// [`input_buffer`](crate::input_buffer) (UTF-8, or not: then rejected as the gate rejects
    /// them), kept for the wrapper to read ([`io::emit`]).
    ///
    /// With `ascii`, the wrapper says the text is ASCII, so that a place in its bytes is the
    /// same place in the string it holds: a tape ([`crate::tape`]) then points into it.
    #[wasm_bindgen(js_name = parseInput)]
    pub fn parse_input(&self, len: usize, ascii: bool) -> u32 {
        io::with_input(len, |bytes| self.verdict(bytes, ascii))
    }

    /// [`Spec::parse_input`] of bytes given as an argument.
    #[wasm_bindgen(js_name = parseBytes)]
    pub fn parse_bytes(&self, bytes: &[u8]) -> u32 {
        io::emit(self.verdict(bytes, false))
    }

    /// The names of the properties a tape's members are ([`toolargs_dynamic::Spec::member_names`]),
    /// as JSON text: `null` when no call's arguments come as a tape.
    #[wasm_bindgen(getter, js_name = memberNames)]
    pub fn member_names(&self) -> String {
        match self.tool.spec.member_names() {
            Some(names) => serde_json::to_string(&names).unwrap_or_else(|_| "null".to_owned()),
            None => "null".to_owned(),
        }
    }

    /// The tool's definition in `dialect`'s request shape, its schema lowered to what that
    /// provider accepts, as JSON text; a name outside
    /// [`Dialect::names`](toolargs_core::Dialect::names) is an option failure.
    #[wasm_bindgen(js_name = toolDefinition)]
    pub fn tool_definition(&self, dialect: &str) -> Result<String, Failure> {
        Ok(self.tool.tool_definition(dialect)?.to_string())
    }

    /// What [`Spec::tool_definition`] does not show as the schema says, keyword by keyword:
    /// a JSON array of `{"path", "keyword", "instead", "enforced", "exact"}`.
    pub fn lowering(&self, dialect: &str) -> Result<String, Failure> {
        Ok(self.tool.lowering(dialect)?.to_string())
    }

    /// A stream of one call, judged while it arrives.
    pub fn stream(&self) -> Stream {
        Stream {
            stream: toolargs_bindings::Stream::of(&self.tool),
        }
    }
}

impl Spec {
    /// The verdict on a call's bytes. Arguments the parse hands over as members (those
    /// accepted as sent unbuilt) come as a tape, with places in `bytes` when `places` says
    /// they are places in the wrapper's string too; built arguments, as JSON text.
    pub(crate) fn verdict(&self, bytes: &[u8], places: bool) -> convert::Verdict {
        let raw = RawArgs::Bytes(Cow::Borrowed(bytes));
        let parsed =
            self.tool
                .spec
                .parse_borrowed(&raw, &ParseOptions::DEFAULT, |args| match args {
                    Arguments::Members(members) => Ok(Tape::of(&members, places.then_some(bytes))),
                    Arguments::Value(value) => Err(convert::Written::of(
                        &value,
                        bytes.len(),
                        io::output_buffer(),
                    )),
                });
        match parsed {
            Ok(Parsed {
                args: Ok(tape),
                repairs,
            }) => tape.verdict(&repairs, io::output_buffer()),
            Ok(Parsed {
                args: Err(written),
                repairs,
            }) => convert::accepted(written, &repairs),
            Err(rejection) => convert::rejected(&rejection),
        }
    }
}

/// The tools of a list of definitions (or of an MCP `tools/list` result), each loaded on its
/// own: one that does not load is named in `unchecked` and does not stop the others.
#[wasm_bindgen]
pub struct ToolSet {
    tools: Arc<toolargs_bindings::ToolSet>,
}

#[wasm_bindgen]
impl ToolSet {
    /// Loads a list of definitions, or an MCP `tools/list` result, given as JSON text, with
    /// what the tools' arguments mean: `meaning`, JSON text of declarations by tool name, then
    /// by argument path. A declaration for a tool that is not in the list is a load failure.
    pub fn load(definitions: &str, meaning: Option<String>) -> Result<ToolSet, Failure> {
        let loaded = toolargs_bindings::set::load(definitions)?;
        let mut meanings = BTreeMap::new();
        if let Some(text) = meaning.as_deref() {
            let tools = meaning::object(text).map_err(|e| unread(e, "the meaning"))?;
            for (tool, declared) in tools {
                let of = format!("the meaning of {tool}");
                let declared = meaning::declarations(declared).map_err(|e| unread(e, &of))?;
                meanings.insert(tool, declared);
            }
        }
        // A tool the meaning names that the definitions do not, then a meaning that does not
        // fit its tool's schema.
        let tools = loaded
            .with_meanings(meanings)
            .map_err(|failure| match failure {
                MeaningFailure {
                    stray: Some(stray), ..
                } => Failure::load(format!(
                    "the meaning names the tool {stray:?}, which the definitions do not"
                )),
                MeaningFailure { misfit, .. } => {
                    misfit.map_or_else(|| Failure::load(""), Failure::from)
                }
            })?;
        Ok(ToolSet {
            tools: Arc::new(tools),
        })
    }

    /// The names of the tools that loaded, in the order of the definitions.
    #[wasm_bindgen(getter)]
    pub fn names(&self) -> Vec<String> {
        self.tools.names().to_vec()
    }

    /// `[name, reason]` for each definition that did not load (`name` is `null` when the
    /// definition has none), as JSON text.
    #[wasm_bindgen(getter)]
    pub fn unchecked(&self) -> String {
        Value::Array(
            self.tools
                .unchecked()
                .iter()
                .map(|(name, why)| {
                    Value::Array(vec![
                        name.clone().map_or(Value::Null, Value::String),
                        Value::String(why.clone()),
                    ])
                })
                .collect(),
        )
        .to_string()
    }

    /// The spec of the tool `name`, when it loaded.
    pub fn get(&self, name: &str) -> Option<Spec> {
        self.tools.get(name).map(|tool| Spec { tool: tool.clone() })
    }

    /// Why `name` is not a tool of the set, in one sentence starting with the name.
    #[wasm_bindgen(js_name = whyNot)]
    pub fn why_not(&self, name: &str) -> String {
        self.tools.why_not(name)
    }
}

/// One call's arguments judged while they arrive: the early rejection, the members accepted so
/// far, and at the end the verdict `parse` gives on the whole text.
#[wasm_bindgen]
pub struct Stream {
    stream: toolargs_bindings::Stream,
}

#[wasm_bindgen]
impl Stream {
    /// Takes the next piece of the text: `undefined` while the call can still be accepted, the
    /// errors (JSON text) once it cannot.
    pub fn feed(&mut self, piece: &str) -> Option<String> {
        self.stream.feed(piece).map(|r| convert::errors(&r))
    }

    /// [`Stream::feed`] for bytes, which may end inside a character.
    #[wasm_bindgen(js_name = feedBytes)]
    pub fn feed_bytes(&mut self, piece: &[u8]) -> Option<String> {
        self.stream.feed_bytes(piece).map(|r| convert::errors(&r))
    }

    /// The members complete and accepted so far (a document of [`convert::value`]).
    pub fn partial(&self) -> String {
        convert::value(&self.stream.partial())
    }

    /// Bytes received so far.
    #[wasm_bindgen(getter)]
    pub fn received(&self) -> usize {
        self.stream.received()
    }

    /// The verdict on the whole text, kept for the wrapper to read ([`io::emit`]);
    /// `undefined` when the stream was finished before.
    pub fn finish(&mut self) -> Option<u32> {
        let (verdict, size) = self.stream.finish()?;
        Some(io::emit(convert::verdict(&verdict, size)))
    }
}
