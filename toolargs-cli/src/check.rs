//! `toolargs check`: one call judged against the tool definitions of a file; the canonical
//! arguments and the repairs (exit 0), or the model-facing errors (exit 1).

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Value};
use toolargs_core::{ParseOptions, Parsed, RawArgs, Rejection};
use toolargs_replay::ToolSet;

use crate::output::write_out;
use crate::tools;

/// The options of `toolargs check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Tool definitions, as for `replay`.
    #[arg(long)]
    tools: PathBuf,
    /// Fail (exit 2, with every reason) when any tool definition does not load.
    #[arg(long)]
    strict_tools: bool,
    /// The tool to check against (optional when the definitions hold one tool).
    #[arg(long)]
    tool: Option<String>,
    /// The arguments (JSON text); `-` or nothing reads standard input.
    args: Option<String>,
}

/// Checks the call and prints its verdict; a definition that does not load, or a tool that
/// is not there to check against, is the error.
pub fn run(args: CheckArgs) -> Result<ExitCode, String> {
    let path = &args.tools;
    let tool = args.tool.as_deref();
    let tools = tools::load(path, args.strict_tools)?;
    note_refused(&tools, path, tool)?;
    let names = || tools.names().collect::<Vec<_>>().join(", ");
    let judge = tools.judge(tool).map_err(|reason| match tool {
        Some(name) => format!("no tool named `{name}` (tools: {})", names()),
        None => format!(
            "{}: name one with --tool (tools: {})",
            reason.as_str(),
            names()
        ),
    })?;
    // The checked tool's warnings, with pointers into the tools file.
    let checked = tool.or_else(|| tools.names().next());
    for w in tools.warnings() {
        if Some(w.tool.as_str()) == checked {
            eprintln!(
                "toolargs: warning: {}: `{}`: {}",
                path.display(),
                w.tool,
                w.warning
            );
        }
    }
    let text = arguments_text(args.args.as_deref())?;
    print_verdict(judge.parse_json(
        &RawArgs::from(text.trim_end_matches(['\n', '\r'])),
        &ParseOptions::DEFAULT,
    ))
}

/// The error when the checked tool's definition was refused; otherwise each refused
/// definition noted on standard error.
fn note_refused(tools: &ToolSet, path: &Path, tool: Option<&str>) -> Result<(), String> {
    if let Some(refused) = tools.refusal(tool) {
        return Err(format!(
            "{}: nothing to check against, the definition was refused: {}",
            path.display(),
            tools::refused_text(refused)
        ));
    }
    for refused in tools.refused() {
        eprintln!(
            "toolargs: note: {}: refused {}",
            path.display(),
            tools::refused_text(refused)
        );
    }
    Ok(())
}

/// The arguments as given, or read from standard input for `-` or none.
fn arguments_text(args: Option<&str>) -> Result<String, String> {
    match args {
        None | Some("-") => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("stdin: {e}"))?;
            Ok(text)
        }
        Some(text) => Ok(text.to_owned()),
    }
}

/// Prints the canonical arguments and repairs (exit 0) or the errors for the model (exit 1).
fn print_verdict(verdict: Result<Parsed<Value>, Rejection>) -> Result<ExitCode, String> {
    match verdict {
        Ok(parsed) => {
            let repairs: Vec<Value> = parsed
                .repairs
                .iter()
                .map(|r| json!({"path": r.path, "rule": r.rule.as_str(), "before": r.before, "after": r.after}))
                .collect();
            let out = json!({"ok": true, "arguments": parsed.args, "repairs": repairs});
            write_out(&format!(
                "{}\n",
                serde_json::to_string_pretty(&out).unwrap_or_default()
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(rejection) => {
            write_out(&format!("{}\n", rejection.for_model()))?;
            Ok(ExitCode::from(1))
        }
    }
}
