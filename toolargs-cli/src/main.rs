//! `toolargs`: replay tool-call logs against tool definitions, check single calls, and gate
//! MCP servers.
//!
//! A thin shell over `toolargs_replay`, `toolargs_dynamic::Spec` and `toolargs_gate`; see
//! `toolargs --help`.

mod baseline;
mod chain;
mod recorded;
mod render;

use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Value};
use toolargs_core::{ParseOptions, RawArgs};
use toolargs_replay::inputs::{self, Input, Spool};
use toolargs_replay::{InputFormat, LogSource, LogTools, RefusedDefinition, Replayer, ToolSet};

// Replay allocates and frees small strings for every line; mimalloc keeps that cheap.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "toolargs",
    version,
    about = "Replay LLM tool-call logs, check calls against tool definitions, and gate MCP servers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay logs of tool calls and count clean, repaired and rejected calls.
    ///
    /// Logs are JSON Lines in the replay's own format (`{"tool", "arguments", ...}`), OpenAI
    /// Chat Completions or Responses, Anthropic Messages, OpenTelemetry GenAI spans, MCP
    /// JSON-RPC traces, or provider streams (server-sent events, or one chunk or event per
    /// line, each call assembled from its pieces), detected per file; gzip and zstd files are
    /// decompressed. Tool
    /// definitions come from `--tools` and from the logs that carry them (`--tools` wins).
    ///
    /// A tool definition that does not load is listed in the report with where and why; calls
    /// to its tool count as `unchecked`, and the other tools replay as usual. Load warnings of
    /// the tools that loaded are listed too.
    ///
    /// A verdict log of `toolargs gate --log` is read as it is, without definitions: its
    /// recorded verdicts are counted by tool and outcome, code, rule, session and hour (or day,
    /// for a log of more than two days; the HTML page leads with a chart of them). Lines that
    /// carry their arguments (`--log-arguments`) are judged again against `--tools`, and the
    /// report lists where today's policy decides differently from the recorded verdict.
    Replay {
        /// Tool definitions: a JSON array, or an object with a `tools` array (OpenAI, Anthropic,
        /// Gemini or MCP shapes, mixed freely). Optional when the logs carry definitions.
        #[arg(long)]
        tools: Option<PathBuf>,
        /// The format of the logs: auto (detected per file from its first records), lines,
        /// openai-chat, openai-responses, anthropic, otel, mcp, stream, or gate (a verdict log
        /// of `toolargs gate`).
        #[arg(long, default_value = "auto")]
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
    },
    /// Check one call; exit code 0 when accepted, 1 when rejected.
    ///
    /// Definitions that do not load are noted on standard error; checking against one of them
    /// is an error (exit 2).
    Check {
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
    },
    /// Put the toolargs policy in front of an MCP server, over stdio or Streamable HTTP.
    ///
    /// Starts COMMAND and is an MCP server on this process's stdin and stdout in front of it:
    /// a client config changes from `"command": "uvx", "args": ["mcp-server-time"]` to
    /// `"command": "toolargs", "args": ["gate", "--", "uvx", "mcp-server-time"]`. Each tool's
    /// `inputSchema` and annotations come from the server's `tools/list` results; every
    /// `tools/call` is judged before it reaches the server: clean calls go on unchanged,
    /// repaired calls go on repaired, rejected calls come back to the client as a tool result
    /// with `isError: true` and the errors for the model. No call passes unjudged: a call the
    /// gate cannot judge yet (the client never listed the tools, or the server said they
    /// changed) waits while the gate asks the server for its tools itself, and a tool the
    /// server does not list is refused (`--unlisted`). Everything else passes through. The
    /// server's stderr is this process's, its exit status becomes the gate's, and on Unix a
    /// SIGTERM, SIGINT, SIGHUP or SIGQUIT sent to the gate is sent on to the server (a SIGUSR1
    /// is the gate's own: it reopens the `--log` file).
    ///
    /// A policy file (`--policy`, TOML or JSON) says what the server does not, per tool name
    /// or glob (`*`, `?`; an exact name wins, then the first glob in the file): `effect`
    /// (over the annotations), `unknown` (`strip` or `reject`, over the effect), `strict`
    /// (fields never repaired) and `confirm` (ask the user through an MCP elicitation before
    /// forwarding; refused when the client cannot be asked). A file that does not load stops
    /// the gate before the server starts, naming the line and column.
    ///
    /// With `--listen ADDR --upstream URL` instead of a command, the gate is a Streamable HTTP
    /// endpoint at ADDR, with the path of URL, in front of the server's endpoint at URL: a
    /// client's `"url": "http://127.0.0.1:8000/mcp"` becomes `"http://127.0.0.1:8931/mcp"`
    /// for `--listen 127.0.0.1:8931 --upstream http://127.0.0.1:8000/mcp`. Headers (sessions,
    /// protocol versions, authorization) pass through, event streams are relayed as they
    /// come, each session has a gate of its own, and many clients are served at once. A call
    /// the policy says to confirm is confirmed in the rounds of the 2026-07-28 revision (an
    /// `input_required` answer), and refused (`confirmation_unavailable`) in an earlier
    /// revision, which has no way over HTTP to ask. The address listened on is printed on
    /// stderr once the gate is ready (port 0 picks a free port).
    Gate {
        /// Append one JSON line per `tools/call` to this file (never truncated): time,
        /// timestamp (RFC 3339), session, tool, outcome, codes, rules, paths, latency_us,
        /// confirmed. Each line is one write, whole, also with several gates on one file; on
        /// Unix, SIGUSR1 reopens the path (rotation by mv), and copytruncate works as is.
        #[arg(long)]
        log: Option<PathBuf>,
        /// Add each call's arguments, as sent, to the log lines (`toolargs replay` then reads
        /// the log as calls).
        #[arg(long, requires = "log")]
        log_arguments: bool,
        /// Chain the log's lines: each carries `prev`, the SHA-256 of the file's line before
        /// it (64 zeros for the first), so that an edited or deleted line is found.
        #[arg(long, requires = "log")]
        log_chain: bool,
        /// Calls to a tool whose definition did not load: passed on unchecked, or refused.
        #[arg(long, value_enum, default_value = "pass")]
        unchecked: UncheckedCalls,
        /// Calls to a tool the server does not list (the gate asks it for its tools before
        /// it refuses): refused (`unknown_tool`), or passed on unchecked.
        #[arg(long, value_enum, default_value = "refuse")]
        unlisted: UnlistedCalls,
        /// A policy file, TOML or JSON: per tool or glob, `effect`, `unknown`, `strict` and
        /// `confirm`.
        #[arg(long)]
        policy: Option<PathBuf>,
        /// Serve Streamable HTTP at this address (e.g. 127.0.0.1:8931) in front of `--upstream`,
        /// instead of starting a server.
        #[arg(
            long,
            value_name = "ADDR",
            requires = "upstream",
            conflicts_with = "command"
        )]
        listen: Option<std::net::SocketAddr>,
        /// The server's Streamable HTTP endpoint, with `--listen` (e.g.
        /// http://127.0.0.1:8000/mcp).
        #[arg(long, value_name = "URL", requires = "listen")]
        upstream: Option<String>,
        /// Serve Prometheus metrics at http://ADDR/metrics (calls by tool and outcome, error
        /// codes, repairs, added latency, upstream errors, sessions) and a health check at
        /// http://ADDR/healthz (200 while the gate serves, 503 once its server ended or it
        /// drains). Port 0 picks a free port; the address is printed on stderr.
        #[arg(long, value_name = "ADDR")]
        metrics: Option<std::net::SocketAddr>,
        /// With --listen: the most requests handled at once, open event streams included;
        /// one more is answered 503 [default: 1024].
        #[arg(long, value_name = "N", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
        max_requests: Option<u64>,
        /// With --listen: the most sessions kept; past it, the one unused the longest is
        /// forgotten [default: 4096].
        #[arg(long, value_name = "N", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
        max_sessions: Option<u64>,
        /// With --listen: the most bytes of a request's body; a longer one is answered 413
        /// [default: 67108864, 64 MiB].
        #[arg(long, value_name = "N", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
        max_body_bytes: Option<u64>,
        /// With --listen: on SIGTERM or SIGINT the gate answers new requests 503, waits this
        /// long at most for those in flight, and exits 0 (a second signal ends the wait)
        /// [default: 30].
        #[arg(long, value_name = "SECS", requires = "listen")]
        drain_timeout: Option<u64>,
        /// The server to start, and its arguments (after `--`).
        #[arg(required_unless_present = "listen", last = true)]
        command: Vec<std::ffi::OsString>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum UncheckedCalls {
    /// Pass them on to the server.
    Pass,
    /// Refuse them with an error result.
    Block,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum UnlistedCalls {
    /// Refuse them with an error result.
    Refuse,
    /// Pass them on to the server unchecked.
    Pass,
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

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("toolargs: {message}");
            ExitCode::from(2)
        }
    }
}

/// Loads every definition that loads; with `strict`, any refused definition is the error.
fn load_tools(path: &PathBuf, strict: bool) -> Result<ToolSet, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let tools =
        ToolSet::from_json_lenient(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    strict_check(&path.display().to_string(), tools, strict)
}

/// The tools of `--tools` (if any) and then those the logs carry that `--tools` does not name.
fn replay_tools(
    path: Option<&PathBuf>,
    strict: bool,
    inputs: &[Input],
    format: InputFormat,
) -> Result<ToolSet, String> {
    let mut tools = match path {
        Some(path) => load_tools(path, strict)?,
        None => ToolSet::new(),
    };
    if format.carries_definitions() {
        let found = LogTools::from_inputs(inputs, format).map_err(|e| e.to_string())?;
        if !found.is_empty() {
            let from_logs = found
                .tool_set()
                .map_err(|e| format!("tool definitions in the logs: {e}"))?;
            tools.add_missing(strict_check("the logs", from_logs, strict)?);
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

/// `tools`, or with `strict` the error listing its refused definitions.
fn strict_check(origin: &str, tools: ToolSet, strict: bool) -> Result<ToolSet, String> {
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
fn refused_text(refused: &RefusedDefinition) -> String {
    match &refused.name {
        Some(name) => format!("`{name}`: {}", refused.error),
        None => format!("definition {}: {}", refused.index, refused.error),
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Gate {
            log,
            log_arguments,
            log_chain,
            unchecked,
            unlisted,
            policy,
            listen,
            upstream,
            metrics,
            max_requests,
            max_sessions,
            max_body_bytes,
            drain_timeout,
            command,
        } => {
            // Before anything starts: a policy that does not load is the whole answer.
            let policy = match policy {
                Some(path) => toolargs_gate::Policy::load(&path).map_err(|e| e.to_string())?,
                None => toolargs_gate::Policy::default(),
            };
            let log = match log {
                Some(path) => {
                    let options = toolargs_gate::LogOptions {
                        arguments: log_arguments,
                        chain: log_chain,
                    };
                    Some(
                        toolargs_gate::VerdictLog::open(&path, options)
                            .map_err(|e| format!("{}: {e}", path.display()))?,
                    )
                }
                None => None,
            };
            let unchecked = match unchecked {
                UncheckedCalls::Pass => toolargs_gate::Unchecked::Pass,
                UncheckedCalls::Block => toolargs_gate::Unchecked::Block,
            };
            let unlisted = match unlisted {
                UnlistedCalls::Refuse => toolargs_gate::Unlisted::Refuse,
                UnlistedCalls::Pass => toolargs_gate::Unlisted::Pass,
            };
            // Before the server starts, so that every call is counted.
            let (metrics, _metrics_server) = match metrics {
                Some(address) => {
                    let metrics = Arc::new(toolargs_gate::Metrics::new());
                    let server = toolargs_gate::MetricsServer::start(address, metrics.clone())
                        .map_err(|e| format!("--metrics {address}: {e}"))?;
                    // Tests and scripts wait for this line.
                    eprintln!(
                        "toolargs gate: metrics on http://{}/metrics",
                        server.local_addr()
                    );
                    (Some(metrics), Some(server))
                }
                None => (None, None),
            };
            if let (Some(listen), Some(upstream)) = (listen, upstream) {
                let new_gate = move || {
                    toolargs_gate::Gate::new()
                        .with_unchecked(unchecked)
                        .with_unlisted(unlisted)
                        .with_policy(policy.clone())
                };
                let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
                let defaults = toolargs_gate::HttpOptions::default();
                let options = defaults
                    .with_max_requests(max_requests.map_or(defaults.max_requests, size))
                    .with_max_sessions(max_sessions.map_or(defaults.max_sessions, size))
                    .with_max_body_bytes(max_body_bytes.map_or(defaults.max_body_bytes, size))
                    .with_drain_timeout(
                        drain_timeout
                            .map_or(defaults.drain_timeout, std::time::Duration::from_secs),
                    );
                let mut gate = toolargs_gate::HttpGate::bind(listen, &upstream, new_gate, log)
                    .map_err(|e| format!("{listen}: {e}"))?
                    .with_options(options);
                if let Some(metrics) = &metrics {
                    gate = gate.with_metrics(metrics.clone());
                }
                gate.drain_on_signals()
                    .map_err(|e| format!("cannot handle signals: {e}"))?;
                // Tests and scripts wait for this line.
                eprintln!(
                    "toolargs gate: listening on {} in front of {upstream}",
                    gate.endpoint()
                );
                gate.serve().map_err(|e| format!("{listen}: {e}"))?;
                return Ok(ExitCode::SUCCESS);
            }
            let gate = toolargs_gate::Gate::new()
                .with_unchecked(unchecked)
                .with_unlisted(unlisted)
                .with_policy(policy);
            let (program, args) = command.split_first().ok_or("no server command given")?;
            let code = toolargs_gate::run_stdio_with_metrics(gate, program, args, log, metrics)
                .map_err(|e| format!("{}: {e}", program.to_string_lossy()))?;
            Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
        }
        Command::Replay {
            tools,
            input_format,
            strict_tools,
            by,
            format,
            against,
            max_rise,
            jobs,
            with_arguments,
            logs,
        } => {
            let mut inputs = inputs::expand(&logs).map_err(|e| e.to_string())?;
            // Without --tools the definitions may come from standard input itself, which is
            // then read twice and so copied to a file first; with --tools it is streamed, and
            // only its calls are read. A gate's verdict log is read again for its hash chain.
            let stdin_at = inputs.iter().position(|i| *i == Input::Stdin);
            let read_twice = tools.is_none() && input_format.carries_definitions()
                || input_format == InputFormat::Gate;
            let _spool = match stdin_at {
                Some(at) if read_twice => {
                    let spool = Spool::stdin().map_err(|e| format!("-: {e}"))?;
                    inputs[at] = spool.input();
                    Some(spool)
                }
                _ => None,
            };
            let tools = replay_tools(tools.as_ref(), strict_tools, &inputs, input_format)?;
            let baseline = match &against {
                Some(path) => Some(baseline::Baseline::read(path)?),
                None => None,
            };
            let workers =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let mut replayer = Replayer::new(&tools, by);
            if format == Format::Jsonl {
                replayer = replayer.with_verdicts(with_arguments);
            }
            // Progress counts the bytes as stored (compressed files by their compressed size).
            let read = Arc::new(AtomicU64::new(0));
            let bar = progress_bar(inputs.iter().map(Input::size).sum());
            let current = std::cell::RefCell::new(String::new());
            let sources = inputs.iter().map(|input| {
                *current.borrow_mut() = input.name();
                input
                    .open(read.clone())
                    .map(|reader| LogSource {
                        name: input.name(),
                        format: input_format,
                        reader,
                    })
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", input.name())))
            });
            let mut stdout = io::stdout().lock();
            let verdicts: Option<&mut dyn Write> = if format == Format::Jsonl {
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
            let mut report = match report {
                Ok(report) => report,
                // A closed pipe (`| head`) is not an error worth reporting.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
                Err(e) => {
                    let name = current.borrow();
                    let message = e.to_string();
                    return Err(if message.starts_with(name.as_str()) {
                        message
                    } else {
                        format!("{name}: {message}")
                    });
                }
            };
            let _ = stdout.flush();
            drop(stdout);
            report.chains = chain::check(&inputs, input_format)?;
            if format == Format::Jsonl {
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
            let text = match format {
                Format::Jsonl => String::new(),
                Format::Table => render::table(&report),
                Format::Json => format!(
                    "{}\n",
                    serde_json::to_string_pretty(&report.to_json()).unwrap_or_default()
                ),
                Format::Markdown => render::markdown(&report),
                Format::Html => render::html(&report),
            };
            write_out(&text)?;
            match baseline {
                Some(baseline) => {
                    let comparison = baseline.compare(&report.overall, max_rise);
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
        Command::Check {
            tools: path,
            strict_tools,
            tool,
            args,
        } => {
            let tools = load_tools(&path, strict_tools)?;
            if let Some(refused) = tools.refusal(tool.as_deref()) {
                return Err(format!(
                    "{}: nothing to check against, the definition was refused: {}",
                    path.display(),
                    refused_text(refused)
                ));
            }
            for refused in tools.refused() {
                eprintln!(
                    "toolargs: note: {}: refused {}",
                    path.display(),
                    refused_text(refused)
                );
            }
            // The checked tool, to show its warnings with pointers into the tools file.
            let name = tool
                .clone()
                .or_else(|| tools.names().next().map(str::to_owned));
            let gate = tools.gate(tool.as_deref()).map_err(|reason| match tool {
                Some(name) => format!(
                    "no tool named `{name}` (tools: {})",
                    tools.names().collect::<Vec<_>>().join(", ")
                ),
                None => format!(
                    "{}: name one with --tool (tools: {})",
                    reason.as_str(),
                    tools.names().collect::<Vec<_>>().join(", ")
                ),
            })?;
            for w in tools.warnings() {
                if Some(&w.tool) == name.as_ref() {
                    eprintln!(
                        "toolargs: warning: {}: `{}`: {}",
                        path.display(),
                        w.tool,
                        w.warning
                    );
                }
            }
            let text = match args.as_deref() {
                None | Some("-") => {
                    let mut text = String::new();
                    io::stdin()
                        .read_to_string(&mut text)
                        .map_err(|e| format!("stdin: {e}"))?;
                    text
                }
                Some(text) => text.to_owned(),
            };
            match gate.parse_json(
                &RawArgs::from(text.trim_end_matches(['\n', '\r'])),
                &ParseOptions::DEFAULT,
            ) {
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
    }
}

fn write_out(text: &str) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("stdout: {e}")),
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
