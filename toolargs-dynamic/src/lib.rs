//! The dynamic front door: tools defined by a JSON Schema instead of a Rust type.
//!
//! A [`Spec`] is loaded from a JSON Schema or from a tool definition in the OpenAI (chat or
//! responses), Anthropic, Gemini or MCP shape, and parses calls through the same coercers as
//! derived types: same repairs, codes and paths. Loading is strict: a keyword the gate would
//! not enforce is a load error that names it, never silently ignored.

mod list;
mod load;
mod shape;
mod walk;

use serde_json::Value;

pub use list::{load_tool_list, load_tool_list_lenient, RefusedDefinition, ToolList};
pub use load::{LoadError, LoadWarning};
use shape::{Shape, ShapeKind};

use toolargs_core::decode::RawArgs;
use toolargs_core::effect::Effect;
use toolargs_core::node::Node;
use toolargs_core::options::ParseOptions;
use toolargs_core::path::Path;
use toolargs_core::report::{Parsed, Rejection};
use toolargs_core::spec::UnknownPolicy;
use toolargs_core::tool::parse_payload;

/// A tool's argument contract loaded at run time.
#[derive(Clone, Debug)]
pub struct Spec {
    name: Option<String>,
    description: Option<String>,
    effect: Option<Effect>,
    default_unknown: UnknownPolicy,
    root: Shape,
    warnings: Vec<LoadWarning>,
}

impl Spec {
    /// Loads a JSON Schema given as a value. Properties are read in the map's order, which is
    /// alphabetical unless `serde_json`'s `preserve_order` feature is on; use
    /// [`Spec::from_json`] to keep the order of the text (it decides the order of errors).
    pub fn from_schema(schema: &Value) -> Result<Spec, LoadError> {
        let node = Node::from_value(schema, load::MAX_SCHEMA_DEPTH)
            .map_err(|_| LoadError::new("", "the schema is nested too deeply"))?;
        Self::from_schema_node(&node)
    }

    /// Loads a JSON Schema or a tool definition from JSON text, keeping the order of properties.
    pub fn from_json(text: &str) -> Result<Spec, LoadError> {
        let node = toolargs_core::decode::parse_document(text, load::MAX_SCHEMA_DEPTH)
            .map_err(|e| LoadError::new("", format!("not valid JSON: {}", e.message)))?;
        Self::from_definition_node(&node)
    }

    /// Loads a tool definition in any supported shape (OpenAI chat or responses, Anthropic,
    /// Gemini, MCP), or a bare JSON Schema.
    pub fn from_tool_definition(definition: &Value) -> Result<Spec, LoadError> {
        let node = Node::from_value(definition, load::MAX_SCHEMA_DEPTH)
            .map_err(|_| LoadError::new("", "the definition is nested too deeply"))?;
        Self::from_definition_node(&node)
    }

    fn from_schema_node(schema: &Node<'_>) -> Result<Spec, LoadError> {
        Ok(Spec {
            name: None,
            description: None,
            effect: None,
            default_unknown: UnknownPolicy::Reject,
            root: load::load_root(schema, "")?,
            warnings: Vec::new(),
        })
    }

    fn from_definition_node(definition: &Node<'_>) -> Result<Spec, LoadError> {
        let tool = load::read_definition(definition)?;
        let mut spec = match tool.schema {
            Some((schema, pointer)) => Spec {
                root: load::load_root(schema, &pointer)?,
                ..Self::from_schema_node(&Node::Object(Vec::new()))?
            },
            None => Self::from_schema_node(definition)?,
        };
        spec.name = tool.name;
        spec.description = tool.description;
        spec.effect = tool.effect;
        Ok(spec)
    }

    /// Sets the unknown-key policy for a tool whose definition does not carry MCP annotations.
    /// With annotations, the policy follows the effect they describe (read-only tools strip,
    /// all others reject); with neither, unknown keys are rejected.
    pub fn with_default_unknown(mut self, policy: UnknownPolicy) -> Spec {
        self.default_unknown = policy;
        self
    }

    /// The tool's name, when the definition gives one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The tool's description, when the definition gives one.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// What loading noticed but did not refuse: annotations the gate does not act on,
    /// defaults it dropped, repairs it turned off. Empty when the schema means exactly what
    /// the gate enforces.
    pub fn warnings(&self) -> &[LoadWarning] {
        &self.warnings
    }

    /// The effect read from MCP annotations, when present.
    pub fn effect(&self) -> Option<Effect> {
        self.effect
    }

    /// The policy applied to unknown keys at every depth.
    pub fn unknown_policy(&self) -> UnknownPolicy {
        self.effect
            .map_or(self.default_unknown, Effect::default_unknown_policy)
    }

    /// Parses a call with the default options; the arguments come back in canonical JSON.
    pub fn parse<'a>(&self, input: impl Into<RawArgs<'a>>) -> Result<Parsed<Value>, Rejection> {
        self.parse_with(&input.into(), &ParseOptions::DEFAULT)
    }

    /// Parses a call with explicit options.
    pub fn parse_with(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.run(raw, options, walk::Output::Build)
    }

    /// Judges a call without writing its canonical arguments: the repairs it needs, or its
    /// rejection. Cheaper than [`Spec::parse_with`] when only the verdict counts (replay).
    pub fn check_with(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Vec<toolargs_core::report::Repair>, Rejection> {
        self.run(raw, options, walk::Output::Discard)
            .map(|p| p.repairs)
    }

    fn run(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
        output: walk::Output,
    ) -> Result<Parsed<Value>, Rejection> {
        let expect_object = matches!(self.root.kind, ShapeKind::Object(_));
        parse_payload(
            raw,
            options,
            expect_object,
            self.unknown_policy(),
            |node, cx| walk::walk(&self.root, node, &Path::ROOT, cx, output),
        )
    }
}
