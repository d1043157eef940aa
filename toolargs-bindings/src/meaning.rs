//! The `meaning` option: declarations by argument path (a spec's) or by tool name, then by
//! argument path (a set's), read from JSON; and the profile of a tool, what its declarations
//! (the option's, laid over those of its schema under `x-toolargs`) say its arguments mean.
//! Errors say what is wrong and where, and each package words them its way.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use toolargs_core::Effect;
use toolargs_semantic::{Declared, Meanings, Profile, SemanticError};

/// Why a `meaning` option does not read.
#[derive(Debug)]
pub enum MeaningError {
    /// Its text is not JSON.
    Invalid(serde_json::Error),
    /// It is JSON, but not an object.
    NotObject,
    /// The declaration of the argument `path` does not read.
    Declaration {
        /// The argument path the declaration is given for.
        path: String,
        /// Why it does not read.
        error: serde_json::Error,
    },
}

/// The members of the JSON object `text`: the tools of a set's `meaning` option, or the
/// argument paths of a spec's.
pub fn object(text: &str) -> Result<Map<String, Value>, MeaningError> {
    match serde_json::from_str(text) {
        Ok(Value::Object(members)) => Ok(members),
        Ok(_) => Err(MeaningError::NotObject),
        Err(error) => Err(MeaningError::Invalid(error)),
    }
}

/// The declarations of `value`, argument paths to declarations, in the order given; the first
/// that does not read is the error.
pub fn declarations(value: Value) -> Result<Meanings, MeaningError> {
    let Value::Object(paths) = value else {
        return Err(MeaningError::NotObject);
    };
    let mut declared = BTreeMap::new();
    for (path, declaration) in paths {
        match serde_json::from_value::<Declared>(declaration) {
            Ok(declaration) => declared.insert(path, declaration),
            Err(error) => return Err(MeaningError::Declaration { path, error }),
        };
    }
    Ok(Meanings(declared))
}

/// The declarations of the JSON text `text` ([`declarations`]).
pub fn declarations_in(text: &str) -> Result<Meanings, MeaningError> {
    declarations(Value::Object(object(text)?))
}

/// A meaning declared that does not fit the tool's schema.
#[derive(Debug)]
pub struct Misfit {
    /// The tool's name; empty when it has none.
    pub tool: String,
    /// What does not fit, and where.
    pub error: SemanticError,
}

/// What the arguments of `spec`, the tool `name`, mean: `None` when nothing is declared,
/// neither by `meanings` nor in its schema. A tool whose effect is not known may destroy, as
/// MCP says.
pub fn profile_of(
    spec: &toolargs_dynamic::Spec,
    name: &str,
    meanings: &Meanings,
) -> Result<Option<Profile>, Misfit> {
    let effect = spec.effect().unwrap_or(Effect::Destructive);
    Profile::declared_if_any(name, effect, spec.schema(), meanings).map_err(|error| Misfit {
        tool: name.to_owned(),
        error,
    })
}

/// Whether a tool's definition is annotated `idempotentHint: true`.
fn annotated_idempotent(definition: &Value) -> bool {
    definition.pointer("/annotations/idempotentHint") == Some(&Value::Bool(true))
}

/// Whether a definition (JSON text) is annotated `idempotentHint: true`: a repeated call does
/// one thing.
pub fn is_idempotent(definition: &str) -> bool {
    serde_json::from_str::<Value>(definition).is_ok_and(|tool| annotated_idempotent(&tool))
}

/// The names of the tools of a list of definitions, or of a `tools/list` result (JSON text),
/// annotated `idempotentHint: true`.
pub fn idempotent_tools(definitions: &str) -> Vec<String> {
    let Ok(list) = serde_json::from_str::<Value>(definitions) else {
        return Vec::new();
    };
    let tools = list.get("tools").unwrap_or(&list);
    tools
        .as_array()
        .into_iter()
        .flatten()
        .filter(|tool| annotated_idempotent(tool))
        .filter_map(|tool| tool.get("name")?.as_str().map(str::to_owned))
        .collect()
}
