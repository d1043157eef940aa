//! `toolargs lint`: what each provider would refuse or not be shown of a list of tools, per
//! tool and keyword, and what the gate enforces instead; the exit code says whether a provider
//! would refuse a tool.

use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use toolargs_core::dialect::Change;
use toolargs_core::Dialect;
use toolargs_dynamic::{load_tool_list_lenient, Spec};

use crate::output::write_out;
use crate::replay::text::aligned;
use crate::tools::refused_text;

/// The options of `toolargs lint`.
#[derive(Args)]
pub struct LintArgs {
    /// Tool definitions: a JSON array, an object with a `tools` array, or an MCP `tools/list`
    /// response (any provider's shapes, mixed freely); `-` reads standard input. Without it,
    /// `-- COMMAND [ARGS...]` starts an MCP server and asks it.
    tools: Option<PathBuf>,
    /// The dialects to lint for (repeat, or separate with commas). Every dialect but
    /// json_schema when left out.
    #[arg(long, value_delimiter = ',', value_parser = crate::dialects())]
    dialect: Vec<Dialect>,
    /// `table` for people, `json` for programs.
    #[arg(long, value_enum, default_value = "table")]
    format: LintFormat,
    /// Exit 1 also when a provider is shown less than the schema says (a constraint the gate
    /// enforces alone), not only when a provider would refuse a tool; a keyword said another
    /// way that means the same does not count.
    #[arg(long)]
    deny_lowered: bool,
    /// In the table, also the keywords shown another way that means the same (an `allOf`
    /// merged, strict mode's `null` for an absent property); JSON always lists them.
    #[arg(long)]
    all: bool,
    /// The MCP server to start and ask for its tools (after `--`), as `gate` starts one.
    #[arg(last = true, conflicts_with = "tools")]
    command: Vec<std::ffi::OsString>,
}

/// How `lint` writes its findings.
#[derive(Clone, Copy, ValueEnum)]
pub enum LintFormat {
    /// Aligned columns.
    Table,
    /// One JSON document.
    Json,
}

/// One tool in one dialect: what the provider refuses, and what it is not shown.
struct Finding<'a> {
    tool: &'a str,
    dialect: Dialect,
    refusals: Vec<String>,
    changes: Vec<Change>,
}

/// Lints the tools and prints the findings; exit 1 when a provider would refuse a tool or a
/// definition does not load (or, with `--deny-lowered`, when anything is shown lowered).
pub fn run(args: LintArgs) -> Result<ExitCode, String> {
    let text = match (&args.tools, args.command.is_empty()) {
        (Some(path), _) if path.as_os_str() == "-" => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("standard input: {e}"))?;
            text
        }
        (Some(path), _) => {
            std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
        }
        (None, false) => {
            let tools = crate::listed::over_stdio(&args.command, "toolargs-lint")?;
            json!({ "tools": tools }).to_string()
        }
        (None, true) => return Err("name a tools file, `-`, or `-- COMMAND` to lint".into()),
    };
    let text = unwrapped_response(&text);
    let list = load_tool_list_lenient(&text).map_err(|e| e.to_string())?;
    let dialects = if args.dialect.is_empty() {
        // `json_schema` shows the schema as it is: nothing to lint.
        Dialect::ALL
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
            .collect()
    } else {
        args.dialect.clone()
    };
    let names: Vec<String> = list
        .indexed_specs()
        .map(|(index, spec)| tool_name(spec, index))
        .collect();
    let mut findings = Vec::new();
    for ((_, spec), name) in list.indexed_specs().zip(&names) {
        for &dialect in &dialects {
            let lowering = spec.lowering(dialect);
            findings.push(Finding {
                tool: name,
                dialect,
                refusals: lowering.refusals,
                changes: lowering.changes,
            });
        }
    }
    let unloaded: Vec<String> = list.refused.iter().map(refused_text).collect();
    let refused = findings.iter().any(|f| !f.refusals.is_empty()) || !unloaded.is_empty();
    // Told less than the schema says: a constraint the gate enforces alone.
    let lowered = findings
        .iter()
        .any(|f| f.changes.iter().any(|c| c.enforced && !c.exact));
    match args.format {
        LintFormat::Table => write_out(&table(&findings, &unloaded, args.all))?,
        LintFormat::Json => write_out(&format!("{:#}\n", report(&findings, &unloaded)))?,
    }
    Ok(if refused || args.deny_lowered && lowered {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The tool's name for the findings: its own, else its place in the list.
fn tool_name(spec: &Spec, index: usize) -> String {
    spec.name()
        .map_or_else(|| format!("#{index}"), str::to_owned)
}

/// The `tools` of an MCP `tools/list` response (`{"result": {"tools": [...]}}`), or the text
/// as it is.
fn unwrapped_response(text: &str) -> String {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return text.to_owned();
    };
    match value.pointer("/result/tools") {
        Some(tools) => json!({ "tools": tools }).to_string(),
        None => text.to_owned(),
    }
}

fn table(findings: &[Finding<'_>], unloaded: &[String], all: bool) -> String {
    let mut out = String::new();
    let head = [
        "tool",
        "dialect",
        "path",
        "keyword",
        "shown instead",
        "gate",
    ]
    .map(String::from);
    let mut rows: Vec<Vec<String>> = vec![head.to_vec()];
    for f in findings {
        for refusal in &f.refusals {
            rows.push(vec![
                f.tool.to_owned(),
                f.dialect.name().to_owned(),
                String::new(),
                "name".to_owned(),
                format!("refused: {refusal}"),
                "-".to_owned(),
            ]);
        }
        for c in f.changes.iter().filter(|c| all || !c.exact) {
            rows.push(vec![
                f.tool.to_owned(),
                f.dialect.name().to_owned(),
                if c.path.is_empty() {
                    "/".to_owned()
                } else {
                    c.path.clone()
                },
                c.keyword.clone(),
                c.instead.clone(),
                match (c.enforced, c.exact) {
                    (_, true) => "same",
                    (true, false) => "enforces",
                    (false, false) => "annotation",
                }
                .to_owned(),
            ]);
        }
    }
    let tools: std::collections::BTreeSet<&str> = findings.iter().map(|f| f.tool).collect();
    let refusals: usize = findings.iter().map(|f| f.refusals.len()).sum();
    let changes: usize = findings.iter().map(|f| f.changes.len()).sum();
    let exact: usize = findings
        .iter()
        .map(|f| f.changes.iter().filter(|c| c.exact).count())
        .sum();
    out.push_str(&format!(
        "{} tools: {refusals} refusals, {} keywords not shown as written, {exact} shown another way that means the same{}, {} definitions that do not load\n\n",
        tools.len(),
        changes - exact,
        if all || exact == 0 { "" } else { " (rows with --all)" },
        unloaded.len()
    ));
    if rows.len() > 1 {
        let rows: Vec<&[String]> = rows.iter().map(Vec::as_slice).collect();
        aligned(&mut out, &rows, 6);
    }
    for reason in unloaded {
        out.push_str(&format!("  does not load: {reason}\n"));
    }
    out
}

fn report(findings: &[Finding<'_>], unloaded: &[String]) -> Value {
    let tools: Vec<Value> = findings
        .iter()
        .map(|f| {
            json!({
                "tool": f.tool,
                "dialect": f.dialect.name(),
                "refusals": f.refusals,
                "changes": f.changes.iter().map(|c| json!({
                    "path": c.path,
                    "keyword": c.keyword,
                    "instead": c.instead,
                    "enforced": c.enforced,
                    "exact": c.exact,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "findings": tools,
        "refusals": findings.iter().map(|f| f.refusals.len()).sum::<usize>(),
        "changes": findings.iter().map(|f| f.changes.len()).sum::<usize>(),
        "unloaded": unloaded,
    })
}
