//! One tool as both packages hold it: its loaded [`Spec`](toolargs_dynamic::Spec) with the
//! options set over its definition (`effect`, `unknown`, a name), the meaning declared for its
//! arguments, whether a repeated call does one thing; and its definition lowered for a
//! provider's dialect, with what that does not show.

use std::sync::Arc;

use serde_json::Value;
use toolargs_core::{Dialect, Effect, UnknownPolicy};
use toolargs_semantic::{Meanings, Profile};

use crate::meaning::{is_idempotent, profile_of, Misfit};

/// Why a definition or an option was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A definition that cannot be loaded: where and why.
    Load(String),
    /// An option outside its set: which, what it takes, and what it was given.
    Option(String),
}

/// Loads one tool's `definition` (JSON text: a JSON Schema or a tool definition), with its
/// `effect` (`"read_only"`, `"additive"`, `"destructive"`, `"external"`) and its `unknown`
/// policy (`"strip"`, `"reject"`) when given, over what its annotations say.
pub fn load_spec(
    definition: &str,
    effect: Option<&str>,
    unknown: Option<&str>,
) -> Result<toolargs_dynamic::Spec, Failure> {
    let mut spec =
        toolargs_dynamic::Spec::from_json(definition).map_err(|e| Failure::Load(e.to_string()))?;
    if let Some(effect) = effect {
        spec = spec.with_effect(Effect::from_name(effect).ok_or_else(|| {
            Failure::Option(format!(
                "effect must be \"read_only\", \"additive\", \"destructive\" or \"external\", not {effect:?}"
            ))
        })?);
    }
    if let Some(unknown) = unknown {
        spec = spec.with_unknown_policy(match unknown {
            "strip" => UnknownPolicy::Strip,
            "reject" => UnknownPolicy::Reject,
            other => {
                return Err(Failure::Option(format!(
                    "unknown must be \"strip\" or \"reject\", not {other:?}"
                )))
            }
        });
    }
    Ok(spec)
}

/// The dialect named `name`, or an option failure that lists the names.
pub fn dialect_named(name: &str) -> Result<Dialect, Failure> {
    Dialect::from_name(name).ok_or_else(|| {
        Failure::Option(format!(
            "dialect must be one of {}, not {name:?}",
            Dialect::names()
        ))
    })
}

/// One tool: its contract, and what its calls mean.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The loaded contract.
    pub spec: Arc<toolargs_dynamic::Spec>,
    /// What its arguments mean, when declared (by a `meaning` option or `x-toolargs`): what a
    /// session weighs its calls by.
    pub profile: Option<Arc<Profile>>,
    /// Whether a repeated call does one thing (MCP's `idempotentHint`).
    pub idempotent: bool,
    /// The name given over the definition's: a session tells tools apart by it.
    pub named: Option<Arc<str>>,
}

impl Tool {
    /// The tool of `spec`, loaded from `definition` (for its annotations), named `named` over
    /// the definition's name when given, its arguments meaning what `meanings` and its schema
    /// declare.
    pub fn new(
        spec: toolargs_dynamic::Spec,
        named: Option<String>,
        meanings: &Meanings,
        definition: &str,
    ) -> Result<Tool, Misfit> {
        let named = named.map(Arc::<str>::from);
        let name = named.as_deref().or(spec.name()).unwrap_or_default();
        let profile = profile_of(&spec, name, meanings)?;
        Ok(Tool {
            idempotent: is_idempotent(definition),
            spec: Arc::new(spec),
            profile: profile.map(Arc::new),
            named,
        })
    }

    /// The tool's name: the one given when loaded, or the definition's, when it gives one.
    pub fn name(&self) -> Option<&str> {
        self.named.as_deref().or(self.spec.name())
    }

    /// What the tool does, when set or annotated: `"read_only"`, `"additive"`,
    /// `"destructive"` or `"external"`.
    pub fn effect(&self) -> Option<&'static str> {
        self.spec.effect().map(Effect::as_str)
    }

    /// What happens to keys the schema does not declare: `"strip"` or `"reject"`.
    pub fn unknown(&self) -> &'static str {
        self.spec.unknown_policy().as_str()
    }

    /// What loaded with a warning, one sentence each.
    pub fn warnings(&self) -> Vec<String> {
        self.spec
            .warnings()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The tool's definition in the request shape of the dialect named `dialect`, its schema
    /// lowered to what that provider accepts.
    pub fn tool_definition(&self, dialect: &str) -> Result<Value, Failure> {
        Ok(self.spec.tool_definition(dialect_named(dialect)?))
    }

    /// What [`Tool::tool_definition`] does not show as the schema says, keyword by keyword: an
    /// array of `{"path", "keyword", "instead", "enforced", "exact"}`.
    pub fn lowering(&self, dialect: &str) -> Result<Value, Failure> {
        let changes = self.spec.lowering(dialect_named(dialect)?).changes;
        let rows = changes
            .into_iter()
            .map(|change| {
                let mut row = serde_json::Map::new();
                row.insert("path".to_owned(), Value::String(change.path));
                row.insert("keyword".to_owned(), Value::String(change.keyword));
                row.insert("instead".to_owned(), Value::String(change.instead));
                row.insert("enforced".to_owned(), Value::Bool(change.enforced));
                row.insert("exact".to_owned(), Value::Bool(change.exact));
                Value::Object(row)
            })
            .collect();
        Ok(Value::Array(rows))
    }
}
