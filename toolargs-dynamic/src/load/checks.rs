//! What is checked once every schema is compiled: loops of schemas applied in place, defaults
//! against their schemas, and what each schema declares in place.

use super::{LoadError, LoadErrorKind, Loader};
use crate::shape::{Closure, Graph, Id, Schema};

impl Loader<'_, '_> {
    /// A schema that applies itself to the same value (`{"$ref": "#"}`, or through `allOf` and
    /// the like) would never finish on any value: refused, naming where the loop closes.
    pub(super) fn check_cycles(&self) -> Result<(), LoadError> {
        // 0: not visited, 1: on the current path, 2: done.
        let mut state = vec![0u8; self.schemas.len()];
        for start in 0..self.schemas.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(Id, Vec<Id>)> = vec![(start, self.in_place(start))];
            state[start] = 1;
            while let Some((id, children)) = stack.last_mut() {
                let id = *id;
                match children.pop() {
                    Some(next) if state[next] == 1 => {
                        let pointer = self
                            .by_pointer
                            .iter()
                            .find(|(_, &i)| i == next)
                            .map(|(p, _)| p.clone())
                            .unwrap_or_default();
                        return Err(self.error(LoadErrorKind::EndlessRecursion, &pointer, "this schema applies itself to the same value without end (through `$ref`, `allOf` or the like), so no value could ever be judged"));
                    }
                    Some(next) if state[next] == 0 => {
                        state[next] = 1;
                        stack.push((next, self.in_place(next)));
                    }
                    Some(_) => {}
                    None => {
                        state[id] = 2;
                        stack.pop();
                    }
                }
            }
        }
        Ok(())
    }

    fn in_place(&self, id: Id) -> Vec<Id> {
        match &self.schemas[id] {
            Schema::Rules(rules) => rules.applied_in_place(true),
            _ => Vec::new(),
        }
    }

    /// A `default` must pass its own schema without repairs, or the gate would hand the tool
    /// a value the schema forbids; one that does not is dropped. `"default": null` on a schema
    /// without null is kept: it says the field may be left out (Python's `x: str = None`),
    /// and the walker reads null there as absent.
    pub(super) fn check_defaults(&mut self) {
        let pending = std::mem::take(&mut self.defaults);
        let graph = Graph {
            schemas: self.schemas.clone(),
            root: 0,
            closures: closures(&self.schemas),
        };
        for (owner, index, pointer) in pending {
            let Schema::Rules(rules) = &graph.schemas[owner] else {
                continue;
            };
            let Some(property) = rules.properties.as_ref().and_then(|p| p.get(index)) else {
                continue;
            };
            let Some(default) = &property.default else {
                continue;
            };
            if default.is_null() || crate::walk::is_valid(&graph, property.schema, default) {
                continue;
            }
            if let Schema::Rules(rules) = &mut self.schemas[owner] {
                if let Some(property) = rules.properties.as_mut().and_then(|p| p.get_mut(index)) {
                    property.default = None;
                }
            }
            self.warn(
                &pointer,
                "the default does not satisfy its own schema, so it is not filled in",
            );
        }
    }
}

/// For every schema: whether it (or a schema it applies in place) declares `properties`,
/// and the names it declares, for the unknown-key policy and its hints.
pub(super) fn closures(schemas: &[Schema]) -> Vec<Closure> {
    (0..schemas.len())
        .map(|id| {
            let mut closure = Closure::default();
            let mut stack = vec![id];
            let mut seen = vec![false; schemas.len()];
            while let Some(next) = stack.pop() {
                if std::mem::replace(&mut seen[next], true) {
                    continue;
                }
                let Schema::Rules(rules) = &schemas[next] else {
                    continue;
                };
                if let Some(properties) = &rules.properties {
                    closure.declares_properties = true;
                    for p in properties {
                        if !closure.known.contains(&p.name) {
                            closure.known.push(p.name.clone());
                        }
                    }
                }
                stack.extend(rules.applied_in_place(false));
            }
            closure
        })
        .collect()
}
