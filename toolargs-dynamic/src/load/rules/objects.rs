//! The keywords of objects: `properties` with their defaults, `required`,
//! `additionalProperties`, `patternProperties`, `propertyNames`, `minProperties`,
//! `maxProperties`, `dependentRequired`, `dependentSchemas` (and draft-07's `dependencies`,
//! either) and `unevaluatedProperties`.

use super::Keyword;
use crate::load::{escape, member, LoadError, Loader};
use crate::shape::{Additional, Id, Property, Rules};
use toolargs_core::node::Node;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn objects_keyword(
        &mut self,
        keyword: &Keyword<'_, '_, '_>,
        rules: &mut Rules,
    ) -> Result<bool, LoadError> {
        let (key, value, here, base) = keyword.parts();
        match key {
            "properties" => {
                rules.properties = Some(self.properties(value, here, base, keyword.owner)?);
            }
            // Every name for now: those `properties` declares are set apart once all are read.
            "required" => rules
                .required_undeclared
                .extend(self.names(value, here, key)?),
            "additionalProperties" => {
                rules.additional = match value {
                    Node::Bool(false) => Additional::Closed,
                    _ => Additional::Schema(self.compile(value, here, base)?),
                }
            }
            "patternProperties" => {
                let Node::Object(entries) = value else {
                    return Err(self.malformed(here, "`patternProperties` must be an object"));
                };
                for (source, item) in entries {
                    let at = format!("{here}/{}", escape(source));
                    let pattern = self.pattern(&Node::String(source.clone()), &at)?;
                    let schema = self.compile(item, &at, base)?;
                    rules.pattern_properties.push((pattern, schema));
                }
            }
            "propertyNames" => rules.property_names = Some(self.compile(value, here, base)?),
            "minProperties" => rules.min_properties = Some(self.count(value, here, key)?),
            "maxProperties" => rules.max_properties = Some(self.count(value, here, key)?),
            "dependentRequired" => {
                rules.dependent_required = self.dependent_required(value, here)?;
            }
            "dependentSchemas" => {
                rules.dependent_schemas = self.schema_map(value, here, base, key)?;
            }
            "dependencies" => self.dependencies(value, here, base, rules)?,
            "unevaluatedProperties" => {
                rules.unevaluated_properties = Some(self.compile(value, here, base)?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Draft-07's `dependencies`: each entry a list of names (`dependentRequired`) or a
    /// schema (`dependentSchemas`).
    fn dependencies(
        &mut self,
        node: &Node<'_>,
        here: &str,
        base: &str,
        rules: &mut Rules,
    ) -> Result<(), LoadError> {
        let Node::Object(entries) = node else {
            return Err(self.malformed(here, "`dependencies` must be an object"));
        };
        for (name, item) in entries {
            let at = format!("{here}/{}", escape(name));
            if let Node::Array(_) = item {
                let names = self.names(item, &at, "dependencies")?;
                rules
                    .dependent_required
                    .push((name.as_ref().to_owned(), names));
            } else {
                let schema = self.compile(item, &at, base)?;
                rules
                    .dependent_schemas
                    .push((name.as_ref().to_owned(), schema));
            }
        }
        Ok(())
    }

    fn names(
        &self,
        node: &Node<'_>,
        pointer: &str,
        keyword: &str,
    ) -> Result<Vec<String>, LoadError> {
        let Node::Array(names) = node else {
            return Err(self.malformed(pointer, format!("`{keyword}` must be an array of strings")));
        };
        names
            .iter()
            .map(|name| match name {
                Node::String(name) => Ok(name.as_ref().to_owned()),
                _ => Err(self.malformed(pointer, format!("`{keyword}` entries must be strings"))),
            })
            .collect()
    }

    fn dependent_required(
        &self,
        node: &Node<'_>,
        pointer: &str,
    ) -> Result<Vec<(String, Vec<String>)>, LoadError> {
        let Node::Object(entries) = node else {
            return Err(self.malformed(pointer, "`dependentRequired` must be an object"));
        };
        entries
            .iter()
            .map(|(name, names)| {
                let at = format!("{pointer}/{}", escape(name));
                Ok((
                    name.as_ref().to_owned(),
                    self.names(names, &at, "dependentRequired")?,
                ))
            })
            .collect()
    }

    fn properties(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
        owner: Id,
    ) -> Result<Vec<Property>, LoadError> {
        let Node::Object(entries) = node else {
            return Err(self.malformed(pointer, "`properties` must be an object"));
        };
        let mut properties = Vec::with_capacity(entries.len());
        for (name, item) in entries {
            let at = format!("{pointer}/{}", escape(name));
            let schema = self.compile(item, &at, base)?;
            let default = member(item, "default").map(Node::to_value);
            if default.is_some() {
                self.defaults
                    .push((owner, properties.len(), format!("{at}/default")));
            }
            properties.push(Property {
                name: name.as_ref().to_owned(),
                schema,
                required: false,
                default,
                strict: false,
            });
        }
        Ok(properties)
    }
}
