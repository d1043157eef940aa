//! Making a property below the root strict ([`Spec::make_strict_at`](crate::Spec::make_strict_at)).
//!
//! The schemas on the way to the property are copied, and only the copies are changed: a
//! schema shared through `$ref` (a `Money` definition used by two properties) stays lenient
//! everywhere else it is used.

use crate::shape::{Graph, Id, Schema};

/// A step of a path: a property's name, or the items of an array (`[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step<'a> {
    Property(&'a str),
    Items,
}

/// How many schemas applied in place (`$ref`, `allOf`, `anyOf`, `oneOf`) one step looks
/// through for its property. Loading refuses a schema that applies itself in place without
/// end; the bound keeps the search finite whatever the graph.
const MAX_IN_PLACE: usize = 32;

impl Graph {
    /// A copy of schema `id` in which the property `path` leads to is strict, and the id of
    /// the copy; `None`, adding nothing, when `path` names nothing `id` declares. `path` ends
    /// with a property.
    pub(crate) fn strict_copy(&mut self, id: Id, path: &[Step<'_>]) -> Option<Id> {
        self.strict_copy_within(id, path, 0)
    }

    fn strict_copy_within(&mut self, id: Id, path: &[Step<'_>], in_place: usize) -> Option<Id> {
        let (&step, rest) = path.split_first()?;
        let Schema::Rules(rules) = &self.schemas[id] else {
            return None;
        };
        let mut copy = rules.clone();
        let found = match step {
            Step::Property(name) => match copy
                .properties
                .as_mut()
                .and_then(|properties| properties.iter_mut().find(|p| p.name == name))
            {
                Some(property) if rest.is_empty() => {
                    property.strict = true;
                    true
                }
                Some(property) => match self.strict_copy_within(property.schema, rest, 0) {
                    Some(below) => {
                        property.schema = below;
                        true
                    }
                    None => false,
                },
                None => false,
            },
            Step::Items => match copy.items {
                Some(items) if !rest.is_empty() => match self.strict_copy_within(items, rest, 0) {
                    Some(below) => {
                        copy.items = Some(below);
                        true
                    }
                    None => false,
                },
                _ => false,
            },
        };
        // Not declared here: in a schema this one applies in place, as `properties` found
        // through `$ref` or `allOf` are the value's too.
        let found = found
            || (in_place < MAX_IN_PLACE && {
                let mut slots: Vec<&mut Id> = copy.reference.iter_mut().collect();
                slots.extend(copy.all_of.iter_mut());
                slots.extend(copy.any_of.iter_mut());
                slots.extend(copy.one_of.iter_mut());
                let mut any = false;
                for slot in slots {
                    if let Some(applied) = self.strict_copy_within(*slot, path, in_place + 1) {
                        *slot = applied;
                        any = true;
                    }
                }
                any
            });
        if !found {
            return None;
        }
        let closure = self.closures[id].clone();
        self.schemas.push(Schema::Rules(copy));
        self.closures.push(closure);
        Some(self.schemas.len() - 1)
    }
}
