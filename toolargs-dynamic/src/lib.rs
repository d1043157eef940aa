//! The dynamic front door: tools defined by a JSON Schema instead of a Rust type.
//!
//! A [`Spec`] is loaded from a JSON Schema (draft 2020-12, draft-07, or OpenAPI 3.0's subset)
//! or from a tool definition in the OpenAI (chat or responses), Anthropic, Gemini or MCP
//! shape, and parses calls through the same coercers as derived types: same repairs, codes
//! and paths. Every assertion keyword is enforced as the specification says; a schema the gate
//! would enforce less strictly than written (a remote `$ref`, `$dynamicRef`) does not load,
//! with an error that names the keyword. Annotations load, and those that look like promises
//! the gate does not keep come back as [`Spec::warnings`].

mod arguments;
mod definition;
mod exact;
mod list;
mod load;
mod lowering;
mod shape;
mod strict;
mod walk;

use std::sync::Arc;

use serde_json::Value;

pub use arguments::{Arguments, Key, Member};
pub use list::{load_tool_list, load_tool_list_lenient, NamedTools, RefusedDefinition, ToolList};
pub use load::{LoadError, LoadErrorKind};
use shape::{Graph, Schema, Types};
// The core's, as every judge reports what loading noticed (`Judge::load_warnings`).
pub use toolargs_core::judge::LoadWarning;

use toolargs_core::cx::Cx;
use toolargs_core::decode::{LoggedPayload, RawArgs};
use toolargs_core::effect::Effect;
use toolargs_core::judge::{Judge, MemberSlots};
use toolargs_core::node::Node;
use toolargs_core::options::ParseOptions;
use toolargs_core::path::Path;
use toolargs_core::report::{Parsed, Rejection, Repair};
use toolargs_core::spec::UnknownPolicy;
use toolargs_core::stream::ArgStream;
use toolargs_core::tool::{judge_node, parse_logged_payload, parse_payload};
use toolargs_core::ArgumentError;

/// A tool's argument contract loaded at run time.
#[derive(Clone, Debug)]
pub struct Spec {
    name: Option<String>,
    description: Option<String>,
    effect: Option<Effect>,
    default_unknown: UnknownPolicy,
    /// Chosen for the tool, over what its effect implies ([`Spec::with_unknown_policy`]).
    unknown: Option<UnknownPolicy>,
    /// Shared with the streams of the spec, which read a call's members into it.
    graph: Arc<Graph>,
    warnings: Vec<LoadWarning>,
    /// Tool arguments are an object; a bare schema says itself what the payload is.
    expect_object: bool,
    /// Recognises calls accepted as sent without the walk, when the root schema is plain.
    plain: Option<walk::Plain>,
    /// The arguments' schema as loaded, which [`Spec::lowering`] shows each provider.
    schema: Arc<Value>,
}

impl Spec {
    /// Loads a JSON Schema given as a value. Properties are read in the map's order, which is
    /// alphabetical unless `serde_json`'s `preserve_order` feature is on; use
    /// [`Spec::from_json`] to keep the order of the text (it decides the order of errors).
    pub fn from_schema(schema: &Value) -> Result<Spec, LoadError> {
        let node = Node::from_value(schema, load::MAX_SCHEMA_DEPTH).map_err(|_| {
            LoadError::new(
                LoadErrorKind::TooDeep,
                "",
                "the schema is nested too deeply",
            )
        })?;
        Self::from_schema_node(&node)
    }

    /// Loads a JSON Schema or a tool definition from JSON text, keeping the order of properties.
    pub fn from_json(text: &str) -> Result<Spec, LoadError> {
        let node =
            toolargs_core::decode::parse_document(text, load::MAX_SCHEMA_DEPTH).map_err(|e| {
                LoadError::new(
                    LoadErrorKind::InvalidJson,
                    "",
                    format!("not valid JSON: {}", e.message),
                )
            })?;
        Self::from_definition_node(&node)
    }

    /// Loads a tool definition in any supported shape (OpenAI chat or responses, Anthropic,
    /// Gemini, MCP), or a bare JSON Schema.
    pub fn from_tool_definition(definition: &Value) -> Result<Spec, LoadError> {
        let node = Node::from_value(definition, load::MAX_SCHEMA_DEPTH).map_err(|_| {
            LoadError::new(
                LoadErrorKind::TooDeep,
                "",
                "the definition is nested too deeply",
            )
        })?;
        Self::from_definition_node(&node)
    }

    fn from_schema_node(schema: &Node<'_>) -> Result<Spec, LoadError> {
        Ok(Self::from_loaded(
            load::load_root(schema, "")?,
            false,
            schema.to_value(),
        ))
    }

    fn from_loaded(loaded: load::Loaded, tool: bool, schema: Value) -> Spec {
        let only_objects = match loaded.graph.get(loaded.graph.root) {
            Schema::Rules(rules) => rules.types == Some(Types::OBJECT),
            _ => false,
        };
        Spec {
            name: None,
            description: None,
            effect: None,
            default_unknown: UnknownPolicy::Reject,
            unknown: None,
            expect_object: tool || only_objects,
            plain: walk::Plain::of(&loaded.graph),
            graph: Arc::new(loaded.graph),
            warnings: loaded.warnings,
            schema: Arc::new(schema),
        }
    }

    fn from_definition_node(definition: &Node<'_>) -> Result<Spec, LoadError> {
        let tool = definition::read_definition(definition)?;
        let mut spec = match tool.arguments {
            definition::Arguments::Schema(schema, pointer) => {
                Self::from_loaded(load::load_root(schema, &pointer)?, true, schema.to_value())
            }
            definition::Arguments::Nothing => Self::from_loaded(
                load::Loaded {
                    graph: load::no_arguments(),
                    warnings: Vec::new(),
                },
                true,
                serde_json::json!({"type": "object", "properties": {}}),
            ),
            definition::Arguments::Bare => Self::from_schema_node(definition)?,
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

    /// Sets the tool's effect, in place of what its annotations say (or their absence). The
    /// unknown-key policy follows it unless one is chosen ([`Spec::with_unknown_policy`]).
    pub fn with_effect(mut self, effect: Effect) -> Spec {
        self.effect = Some(effect);
        self
    }

    /// Sets the unknown-key policy whatever the tool's effect implies.
    pub fn with_unknown_policy(mut self, policy: UnknownPolicy) -> Spec {
        self.unknown = Some(policy);
        self
    }

    /// Refuses every value repair of the root's property `name` and of everything below it:
    /// a value that would need one is rejected with `repair_forbidden`, as for a derived
    /// field declared `strict`. Returns false, changing nothing, when the root schema does
    /// not declare `name` (in its `properties`, or in a schema it applies in place: `$ref`,
    /// `allOf`, `anyOf`, `oneOf`).
    ///
    /// ```
    /// use toolargs_dynamic::Spec;
    ///
    /// let mut spec = Spec::from_json(r#"{"type": "object",
    ///     "properties": {"year": {"type": "integer"}, "n": {"type": "integer"}}}"#)?;
    /// assert!(spec.make_strict("year"));
    /// assert!(!spec.make_strict("month"));
    /// assert_eq!(spec.parse(r#"{"n": "5"}"#)?.repairs.len(), 1);
    /// let rejection = spec.parse(r#"{"year": "1999"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].code.as_str(), "repair_forbidden");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn make_strict(&mut self, name: &str) -> bool {
        self.make_strict_steps(&[strict::Step::Property(name)])
    }

    /// As [`Spec::make_strict`], for a property at any depth: `path` names the properties
    /// from the root down, separated by `.`, with `[]` after an array's name for its items
    /// (`order.amount_cents`, `lines[].amount`). Only that property is made strict: a schema
    /// on the way that is also used elsewhere (through `$ref`) stays lenient there. Returns
    /// false, changing nothing, when a step names nothing the schema declares, or `path`
    /// does not end with a property. (A name that holds `.` or ends with `[]` is reached with
    /// [`Spec::make_strict`] at the root only.)
    ///
    /// ```
    /// use toolargs_dynamic::Spec;
    ///
    /// let mut spec = Spec::from_json(r##"{"type": "object", "$defs": {"money": {"type": "object",
    ///         "properties": {"cents": {"type": "integer"}}}},
    ///     "properties": {"refund": {"$ref": "#/$defs/money"}, "fee": {"$ref": "#/$defs/money"},
    ///         "lines": {"type": "array", "items": {"$ref": "#/$defs/money"}}}}"##)?;
    /// assert!(spec.make_strict_at("refund.cents") && spec.make_strict_at("lines[].cents"));
    /// assert!(!spec.make_strict_at("refund.dollars"));
    /// let rejection = spec.parse(r#"{"refund": {"cents": "1999"}}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].code.as_str(), "repair_forbidden");
    /// assert!(spec.parse(r#"{"lines": [{"cents": "5"}]}"#).is_err());
    /// // The same definition, used by another property: repaired there.
    /// assert_eq!(spec.parse(r#"{"fee": {"cents": "5"}}"#)?.repairs.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn make_strict_at(&mut self, path: &str) -> bool {
        let mut steps = Vec::new();
        for segment in path.split('.') {
            let mut name = segment;
            let mut items = 0;
            while let Some(rest) = name.strip_suffix("[]") {
                name = rest;
                items += 1;
            }
            if name.is_empty() {
                return false;
            }
            steps.push(strict::Step::Property(name));
            steps.extend(std::iter::repeat_n(strict::Step::Items, items));
        }
        self.make_strict_steps(&steps)
    }

    fn make_strict_steps(&mut self, steps: &[strict::Step<'_>]) -> bool {
        let graph = Arc::make_mut(&mut self.graph);
        match graph.strict_copy(graph.root, steps) {
            Some(root) => {
                graph.root = root;
                true
            }
            None => false,
        }
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

    /// The effect read from MCP annotations (or set by [`Spec::with_effect`]), when present.
    pub fn effect(&self) -> Option<Effect> {
        self.effect
    }

    /// The policy applied to unknown keys at every depth.
    pub fn unknown_policy(&self) -> UnknownPolicy {
        self.unknown.unwrap_or_else(|| {
            self.effect
                .map_or(self.default_unknown, Effect::default_unknown_policy)
        })
    }

    /// Parses a call with the default options; the arguments come back in canonical JSON.
    pub fn parse<'a>(&self, input: impl Into<RawArgs<'a>>) -> Result<Parsed<Value>, Rejection> {
        self.parse_with(&input.into(), &ParseOptions::DEFAULT)
    }

    /// Parses a call with explicit options.
    ///
    /// When the root schema is plain (see [`Spec::check_with`]), a call with every key
    /// declared and every required key present is read through its properties: those accepted
    /// as sent are copied as sent, the others walked. The arguments are the walk's: the
    /// declared properties in declaration order, each value as sent or as repaired, defaults
    /// filled in.
    pub fn parse_with(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.parse_borrowed(raw, options, |args| args.into_value())
    }

    /// [`Spec::parse_with`], with the arguments handed to `take` as they stand after the
    /// walk: built, or with the members accepted as sent left as read from the call
    /// ([`Arguments`]), for a caller that writes them out again without copying them first.
    /// `take` runs once for a call the walk accepts, and never for a rejected one; what it
    /// returns is the verdict's `args`. With [`Arguments::into_value`], this is
    /// [`Spec::parse_with`].
    ///
    /// ```
    /// use toolargs_core::{ParseOptions, RawArgs};
    /// use toolargs_dynamic::{Arguments, Member, Spec};
    ///
    /// let spec = Spec::from_json(r#"{"type": "object", "properties": {
    ///     "n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}}"#)?;
    /// let raw = RawArgs::from(r#"{"tags": ["a"], "n": "5"}"#);
    /// let sent = spec.parse_borrowed(&raw, &ParseOptions::DEFAULT, |args| match args {
    ///     // Declaration order: `n` repaired and built, `tags` as read.
    ///     Arguments::Members(members) => members
    ///         .iter()
    ///         .map(|(key, member)| format!("{}:{}", key.name, matches!(member, Member::Sent(_))))
    ///         .collect::<Vec<_>>(),
    ///     Arguments::Value(_) => vec![],
    /// })?;
    /// assert_eq!(sent.args, ["n:false", "tags:true"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_borrowed<T>(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
        take: impl FnOnce(Arguments<'_>) -> T,
    ) -> Result<Parsed<T>, Rejection> {
        self.parse_reading(raw, options, |node, cx| {
            let args = self.read(node, cx, true)?;
            // A call with an error is rejected whatever it holds: nothing to hand over.
            (!cx.has_errors()).then(|| take(args))
        })
    }

    /// [`Spec::parse_with`] through the walk of the whole call alone, without the plain
    /// reading: what the tests compare it with.
    #[doc(hidden)]
    pub fn parse_walking(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.parse_reading(raw, options, |node, cx| {
            walk::walk(&self.graph, node, &Path::ROOT, cx, true)
        })
    }

    /// The payload's envelope judged, then its arguments by `read`.
    fn parse_reading<T>(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
        read: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
    ) -> Result<Parsed<T>, Rejection> {
        parse_payload(
            raw,
            options,
            self.expect_object,
            self.unknown_policy(),
            read,
        )
    }

    /// The names of the properties [`Arguments::Members`] may hold, in declaration order (a
    /// [`Key::index`] is a place in this list): `None` when [`Spec::parse_borrowed`] always
    /// hands over [`Arguments::Value`], because the root schema is not plain. A caller that
    /// makes objects of another language from the members looks each key up here once, rather
    /// than at each call.
    ///
    /// ```
    /// use toolargs_dynamic::Spec;
    ///
    /// let spec = Spec::from_json(r#"{"type": "object", "properties": {
    ///     "b": {"type": "integer"}, "a": {"type": "string"}}}"#)?;
    /// assert_eq!(spec.member_names(), Some(vec!["b", "a"]));
    /// let nested = Spec::from_json(r#"{"type": "object", "properties": {
    ///     "o": {"type": "object"}}}"#)?;
    /// assert_eq!(nested.member_names(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn member_names(&self) -> Option<Vec<&str>> {
        self.plain.as_ref()?;
        walk::root_properties(&self.graph).map(|properties| {
            properties
                .iter()
                .map(|property| property.name.as_str())
                .collect()
        })
    }

    /// Whether the root schema is plain, so that [`Spec::parse_with`] reads a call through
    /// its properties where it can: what the tests count.
    #[doc(hidden)]
    pub fn is_plain(&self) -> bool {
        self.plain.is_some()
    }

    /// Judges a call: the repairs it needs, or its rejection, the same as
    /// [`Spec::parse_with`] but without building the arguments where no keyword needs them
    /// (replay counts verdicts).
    ///
    /// When the root schema is plain (an object whose properties hold scalars, or lists of
    /// scalars, under their own keywords alone, as most tools' do), a call with every value
    /// as its schema wants it is recognised by the walk's keyword checks alone; any other call
    /// is walked. The verdict is the same either way.
    ///
    /// ```
    /// use toolargs_dynamic::Spec;
    /// use toolargs_core::{ParseOptions, RawArgs};
    ///
    /// let spec = Spec::from_json(r#"{"type": "object",
    ///     "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}"#)?;
    /// let judge = |text: &str| spec.check_with(&RawArgs::from(text), &ParseOptions::DEFAULT);
    /// assert!(judge(r#"{"n": 5}"#)?.is_empty());
    /// assert_eq!(judge(r#"{"n": "5"}"#)?[0].rule.as_str(), "numeric_string_to_int");
    /// assert_eq!(judge(r#"{"n": 0}"#).unwrap_err().errors()[0].code.as_str(), "out_of_range");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_with(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Vec<Repair>, Rejection> {
        parse_payload(
            raw,
            options,
            self.expect_object,
            self.unknown_policy(),
            |node, cx| self.judge(node, cx),
        )
        .map(|p| p.repairs)
    }

    /// [`Spec::check_with`] for arguments read from a log's text as they stand there, by
    /// [`read_logged`](toolargs_core::decode::read_logged) (inside a JSON string, without
    /// being unescaped first) or [`read_embedded`](toolargs_core::decode::read_embedded) (a
    /// JSON object); the verdict is the one [`Spec::check_with`] gives their text, unescaped.
    ///
    /// ```
    /// use toolargs_core::decode::read_logged;
    /// use toolargs_core::{Limits, ParseOptions};
    /// use toolargs_dynamic::Spec;
    ///
    /// let spec = Spec::from_json(r#"{"type": "object", "properties": {"n": {"type": "integer"}}}"#)?;
    /// let (payload, _) = read_logged(r#"{\"n\": \"5\"}""#, &Limits::DEFAULT).unwrap();
    /// let repairs = spec.check_logged(&payload, &ParseOptions::DEFAULT)?;
    /// assert_eq!(repairs[0].rule.as_str(), "numeric_string_to_int");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_logged(
        &self,
        payload: &LoggedPayload<'_>,
        options: &ParseOptions,
    ) -> Result<Vec<Repair>, Rejection> {
        parse_logged_payload(
            payload,
            options,
            self.expect_object,
            self.unknown_policy(),
            |node, cx| self.judge(node, cx),
        )
        .map(|p| p.repairs)
    }

    /// A stream of one call, judged while it arrives (see [`toolargs_core::stream`]): `feed`
    /// each piece, `finish` for the verdict, exactly [`Spec::parse`]'s on the whole text.
    ///
    /// Each member of the payload object is read when it is complete, and the verdict
    /// assembled from the members when the object closes, if the root is an object schema
    /// that applies no other schema to the whole object (`$ref`, `allOf`, `anyOf`, `oneOf`,
    /// `not`, `if`, `dependentSchemas`, `unevaluatedProperties`) and has no `enum` or
    /// `const`. Under any other root only the text and the limits give an early rejection,
    /// and the whole call is parsed when it closes.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolargs_core::Code;
    /// use toolargs_dynamic::Spec;
    ///
    /// let spec = Spec::from_schema(&json!({
    ///     "type": "object",
    ///     "properties": {"n": {"type": "integer", "maximum": 10}, "q": {"type": "string"}},
    ///     "required": ["n", "q"],
    ///     "additionalProperties": false
    /// })).unwrap();
    /// let mut stream = spec.stream();
    /// stream.feed(r#"{"q": "a", "n": "#).unwrap();
    /// assert_eq!(stream.partial(), json!({"q": "a"}));
    /// let rejection = stream.feed("12, ").unwrap_err();
    /// assert_eq!(rejection.errors()[0].code, Code::OutOfRange);
    /// ```
    pub fn stream(&self) -> ArgStream<&Spec> {
        self.stream_with(ParseOptions::DEFAULT)
    }

    /// [`Spec::stream`] with explicit options.
    pub fn stream_with(&self, options: ParseOptions) -> ArgStream<&Spec> {
        ArgStream::new(self, options)
    }

    /// Whether each member of a call can be judged alone: see [`Spec::stream`].
    fn members_alone(&self) -> bool {
        match self.graph.get(self.graph.root) {
            Schema::Rules(root) => {
                !root.in_place && root.allowed.is_none() && root.constant.is_none()
            }
            _ => false,
        }
    }

    fn judge(&self, node: &Node<'_>, cx: &mut Cx) -> Option<()> {
        // Without building, the value is `null` or no members: nothing to drop.
        self.read(node, cx, false).map(drop)
    }

    /// The root walk's verdict on `node`, its arguments built or not (`null`, or no
    /// members). A call accepted as sent needs nothing from the walk; of one with every key
    /// declared and every required key present, only the properties not accepted as sent are
    /// walked (see [`walk::Plain`]), and the others handed over as read.
    fn read<'a>(&'a self, node: &'a Node<'a>, cx: &mut Cx, build: bool) -> Option<Arguments<'a>> {
        if let (Some(plain), Node::Object(members)) = (&self.plain, node) {
            if let walk::Reading::Declared {
                dirty,
                spent,
                slots,
            } = plain.read(node, cx)
            {
                if dirty == 0 && !build {
                    return Some(Arguments::Value(Value::Null));
                }
                // Should the evaluations run out, the root's walk judges the call, and it alone
                // records: what was recorded here is dropped. Most calls come with nothing
                // recorded yet, and are recorded in place, then emptied again if need be.
                let properties = (dirty, spent, slots);
                if cx.is_empty() {
                    match walk::walk_properties(&self.graph, members, properties, cx, build) {
                        walk::Properties::Judged(value) => return value.map(Arguments::Members),
                        walk::Properties::Walk => *cx = cx.scratch(),
                    }
                } else {
                    let mut scratch = cx.scratch();
                    let graph = &self.graph;
                    match walk::walk_properties(graph, members, properties, &mut scratch, build) {
                        walk::Properties::Judged(value) => {
                            cx.absorb(scratch);
                            return value.map(Arguments::Members);
                        }
                        walk::Properties::Walk => {}
                    }
                }
            }
        }
        walk::walk(&self.graph, node, &Path::ROOT, cx, build).map(Arguments::Value)
    }
}

impl Judge for Spec {
    type Output = Value;

    fn parse(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Parsed<Value>, Rejection> {
        self.parse_with(raw, options)
    }

    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.parse_with(raw, options)
    }

    fn check(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Vec<Repair>, Rejection> {
        self.check_with(raw, options)
    }

    fn check_logged(
        &self,
        payload: &LoggedPayload<'_>,
        options: &ParseOptions,
    ) -> Option<Result<Vec<Repair>, Rejection>> {
        Some(Spec::check_logged(self, payload, options))
    }

    fn judge_member(
        &self,
        member: &Node<'_>,
        options: &ParseOptions,
    ) -> Option<(Vec<Repair>, Vec<ArgumentError>)> {
        self.members_alone().then(|| {
            judge_node(member, options, self.unknown_policy(), |node, cx| {
                let _ = self.judge(node, cx);
            })
        })
    }

    fn member_slots(&self) -> Option<Box<dyn MemberSlots<Value>>> {
        let members = walk::RootMembers::of(&self.graph, self.unknown_policy())?;
        Some(Box::new(members))
    }

    fn load_warnings(&self) -> &[LoadWarning] {
        self.warnings()
    }

    fn schema(&self) -> Option<Value> {
        Some(Spec::schema(self).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(spec: &Spec, text: &str) -> Vec<String> {
        let raw = RawArgs::from(text);
        let parsed = spec.parse_with(&raw, &ParseOptions::DEFAULT);
        let checked = spec.check_with(&raw, &ParseOptions::DEFAULT);
        // The judging walk (and the plain reading before it) agrees with the parse.
        assert_eq!(
            parsed
                .as_ref()
                .map(|p| p.repairs.len())
                .map_err(|r| r.errors().len()),
            checked.as_ref().map(Vec::len).map_err(|r| r.errors().len()),
            "{text}"
        );
        match parsed {
            Ok(_) => Vec::new(),
            Err(rejection) => rejection
                .errors()
                .iter()
                .map(|e| e.code.to_string())
                .collect(),
        }
    }

    #[test]
    fn a_strict_property_refuses_repairs_at_every_depth_and_nowhere_else() {
        let mut spec = Spec::from_json(
            r##"{"type": "object", "$defs": {"n": {"type": "integer"}},
                "properties": {
                    "ids": {"type": "array", "items": {"$ref": "#/$defs/n"}},
                    "point": {"type": "object", "properties": {"x": {"$ref": "#/$defs/n"}}},
                    "count": {"$ref": "#/$defs/n"},
                    "mode": {"enum": ["fast", "slow"]}
                }}"##,
        )
        .unwrap();
        let lenient = spec.clone();
        assert!(spec.make_strict("ids") && spec.make_strict("point") && spec.make_strict("mode"));
        for text in [
            r#"{"ids": ["5"]}"#,
            r#"{"ids": "[5]"}"#,
            r#"{"point": {"x": "1"}}"#,
            r#"{"point": "{\"x\": 1}"}"#,
            r#"{"mode": "FAST"}"#,
        ] {
            assert_eq!(codes(&spec, text), ["repair_forbidden"], "{text}");
            assert!(
                codes(&lenient, text).is_empty(),
                "{text}: repaired when not strict"
            );
        }
        // The shared schema is strict only under the strict property.
        assert!(codes(&spec, r#"{"count": "5", "ids": [5], "point": {"x": 1}}"#).is_empty());
        // A null for an optional field is read as absent, as for a derived strict field.
        assert!(codes(&spec, r#"{"ids": null}"#).is_empty());
    }

    #[test]
    fn a_strict_path_refuses_repairs_at_its_property_and_nowhere_else() {
        let schema = r##"{"type": "object",
            "$defs": {
                "money": {"type": "object", "properties": {"cents": {"type": "integer"},
                    "currency": {"enum": ["EUR", "USD"]}}},
                "node": {"type": "object", "properties": {"n": {"type": "integer"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}
            },
            "properties": {
                "order": {"allOf": [{"$ref": "#/$defs/money"}], "properties": {"note": {"type": "string"}}},
                "fee": {"$ref": "#/$defs/money"},
                "grid": {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/money"}}},
                "tree": {"$ref": "#/$defs/node"}
            }}"##;
        let lenient = Spec::from_json(schema).unwrap();
        let mut spec = lenient.clone();
        // Through `allOf` and `$ref`, through nested arrays, through a recursive definition.
        for path in ["order.cents", "grid[][].currency", "tree.kids[].n"] {
            assert!(spec.make_strict_at(path), "{path}");
        }
        // Names nothing, or does not end with a property: nothing changes.
        for path in [
            "order.dollars",
            "fee.cents.x",
            "grid[]",
            "grid.currency",
            "order..cents",
            "",
            "tree[].n",
        ] {
            assert!(!spec.make_strict_at(path), "{path}");
        }
        for text in [
            r#"{"order": {"cents": "1999"}}"#,
            r#"{"grid": [[{"currency": "eur"}]]}"#,
            r#"{"tree": {"kids": [{"n": "1"}]}}"#,
        ] {
            assert_eq!(codes(&spec, text), ["repair_forbidden"], "{text}");
            assert_eq!(codes(&lenient, text), Vec::<String>::new(), "{text}");
        }
        // Beside and below the strict property, and where its schemas are used elsewhere:
        // repaired as before.
        for text in [
            r#"{"fee": {"cents": "5"}}"#,
            r#"{"order": {"currency": "eur"}}"#,
            r#"{"tree": {"n": "1"}}"#,
            r#"{"tree": {"kids": [{"kids": [{"n": "1"}]}]}}"#,
        ] {
            assert!(codes(&spec, text).is_empty(), "{text}");
            assert_eq!(
                spec.parse(text).unwrap().repairs.len(),
                1,
                "{text}: not repaired"
            );
        }
    }
}
