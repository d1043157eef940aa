//! `toolargs replay`: logs of tool calls replayed against tool definitions, or a gate's
//! verdict log read as it is, and the report in the format asked for.
//!
//! `render` writes the human formats of the report (`recorded` the tables and chart of a
//! verdict log's verdicts), `chain` checks the hash chain of verdict logs, and `baseline`
//! compares the rates with an earlier report.

mod baseline;
mod chain;
mod recorded;
mod render;
pub(crate) mod text;

use std::cell::RefCell;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use toolargs_core::Dialect;
use toolargs_replay::inputs::{self, Input, Spool};
use toolargs_replay::{InputFormat, LogSource, LogTools, Replayer, Report, Shown, ToolSet};

use crate::output::write_out;
use crate::tools;

/// The options of `toolargs replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// Tool definitions: a JSON array, or an object with a `tools` array (any provider's
    /// shapes, mixed freely). Optional when the logs carry definitions.
    #[arg(long)]
    tools: Option<PathBuf>,
    /// The format of the logs: auto (detected per file from its first records), lines (the
    /// replay's own), a provider's requests and responses, otel, stream, or gate (a verdict
    /// log of `toolargs gate`).
    #[arg(long, default_value = "auto", value_parser = crate::input_formats())]
    input_format: InputFormat,
    /// Fail (exit 2, with every reason) when any tool definition does not load, instead of
    /// replaying the others and counting calls to the refused tools as `unchecked`.
    #[arg(long)]
    strict_tools: bool,
    /// Group counters by these top-level record fields (e.g. model,prompt_version).
    #[arg(long, value_delimiter = ',')]
    by: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// The dialect the model was shown the tools in: the report lists, per tool and field, the keywords that dialect does not show, which the
    /// gate enforced alone, beside the field's rejections (JSON and HTML).
    #[arg(long, value_name = "DIALECT", value_parser = crate::dialects())]
    shown: Option<Dialect>,
    /// An earlier `--format json` report: print rate changes and fail on a regression.
    #[arg(long)]
    against: Option<PathBuf>,
    /// Largest tolerated rise of any repair or rejection rate, in percentage points.
    #[arg(long, default_value_t = 1.0)]
    max_rise: f64,
    /// Worker threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// With `--format jsonl`: write each call's arguments in its verdict too.
    #[arg(long)]
    with_arguments: bool,
    /// The logs: files, directories (their `*.jsonl`, `*.ndjson`, `*.json` and `*.log`
    /// files, also `.gz` or `.zst`, recursively), glob patterns, or `-` for standard input.
    #[arg(required = true)]
    logs: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Json,
    Markdown,
    Html,
    /// One verdict per call, as JSON Lines (the report's other formats are summaries).
    Jsonl,
}

/// Replays the logs and prints the report; exit 1 when `--against` finds a regression.
pub fn run(args: ReplayArgs) -> Result<ExitCode, String> {
    let mut inputs = inputs::expand(&args.logs).map_err(|e| e.to_string())?;
    // Held until the replay ends: the copy of standard input is removed when it drops.
    let _spool = spool_stdin(&mut inputs, &args)?;
    let tools = replay_tools(
        args.tools.as_ref(),
        args.strict_tools,
        &inputs,
        args.input_format,
    )?;
    let baseline = match &args.against {
        Some(path) => Some(baseline::Baseline::read(path)?),
        None => None,
    };
    let Some(mut report) = replay(&tools, &inputs, &args)? else {
        // A closed pipe (`| head`) is not an error worth reporting.
        return Ok(ExitCode::SUCCESS);
    };
    report.chains = chain::check(&inputs, args.input_format)?;
    report.shown = args.shown.map(|dialect| Shown::of(&tools, dialect));
    if args.format == Format::Jsonl {
        // The verdicts hold one line per record; where a chain breaks is said here.
        for check in &report.chains {
            if let Some((line, why)) = &check.broken {
                eprintln!(
                    "toolargs: {}:{line}: the hash chain breaks: {why}",
                    check.source
                );
            }
        }
    }
    write_out(&rendered(&report, args.format))?;
    match baseline {
        Some(baseline) => {
            let comparison = baseline.compare(&report.overall, args.max_rise);
            eprint!("{}", comparison.text);
            Ok(if comparison.regressed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Standard input copied to a file when it is read twice, and the input pointed at the copy.
///
/// Without `--tools` the definitions may come from standard input itself, which is then read
/// twice; with `--tools` it is streamed, and only its calls are read. A gate's verdict log is
/// read again for its hash chain.
fn spool_stdin(inputs: &mut [Input], args: &ReplayArgs) -> Result<Option<Spool>, String> {
    let stdin_at = inputs.iter().position(|i| *i == Input::Stdin);
    let read_twice = args.tools.is_none() && args.input_format.carries_definitions()
        || args.input_format == InputFormat::Gate;
    match stdin_at {
        Some(at) if read_twice => {
            let spool = Spool::stdin().map_err(|e| format!("-: {e}"))?;
            inputs[at] = spool.input();
            Ok(Some(spool))
        }
        _ => Ok(None),
    }
}

/// The tools of `--tools` (if any) and then those the logs carry that `--tools` does not name.
fn replay_tools(
    path: Option<&PathBuf>,
    strict: bool,
    inputs: &[Input],
    format: InputFormat,
) -> Result<ToolSet, String> {
    let mut tools = match path {
        Some(path) => tools::load(path, strict)?,
        None => ToolSet::new(),
    };
    if format.carries_definitions() {
        let found = LogTools::from_inputs(inputs, format).map_err(|e| e.to_string())?;
        if !found.is_empty() {
            let from_logs = found
                .tool_set()
                .map_err(|e| format!("tool definitions in the logs: {e}"))?;
            tools.add_missing(tools::strict_check("the logs", from_logs, strict)?);
        }
    }
    if tools.is_empty() && tools.refused().is_empty() && !reads_verdicts(inputs, format)? {
        return Err(
            "no tool definitions: give --tools, or logs whose records carry them".to_owned(),
        );
    }
    Ok(tools)
}

/// True when some input is a gate's verdict log, whose recorded verdicts replay without
/// definitions.
fn reads_verdicts(inputs: &[Input], format: InputFormat) -> Result<bool, String> {
    match format {
        InputFormat::Gate => Ok(true),
        InputFormat::Auto => {
            for input in inputs {
                let found =
                    InputFormat::of_input(input).map_err(|e| format!("{}: {e}", input.name()))?;
                if found == InputFormat::Gate {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        _ => Ok(false),
    }
}

/// The report of every input, with `--format jsonl` each verdict written to standard output
/// as it comes; `None` when standard output was closed. An error names the input it came
/// from.
fn replay(tools: &ToolSet, inputs: &[Input], args: &ReplayArgs) -> Result<Option<Report>, String> {
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut replayer = Replayer::new(tools, args.by.clone());
    if args.format == Format::Jsonl {
        replayer = replayer.with_verdicts(args.with_arguments);
    }
    // Progress counts the bytes as stored (compressed files by their compressed size).
    let read = Arc::new(AtomicU64::new(0));
    let bar = progress_bar(inputs.iter().map(Input::size).sum());
    let current = RefCell::new(String::new());
    let sources = inputs.iter().map(|input| {
        *current.borrow_mut() = input.name();
        input
            .open(read.clone())
            .map(|reader| LogSource {
                name: input.name(),
                format: args.input_format,
                reader,
            })
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", input.name())))
    });
    let mut stdout = io::stdout().lock();
    let verdicts: Option<&mut dyn Write> = if args.format == Format::Jsonl {
        Some(&mut stdout)
    } else {
        None
    };
    let report = replayer.run_sources(
        sources,
        workers,
        |_| {
            if let Some(bar) = &bar {
                bar.set_position(read.load(Ordering::Relaxed));
            }
        },
        verdicts,
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match report {
        Ok(report) => {
            let _ = stdout.flush();
            Ok(Some(report))
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(None),
        Err(e) => {
            let name = current.borrow();
            let message = e.to_string();
            Err(if message.starts_with(name.as_str()) {
                message
            } else {
                format!("{name}: {message}")
            })
        }
    }
}

/// The report in `format`; empty for `jsonl`, whose verdicts are written already.
fn rendered(report: &Report, format: Format) -> String {
    match format {
        Format::Jsonl => String::new(),
        Format::Table => render::table(report),
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&report.to_json()).unwrap_or_default()
        ),
        Format::Markdown => render::markdown(report),
        Format::Html => render::html(report),
    }
}

/// A progress bar on stderr, only when stderr is a terminal and the size is known.
fn progress_bar(size: u64) -> Option<indicatif::ProgressBar> {
    if size == 0 || !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(size);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}
