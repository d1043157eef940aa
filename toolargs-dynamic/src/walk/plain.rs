//! Calls accepted as sent, recognised without the walk.
//!
//! Most calls need no repair. When the root schema has the plainest shape (an object whose
//! properties hold scalars or lists of scalars, each judged by its own keywords alone), a call
//! whose every key is declared, whose every value is of its property's type and passes that
//! property's keywords, and that lacks no required key, is one the walk would accept as it is,
//! with nothing to repair or report. [`Plain::accepts`] recognises such a call with the same
//! keyword checks the walk runs ([`check_number`], [`check_string`], the `enum` and `const`
//! comparisons), without the walk's frames, outcomes and paths.
//!
//! It only ever answers "accepted as sent" or "not sure": anything else (a `null`, an unknown
//! key, a value of another type, a failed keyword) goes to the walk, which alone repairs and
//! reports. So it holds no policy of its own, and a call gets the same verdict either way.

use toolargs_core::cx::Cx;
use toolargs_core::node::Node;
use toolargs_core::path::Path;

use super::is_native;
use super::keywords::{check_number, check_string};
use crate::exact::node_equal;
use crate::shape::{Graph, Id, Rules, Schema, Types};

/// A root schema whose calls accepted as sent can be recognised here (see the module).
#[derive(Clone, Debug)]
pub(crate) struct Plain {
    /// The root's `properties`, in order.
    fields: Vec<Field>,
    /// Bit `i` is set when `fields[i]` is required.
    required: u64,
}

#[derive(Clone, Debug)]
struct Field {
    name: String,
    /// The property's schema.
    schema: Id,
    /// For a list, the schema of every item.
    items: Option<Id>,
}

impl Plain {
    /// The plain reading of the graph's root, when the root has the plain shape.
    pub(crate) fn of(graph: &Graph) -> Option<Plain> {
        let Schema::Rules(root) = graph.get(graph.root) else {
            return None;
        };
        let object = matches!(root.types, None | Some(Types::OBJECT))
            && !root.in_place
            && root.allowed.is_none()
            && root.constant.is_none()
            && root.pattern_properties.is_empty()
            && root.property_names.is_none()
            && root.min_properties.is_none()
            && root.max_properties.is_none()
            && root.required_undeclared.is_empty()
            && root.dependent_required.is_empty();
        let properties = root.properties.as_deref().filter(|_| object)?;
        if properties.len() > 64 {
            return None;
        }
        let mut fields = Vec::with_capacity(properties.len());
        let mut required = 0;
        for (index, property) in properties.iter().enumerate() {
            let rules = own_rules(graph, property.schema)?;
            let types = rules.types?;
            let items = if types.has(Types::ARRAY) {
                // A list of scalars, and nothing else: no item is compared with another.
                let list = types == Types::ARRAY
                    && rules.allowed.is_none()
                    && rules.constant.is_none()
                    && rules.prefix_items.is_empty()
                    && rules.contains.is_none()
                    && !rules.unique_items;
                let items = rules.items.filter(|_| list)?;
                scalar_types(own_rules(graph, items)?)?;
                Some(items)
            } else {
                scalar_types(rules)?;
                None
            };
            if property.required {
                required |= 1 << index;
            }
            fields.push(Field {
                name: property.name.clone(),
                schema: property.schema,
                items,
            });
        }
        Some(Plain { fields, required })
    }

    /// Whether the walk would accept `node` as sent under the root schema, judged with the
    /// walk's keyword checks. `false` means only "not certain": the walk decides.
    pub(crate) fn accepts(&self, graph: &Graph, node: &Node<'_>, cx: &Cx) -> bool {
        let Node::Object(members) = node else {
            return false;
        };
        // The checks record what fails into a collector of their own, which is dropped: a
        // call that fails any of them is judged again, and reported, by the walk.
        let mut scratch = cx.scratch();
        let mut present = 0u64;
        for (key, value) in members {
            let Some(index) = self.fields.iter().position(|f| f.name == key.as_ref()) else {
                return false;
            };
            present |= 1 << index;
            let field = &self.fields[index];
            let Some(rules) = own_rules(graph, field.schema) else {
                return false;
            };
            let passes = match (field.items, value) {
                (Some(items), Node::Array(list)) => {
                    rules.items_fit(list.len())
                        && own_rules(graph, items).is_some_and(|item_rules| {
                            list.iter()
                                .all(|item| scalar(item_rules, item, &mut scratch))
                        })
                }
                (Some(_), _) => false,
                (None, value) => scalar(rules, value, &mut scratch),
            };
            if !passes {
                return false;
            }
        }
        present & self.required == self.required
            && !scratch.has_errors()
            && scratch.repairs().is_empty()
    }
}

/// The keywords of schema `id` when they are all that applies to a value there.
fn own_rules(graph: &Graph, id: Id) -> Option<&Rules> {
    match graph.get(id) {
        Schema::Rules(rules) if !rules.in_place => Some(rules),
        _ => None,
    }
}

/// The types of a schema that allows only scalars.
fn scalar_types(rules: &Rules) -> Option<Types> {
    rules
        .types
        .filter(|t| !t.has(Types::ARRAY) && !t.has(Types::OBJECT))
}

/// Whether a scalar passes its schema as sent, as the walk's `own` and `assert` judge it. A
/// `null` is never taken here: a property reads it as absent, which the walk settles.
fn scalar(rules: &Rules, node: &Node<'_>, cx: &mut Cx) -> bool {
    let Some(types) = rules.types else {
        return false;
    };
    if matches!(node, Node::Null | Node::Array(_) | Node::Object(_)) || !is_native(types, node) {
        return false;
    }
    let listed = rules
        .allowed
        .as_ref()
        .is_none_or(|allowed| allowed.iter().any(|a| node_equal(node, a)));
    let constant = rules.constant.as_ref().is_none_or(|c| node_equal(node, c));
    listed
        && constant
        && match node {
            // A number the walk would not pass through exactly is left to it to explain.
            Node::Number(n) => n.is_exact() && check_number(rules, n, node, &Path::ROOT, cx),
            Node::String(s) => check_string(rules, s, node, &Path::ROOT, cx),
            _ => true,
        }
}
