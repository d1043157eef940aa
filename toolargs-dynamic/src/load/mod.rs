//! Reads a JSON Schema into the [`Graph`] the walker follows.
//!
//! The rule: a keyword is refused only when the gate would enforce less than the schema says.
//! Every assertion keyword of draft 2020-12 is enforced (draft-07's `dependencies`, tuple
//! `items` and `additionalItems`, and OpenAPI 3.0's `nullable` and boolean exclusive bounds are
//! read too). Annotations load; those that look like promises the gate does not keep
//! (`readOnly`, `format: color`, an unknown keyword, ...) come back as warnings.
//!
//! This module compiles keywords; `resolve` finds what references point to, and `checks` runs
//! what needs the whole graph (loops, defaults, what each schema declares in place).

mod checks;
mod resolve;

use checks::closures;

use std::collections::HashMap;
use std::fmt;

use crate::exact::Decimal;
use crate::shape::{
    Additional, Condition, Graph, Id, Limit, Pattern, Property, Rules, Schema, Types,
};
use toolargs_core::coerce::format::Format;
use toolargs_core::judge::LoadWarning;
use toolargs_core::node::{IntegerReading, Node};

/// Deepest schema accepted.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 64;

/// Keywords that document a schema and change no verdict; they load silently.
const DOCUMENTATION: &[&str] = &[
    "title",
    "description",
    "$schema",
    "$id",
    "id",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
    "$vocabulary",
    "examples",
    "example",
    "default",
    "$defs",
    "definitions",
];

/// Annotations a reader may take for a promise the gate does not keep: they load with a
/// warning.
const UNENFORCED: &[&str] = &[
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "discriminator",
];

/// A schema could not be loaded: where (a JSON pointer into the schema), what kind of
/// problem ([`LoadError::kind`], for programs) and why (the message, for people).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadError {
    /// JSON pointer of the offending keyword or schema (`""` is the root).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    kind: LoadErrorKind,
}

impl LoadError {
    /// An error of `kind` at `pointer` (a JSON pointer; `""` is the root).
    pub fn new(kind: LoadErrorKind, pointer: &str, message: impl Into<String>) -> LoadError {
        LoadError {
            pointer: pointer.to_owned(),
            message: message.into(),
            kind,
        }
    }

    /// What kind of problem it is.
    pub fn kind(&self) -> LoadErrorKind {
        self.kind
    }

    /// The same error, its pointer read from a document that holds this one at `prefix`.
    pub(crate) fn under(mut self, prefix: &str) -> LoadError {
        self.pointer.insert_str(0, prefix);
        self
    }
}

/// The kinds of [`LoadError`], for a program that treats them differently (a gateway that
/// passes a tool with a remote reference through unchecked, but refuses one whose schema is
/// malformed). Each has a stable snake_case name ([`LoadErrorKind::as_str`]); new kinds may
/// be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The text is not JSON: `invalid_json`.
    InvalidJson,
    /// Nested deeper than the loader reads: `too_deep`.
    TooDeep,
    /// Not a tool definition, or not a list of them, in any shape the loader reads:
    /// `not_a_definition`.
    NotADefinition,
    /// A keyword the gate cannot enforce as the specification defines it (`$dynamicRef`, a
    /// `multipleOf` too precise to check exactly): `unsupported_keyword`.
    UnsupportedKeyword,
    /// A keyword whose value the specification does not allow (a `type` that names no type,
    /// a `pattern` that is not a regular expression, `required` that is not a list of
    /// strings): `malformed_keyword`.
    MalformedKeyword,
    /// A `$ref` to another document, which the loader does not fetch: `remote_reference`.
    RemoteReference,
    /// A `$ref` that points at nothing in its document: `unresolved_reference`.
    UnresolvedReference,
    /// A schema that applies itself to the same value without end: `endless_recursion`.
    EndlessRecursion,
    /// A tool in a set without a name: `unnamed_tool`.
    UnnamedTool,
    /// A second tool of the same name in a set: `duplicate_tool`.
    DuplicateTool,
}

impl LoadErrorKind {
    /// The stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            LoadErrorKind::InvalidJson => "invalid_json",
            LoadErrorKind::TooDeep => "too_deep",
            LoadErrorKind::NotADefinition => "not_a_definition",
            LoadErrorKind::UnsupportedKeyword => "unsupported_keyword",
            LoadErrorKind::MalformedKeyword => "malformed_keyword",
            LoadErrorKind::RemoteReference => "remote_reference",
            LoadErrorKind::UnresolvedReference => "unresolved_reference",
            LoadErrorKind::EndlessRecursion => "endless_recursion",
            LoadErrorKind::UnnamedTool => "unnamed_tool",
            LoadErrorKind::DuplicateTool => "duplicate_tool",
        }
    }
}

impl fmt::Display for LoadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "schema at {}: {}", shown(&self.pointer), self.message)
    }
}

impl std::error::Error for LoadError {}

fn shown(pointer: &str) -> &str {
    if pointer.is_empty() {
        "#"
    } else {
        pointer
    }
}

pub(crate) fn member<'n, 'a>(node: &'n Node<'a>, key: &str) -> Option<&'n Node<'a>> {
    match node {
        Node::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// A loaded document: its graph and what loading noticed.
pub(crate) struct Loaded {
    pub graph: Graph,
    pub warnings: Vec<LoadWarning>,
}

/// Loads the schema `root`, found at `pointer` in its definition (errors and warnings are
/// reported from there). Local references resolve against `root`.
pub(crate) fn load_root(root: &Node<'_>, pointer: &str) -> Result<Loaded, LoadError> {
    let mut loader = Loader {
        root,
        prefix: pointer,
        schemas: Vec::new(),
        by_pointer: HashMap::new(),
        resources: HashMap::new(),
        anchors: HashMap::new(),
        bases: HashMap::new(),
        warnings: Vec::new(),
        defaults: Vec::new(),
    };
    let base = match member(root, "$id") {
        Some(Node::String(id)) => without_fragment(id).to_owned(),
        _ => String::new(),
    };
    loader.index(root, "", &base, 0);
    let id = loader.compile(root, "", &base)?;
    loader.check_cycles()?;
    loader.check_defaults();
    let closures = closures(&loader.schemas);
    Ok(Loaded {
        graph: Graph {
            schemas: loader.schemas,
            root: id,
            closures,
        },
        warnings: loader.warnings,
    })
}

/// The graph of a tool that takes no arguments: an object without properties.
pub(crate) fn no_arguments() -> Graph {
    let rules = Rules {
        types: Some(Types::OBJECT),
        properties: Some(Vec::new()),
        ..Rules::default()
    };
    let schemas = vec![Schema::Rules(Box::new(rules))];
    Graph {
        closures: closures(&schemas),
        schemas,
        root: 0,
    }
}

struct Loader<'n, 'a> {
    root: &'n Node<'a>,
    /// Pointer of the root in its definition, prefixed to every reported pointer.
    prefix: &'n str,
    schemas: Vec<Schema>,
    /// Compiled schemas by their pointer in the document, so a `$ref` cycle is an edge.
    by_pointer: HashMap<String, Id>,
    /// `$id`s (absolute, without fragment) by the pointer of the schema that declares them.
    resources: HashMap<String, String>,
    /// `$anchor`s as `uri#name`, by pointer.
    anchors: HashMap<String, String>,
    /// The base URI in effect at each schema's pointer.
    bases: HashMap<String, String>,
    warnings: Vec<LoadWarning>,
    /// Property defaults to check once every schema is compiled: (schema, index, pointer).
    defaults: Vec<(Id, usize, String)>,
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn without_fragment(uri: &str) -> &str {
    uri.split('#').next().unwrap_or_default()
}

impl Loader<'_, '_> {
    fn at(&self, pointer: &str) -> String {
        format!("{}{pointer}", self.prefix)
    }

    fn error(&self, kind: LoadErrorKind, pointer: &str, message: impl Into<String>) -> LoadError {
        LoadError::new(kind, &self.at(pointer), message)
    }

    /// A keyword whose value the specification does not allow.
    fn malformed(&self, pointer: &str, message: impl Into<String>) -> LoadError {
        self.error(LoadErrorKind::MalformedKeyword, pointer, message)
    }

    fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        let warning = LoadWarning::new(self.at(pointer), message);
        self.warnings.push(warning);
    }

    /// Compiles the schema at `pointer` once; later references to it share its [`Id`].
    fn compile(&mut self, node: &Node<'_>, pointer: &str, base: &str) -> Result<Id, LoadError> {
        // A chain of references compiles depth-first, as deep as the chain is long.
        stacker::maybe_grow(128 * 1024, 2 * 1024 * 1024, || {
            self.compile_here(node, pointer, base)
        })
    }

    fn compile_here(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
    ) -> Result<Id, LoadError> {
        if let Some(&id) = self.by_pointer.get(pointer) {
            return Ok(id);
        }
        if pointer.matches('/').count() > 2 * MAX_SCHEMA_DEPTH {
            return Err(self.error(
                LoadErrorKind::TooDeep,
                pointer,
                "the schema is nested too deeply",
            ));
        }
        let id = self.schemas.len();
        self.schemas.push(Schema::True);
        self.by_pointer.insert(pointer.to_owned(), id);
        let base = self
            .bases
            .get(pointer)
            .cloned()
            .unwrap_or_else(|| base.to_owned());
        let schema = match node {
            Node::Bool(true) => Schema::True,
            Node::Bool(false) => Schema::False,
            Node::Object(members) if members.is_empty() => Schema::True,
            Node::Object(_) => Schema::Rules(Box::new(self.rules(node, pointer, &base, id)?)),
            _ => return Err(self.malformed(pointer, "a schema must be a JSON object or a boolean")),
        };
        self.schemas[id] = schema;
        Ok(id)
    }

    fn schema_list(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
        keyword: &str,
    ) -> Result<Vec<Id>, LoadError> {
        let Node::Array(items) = node else {
            return Err(self.malformed(pointer, format!("`{keyword}` must be an array of schemas")));
        };
        if items.is_empty() && keyword != "prefixItems" {
            return Err(self.malformed(pointer, format!("`{keyword}` must not be empty")));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.compile(item, &format!("{pointer}/{i}"), base))
            .collect()
    }

    fn schema_map(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
        keyword: &str,
    ) -> Result<Vec<(String, Id)>, LoadError> {
        let Node::Object(entries) = node else {
            return Err(self.malformed(pointer, format!("`{keyword}` must be an object")));
        };
        entries
            .iter()
            .map(|(name, item)| {
                let id = self.compile(item, &format!("{pointer}/{}", escape(name)), base)?;
                Ok((name.as_ref().to_owned(), id))
            })
            .collect()
    }

    fn count(&self, node: &Node<'_>, pointer: &str, keyword: &str) -> Result<usize, LoadError> {
        match node {
            Node::Number(n) => match n.integer() {
                IntegerReading::Exact(v) | IntegerReading::Integral(v) if v >= 0 => {
                    Ok(usize::try_from(v).unwrap_or(usize::MAX))
                }
                _ => Err(self.malformed(
                    pointer,
                    format!("`{keyword}` must be a non-negative integer"),
                )),
            },
            _ => Err(self.malformed(
                pointer,
                format!("`{keyword}` must be a non-negative integer"),
            )),
        }
    }

    fn number(&self, node: &Node<'_>, pointer: &str, keyword: &str) -> Result<Decimal, LoadError> {
        let text = match node {
            Node::Number(n) => n.to_value().to_string(),
            _ => String::new(),
        };
        let literal = match node {
            Node::Number(toolargs_core::node::Number::Literal(text)) => Some(*text),
            _ => None,
        };
        literal
            .and_then(Decimal::parse)
            .or_else(|| Decimal::parse(&text))
            .ok_or_else(|| self.malformed(pointer, format!("`{keyword}` must be a number")))
    }

    fn pattern(&self, node: &Node<'_>, pointer: &str) -> Result<Pattern, LoadError> {
        let Node::String(source) = node else {
            return Err(self.malformed(pointer, "a pattern must be a string"));
        };
        compile_pattern(source).map_err(|e| {
            self.malformed(
                pointer,
                format!("the regular expression is not valid ECMA-262: {e}"),
            )
        })
    }

    fn rules(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
        id: Id,
    ) -> Result<Rules, LoadError> {
        let Node::Object(members) = node else {
            return Err(self.malformed(pointer, "a schema must be a JSON object or a boolean"));
        };
        let mut rules = Rules {
            casefold: true,
            ..Rules::default()
        };
        let mut nullable = false;
        // OpenAPI 3.0 and draft-04 write exclusive bounds as booleans beside the bound.
        let (mut exclusive_min_flag, mut exclusive_max_flag) = (false, false);
        let mut additional_items = None;
        let mut condition = (None, None, None);
        for (key, value) in members {
            let here = format!("{pointer}/{}", escape(key));
            match key.as_ref() {
                "type" => rules.types = Some(self.types(value, &here)?),
                "nullable" => {
                    nullable = matches!(value, Node::Bool(true));
                    if nullable {
                        // Not a JSON Schema keyword: say that it was honoured, and how.
                        self.warn(
                            &here,
                            "`nullable` is not JSON Schema; it is read as OpenAPI 3.0 defines it: null is allowed besides the `type`",
                        );
                    }
                }
                "enum" => match value {
                    Node::Array(values) => {
                        rules.allowed = Some(values.iter().map(Node::to_value).collect());
                    }
                    _ => return Err(self.malformed(&here, "`enum` must be an array")),
                },
                "const" => rules.constant = Some(value.to_value()),
                "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" => {
                    let exclusive = key.starts_with("exclusive");
                    let upper = key.ends_with("aximum");
                    if let Node::Bool(flag) = value {
                        if !exclusive {
                            return Err(self.malformed(&here, format!("`{key}` must be a number")));
                        }
                        *(if upper {
                            &mut exclusive_max_flag
                        } else {
                            &mut exclusive_min_flag
                        }) = *flag;
                        continue;
                    }
                    let value = self.number(value, &here, key)?;
                    let limit = Limit {
                        integer: value.to_i128(),
                        float: value.to_short_f64(),
                        value,
                        exclusive,
                    };
                    let slot = if upper {
                        &mut rules.maximum
                    } else {
                        &mut rules.minimum
                    };
                    *slot = Some(tighter(slot.take(), limit, upper));
                }
                "multipleOf" => {
                    let divisor = self.number(value, &here, key)?;
                    if divisor <= Decimal::parse("0").unwrap_or(divisor.clone()) {
                        return Err(self.malformed(&here, "`multipleOf` must be greater than 0"));
                    }
                    if divisor.is_multiple_of(&divisor).is_none() {
                        return Err(self.error(LoadErrorKind::UnsupportedKeyword, &here, "`multipleOf` with more than 18 significant digits cannot be checked exactly"));
                    }
                    rules.multiple_of = Some(divisor);
                }
                "minLength" => rules.min_length = Some(self.count(value, &here, key)?),
                "maxLength" => rules.max_length = Some(self.count(value, &here, key)?),
                "minItems" => rules.min_items = Some(self.count(value, &here, key)?),
                "maxItems" => rules.max_items = Some(self.count(value, &here, key)?),
                "minContains" => rules.min_contains = Some(self.count(value, &here, key)?),
                "maxContains" => rules.max_contains = Some(self.count(value, &here, key)?),
                "minProperties" => rules.min_properties = Some(self.count(value, &here, key)?),
                "maxProperties" => rules.max_properties = Some(self.count(value, &here, key)?),
                "pattern" => rules.pattern = Some(self.pattern(value, &here)?),
                "format" => match value {
                    Node::String(name) => match Format::named(name) {
                        Some(format) => rules.format = Some(format),
                        None => self.warn(
                            &here,
                            format!(
                                "format `{name}` is an annotation here and is not checked (checked: {})",
                                Format::NAMES
                            ),
                        ),
                    },
                    _ => return Err(self.malformed(&here, "`format` must be a string")),
                },
                "items" => match value {
                    // Draft-07's tuple form: the items by position.
                    Node::Array(_) => {
                        rules.prefix_items = self.schema_list(value, &here, base, key)?;
                    }
                    _ => rules.items = Some(self.compile(value, &here, base)?),
                },
                "additionalItems" => additional_items = Some((value, here)),
                "prefixItems" => rules.prefix_items = self.schema_list(value, &here, base, key)?,
                "contains" => rules.contains = Some(self.compile(value, &here, base)?),
                "uniqueItems" => match value {
                    Node::Bool(b) => rules.unique_items = *b,
                    _ => return Err(self.malformed(&here, "`uniqueItems` must be a boolean")),
                },
                "properties" => rules.properties = Some(self.properties(value, &here, base, id)?),
                // Every name for now: those `properties` declares are set apart below.
                "required" => rules.required_undeclared.extend(self.names(value, &here, key)?),
                "additionalProperties" => {
                    rules.additional = match value {
                        Node::Bool(false) => Additional::Closed,
                        _ => Additional::Schema(self.compile(value, &here, base)?),
                    }
                }
                "patternProperties" => {
                    let Node::Object(entries) = value else {
                        return Err(self.malformed(&here, "`patternProperties` must be an object"));
                    };
                    for (source, item) in entries {
                        let at = format!("{here}/{}", escape(source));
                        let pattern = self.pattern(&Node::String(source.clone()), &at)?;
                        let schema = self.compile(item, &at, base)?;
                        rules.pattern_properties.push((pattern, schema));
                    }
                }
                "propertyNames" => rules.property_names = Some(self.compile(value, &here, base)?),
                "dependentRequired" => {
                    rules.dependent_required = self.dependent_required(value, &here)?;
                }
                "dependentSchemas" => {
                    rules.dependent_schemas = self.schema_map(value, &here, base, key)?;
                }
                "dependencies" => {
                    let Node::Object(entries) = value else {
                        return Err(self.malformed(&here, "`dependencies` must be an object"));
                    };
                    for (name, item) in entries {
                        let at = format!("{here}/{}", escape(name));
                        if let Node::Array(_) = item {
                            let names = self.names(item, &at, key)?;
                            rules.dependent_required.push((name.as_ref().to_owned(), names));
                        } else {
                            let schema = self.compile(item, &at, base)?;
                            rules.dependent_schemas.push((name.as_ref().to_owned(), schema));
                        }
                    }
                }
                "$ref" => rules.reference = Some(self.reference(value, &here, base)?),
                "$dynamicRef" | "$recursiveRef" => {
                    return Err(self.error(LoadErrorKind::UnsupportedKeyword, &here, format!("`{key}` (dynamic scope) is not supported; use `$ref`")))
                }
                "allOf" => rules.all_of = self.schema_list(value, &here, base, key)?,
                "anyOf" => rules.any_of = self.schema_list(value, &here, base, key)?,
                "oneOf" => rules.one_of = self.schema_list(value, &here, base, key)?,
                "not" => rules.not = Some(self.compile(value, &here, base)?),
                "if" => condition.0 = Some(self.compile(value, &here, base)?),
                "then" => condition.1 = Some(self.compile(value, &here, base)?),
                "else" => condition.2 = Some(self.compile(value, &here, base)?),
                "unevaluatedItems" => rules.unevaluated_items = Some(self.compile(value, &here, base)?),
                "unevaluatedProperties" => {
                    rules.unevaluated_properties = Some(self.compile(value, &here, base)?);
                }
                known if DOCUMENTATION.contains(&known) => {}
                known if UNENFORCED.contains(&known) => {
                    self.warn(&here, format!("`{known}` is an annotation; the gate does not enforce it"));
                }
                other if other.starts_with("x-") => {}
                other => self.warn(
                    &here,
                    format!("unknown keyword `{other}` is ignored, as JSON Schema says"),
                ),
            }
        }
        if nullable {
            rules.types = rules.types.map(|t| t.with(Types::NULL));
        }
        for (flag, slot) in [
            (exclusive_min_flag, &mut rules.minimum),
            (exclusive_max_flag, &mut rules.maximum),
        ] {
            if let (true, Some(limit)) = (flag, slot.as_mut()) {
                limit.exclusive = true;
            }
        }
        if let Some((value, here)) = additional_items {
            // Draft-07: the items after a tuple. After a single `items` schema it has no effect.
            if rules.items.is_none() && !rules.prefix_items.is_empty() {
                rules.items = Some(self.compile(value, &here, base)?);
            }
        }
        if let (Some(test), then, otherwise) = condition {
            rules.condition = Some(Condition {
                test,
                then,
                otherwise,
            });
        }
        self.enum_case(&mut rules, pointer);
        rules.in_place = rules.has_applicators();
        if let Some(properties) = &mut rules.properties {
            for property in properties.iter_mut() {
                property.required = rules.required_undeclared.contains(&property.name);
            }
            rules
                .required_undeclared
                .retain(|name| !properties.iter().any(|p| &p.name == name));
        }
        Ok(rules)
    }

    fn types(&self, node: &Node<'_>, pointer: &str) -> Result<Types, LoadError> {
        let one = |name: &str| {
            Types::named(name)
                .ok_or_else(|| self.malformed(pointer, format!("unknown type `{name}`")))
        };
        match node {
            Node::String(name) => one(name),
            Node::Array(names) => names.iter().try_fold(Types::NONE, |set, name| match name {
                Node::String(name) => Ok(set.with(one(name)?)),
                _ => Err(self.malformed(pointer, "`type` entries must be strings")),
            }),
            _ => Err(self.malformed(pointer, "`type` must be a string or an array of strings")),
        }
    }

    fn names(
        &self,
        node: &Node<'_>,
        pointer: &str,
        keyword: &str,
    ) -> Result<Vec<String>, LoadError> {
        let Node::Array(names) = node else {
            return Err(self.malformed(pointer, format!("`{keyword}` must be an array of strings")));
        };
        names
            .iter()
            .map(|name| match name {
                Node::String(name) => Ok(name.as_ref().to_owned()),
                _ => Err(self.malformed(pointer, format!("`{keyword}` entries must be strings"))),
            })
            .collect()
    }

    fn dependent_required(
        &self,
        node: &Node<'_>,
        pointer: &str,
    ) -> Result<Vec<(String, Vec<String>)>, LoadError> {
        let Node::Object(entries) = node else {
            return Err(self.malformed(pointer, "`dependentRequired` must be an object"));
        };
        entries
            .iter()
            .map(|(name, names)| {
                let at = format!("{pointer}/{}", escape(name));
                Ok((
                    name.as_ref().to_owned(),
                    self.names(names, &at, "dependentRequired")?,
                ))
            })
            .collect()
    }

    fn properties(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
        owner: Id,
    ) -> Result<Vec<Property>, LoadError> {
        let Node::Object(entries) = node else {
            return Err(self.malformed(pointer, "`properties` must be an object"));
        };
        let mut properties = Vec::with_capacity(entries.len());
        for (name, item) in entries {
            let at = format!("{pointer}/{}", escape(name));
            let schema = self.compile(item, &at, base)?;
            let default = member(item, "default").map(Node::to_value);
            if default.is_some() {
                self.defaults
                    .push((owner, properties.len(), format!("{at}/default")));
            }
            properties.push(Property {
                name: name.as_ref().to_owned(),
                schema,
                required: false,
                default,
                strict: false,
            });
        }
        Ok(properties)
    }
}

/// The tighter of two bounds on the same side; on a tie the exclusive one.
fn tighter(old: Option<Limit>, new: Limit, upper: bool) -> Limit {
    match old {
        None => new,
        Some(old) => {
            let order = new.value.cmp(&old.value);
            let new_wins = match order {
                std::cmp::Ordering::Equal => new.exclusive,
                std::cmp::Ordering::Less => upper,
                std::cmp::Ordering::Greater => !upper,
            };
            if new_wins {
                new
            } else {
                old
            }
        }
    }
}

/// Compiles a pattern with ECMA-262 semantics (Unicode mode): `\d` is ASCII digits, as the
/// JSON Schema specification names.
pub(crate) fn compile_pattern(source: &str) -> Result<Pattern, String> {
    let regex = regress::Regex::with_flags(source, "u").map_err(|e| e.to_string())?;
    let fixed = toolargs_core::spec::Pattern::search(source.to_owned())
        .ok()
        .filter(toolargs_core::spec::Pattern::is_fixed_shape);
    Ok(Pattern {
        source: source.to_owned(),
        regex,
        fixed,
    })
}
