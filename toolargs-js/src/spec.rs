//! `Spec` (one tool's contract), `ToolSet` (the tools of a list) and `Stream` (one call judged
//! as it arrives), loaded from definitions given as JSON text.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use toolargs_core::decode::RawArgs;
use toolargs_core::stream::ArgStream;
use toolargs_core::{Dialect, Effect, ParseOptions, Parsed, UnknownPolicy};
use wasm_bindgen::prelude::*;

use toolargs_dynamic::Arguments;
use toolargs_semantic::Profile;

use crate::meaning::{idempotent_tools, is_idempotent, meanings, meanings_by_tool, profile_of};
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

/// The dialect named `name`, or an option failure that lists the names.
fn dialect_named(name: &str) -> Result<Dialect, Failure> {
    Dialect::from_name(name).ok_or_else(|| {
        Failure::option(format!(
            "dialect must be one of {}, not {name:?}",
            Dialect::names()
        ))
    })
}

/// One tool's argument contract, loaded from a JSON Schema or a tool definition.
#[wasm_bindgen]
#[derive(Clone)]
pub struct Spec {
    pub(crate) spec: Arc<toolargs_dynamic::Spec>,
    /// What its arguments mean, when declared (by the `meaning` option or `x-toolargs`).
    pub(crate) meaning: Option<Arc<Profile>>,
    /// Whether a repeated call does one thing (MCP's `idempotentHint`).
    pub(crate) idempotent: bool,
    /// The name given over the definition's (the `name` option): a session tells tools apart
    /// by it.
    pub(crate) named: Option<Arc<str>>,
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
        let mut spec = toolargs_dynamic::Spec::from_json(definition)
            .map_err(|e| Failure::load(e.to_string()))?;
        if let Some(effect) = effect {
            spec = spec.with_effect(Effect::from_name(&effect).ok_or_else(|| {
                Failure::option(format!(
                    "effect must be \"read_only\", \"additive\", \"destructive\" or \"external\", not {effect:?}"
                ))
            })?);
        }
        if let Some(unknown) = unknown {
            spec = spec.with_unknown_policy(match unknown.as_str() {
                "strip" => UnknownPolicy::Strip,
                "reject" => UnknownPolicy::Reject,
                other => {
                    return Err(Failure::option(format!(
                        "unknown must be \"strip\" or \"reject\", not {other:?}"
                    )))
                }
            });
        }
        let meanings = meanings(meaning.as_deref(), "the meaning").map_err(Failure::load)?;
        let named = name.map(Arc::<str>::from);
        let name = named
            .as_deref()
            .or(spec.name())
            .unwrap_or_default()
            .to_owned();
        let meaning = profile_of(&spec, &name, &meanings).map_err(Failure::load)?;
        Ok(Spec {
            idempotent: is_idempotent(definition),
            spec: Arc::new(spec),
            meaning: meaning.map(Arc::new),
            named,
        })
    }

    /// Whether the tool's meaning is declared: its calls in a session are weighed by it.
    #[wasm_bindgen(getter, js_name = hasMeaning)]
    pub fn has_meaning(&self) -> bool {
        self.meaning.is_some()
    }

    /// The tool's name: the one given when loaded, or the definition's, when it gives one.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> Option<String> {
        self.named
            .as_deref()
            .or(self.spec.name())
            .map(str::to_owned)
    }

    /// The tool's description, when the definition gives one.
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> Option<String> {
        self.spec.description().map(str::to_owned)
    }

    /// What the tool does, when set or annotated.
    #[wasm_bindgen(getter)]
    pub fn effect(&self) -> Option<String> {
        self.spec.effect().map(|e| e.as_str().to_owned())
    }

    /// What happens to keys the schema does not declare: `"strip"` or `"reject"`.
    #[wasm_bindgen(getter)]
    pub fn unknown(&self) -> String {
        self.spec.unknown_policy().as_str().to_owned()
    }

    /// What loaded with a warning, one sentence each.
    #[wasm_bindgen(getter)]
    pub fn warnings(&self) -> Vec<String> {
        self.spec
            .warnings()
            .iter()
            .map(ToString::to_string)
            .collect()
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
        match self.spec.member_names() {
            Some(names) => serde_json::to_string(&names).unwrap_or_else(|_| "null".to_owned()),
            None => "null".to_owned(),
        }
    }

    /// The tool's definition in `dialect`'s request shape, its schema lowered to what that
    /// provider accepts, as JSON text; a name outside [`Dialect::names`] is an option failure.
    #[wasm_bindgen(js_name = toolDefinition)]
    pub fn tool_definition(&self, dialect: &str) -> Result<String, Failure> {
        Ok(self
            .spec
            .tool_definition(dialect_named(dialect)?)
            .to_string())
    }

    /// What [`Spec::tool_definition`] does not show as the schema says, keyword by keyword:
    /// a JSON array of `{"path", "keyword", "instead", "enforced", "exact"}`.
    pub fn lowering(&self, dialect: &str) -> Result<String, Failure> {
        let changes = self.spec.lowering(dialect_named(dialect)?).changes;
        let rows: Vec<Value> = changes
            .iter()
            .map(|change| {
                serde_json::json!({
                    "path": change.path,
                    "keyword": change.keyword,
                    "instead": change.instead,
                    "enforced": change.enforced,
                    "exact": change.exact,
                })
            })
            .collect();
        Ok(Value::Array(rows).to_string())
    }

    /// A stream of one call, judged while it arrives.
    pub fn stream(&self) -> Stream {
        Stream {
            // A copy of its own (sharing the loaded schema): the stream outlives no borrow.
            stream: Some(ArgStream::new(
                toolargs_dynamic::Spec::clone(&self.spec),
                ParseOptions::DEFAULT,
            )),
        }
    }
}

impl Spec {
    /// The verdict on a call's bytes. Arguments the parse hands over as members (those
    /// accepted as sent unbuilt) come as a tape, with places in `bytes` when `places` says
    /// they are places in the wrapper's string too; built arguments, as JSON text.
    pub(crate) fn verdict(&self, bytes: &[u8], places: bool) -> convert::Verdict {
        let raw = RawArgs::Bytes(Cow::Borrowed(bytes));
        let parsed = self
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
    names: Vec<String>,
    pub(crate) specs: Arc<HashMap<String, Spec>>,
    unchecked: Vec<(Option<String>, String)>,
}

#[wasm_bindgen]
impl ToolSet {
    /// Loads a list of definitions, or an MCP `tools/list` result, given as JSON text, with
    /// what the tools' arguments mean: `meaning`, JSON text of declarations by tool name, then
    /// by argument path. A declaration for a tool that is not in the list is a load failure.
    pub fn load(definitions: &str, meaning: Option<String>) -> Result<ToolSet, Failure> {
        let list = toolargs_dynamic::load_tool_list_lenient(definitions)
            .map_err(|e| Failure::load(e.to_string()))?;
        let named = list.by_name();
        let unchecked = named.unchecked;
        let mut meanings = meanings_by_tool(meaning.as_deref()).map_err(Failure::load)?;
        if let Some(stray) = meanings.keys().find(|tool| {
            !named.specs.iter().any(|(name, _)| name == *tool)
                && !unchecked
                    .iter()
                    .any(|(name, _)| name.as_deref() == Some(tool))
        }) {
            return Err(Failure::load(format!(
                "the meaning names the tool {stray:?}, which the definitions do not"
            )));
        }
        let idempotent = idempotent_tools(definitions);
        let names = named.specs.iter().map(|(name, _)| name.clone()).collect();
        let mut specs = HashMap::new();
        for (name, spec) in named.specs {
            let declared = meanings.remove(&name).unwrap_or_default();
            let meaning = profile_of(&spec, &name, &declared).map_err(Failure::load)?;
            let tool = Spec {
                spec: Arc::new(spec),
                meaning: meaning.map(Arc::new),
                idempotent: idempotent.contains(&name),
                named: None,
            };
            specs.insert(name, tool);
        }
        Ok(ToolSet {
            names,
            specs: Arc::new(specs),
            unchecked,
        })
    }

    /// The names of the tools that loaded, in the order of the definitions.
    #[wasm_bindgen(getter)]
    pub fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// `[name, reason]` for each definition that did not load (`name` is `null` when the
    /// definition has none), as JSON text.
    #[wasm_bindgen(getter)]
    pub fn unchecked(&self) -> String {
        Value::Array(
            self.unchecked
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
        self.specs.get(name).cloned()
    }

    /// Why `name` is not a tool of the set, in one sentence starting with the name.
    #[wasm_bindgen(js_name = whyNot)]
    pub fn why_not(&self, name: &str) -> String {
        let reason = self
            .unchecked
            .iter()
            .find(|(n, _)| n.as_deref() == Some(name))
            .map_or_else(
                || "no tool of this name".to_owned(),
                |(_, why)| format!("its definition did not load: {why}"),
            );
        format!("{name}: {reason}")
    }
}

/// One call's arguments judged while they arrive: the early rejection, the members accepted so
/// far, and at the end the verdict `parse` gives on the whole text.
#[wasm_bindgen]
pub struct Stream {
    /// `None` once finished.
    stream: Option<ArgStream<toolargs_dynamic::Spec>>,
}

#[wasm_bindgen]
impl Stream {
    /// Takes the next piece of the text: `undefined` while the call can still be accepted, the
    /// errors (JSON text) once it cannot.
    pub fn feed(&mut self, piece: &str) -> Option<String> {
        let stream = self.stream.as_mut()?;
        stream.feed(piece).err().map(|r| convert::errors(&r))
    }

    /// [`Stream::feed`] for bytes, which may end inside a character.
    #[wasm_bindgen(js_name = feedBytes)]
    pub fn feed_bytes(&mut self, piece: &[u8]) -> Option<String> {
        let stream = self.stream.as_mut()?;
        stream.feed_bytes(piece).err().map(|r| convert::errors(&r))
    }

    /// The members complete and accepted so far (a document of [`convert::value`]).
    pub fn partial(&self) -> String {
        match &self.stream {
            Some(stream) => convert::value(&stream.partial()),
            None => convert::value(&Value::Object(serde_json::Map::new())),
        }
    }

    /// Bytes received so far.
    #[wasm_bindgen(getter)]
    pub fn received(&self) -> usize {
        self.stream.as_ref().map_or(0, ArgStream::received)
    }

    /// The verdict on the whole text, kept for the wrapper to read ([`io::emit`]);
    /// `undefined` when the stream was finished before.
    pub fn finish(&mut self) -> Option<u32> {
        self.stream.take().map(|stream| {
            let size = stream.received();
            io::emit(convert::verdict(&stream.finish(), size))
        })
    }
}
