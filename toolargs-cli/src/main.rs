//! `toolargs`: replay tool-call logs against tool definitions, check single calls, gate MCP
//! servers, pin their tool definitions, and lint tool definitions for each provider.
//!
//! A thin shell over `toolargs_replay`, `toolargs_dynamic::Spec` and `toolargs_gate`; see
//! `toolargs --help`. This file holds the commands as `--help` describes them and hands each to
//! its module: `replay`, `check`, `gate`, `pin`, `lint`.

mod check;
mod gate;
mod lint;
mod listed;
mod output;
mod pin;
mod replay;
mod tools;

use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use toolargs_core::Dialect;
use toolargs_replay::InputFormat;

// Replay allocates and frees small strings for every line; mimalloc keeps that cheap.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "toolargs",
    version,
    about = "Replay LLM tool-call logs, check calls against tool definitions, gate MCP servers, pin their tool definitions, and lint tool definitions for each provider"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay logs of tool calls and count clean, repaired and rejected calls.
    ///
    /// Logs are JSON Lines in the replay's own format (`{"tool", "arguments", ...}`), the
    /// requests and responses of any provider `--input-format` names, OpenTelemetry GenAI
    /// spans, or provider streams (server-sent events, or one chunk or event per line, each
    /// call assembled from its pieces), detected per file; gzip and zstd files are
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
    Replay(replay::ReplayArgs),
    /// Check one call; exit code 0 when accepted, 1 when rejected.
    ///
    /// Definitions that do not load are noted on standard error; checking against one of them
    /// is an error (exit 2).
    Check(check::CheckArgs),
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
    /// A pin file (`--pin`, written by `toolargs pin`) holds the server to the tool
    /// definitions approved: a call to a tool whose listed definition is not the one pinned
    /// is refused (`tool_changed`, with what changed on stderr and in the verdict log), and
    /// so is a call to a tool not pinned (`tool_unpinned`). A pin file that does not load
    /// stops the gate before the server starts.
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
    Gate(Box<gate::GateArgs>),
    /// Pin a server's tool definitions, for `toolargs gate --pin` to hold it to them.
    ///
    /// Starts COMMAND (after `--`), or reaches the Streamable HTTP endpoint at `--upstream`,
    /// lists its tools as a client does (`initialize`, then `tools/list`, every page) and
    /// writes each tool's definition (`inputSchema`, `annotations`, `description`) and its
    /// SHA-256 to `--out`, as JSON sorted by tool name; the server is stopped, or its session
    /// ended. A server that lists a tool twice is an error, and nothing is written. Run it
    /// again to approve what a server lists now: what changed since the file's last pins is
    /// said on stderr, tool by tool.
    ///
    /// `toolargs gate --pin FILE` then refuses the calls to a tool whose listed definition is
    /// not the one pinned (`tool_changed`, with what changed on stderr and in the verdict
    /// log: a property added, a `maximum` dropped, ...) and to a tool not pinned
    /// (`tool_unpinned`).
    Pin(pin::PinArgs),
    /// Show what each provider would refuse or not be shown of a list of tools.
    ///
    /// Each tool is lowered to the strongest schema each provider accepts (the definition
    /// `Spec::tool_definition` and the Python and npm packages' `tool_definition` give). The
    /// table lists, per tool, dialect and keyword, what the provider is shown instead; the gate
    /// enforces every such keyword all the same ("enforces"), except annotations, which
    /// constrain nothing. A tool name outside a provider's rules is a refusal: the provider
    /// rejects the request, and toolargs never renames. Exit code 1 when a provider would
    /// refuse a tool or a definition does not load (with `--deny-lowered`, also when anything
    /// is shown lowered), 0 otherwise, 2 on a usage error.
    Lint(lint::LintArgs),
}

/// The values of an option that names a dialect: every dialect's name, as the core's registry
/// of providers makes them, which `--help` lists.
fn dialects() -> impl TypedValueParser<Value = Dialect> {
    PossibleValuesParser::new(Dialect::ALL.map(Dialect::name)).try_map(|name| {
        Dialect::from_name(&name)
            .ok_or_else(|| format!("unknown dialect `{name}` (one of {})", Dialect::names()))
    })
}

/// The values of `replay --input-format`: every format's name, a provider's as the core's
/// registry names it, which `--help` lists.
fn input_formats() -> impl TypedValueParser<Value = InputFormat> {
    PossibleValuesParser::new(InputFormat::names()).try_map(|name| name.parse::<InputFormat>())
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Replay(args) => replay::run(args),
        Command::Check(args) => check::run(args),
        Command::Gate(args) => gate::run(*args),
        Command::Pin(args) => pin::run(args),
        Command::Lint(args) => lint::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("toolargs: {message}");
            ExitCode::from(2)
        }
    }
}
