//! Meaning declared for a tool: the `meaning` option of a `Spec` or a `ToolSet` (JSON text),
//! laid over what its schema declares under `x-toolargs`, and whether a definition says its
//! repeated call does one thing. Errors are the messages of the load failures they become.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value};
use toolargs_core::Effect;
use toolargs_semantic::{Declared, Meanings, Profile};

/// Declarations by argument path, read from `text` (a JSON object); `of` names them in an
/// error, which names the declaration that does not read.
pub(crate) fn meanings(text: Option<&str>, of: &str) -> Result<Meanings, String> {
    let Some(text) = text else {
        return Ok(Meanings::default());
    };
    let mut declared = BTreeMap::new();
    for (path, declaration) in object(text, of)? {
        let declaration = serde_json::from_value::<Declared>(declaration)
            .map_err(|e| format!("{of}: {path}: {e}"))?;
        declared.insert(path, declaration);
    }
    Ok(Meanings(declared))
}

/// Declarations by tool name, then by argument path, read from `text` (a JSON object).
pub(crate) fn meanings_by_tool(text: Option<&str>) -> Result<BTreeMap<String, Meanings>, String> {
    let Some(text) = text else {
        return Ok(BTreeMap::new());
    };
    let mut by_tool = BTreeMap::new();
    for (tool, declared) in object(text, "the meaning")? {
        let of = format!("the meaning of {tool}");
        by_tool.insert(tool, meanings(Some(&declared.to_string()), &of)?);
    }
    Ok(by_tool)
}

/// The members of the JSON object `text`; anything else is a load error.
fn object(text: &str, of: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str(text) {
        Ok(Value::Object(members)) => Ok(members),
        _ => Err(format!("{of} must be an object")),
    }
}

/// What the arguments of `spec`, the tool `name`, mean: `None` when nothing is declared,
/// neither by `meanings` nor in its schema; a declaration that does not fit the schema is a
/// load error naming it. A tool whose effect is not known may destroy, as MCP says.
pub(crate) fn profile_of(
    spec: &toolargs_dynamic::Spec,
    name: &str,
    meanings: &Meanings,
) -> Result<Option<Profile>, String> {
    let undeclared = meanings.is_empty()
        && Meanings::in_schema(spec.schema()).is_ok_and(|found| found.is_empty());
    if undeclared {
        return Ok(None);
    }
    let effect = spec.effect().unwrap_or(Effect::Destructive);
    Profile::declared(name, effect, spec.schema(), meanings)
        .map(Some)
        .map_err(|e| match name {
            "" => format!("the meaning: {}", e.message()),
            _ => format!("the meaning of {name}: {}", e.message()),
        })
}

/// Whether a definition (JSON text) is annotated `idempotentHint: true`.
pub(crate) fn is_idempotent(definition: &str) -> bool {
    serde_json::from_str::<Value>(definition).is_ok_and(|tool| annotated_idempotent(&tool))
}

/// The names of the tools of a list of definitions, or of a `tools/list` result (JSON text),
/// annotated `idempotentHint: true`.
pub(crate) fn idempotent_tools(definitions: &str) -> HashSet<String> {
    let Ok(list) = serde_json::from_str::<Value>(definitions) else {
        return HashSet::new();
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

fn annotated_idempotent(tool: &Value) -> bool {
    tool.pointer("/annotations/idempotentHint") == Some(&Value::Bool(true))
}
