//! Reads a JSON Schema into the [`Graph`] the walker follows.
//!
//! The rule: a keyword is refused only when the gate would enforce less than the schema says.
//! Every assertion keyword of draft 2020-12 is enforced (draft-07's `dependencies`, tuple
//! `items` and `additionalItems`, and OpenAPI 3.0's `nullable` and boolean exclusive bounds are
//! read too). Annotations load; those that look like promises the gate does not keep
//! (`readOnly`, `format: color`, an unknown keyword, ...) come back as warnings.
//!
//! This module compiles schemas; `rules` reads a schema's keywords, one module per family of
//! them; `resolve` finds what references point to, and `checks` runs what needs the whole graph
//! (loops, defaults, what each schema declares in place).

mod checks;
mod resolve;
mod rules;

use checks::closures;

use std::collections::HashMap;
use std::fmt;

use crate::shape::{Graph, Id, Pattern, Rules, Schema, Types};
use toolargs_core::judge::LoadWarning;
use toolargs_core::node::{IntegerReading, Node};

/// Deepest schema accepted.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 64;

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
