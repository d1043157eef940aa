//! A schema's keywords, read into its [`Rules`] by family: the JSON types, `const` and `enum`
//! (`types`); numbers (`numbers`); strings and formats (`strings`); arrays (`arrays`); objects
//! (`objects`); `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else` (`composition`);
//! references (`references`); and what only annotates (`annotations`). Keywords are read in
//! the order the schema writes them, so the first error and the warnings come in that order.

mod annotations;
mod arrays;
mod composition;
mod numbers;
mod objects;
mod references;
mod strings;
mod types;

use crate::load::{escape, LoadError, Loader};
use crate::shape::{Condition, Id, Rules, Types};
use toolargs_core::node::Node;

/// One keyword of a schema, where it is read.
struct Keyword<'k, 'n, 'a> {
    name: &'k str,
    value: &'n Node<'a>,
    /// The keyword's pointer.
    here: String,
    /// The base URI in effect, for the schemas the keyword holds.
    base: &'k str,
    /// The schema the keyword belongs to.
    owner: Id,
}

impl<'k, 'n, 'a> Keyword<'k, 'n, 'a> {
    /// What the families that compile subschemas read: the keyword's name, its value, its
    /// pointer and the base URI in effect.
    fn parts(&self) -> (&'k str, &'n Node<'a>, &str, &'k str) {
        (self.name, self.value, self.here.as_str(), self.base)
    }
}

/// What keywords say of each other while a schema's keywords are read, settled into its rules
/// once every keyword is read.
#[derive(Default)]
struct Draft<'n, 'a> {
    /// OpenAPI 3.0's `nullable: true`: null besides the `type`.
    nullable: bool,
    /// OpenAPI 3.0 and draft-04 write exclusive bounds as booleans beside the bound.
    exclusive_min: bool,
    exclusive_max: bool,
    /// Draft-07's `additionalItems` and its pointer: it means something only after a tuple.
    additional_items: Option<(&'n Node<'a>, String)>,
    /// `if`, `then` and `else`.
    condition: (Option<Id>, Option<Id>, Option<Id>),
}

impl Loader<'_, '_> {
    /// The keywords of the schema `node` (whose [`Id`] is `id`) at `pointer`.
    pub(in crate::load) fn rules(
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
        let mut draft = Draft::default();
        for (key, value) in members {
            let keyword = Keyword {
                name: key.as_ref(),
                value,
                here: format!("{pointer}/{}", escape(key)),
                base,
                owner: id,
            };
            // No keyword is of two families: they are asked the most common first.
            let read = self.types_keyword(&keyword, &mut rules, &mut draft)?
                || self.annotations_keyword(&keyword)
                || self.objects_keyword(&keyword, &mut rules)?
                || self.arrays_keyword(&keyword, &mut rules, &mut draft)?
                || self.strings_keyword(&keyword, &mut rules)?
                || self.numbers_keyword(&keyword, &mut rules, &mut draft)?
                || self.composition_keyword(&keyword, &mut rules, &mut draft)?
                || self.references_keyword(&keyword, &mut rules)?;
            if !read {
                self.unknown_keyword(&keyword);
            }
        }
        self.settle(&mut rules, draft, pointer, base)?;
        Ok(rules)
    }

    /// What keywords say of each other, once all are read.
    fn settle(
        &mut self,
        rules: &mut Rules,
        draft: Draft<'_, '_>,
        pointer: &str,
        base: &str,
    ) -> Result<(), LoadError> {
        if draft.nullable {
            rules.types = rules.types.map(|t| t.with(Types::NULL));
        }
        for (flag, slot) in [
            (draft.exclusive_min, &mut rules.minimum),
            (draft.exclusive_max, &mut rules.maximum),
        ] {
            if let (true, Some(limit)) = (flag, slot.as_mut()) {
                limit.exclusive = true;
            }
        }
        if let Some((value, here)) = draft.additional_items {
            // Draft-07: the items after a tuple. After a single `items` schema it has no effect.
            if rules.items.is_none() && !rules.prefix_items.is_empty() {
                rules.items = Some(self.compile(value, &here, base)?);
            }
        }
        if let (Some(test), then, otherwise) = draft.condition {
            rules.condition = Some(Condition {
                test,
                then,
                otherwise,
            });
        }
        self.enum_case(rules, pointer);
        rules.in_place = rules.has_applicators();
        if let Some(properties) = &mut rules.properties {
            for property in properties.iter_mut() {
                property.required = rules.required_undeclared.contains(&property.name);
            }
            rules
                .required_undeclared
                .retain(|name| !properties.iter().any(|p| &p.name == name));
        }
        Ok(())
    }
}
