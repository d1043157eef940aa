//! Reads a JSON Schema (or a tool definition around one) into the [`Shape`] tree the walker
//! follows. Every keyword is either enforced or refused with its name and location.

use std::fmt;

use serde_json::Value;

use crate::shape::{Additional, FieldShape, ObjectShape, Shape, ShapeKind};
use toolargs_core::cx::Cx;
use toolargs_core::effect::Effect;
use toolargs_core::node::{IntegerReading, Node, Number};
use toolargs_core::path::Path;
use toolargs_core::spec::{Bound, Pattern, UnknownPolicy};

/// Deepest schema accepted, and the most `$ref` hops followed in a row.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 64;
const MAX_REF_HOPS: usize = 32;

/// Keywords that only annotate a schema; they change no verdict.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$schema",
    "$id",
    "$comment",
    "examples",
    "deprecated",
];
/// Keywords the gate enforces.
const ENFORCED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "format",
    "default",
    "anyOf",
    "oneOf",
    "$ref",
    "$defs",
    "definitions",
    "nullable",
];

/// A schema could not be loaded: where (a JSON pointer into the schema) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// JSON pointer of the offending keyword or schema (`""` is the root).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl LoadError {
    /// An error at `pointer` (a JSON pointer; `""` is the root).
    pub fn new(pointer: &str, message: impl Into<String>) -> LoadError {
        LoadError {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "#"
        } else {
            &self.pointer
        };
        write!(f, "schema at {at}: {}", self.message)
    }
}

impl std::error::Error for LoadError {}

/// Something a schema says that the gate reads differently from, or not at all, though it
/// loaded: an annotation it does not act on, a `default` it dropped, a repair it turned off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadWarning {
    /// JSON pointer of the keyword the warning is about (`""` is the root).
    pub pointer: String,
    /// What the gate does with it.
    pub message: String,
}

impl fmt::Display for LoadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "#"
        } else {
            &self.pointer
        };
        write!(f, "schema at {at}: {}", self.message)
    }
}

/// What a tool definition holds besides its schema.
pub(crate) struct ToolParts<'n, 'a> {
    pub name: Option<String>,
    pub description: Option<String>,
    pub effect: Option<Effect>,
    /// The schema and its pointer, or `None` when the definition is a bare schema.
    pub schema: Option<(&'n Node<'a>, String)>,
}

fn member<'n, 'a>(node: &'n Node<'a>, key: &str) -> Option<&'n Node<'a>> {
    match node {
        Node::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn string_member(node: &Node<'_>, key: &str) -> Option<String> {
    match member(node, key) {
        Some(Node::String(s)) => Some(s.as_ref().to_owned()),
        _ => None,
    }
}

/// Recognises the OpenAI chat (`function`), Anthropic (`input_schema`), MCP (`inputSchema`),
/// OpenAI responses and Gemini (`parameters`) shapes; anything else is taken as a bare schema.
pub(crate) fn read_definition<'n, 'a>(def: &'n Node<'a>) -> Result<ToolParts<'n, 'a>, LoadError> {
    if !matches!(def, Node::Object(_)) {
        return Err(LoadError::new(
            "",
            "a tool definition must be a JSON object",
        ));
    }
    let (tool, prefix) = match member(def, "function") {
        Some(function @ Node::Object(_)) => (function, "/function"),
        _ => (def, ""),
    };
    let found = [
        ("parameters", "parameters"),
        ("input_schema", "input_schema"),
        ("inputSchema", "inputSchema"),
    ]
    .into_iter()
    .find_map(|(key, pointer)| {
        member(tool, key).map(|schema| (schema, format!("{prefix}/{pointer}")))
    });
    let effect = member(tool, "annotations").map(effect_from_annotations);
    let is_tool = found.is_some()
        || member(tool, "name").is_some()
            && prefix.is_empty()
            && member(def, "properties").is_none();
    if !is_tool {
        return Ok(ToolParts {
            name: None,
            description: None,
            effect: None,
            schema: None,
        });
    }
    let empty: &'n Node<'a> = &EMPTY_OBJECT_SCHEMA;
    Ok(ToolParts {
        name: string_member(tool, "name"),
        description: string_member(tool, "description"),
        effect,
        schema: Some(found.unwrap_or((empty, prefix.to_owned()))),
    })
}

static EMPTY_OBJECT_SCHEMA: Node<'static> = Node::Object(Vec::new());

/// MCP's hints, with its defaults (not read-only, destructive, open world) where absent.
fn effect_from_annotations(annotations: &Node<'_>) -> Effect {
    let hint = |key: &str, default: bool| match member(annotations, key) {
        Some(Node::Bool(b)) => *b,
        _ => default,
    };
    if hint("readOnlyHint", false) {
        Effect::ReadOnly
    } else if hint("openWorldHint", true) && hint("destructiveHint", true) {
        Effect::External
    } else if hint("destructiveHint", true) {
        Effect::Destructive
    } else {
        Effect::Additive
    }
}

/// Loads the schema at `root`, which is also what local `$ref`s resolve against.
pub(crate) fn load_root(root: &Node<'_>, pointer: &str) -> Result<Shape, LoadError> {
    let loader = Loader {
        root,
        root_pointer: pointer,
    };
    let shape = if matches!(root, Node::Object(m) if m.is_empty()) {
        // `{}` as the parameters of a tool without arguments.
        Shape::new(ShapeKind::Object(ObjectShape {
            fields: Vec::new(),
            additional: Additional::Undeclared,
        }))
    } else {
        loader.load(root, pointer, 0)?
    };
    Ok(shape)
}

struct Loader<'n, 'a> {
    root: &'n Node<'a>,
    root_pointer: &'n str,
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl<'n, 'a> Loader<'n, 'a> {
    fn load(&self, schema: &Node<'_>, at: &str, hops: usize) -> Result<Shape, LoadError> {
        if at.matches('/').count() > MAX_SCHEMA_DEPTH {
            return Err(LoadError::new(at, "the schema is nested too deeply"));
        }
        let Node::Object(members) = schema else {
            return Err(LoadError::new(
                at,
                "a schema must be a JSON object (boolean schemas are not supported)",
            ));
        };
        for (key, _) in members {
            if !ENFORCED.contains(&key.as_ref()) && !ANNOTATIONS.contains(&key.as_ref()) {
                return Err(LoadError::new(
                    &format!("{at}/{}", escape_pointer(key)),
                    format!("unsupported keyword `{key}`: the gate would not enforce it"),
                ));
            }
        }
        if let Some(target) = member(schema, "$ref") {
            return self.load_ref(schema, target, at, hops);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(alternatives) = member(schema, keyword) {
                return self.load_nullable_union(schema, keyword, alternatives, at, hops);
            }
        }
        let (type_name, mut nullable) = self.read_type(schema, at)?;
        if let Some(Node::Bool(true)) = member(schema, "nullable") {
            nullable = true;
        }
        let mut shape = match type_name.as_str() {
            "integer" => Shape::new(ShapeKind::Integer),
            "number" => Shape::new(ShapeKind::Number),
            "boolean" => Shape::new(ShapeKind::Boolean),
            "string" => Shape::new(self.string_kind(schema, at)?),
            "array" => {
                let items = member(schema, "items")
                    .ok_or_else(|| LoadError::new(at, "an array schema needs `items`"))?;
                Shape::new(ShapeKind::Array(Box::new(self.load(
                    items,
                    &format!("{at}/items"),
                    hops,
                )?)))
            }
            "object" => Shape::new(ShapeKind::Object(self.object(schema, at, hops)?)),
            "null" => {
                nullable = true;
                Shape::new(ShapeKind::Literal(vec![Value::Null]))
            }
            other => {
                return Err(LoadError::new(
                    &format!("{at}/type"),
                    format!("unknown type `{other}`"),
                ))
            }
        };
        shape.nullable = nullable;
        self.values(schema, at, &type_name, &mut shape)?;
        self.bounds(schema, at, &mut shape)?;
        self.check_default(schema, at, &shape)?;
        Ok(shape)
    }

    fn load_ref(
        &self,
        schema: &Node<'_>,
        target: &Node<'_>,
        at: &str,
        hops: usize,
    ) -> Result<Shape, LoadError> {
        let here = format!("{at}/$ref");
        if let Node::Object(members) = schema {
            if let Some((key, _)) = members
                .iter()
                .find(|(k, _)| k != "$ref" && !ANNOTATIONS.contains(&k.as_ref()))
            {
                return Err(LoadError::new(at, format!("`{key}` next to `$ref` is not supported; move it into the referenced schema")));
            }
        }
        if hops >= MAX_REF_HOPS {
            return Err(LoadError::new(
                &here,
                "recursive `$ref` chains are not supported",
            ));
        }
        let Node::String(target) = target else {
            return Err(LoadError::new(&here, "`$ref` must be a string"));
        };
        let Some(rest) = target.strip_prefix("#/") else {
            return Err(LoadError::new(
                &here,
                format!("only local references (#/$defs/...) are supported, not {target}"),
            ));
        };
        let mut node = self.root;
        for part in rest.split('/') {
            let part = part.replace("~1", "/").replace("~0", "~");
            node = member(node, &part)
                .ok_or_else(|| LoadError::new(&here, format!("`{target}` does not resolve")))?;
        }
        self.load(node, &format!("{}/{}", self.root_pointer, rest), hops + 1)
    }

    fn load_nullable_union(
        &self,
        schema: &Node<'_>,
        keyword: &str,
        alternatives: &Node<'_>,
        at: &str,
        hops: usize,
    ) -> Result<Shape, LoadError> {
        let here = format!("{at}/{keyword}");
        let unsupported = || {
            LoadError::new(&here, format!("`{keyword}` is supported only as a type together with null: a value of several types has more than one reading"))
        };
        let Node::Array(options) = alternatives else {
            return Err(unsupported());
        };
        let is_null =
            |n: &Node<'_>| matches!(member(n, "type"), Some(Node::String(t)) if t == "null");
        let (nulls, others): (Vec<_>, Vec<_>) =
            options.iter().enumerate().partition(|(_, n)| is_null(n));
        if nulls.len() != 1 || others.len() != 1 {
            return Err(unsupported());
        }
        if let Node::Object(members) = schema {
            if let Some((key, _)) = members
                .iter()
                .find(|(k, _)| k != keyword && !ANNOTATIONS.contains(&k.as_ref()) && k != "default")
            {
                return Err(LoadError::new(at, format!("`{key}` next to `{keyword}` is not supported; move it into the alternative")));
            }
        }
        let (index, inner) = others[0];
        let mut shape = self.load(inner, &format!("{here}/{index}"), hops)?;
        shape.nullable = true;
        Ok(shape)
    }

    /// The single non-null type, and whether null is allowed too.
    fn read_type(&self, schema: &Node<'_>, at: &str) -> Result<(String, bool), LoadError> {
        let here = format!("{at}/type");
        match member(schema, "type") {
            Some(Node::String(t)) => Ok((t.to_ascii_lowercase(), false)),
            Some(Node::Array(types)) => {
                let mut names = Vec::new();
                for t in types {
                    match t {
                        Node::String(t) => names.push(t.to_ascii_lowercase()),
                        _ => return Err(LoadError::new(&here, "`type` entries must be strings")),
                    }
                }
                let nullable = names.iter().any(|t| t == "null");
                names.retain(|t| t != "null");
                match names.as_slice() {
                    [one] => Ok((one.clone(), nullable)),
                    [] => Ok(("null".to_owned(), true)),
                    _ => Err(LoadError::new(&here, "several types besides null are not supported: such a value has more than one reading")),
                }
            }
            Some(_) => Err(LoadError::new(
                &here,
                "`type` must be a string or an array of strings",
            )),
            None => {
                // Infer what is unambiguous: objects and arrays by their keywords, enums by values.
                if member(schema, "properties").is_some() {
                    Ok(("object".to_owned(), false))
                } else if member(schema, "items").is_some() {
                    Ok(("array".to_owned(), false))
                } else if let Some(Node::Array(values)) = member(schema, "enum") {
                    if values
                        .iter()
                        .all(|v| matches!(v, Node::String(_) | Node::Null))
                    {
                        Ok((
                            "string".to_owned(),
                            values.iter().any(|v| matches!(v, Node::Null)),
                        ))
                    } else {
                        Ok(("literal".to_owned(), false))
                    }
                } else if member(schema, "const").is_some() {
                    Ok(("literal".to_owned(), false))
                } else {
                    Err(LoadError::new(
                        at,
                        "the schema has no `type`; say what the value is",
                    ))
                }
            }
        }
    }

    fn string_kind(&self, schema: &Node<'_>, at: &str) -> Result<ShapeKind, LoadError> {
        match member(schema, "format") {
            None => Ok(ShapeKind::String),
            Some(Node::String(f)) if f == "date" => Ok(ShapeKind::Date),
            Some(Node::String(f)) if f == "date-time" => Ok(ShapeKind::DateTime),
            Some(Node::String(f)) => Err(LoadError::new(
                &format!("{at}/format"),
                format!("unsupported format `{f}` (supported: date, date-time)"),
            )),
            Some(_) => Err(LoadError::new(
                &format!("{at}/format"),
                "`format` must be a string",
            )),
        }
    }

    /// `enum` and `const`.
    fn values(
        &self,
        schema: &Node<'_>,
        at: &str,
        type_name: &str,
        shape: &mut Shape,
    ) -> Result<(), LoadError> {
        let values: Vec<Value> = match (member(schema, "enum"), member(schema, "const")) {
            (Some(_), Some(_)) => {
                return Err(LoadError::new(
                    at,
                    "`enum` and `const` together are not supported",
                ))
            }
            (Some(Node::Array(values)), None) => values.iter().map(Node::to_value).collect(),
            (Some(_), None) => {
                return Err(LoadError::new(
                    &format!("{at}/enum"),
                    "`enum` must be an array",
                ))
            }
            (None, Some(value)) => vec![value.to_value()],
            (None, None) => {
                if type_name == "literal" {
                    return Err(LoadError::new(
                        at,
                        "the schema has no `type`; say what the value is",
                    ));
                }
                return Ok(());
            }
        };
        if values.iter().any(Value::is_null) {
            shape.nullable = true;
        }
        let non_null: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
        let strings: Option<Vec<String>> = non_null
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect();
        shape.kind = match (type_name, strings) {
            ("string" | "literal", Some(strings)) => {
                let mut folded: Vec<String> =
                    strings.iter().map(|s| s.to_ascii_lowercase()).collect();
                folded.sort();
                folded.dedup();
                if folded.len() != strings.len() {
                    return Err(LoadError::new(&format!("{at}/enum"), "two values differ only in ASCII case, so case-insensitive matching could not tell them apart"));
                }
                ShapeKind::Enum(strings)
            }
            ("string", None) => {
                return Err(LoadError::new(
                    &format!("{at}/enum"),
                    "a string schema with non-string values",
                ))
            }
            _ => ShapeKind::Literal(non_null),
        };
        Ok(())
    }

    fn bounds(&self, schema: &Node<'_>, at: &str, shape: &mut Shape) -> Result<(), LoadError> {
        let integer = matches!(shape.kind, ShapeKind::Integer);
        let number = integer || matches!(shape.kind, ShapeKind::Number);
        let string = matches!(
            shape.kind,
            ShapeKind::String | ShapeKind::Date | ShapeKind::DateTime | ShapeKind::Enum(_)
        );
        let array = matches!(shape.kind, ShapeKind::Array(_));
        let misplaced = |key: &str, what: &str| {
            LoadError::new(
                &format!("{at}/{key}"),
                format!("`{key}` applies to {what} only"),
            )
        };

        for (key, upper, exclusive) in [
            ("minimum", false, false),
            ("maximum", true, false),
            ("exclusiveMinimum", false, true),
            ("exclusiveMaximum", true, true),
        ] {
            let Some(value) = member(schema, key) else {
                continue;
            };
            if !number {
                return Err(misplaced(key, "numbers"));
            }
            let Node::Number(n) = value else {
                return Err(LoadError::new(&format!("{at}/{key}"), format!("`{key}` must be a number (boolean exclusive bounds are draft-04; write the bound itself)")));
            };
            let bound = inclusive_bound(n, integer, upper, exclusive);
            let slot = if upper {
                &mut shape.max
            } else {
                &mut shape.min
            };
            *slot = Some(match *slot {
                None => bound,
                Some(old) if (bound.as_f64() > old.as_f64()) != upper => bound,
                Some(old) => old,
            });
        }
        if let Some(source) = member(schema, "pattern") {
            if !matches!(shape.kind, ShapeKind::String) {
                return Err(misplaced("pattern", "plain strings"));
            }
            let Node::String(source) = source else {
                return Err(LoadError::new(
                    &format!("{at}/pattern"),
                    "`pattern` must be a string",
                ));
            };
            shape.pattern = Some(Pattern::search(source.as_ref().to_owned()).map_err(|e| {
                LoadError::new(
                    &format!("{at}/pattern"),
                    format!(
                        "the regular expression does not compile here: {}",
                        e.to_string().lines().last().unwrap_or_default().trim()
                    ),
                )
            })?);
        }
        for (key, slot, ok, what) in [
            ("minLength", &mut shape.min_len, string, "strings"),
            ("maxLength", &mut shape.max_len, string, "strings"),
            ("minItems", &mut shape.min_items, array, "arrays"),
            ("maxItems", &mut shape.max_items, array, "arrays"),
        ] {
            let Some(value) = member(schema, key) else {
                continue;
            };
            if !ok {
                return Err(misplaced(key, what));
            }
            *slot = Some(match value {
                Node::Number(n) => match n.integer() {
                    IntegerReading::Exact(v) | IntegerReading::Integral(v) if v >= 0 => {
                        usize::try_from(v).unwrap_or(usize::MAX)
                    }
                    _ => {
                        return Err(LoadError::new(
                            &format!("{at}/{key}"),
                            format!("`{key}` must be a non-negative integer"),
                        ))
                    }
                },
                _ => {
                    return Err(LoadError::new(
                        &format!("{at}/{key}"),
                        format!("`{key}` must be a non-negative integer"),
                    ))
                }
            });
        }
        Ok(())
    }

    fn object(&self, schema: &Node<'_>, at: &str, hops: usize) -> Result<ObjectShape, LoadError> {
        let mut fields = Vec::new();
        match member(schema, "properties") {
            None => {}
            Some(Node::Object(props)) => {
                for (name, prop) in props {
                    let pointer = format!("{at}/properties/{}", escape_pointer(name));
                    let shape = self.load(prop, &pointer, hops)?;
                    let default = member(prop, "default").map(Node::to_value);
                    fields.push(FieldShape {
                        name: name.as_ref().to_owned(),
                        shape,
                        required: false,
                        default,
                    });
                }
            }
            Some(_) => {
                return Err(LoadError::new(
                    &format!("{at}/properties"),
                    "`properties` must be an object",
                ))
            }
        }
        match member(schema, "required") {
            None => {}
            Some(Node::Array(names)) => {
                for (i, name) in names.iter().enumerate() {
                    let here = format!("{at}/required/{i}");
                    let Node::String(name) = name else {
                        return Err(LoadError::new(&here, "`required` entries must be strings"));
                    };
                    let Some(field) = fields.iter_mut().find(|f| f.name == name.as_ref()) else {
                        return Err(LoadError::new(
                            &here,
                            format!("required field `{name}` is not declared in `properties`"),
                        ));
                    };
                    field.required = true;
                }
            }
            Some(_) => {
                return Err(LoadError::new(
                    &format!("{at}/required"),
                    "`required` must be an array",
                ))
            }
        }
        let additional = match member(schema, "additionalProperties") {
            None | Some(Node::Bool(false)) => Additional::Undeclared,
            Some(Node::Bool(true)) => Additional::Any,
            Some(extra) => Additional::Schema(Box::new(self.load(
                extra,
                &format!("{at}/additionalProperties"),
                hops,
            )?)),
        };
        Ok(ObjectShape { fields, additional })
    }

    /// A `default` must itself pass the schema without repairs, or the gate would hand the
    /// tool a value the schema forbids.
    fn check_default(&self, schema: &Node<'_>, at: &str, shape: &Shape) -> Result<(), LoadError> {
        let Some(default) = member(schema, "default") else {
            return Ok(());
        };
        let mut cx = Cx::new(UnknownPolicy::Reject);
        let ok = crate::walk::coerce(shape, default, &Path::ROOT, &mut cx).is_some();
        if !ok || !cx.repairs().is_empty() {
            return Err(LoadError::new(
                &format!("{at}/default"),
                "the default does not satisfy its own schema",
            ));
        }
        Ok(())
    }
}

/// Turns a JSON Schema bound into an inclusive [`Bound`] for the coercers, exactly: an
/// exclusive integer bound moves by one, an exclusive float bound to the next float.
fn inclusive_bound(n: &Number<'_>, integer: bool, upper: bool, exclusive: bool) -> Bound {
    let exact = match n.integer() {
        IntegerReading::Exact(v) | IntegerReading::Integral(v) => Some(v),
        _ => None,
    };
    match (exact, integer, exclusive) {
        (Some(v), _, false) => Bound::Int(v),
        (Some(v), true, true) => Bound::Int(if upper { v - 1 } else { v + 1 }),
        // A fractional bound on an integer: the integer coercer rounds it inward exactly, and
        // for a fractional x, "above x" and "at least x" admit the same integers.
        (None, true, _) => Bound::Float(n.as_f64()),
        (_, false, true) => {
            let x = n.as_f64();
            Bound::Float(if upper { next_down(x) } else { next_up(x) })
        }
        (None, false, false) => Bound::Float(n.as_f64()),
    }
}

fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let bits = x.to_bits();
    f64::from_bits(if x > 0.0 { bits + 1 } else { bits - 1 })
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

#[cfg(test)]
mod tests {
    use super::{next_down, next_up};

    #[test]
    fn next_floats() {
        assert!(next_up(1.0) > 1.0 && next_up(1.0) - 1.0 == f64::EPSILON);
        assert!(next_down(1.0) < 1.0);
        assert!(next_up(0.0) > 0.0);
        assert!(next_up(-1.0) > -1.0);
    }
}
