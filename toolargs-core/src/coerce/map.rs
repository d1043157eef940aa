//! Maps with string keys: an object whose every key is declared by the map, so the
//! unknown-key policy does not apply inside. Each value is read as `T` at `$.field.key`; a
//! key that misses `key_pattern` is a `pattern` error at its own path; `min_items` and
//! `max_items` count the entries (`length`). Duplicate keys never get here: the reader
//! rejects them.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use serde_json::{json, Map, Value};

use super::object::object_members;
use super::{put, ArgType};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

/// The spec the values are read under: the map's own constraints (entry count, key pattern)
/// stay with the map, the rest passes through to the values as a list passes it to its items.
fn value_spec<'s>(spec: &FieldSpec<'s>) -> FieldSpec<'s> {
    spec.with_items(None, None).with_key_pattern(None)
}

/// Reads the entries of a map, in payload order, through `insert`. Every error is recorded.
fn coerce_entries<T: ArgType>(
    node: &Node<'_>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    mut insert: impl FnMut(String, T),
) -> bool {
    let Some(members) = object_members(node, path, cx) else {
        return false;
    };
    let mut ok = check_entries(members.len(), spec, path, cx);
    let values = value_spec(spec);
    for (key, value) in members {
        let key: &str = key;
        let at = path.key(key);
        if let Some(pattern) = spec.key_pattern {
            if !pattern.is_match(key) {
                cx.error(
                    &at,
                    Code::Pattern,
                    format!(
                        "expected a key matching {}, got {}",
                        pattern.schema_source(),
                        Value::from(key)
                    ),
                );
                ok = false;
                continue;
            }
        }
        // As in a list, `null` is a value of an `Option` item and the item's error otherwise.
        match T::coerce(value, &values, &at, cx) {
            Some(value) if ok => insert(key.to_owned(), value),
            Some(_) => {}
            None => ok = false,
        }
    }
    ok
}

fn check_entries(len: usize, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> bool {
    let too_few = spec.min_items.is_some_and(|min| len < min);
    let too_many = spec.max_items.is_some_and(|max| len > max);
    if too_few || too_many {
        let expected = match (spec.min_items, spec.max_items) {
            (Some(min), Some(max)) => format!("from {min} to {max} entries"),
            (Some(min), None) => format!("at least {min} entries"),
            (None, Some(max)) => format!("at most {max} entries"),
            (None, None) => "any number of entries".to_owned(),
        };
        cx.error(
            path,
            Code::Length,
            format!("expected an object of {expected}, got {len} entries"),
        );
        return false;
    }
    true
}

fn map_schema<T: ArgType>(spec: &FieldSpec<'_>) -> Value {
    let mut schema = json!({
        "type": "object",
        "additionalProperties": T::item_schema(&value_spec(spec)),
    });
    put(
        &mut schema,
        "propertyNames",
        spec.key_pattern
            .map(|p| json!({"pattern": p.schema_source()})),
    );
    put(
        &mut schema,
        "minProperties",
        spec.min_items.map(Value::from),
    );
    put(
        &mut schema,
        "maxProperties",
        spec.max_items.map(Value::from),
    );
    schema
}

impl<T: ArgType> ArgType for BTreeMap<String, T> {
    const PATTERN: bool = T::PATTERN;
    const BOUNDS: bool = T::BOUNDS;
    const LENGTH: bool = T::LENGTH;
    const ITEMS: bool = true;
    const KEY_PATTERN: bool = true;

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let mut out = BTreeMap::new();
        coerce_entries(node, spec, path, cx, |k, v| {
            out.insert(k, v);
        })
        .then_some(out)
    }

    /// Keys in the map's order, which is sorted.
    fn canonical(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.clone(), v.canonical()))
                .collect(),
        )
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        map_schema::<T>(spec)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}

impl<T: ArgType, S: BuildHasher + Default> ArgType for HashMap<String, T, S> {
    const PATTERN: bool = T::PATTERN;
    const BOUNDS: bool = T::BOUNDS;
    const LENGTH: bool = T::LENGTH;
    const ITEMS: bool = true;
    const KEY_PATTERN: bool = true;

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let mut out = HashMap::default();
        coerce_entries(node, spec, path, cx, |k, v| {
            out.insert(k, v);
        })
        .then_some(out)
    }

    /// Keys sorted, so the form does not depend on the hasher.
    fn canonical(&self) -> Value {
        let mut entries: Vec<(&String, &T)> = self.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut map = Map::with_capacity(entries.len());
        for (k, v) in entries {
            map.insert(k.clone(), v.canonical());
        }
        Value::Object(map)
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        map_schema::<T>(spec)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}

#[cfg(feature = "indexmap")]
impl<T: ArgType, S: BuildHasher + Default> ArgType for indexmap::IndexMap<String, T, S> {
    const PATTERN: bool = T::PATTERN;
    const BOUNDS: bool = T::BOUNDS;
    const LENGTH: bool = T::LENGTH;
    const ITEMS: bool = true;
    const KEY_PATTERN: bool = true;

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let mut out = indexmap::IndexMap::default();
        coerce_entries(node, spec, path, cx, |k, v| {
            out.insert(k, v);
        })
        .then_some(out)
    }

    /// Keys in the map's order: the order they were sent in.
    fn canonical(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.clone(), v.canonical()))
                .collect(),
        )
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        map_schema::<T>(spec)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}
