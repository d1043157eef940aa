//! Sets: read as lists (the same coercer, so the same `scalar_to_list` repair and length
//! bounds), then an item equal to an earlier one once both are read (`"1"` and `1` in a set of
//! integers) is `duplicate_item` at the later one's path. A repeated item is never dropped: the
//! caller meant something by sending it twice.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use serde_json::{json, Value};

use super::list::{coerce_list, wraps_scalar};
use super::{put, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

/// Moves the items into a set through `insert` (false when already present); reports every
/// repeated item at its own index.
fn collect_unique<T>(
    items: Vec<T>,
    path: &Path<'_>,
    cx: &mut Cx,
    mut insert: impl FnMut(T) -> bool,
) -> bool {
    let mut ok = true;
    for (index, item) in items.into_iter().enumerate() {
        if !insert(item) {
            cx.error(
                &path.index(index),
                Code::DuplicateItem,
                "expected each item once, got an item equal to an earlier one; send it once",
            );
            ok = false;
        }
    }
    ok
}

fn set_schema<T: ArgType>(spec: &FieldSpec<'_>) -> Value {
    let mut schema = json!({"type": "array", "items": T::item_schema(spec), "uniqueItems": true});
    put(&mut schema, "minItems", spec.min_items.map(Value::from));
    put(&mut schema, "maxItems", spec.max_items.map(Value::from));
    schema
}

impl<T: ArgType + Ord> ArgType for BTreeSet<T> {
    const HONOURS: Capabilities = T::HONOURS.with_scalar_to_list(false).with_items(true);

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let items = coerce_list(
            node,
            spec,
            path,
            cx,
            wraps_scalar(T::HONOURS),
            |item, at, cx| T::coerce(item, spec, at, cx),
        )?;
        let mut out = BTreeSet::new();
        collect_unique(items, path, cx, |item| out.insert(item)).then_some(out)
    }

    /// Items in the set's order, which is sorted.
    fn canonical(&self) -> Value {
        Value::Array(self.iter().map(T::canonical).collect())
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        set_schema::<T>(spec)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}

impl<T: ArgType + Eq + Hash, S: BuildHasher + Default> ArgType for HashSet<T, S> {
    const HONOURS: Capabilities = T::HONOURS.with_scalar_to_list(false).with_items(true);

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let items = coerce_list(
            node,
            spec,
            path,
            cx,
            wraps_scalar(T::HONOURS),
            |item, at, cx| T::coerce(item, spec, at, cx),
        )?;
        let mut out = HashSet::with_capacity_and_hasher(items.len(), S::default());
        collect_unique(items, path, cx, |item| out.insert(item)).then_some(out)
    }

    /// Items sorted by their JSON text, so the form does not depend on the hasher.
    fn canonical(&self) -> Value {
        let mut items: Vec<(String, Value)> = self
            .iter()
            .map(|item| {
                let value = item.canonical();
                (value.to_string(), value)
            })
            .collect();
        items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Value::Array(items.into_iter().map(|(_, value)| value).collect())
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        set_schema::<T>(spec)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}
