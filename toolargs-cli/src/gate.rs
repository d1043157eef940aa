//! `toolargs gate`: the toolargs policy in front of an MCP server, started as a child over
//! stdio or reached at a Streamable HTTP endpoint.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use toolargs_core::Dialect;
use toolargs_gate::{
    Actions, Gate, HttpGate, HttpOptions, LogOptions, Metrics, MetricsServer, Pins, Policy,
    SessionOptions, Unchecked, Unlisted, VerdictLog,
};

/// The options of `toolargs gate`.
#[derive(Args)]
pub struct GateArgs {
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
    /// Calls to a tool whose definition did not load: refused (`unchecked`), or passed on
    /// unchecked.
    #[arg(long, value_enum, default_value = "block")]
    unchecked: UncheckedCalls,
    /// Calls to a tool the server does not list (the gate asks it for its tools before
    /// it refuses): refused (`unknown_tool`), or passed on unchecked.
    #[arg(long, value_enum, default_value = "refuse")]
    unlisted: UnlistedCalls,
    /// Show the client each tool's schema lowered for this provider's dialect in `tools/list`
    /// results, while every call is judged by the full schema the server listed. Off by
    /// default: clients see what the server sent.
    #[arg(long, value_name = "DIALECT", value_parser = crate::dialects())]
    present: Option<Dialect>,
    /// A policy file, TOML or JSON: per tool or glob, `effect`, `unknown`, `strict`,
    /// `confirm`, `meaning` and `idempotent`.
    #[arg(long)]
    policy: Option<PathBuf>,
    /// A pin file of `toolargs pin`: calls to a tool whose listed definition (inputSchema,
    /// annotations, description) is not the one pinned are refused tool_changed, with what
    /// changed on stderr and in the log; calls to a tool not pinned, tool_unpinned.
    #[arg(long, value_name = "FILE")]
    pin: Option<PathBuf>,
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
    /// With --listen: the threads that serve the requests [default: one for every two
    /// cores, at least 1].
    #[arg(long, value_name = "N", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
    worker_threads: Option<u64>,
    /// With --listen: the seconds a client has to send a request's headers; past them the
    /// connection is closed, as is a kept-alive connection idle that long [default: 10].
    #[arg(long, value_name = "SECS", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout: Option<u64>,
    /// With --listen: the seconds a client has to send a request's body; past them the
    /// request is answered 408 and the connection closed [default: 30].
    #[arg(long, value_name = "SECS", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
    body_timeout: Option<u64>,
    /// With --listen: the most requests of one client address handled at once; one more is
    /// answered 429 [default: 64].
    #[arg(long, value_name = "N", requires = "listen", value_parser = clap::value_parser!(u64).range(1..))]
    max_requests_per_client: Option<u64>,
    /// With --listen: relay requests to paths that start with PREFIX whatever their body
    /// (an OAuth token endpoint's forms, say); may be given more than once. A body that
    /// reads as JSON is judged as a message on any path; any other body to a path that is
    /// not the endpoint and not relayed is answered 404.
    #[arg(long, value_name = "PREFIX", requires = "listen")]
    relay_path: Vec<String>,
    /// With --listen: requests without an MCP session belong to the client this request
    /// header names (one a proxy in front of the gate sets), each with a gate of its own:
    /// its corrections and repeated actions are its own [default: all share one].
    #[arg(long, value_name = "NAME", requires = "listen")]
    session_header: Option<String>,
    /// For the tools whose meaning is declared: the calls to a tool after its call was
    /// rejected before the next is refused retry_budget_exhausted [default: 2].
    #[arg(long, value_name = "N")]
    corrections_per_tool: Option<u32>,
    /// For the tools whose meaning is declared: the corrections in a session, over every
    /// tool [default: 20].
    #[arg(long, value_name = "N")]
    corrections_per_session: Option<u32>,
    /// For the tools whose meaning is declared and that write, delete, pay or notify: how
    /// long an action forwarded makes the same action a duplicate, held for the user's
    /// confirmation or refused duplicate_action [default: 600].
    #[arg(long, value_name = "SECS")]
    duplicate_window: Option<u64>,
    /// Over HTTP: an action forwarded in any session is a duplicate in every other within
    /// the window (the same refund sent by two clients) [default: each session's own].
    #[arg(long, requires = "listen")]
    duplicates_across_sessions: bool,
    /// The server to start, and its arguments (after `--`).
    #[arg(required_unless_present = "listen", last = true)]
    command: Vec<std::ffi::OsString>,
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

/// What the gate serves with, set up before the server starts.
struct Setup {
    present: Option<Dialect>,
    policy: Policy,
    pins: Option<Pins>,
    log: Option<VerdictLog>,
    unchecked: Unchecked,
    unlisted: Unlisted,
    metrics: Option<Arc<Metrics>>,
    meaning: SessionOptions,
}

/// Serves until the server ends (its exit status is the gate's) or, over HTTP, until a drain
/// ends (exit 0).
pub fn run(args: GateArgs) -> Result<ExitCode, String> {
    // Before anything starts: a policy that does not load is the whole answer.
    let policy = match &args.policy {
        Some(path) => Policy::load(path).map_err(|e| e.to_string())?,
        None => Policy::default(),
    };
    // So is a pin file.
    let pins = match &args.pin {
        Some(path) => Some(Pins::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let log = match &args.log {
        Some(path) => {
            let options = LogOptions {
                arguments: args.log_arguments,
                chain: args.log_chain,
            };
            Some(VerdictLog::open(path, options).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let unchecked = match args.unchecked {
        UncheckedCalls::Pass => Unchecked::Pass,
        UncheckedCalls::Block => Unchecked::Block,
    };
    let unlisted = match args.unlisted {
        UnlistedCalls::Refuse => Unlisted::Refuse,
        UnlistedCalls::Pass => Unlisted::Pass,
    };
    // Before the server starts, so that every call is counted. The server stops when it drops.
    let (metrics, _metrics_server) = match args.metrics {
        Some(address) => {
            let (metrics, server) = serve_metrics(address)?;
            (Some(metrics), Some(server))
        }
        None => (None, None),
    };
    let defaults = SessionOptions::default();
    let meaning = defaults
        .with_corrections_per_tool(
            args.corrections_per_tool
                .unwrap_or(defaults.corrections_per_tool),
        )
        .with_corrections_per_session(
            args.corrections_per_session
                .unwrap_or(defaults.corrections_per_session),
        )
        .with_duplicate_window(
            args.duplicate_window
                .map_or(defaults.duplicate_window, Duration::from_secs),
        );
    let setup = Setup {
        present: args.present,
        policy,
        pins,
        log,
        unchecked,
        unlisted,
        metrics,
        meaning,
    };
    match (args.listen, &args.upstream) {
        (Some(listen), Some(upstream)) => serve_http(listen, upstream, &args, setup),
        _ => serve_stdio(&args.command, setup),
    }
}

/// The metrics and their server at `address`, announced on stderr.
fn serve_metrics(address: SocketAddr) -> Result<(Arc<Metrics>, MetricsServer), String> {
    let metrics = Arc::new(Metrics::new());
    let server = MetricsServer::start(address, metrics.clone())
        .map_err(|e| format!("--metrics {address}: {e}"))?;
    // Tests and scripts wait for this line.
    eprintln!(
        "toolargs gate: metrics on http://{}/metrics",
        server.local_addr()
    );
    Ok((metrics, server))
}

/// The limits of `--max-requests`, `--max-sessions`, `--max-body-bytes`, `--drain-timeout`,
/// `--worker-threads`, `--header-timeout`, `--body-timeout` and `--max-requests-per-client`,
/// each the library's default when not given.
fn http_options(args: &GateArgs) -> HttpOptions {
    let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let defaults = HttpOptions::default();
    defaults
        .with_max_requests(args.max_requests.map_or(defaults.max_requests, size))
        .with_max_sessions(args.max_sessions.map_or(defaults.max_sessions, size))
        .with_max_body_bytes(args.max_body_bytes.map_or(defaults.max_body_bytes, size))
        .with_drain_timeout(
            args.drain_timeout
                .map_or(defaults.drain_timeout, Duration::from_secs),
        )
        .with_worker_threads(args.worker_threads.map_or(defaults.worker_threads, size))
        .with_header_timeout(
            args.header_timeout
                .map_or(defaults.header_timeout, Duration::from_secs),
        )
        .with_body_timeout(
            args.body_timeout
                .map_or(defaults.body_timeout, Duration::from_secs),
        )
        .with_max_requests_per_client(
            args.max_requests_per_client
                .map_or(defaults.max_requests_per_client, size),
        )
}

/// A Streamable HTTP endpoint at `listen` in front of `upstream`, a gate for each session.
fn serve_http(
    listen: SocketAddr,
    upstream: &str,
    args: &GateArgs,
    setup: Setup,
) -> Result<ExitCode, String> {
    let Setup {
        present,
        policy,
        pins,
        log,
        unchecked,
        unlisted,
        metrics,
        meaning,
    } = setup;
    let shared = args.duplicates_across_sessions.then(Actions::default);
    let new_gate = move || {
        let gate = Gate::new()
            .with_unchecked(unchecked)
            .with_unlisted(unlisted)
            .with_policy(policy.clone())
            .with_session_options(meaning);
        let gate = match &shared {
            Some(actions) => gate.sharing_actions(actions.clone()),
            None => gate,
        };
        presenting(pinned(gate, pins.as_ref()), present)
    };
    let mut gate = HttpGate::bind(listen, upstream, new_gate, log)
        .map_err(|e| format!("{listen}: {e}"))?
        .with_options(http_options(args))
        .relaying(args.relay_path.iter().cloned());
    if let Some(header) = &args.session_header {
        gate = gate
            .sessions_by(header)
            .map_err(|e| format!("--session-header: {e}"))?;
    }
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
    Ok(ExitCode::SUCCESS)
}

/// The server `command` started as a child, the gate on this process's stdin and stdout.
fn serve_stdio(command: &[std::ffi::OsString], setup: Setup) -> Result<ExitCode, String> {
    let gate = Gate::new()
        .with_unchecked(setup.unchecked)
        .with_unlisted(setup.unlisted)
        .with_policy(setup.policy)
        .with_session_options(setup.meaning);
    let gate = presenting(pinned(gate, setup.pins.as_ref()), setup.present);
    let (program, args) = command.split_first().ok_or("no server command given")?;
    let code = toolargs_gate::run_stdio_with_metrics(gate, program, args, setup.log, setup.metrics)
        .map_err(|e| format!("{}: {e}", program.to_string_lossy()))?;
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}

/// `gate`, showing `tools/list` results in `present`'s dialect when one is asked for.
fn presenting(gate: Gate, present: Option<Dialect>) -> Gate {
    match present {
        Some(dialect) => gate.presenting(dialect),
        None => gate,
    }
}

/// `gate`, holding its tools to `pins` when a pin file was given.
fn pinned(gate: Gate, pins: Option<&Pins>) -> Gate {
    match pins {
        Some(pins) => gate.with_pins(pins.clone()),
        None => gate,
    }
}
