//! The tools of a list of definitions (or of an MCP `tools/list` result), each loaded on its
//! own: one whose schema does not load is named in `unchecked` and does not stop the others;
//! each with the meaning declared for it.

use std::collections::{BTreeMap, HashMap};

use toolargs_core::decode::RawArgs;
use toolargs_core::{Judge, ParseOptions};
use toolargs_semantic::Meanings;

use crate::meaning::{idempotent_tools, profile_of, Misfit};
use crate::tool::{Failure, Tool};

/// A list of definitions loaded, before the meaning of their tools is laid over them.
pub struct Loaded {
    specs: Vec<(String, toolargs_dynamic::Spec)>,
    unchecked: Vec<(Option<String>, String)>,
    idempotent: Vec<String>,
}

/// Why the meaning given for a set's tools does not fit them: the first tool (in the order
/// of the definitions) whose declarations do not fit its schema, and the first tool named
/// (in the order of names) that is not one of the definitions'. At least one is there.
#[derive(Debug)]
pub struct MeaningFailure {
    /// A declaration that does not fit its tool's schema.
    pub misfit: Option<Misfit>,
    /// A tool the meaning names that no definition gives.
    pub stray: Option<String>,
}

/// Loads a list of definitions, or an MCP `tools/list` result, given as JSON text.
pub fn load(definitions: &str) -> Result<Loaded, Failure> {
    let list = toolargs_dynamic::load_tool_list_lenient(definitions)
        .map_err(|e| Failure::Load(e.to_string()))?;
    let named = list.by_name();
    Ok(Loaded {
        specs: named.specs,
        unchecked: named.unchecked,
        idempotent: idempotent_tools(definitions),
    })
}

impl Loaded {
    /// The tools, their arguments meaning what `meanings` (by tool name) and their schemas
    /// declare.
    pub fn with_meanings(
        self,
        mut meanings: BTreeMap<String, Meanings>,
    ) -> Result<ToolSet, MeaningFailure> {
        let Loaded {
            specs,
            unchecked,
            idempotent,
        } = self;
        let stray = meanings
            .keys()
            .find(|tool| {
                !specs.iter().any(|(name, _)| name == *tool)
                    && !unchecked
                        .iter()
                        .any(|(name, _)| name.as_deref() == Some(tool.as_str()))
            })
            .cloned();
        let mut names = Vec::with_capacity(specs.len());
        let mut tools = HashMap::with_capacity(specs.len());
        let mut misfit = None;
        for (name, spec) in specs {
            let given = meanings.remove(&name).unwrap_or_default();
            let profile = match profile_of(&spec, &name, &given) {
                Ok(profile) => profile,
                Err(error) => {
                    misfit = Some(error);
                    break;
                }
            };
            let tool = Tool {
                spec: std::sync::Arc::new(spec),
                profile: profile.map(std::sync::Arc::new),
                idempotent: idempotent.contains(&name),
                named: None,
            };
            names.push(name.clone());
            tools.insert(name, tool);
        }
        if misfit.is_some() || stray.is_some() {
            return Err(MeaningFailure { misfit, stray });
        }
        Ok(ToolSet {
            names,
            tools,
            unchecked,
        })
    }
}

/// The tools of a list, by name.
#[derive(Debug)]
pub struct ToolSet {
    names: Vec<String>,
    tools: HashMap<String, Tool>,
    unchecked: Vec<(Option<String>, String)>,
}

/// What [`ToolSet::check`] makes of one call, as `toolargs replay` counts it.
#[derive(Debug, Default)]
pub struct Checked {
    /// `"clean"`, `"repaired"`, `"rejected"`; `"unchecked"` for a tool whose definition did
    /// not load, `"unknown_tool"` for a name no definition gives.
    pub outcome: &'static str,
    /// The error codes of a rejected call, in the order found.
    pub codes: Vec<&'static str>,
    /// The repair rules of a repaired one, in the order made.
    pub rules: Vec<&'static str>,
}

impl ToolSet {
    /// The names of the tools that loaded, in the order of the definitions.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `(name, reason)` for each definition that did not load (`name` is `None` when the
    /// definition has none).
    pub fn unchecked(&self) -> &[(Option<String>, String)] {
        &self.unchecked
    }

    /// The tool `name`, when it loaded.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// The number of tools that loaded.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no tool loaded.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// True when `name` is a tool whose definition did not load.
    pub fn is_refused(&self, name: &str) -> bool {
        self.unchecked
            .iter()
            .any(|(n, _)| n.as_deref() == Some(name))
    }

    /// Why `name` is not a tool of the set, in one sentence starting with the name.
    pub fn why_not(&self, name: &str) -> String {
        let reason = self
            .unchecked
            .iter()
            .find(|(n, _)| n.as_deref() == Some(name))
            .map_or_else(
                || "no tool of this name".to_owned(),
                |(_, why)| format!("its definition did not load: {why}"),
            );
        format!("{name}: {reason}")
    }

    /// Judges a call to the tool `name` (none: an unknown tool) with the arguments `text`
    /// (none: `null`, rejected as `not_object`) as `toolargs replay` counts it.
    pub fn check(&self, name: Option<&str>, text: Option<&str>, options: &ParseOptions) -> Checked {
        let outcome = |outcome| Checked {
            outcome,
            ..Checked::default()
        };
        let Some(tool) = name.and_then(|name| self.tools.get(name)) else {
            return match name {
                Some(name) if self.is_refused(name) => outcome("unchecked"),
                _ => outcome("unknown_tool"),
            };
        };
        let text = text.unwrap_or("null");
        match tool.spec.check(&RawArgs::from(text), options) {
            Ok(repairs) if repairs.is_empty() => outcome("clean"),
            Ok(repairs) => Checked {
                rules: repairs.iter().map(|r| r.rule.as_str()).collect(),
                ..outcome("repaired")
            },
            Err(rejection) => Checked {
                codes: rejection.errors().iter().map(|e| e.code.as_str()).collect(),
                ..outcome("rejected")
            },
        }
    }
}
