//! Maps with string keys: an object whose every key is declared by the map, so the
//! unknown-key policy does not apply inside. Each value is read as `T` at `$.field.key`; a
//! key that misses `key_pattern` is a `pattern` error at its own path; `min_items` and
//! `max_items` count the entries (`length`). Duplicate keys never get here: the reader
//! rejects them.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use serde_json::{json, Value};

use super::encoded::{reread, Shape};
use super::object::object_members;
use super::{put, ArgType, Capabilities};
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
    insert: &mut dyn FnMut(String, T),
) -> bool {
    if let Some(read) = reread(node, Shape::Object, spec.strict, path, cx, |inner, cx| {
        coerce_entries(inner, spec, path, cx, insert).then_some(())
    }) {
        return read.is_some();
    }
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
                cx.error_with(&at, Code::Pattern, || {
                    format!(
                        "expected a key matching {}, got {}",
                        pattern.schema_source(),
                        Value::from(key)
                    )
                });
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
        cx.error_with(path, Code::Length, || {
            format!("expected an object of {expected}, got {len} entries")
        });
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

/// The entries as a JSON object, in the order given.
fn object_of<'m, T: ArgType + 'm>(entries: impl Iterator<Item = (&'m String, &'m T)>) -> Value {
    Value::Object(entries.map(|(k, v)| (k.clone(), v.canonical())).collect())
}

/// Keys sorted, so the form does not depend on a hasher.
fn sorted_object<'m, T: ArgType + 'm>(entries: impl Iterator<Item = (&'m String, &'m T)>) -> Value {
    let mut entries: Vec<(&String, &T)> = entries.collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    object_of(entries.into_iter())
}

/// `ArgType` for a map type with `String` keys; `$canonical` writes its entries (in the map's
/// own order where it has one that does not depend on a hasher).
macro_rules! map_arg_type {
    ([$($generics:tt)*] $map:ty, $canonical:ident) => {
        impl<$($generics)*> ArgType for $map {
            // Constraints other than the entry count and the key pattern pass through to
            // the values.
            const HONOURS: Capabilities = T::HONOURS
                .with_scalar_to_list(false)
                .with_items(true)
                .with_key_pattern(true);

            fn coerce(
                node: &Node<'_>,
                spec: &FieldSpec<'_>,
                path: &Path<'_>,
                cx: &mut Cx,
            ) -> Option<Self> {
                let mut out = <$map>::default();
                coerce_entries(node, spec, path, cx, &mut |k, v| {
                    out.insert(k, v);
                })
                .then_some(out)
            }

            fn canonical(&self) -> Value {
                $canonical(self.iter())
            }

            fn schema(spec: &FieldSpec<'_>) -> Value {
                map_schema::<T>(spec)
            }

            fn declared_semantics() -> crate::declare::Semantics {
                T::declared_semantics()
            }
        }
    };
}

// A `BTreeMap` is in key order and an `IndexMap` in the order the keys were sent.
map_arg_type!([T: ArgType] BTreeMap<String, T>, object_of);
map_arg_type!([T: ArgType, S: BuildHasher + Default] HashMap<String, T, S>, sorted_object);
#[cfg(feature = "indexmap")]
map_arg_type!([T: ArgType, S: BuildHasher + Default] indexmap::IndexMap<String, T, S>, object_of);
