//! Tool definitions loaded from a `--tools` file, as `replay` and `check` both take them: every
//! definition that loads, the others kept as refused (or, with `--strict-tools`, the error).

use std::path::Path;

use toolargs_replay::{RefusedDefinition, ToolSet};

/// Loads every definition that loads; with `strict`, any refused definition is the error.
pub fn load(path: &Path, strict: bool) -> Result<ToolSet, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let tools =
        ToolSet::from_json_lenient(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    strict_check(&path.display().to_string(), tools, strict)
}

/// `tools`, or with `strict` the error listing its refused definitions.
pub fn strict_check(origin: &str, tools: ToolSet, strict: bool) -> Result<ToolSet, String> {
    if strict && !tools.refused().is_empty() {
        let mut message = format!(
            "{origin}: {} tool definition(s) refused (--strict-tools):",
            tools.refused().len()
        );
        for refused in tools.refused() {
            message.push_str(&format!("\n  {}", refused_text(refused)));
        }
        return Err(message);
    }
    Ok(tools)
}

/// One refused definition on one line: the tool, where and why.
pub fn refused_text(refused: &RefusedDefinition) -> String {
    match &refused.name {
        Some(name) => format!("`{name}`: {}", refused.error),
        None => format!("definition {}: {}", refused.index, refused.error),
    }
}
