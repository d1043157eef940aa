//! Walks a payload along a loaded [`Shape`], calling the same coercers as derived types.

use chrono::{DateTime, FixedOffset, NaiveDate};
use serde_json::{Map, Value};

use crate::shape::{Additional, ObjectShape, Shape, ShapeKind};
use toolargs_core::coerce::enumeration::{coerce_enum, coerce_literal};
use toolargs_core::coerce::integer::coerce_integer;
use toolargs_core::coerce::list::coerce_list;
use toolargs_core::coerce::number::coerce_number;
use toolargs_core::coerce::object::{field_with, object_members, unknown_member};
use toolargs_core::coerce::ArgType;
use toolargs_core::cx::Cx;
use toolargs_core::node::Node;
use toolargs_core::path::Path;
use toolargs_core::text::int_value;

/// JSON Schema integers have no width; the widest range any supported Rust type reads.
const INTEGER_RANGE: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);

/// Whether a walk writes the canonical JSON, or only judges (objects then come back as `null`,
/// which spares building maps nobody reads).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    Build,
    Discard,
}

/// Reads `node` as `shape`, returning its canonical JSON.
pub(crate) fn coerce(
    shape: &Shape,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<Value> {
    walk(shape, node, path, cx, Output::Build)
}

/// Reads `node` as `shape`; with [`Output::Discard`] objects are judged but not built.
pub(crate) fn walk(
    shape: &Shape,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    output: Output,
) -> Option<Value> {
    if shape.nullable && matches!(node, Node::Null) {
        return Some(Value::Null);
    }
    let spec = shape.field_spec();
    match &shape.kind {
        ShapeKind::Integer => coerce_integer(node, &spec, path, cx, INTEGER_RANGE).map(int_value),
        ShapeKind::Number => coerce_number(node, &spec, path, cx, f64::MAX).map(Value::from),
        ShapeKind::Boolean => bool::coerce(node, &spec, path, cx).map(Value::Bool),
        ShapeKind::String => String::coerce(node, &spec, path, cx).map(Value::String),
        ShapeKind::Date => NaiveDate::coerce(node, &spec, path, cx).map(|d| d.canonical()),
        ShapeKind::DateTime => {
            DateTime::<FixedOffset>::coerce(node, &spec, path, cx).map(|d| d.canonical())
        }
        ShapeKind::Enum(names) => coerce_enum(node, names, &spec, path, cx)
            .and_then(|i| names.get(i))
            .map(|name| Value::String(name.clone())),
        ShapeKind::Literal(values) => coerce_literal(node, values, path, cx),
        ShapeKind::Array(item) => {
            coerce_list(node, &spec, path, cx, item.scalar_to_list(), |n, at, cx| {
                walk(item, n, at, cx, output)
            })
            .map(Value::Array)
        }
        ShapeKind::Object(object) => coerce_object(object, node, path, cx, output),
    }
}

fn coerce_object(
    object: &ObjectShape,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    output: Output,
) -> Option<Value> {
    let members = object_members(node, path, cx)?;
    let mut slots: Vec<Option<&Node<'_>>> = vec![None; object.fields.len()];
    // Sized up front: objects keep insertion order (an index map), and growing one rehashes.
    let mut out = match output {
        Output::Build => Map::with_capacity(object.fields.len()),
        Output::Discard => Map::new(),
    };
    let mut ok = true;
    for (key, value) in members {
        if let Some(i) = object.fields.iter().position(|f| f.name == key.as_ref()) {
            slots[i] = Some(value);
            continue;
        }
        match &object.additional {
            Additional::Undeclared => {
                let known: Vec<&str> = object.fields.iter().map(|f| f.name.as_str()).collect();
                unknown_member(key, value, &known, path, cx);
            }
            Additional::Any => {
                if output == Output::Build {
                    out.insert(key.as_ref().to_owned(), value.to_value());
                }
            }
            Additional::Schema(shape) => match walk(shape, value, &path.key(key), cx, output) {
                Some(v) => {
                    if output == Output::Build {
                        out.insert(key.as_ref().to_owned(), v);
                    }
                }
                None => ok = false,
            },
        }
    }
    for (field, slot) in object.fields.iter().zip(slots) {
        let at = path.key(&field.name);
        let value = if field.shape.nullable && matches!(slot, Some(Node::Null)) {
            Some(Some(Value::Null))
        } else {
            field_with(
                slot,
                &at,
                cx,
                || match &field.default {
                    Some(default) => Some(Some(default.clone())),
                    None if !field.required => Some(None),
                    None => None,
                },
                |v| v.clone().unwrap_or(Value::Null),
                |n, cx| walk(&field.shape, n, &at, cx, output).map(Some),
            )
        };
        match value {
            Some(Some(v)) => {
                if output == Output::Build {
                    out.insert(field.name.clone(), v);
                }
            }
            Some(None) => {}
            None => ok = false,
        }
    }
    match output {
        Output::Build => ok.then_some(Value::Object(out)),
        Output::Discard => ok.then_some(Value::Null),
    }
}
