//! `Option<T>`: absent or null means `None`. A null for an optional field is recorded as
//! `null_to_absent` by the field reader; inside a list, `null` is simply `None`.

use serde_json::Value;

use super::{ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::spec::FieldSpec;

impl<T: ArgType> ArgType for Option<T> {
    const HONOURS: Capabilities = T::HONOURS;

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        match node {
            Node::Null => Some(None),
            node => T::coerce(node, spec, path, cx).map(Some),
        }
    }

    fn canonical(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::canonical)
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        T::schema(spec)
    }

    fn item_schema(spec: &FieldSpec<'_>) -> Value {
        nullable(T::schema(spec))
    }

    fn when_absent() -> Option<Self> {
        Some(None)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}

/// Lets a schema also accept `null`: `"null"` joins its `type` (`"string"` becomes
/// `["string", "null"]`) and, for an `enum`, its values; a reference, or a schema with a
/// keyword that would still refuse `null` (`const`, `oneOf`, `allOf`, `not`, `if`), becomes
/// one branch of an `anyOf` beside `{"type": "null"}`.
pub fn nullable(mut schema: Value) -> Value {
    let Some(map) = schema.as_object_mut() else {
        return schema;
    };
    // A reference has no `type` to widen: it becomes one branch beside `null`, and what was
    // said next to it (a description) moves out to the union.
    if let Some(target) = map.shift_remove("$ref") {
        let mut reference = serde_json::Map::new();
        reference.insert("$ref".to_owned(), target);
        let null = serde_json::json!({"type": "null"});
        map.insert(
            "anyOf".to_owned(),
            Value::Array(vec![Value::Object(reference), null]),
        );
        return schema;
    }
    // A keyword that would still refuse `null` with it in the type (a `const`, a `oneOf`,
    // `allOf` or `not` of a loaded schema): the whole schema becomes one branch beside
    // `null`, and its description moves out to the union.
    if ["const", "oneOf", "allOf", "not", "if"]
        .iter()
        .any(|k| map.contains_key(*k))
    {
        let description = map.shift_remove("description");
        let branch = Value::Object(std::mem::take(map));
        if let Some(description) = description {
            map.insert("description".to_owned(), description);
        }
        let null = serde_json::json!({"type": "null"});
        map.insert("anyOf".to_owned(), Value::Array(vec![branch, null]));
        return schema;
    }
    let null = Value::from("null");
    match map.get_mut("type") {
        Some(Value::Array(types)) if !types.contains(&null) => types.push(null),
        Some(single @ Value::String(_)) => *single = Value::Array(vec![single.take(), null]),
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    // A union has no `type` of its own: `null` is one more branch.
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        let null = serde_json::json!({"type": "null"});
        if !branches.contains(&null) {
            branches.push(null);
        }
    }
    schema
}
