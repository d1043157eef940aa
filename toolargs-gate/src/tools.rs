//! The tools the gate learned from the server's `tools/list` results.

use std::collections::{HashMap, HashSet};

use toolargs_dynamic::{load_tool_list_lenient, Spec};

use crate::policy::{Policy, StrictFieldMissing};

/// A tool the server listed whose definition did not load: calls to it are not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncheckedTool {
    /// The tool's name.
    pub name: String,
    /// Why its definition did not load.
    pub reason: String,
}

/// The tools learned so far, by name.
#[derive(Debug, Default)]
pub struct Tools {
    tools: HashMap<String, Result<Spec, UncheckedTool>>,
    /// Definitions that did not load, not reported yet ([`Tools::take_new_unchecked`]).
    new_unchecked: Vec<UncheckedTool>,
    /// Strict fields of the policy a learned tool does not declare, not reported yet
    /// ([`Tools::take_new_policy_warnings`]).
    new_missing: Vec<StrictFieldMissing>,
    /// Every one reported so far: a tool listed again is not reported again.
    missing_seen: HashSet<StrictFieldMissing>,
}

impl Tools {
    /// The spec of `name`, or why it has none; `None` for a tool not listed.
    pub fn get(&self, name: &str) -> Option<Result<&Spec, &UncheckedTool>> {
        self.tools.get(name).map(Result::as_ref)
    }

    /// How many tools were listed.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool was listed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tools whose definitions did not load since the last call, to name once.
    pub fn take_new_unchecked(&mut self) -> Vec<UncheckedTool> {
        std::mem::take(&mut self.new_unchecked)
    }

    /// The strict fields the policy names for tools learned since the last call that their
    /// schemas do not declare, each once.
    pub fn take_new_policy_warnings(&mut self) -> Vec<StrictFieldMissing> {
        std::mem::take(&mut self.new_missing)
    }

    /// Learns a page of a `tools/list` result (its JSON text), with `policy` applied over
    /// what the server says; a first page replaces what was known.
    pub(crate) fn learn(&mut self, result: &str, first_page: bool, policy: &Policy) {
        if first_page {
            self.tools.clear();
        }
        let Ok(list) = load_tool_list_lenient(result) else {
            return;
        };
        for spec in list.specs {
            if let Some(name) = spec.name().map(str::to_owned) {
                let (spec, missing) = policy.apply(&name, spec);
                for field in missing {
                    if self.missing_seen.insert(field.clone()) {
                        self.new_missing.push(field);
                    }
                }
                self.tools.insert(name, Ok(spec));
            }
        }
        for refused in list.refused {
            let Some(name) = refused.name else { continue };
            let unchecked = UncheckedTool {
                name: name.clone(),
                reason: refused.error.to_string(),
            };
            self.new_unchecked.push(unchecked.clone());
            self.tools.insert(name, Err(unchecked));
        }
    }
}
