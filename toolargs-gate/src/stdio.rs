//! The stdio transport: the gate as an MCP server on its own stdin and stdout, in front of
//! the server it starts as a child process.

use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::{Gate, Metrics, Route, VerdictLog};

/// The most bytes of one message the gate reads (64 MiB); a longer line is answered with an
/// error and skipped.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Names on stderr each tool a listing named twice, once, each tool whose definition is not
/// the one pinned (with what changed) or that is not pinned, each tool learned since the last
/// call whose definition did not load, and each strict field of the policy its schema does
/// not declare (nothing when stderr is closed).
pub(crate) fn report_new_tools(gate: &mut Gate) {
    for name in gate.tools_mut().take_new_duplicated() {
        let _ = writeln!(
            io::stderr(),
            "toolargs gate: `{name}` is listed twice; its calls are refused (duplicate_tool)"
        );
    }
    for mismatch in gate.tools_mut().take_new_pin_mismatches() {
        let _ = writeln!(
            io::stderr(),
            "toolargs gate: {mismatch}; its calls are refused ({})",
            mismatch.code()
        );
    }
    for (name, why) in gate.tools_mut().take_new_meaning_invalid() {
        let _ = writeln!(
            io::stderr(),
            "toolargs gate: the meaning declared for `{name}` does not fit its schema ({why}); its calls are refused (meaning_invalid)"
        );
    }
    for unchecked in gate.tools_mut().take_new_unchecked() {
        let _ = writeln!(
            io::stderr(),
            "toolargs gate: `{}` is not checked: {}",
            unchecked.name,
            unchecked.reason
        );
    }
    for missing in gate.tools_mut().take_new_policy_warnings() {
        let _ = writeln!(
            io::stderr(),
            "toolargs gate: the policy makes `{}` of `{}` strict, but its schema declares no such field",
            missing.field, missing.tool
        );
    }
}

/// Starts `command` with `args` and runs `gate` between this process's stdin and stdout and
/// the child's. The child's stderr is this process's. Returns the child's exit code once it
/// ended (its stdout closed; 128 and the signal's number for a child a signal ended); stdin
/// closing closes the child's stdin. On Unix, `SIGTERM`, `SIGINT`, `SIGHUP` and `SIGQUIT`
/// sent to this process are sent on to the child (not one the kernel sent, as a terminal's
/// Ctrl-C, which reached the child already), and this process ends when the child does.
pub fn run_stdio(
    gate: Gate,
    command: &OsString,
    args: &[OsString],
    log: Option<VerdictLog>,
) -> io::Result<i32> {
    run_stdio_with_metrics(gate, command, args, log, None)
}

/// [`run_stdio`], counting the gate's work in `metrics`: each verdict, and the requests the
/// server left unanswered when it ended; once it ended, `metrics` says the gate no longer
/// serves ([`Metrics::set_serving`]).
pub fn run_stdio_with_metrics(
    gate: Gate,
    command: &OsString,
    args: &[OsString],
    log: Option<VerdictLog>,
    metrics: Option<Arc<Metrics>>,
) -> io::Result<i32> {
    let mut child = Command::new(command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    crate::signals::forward_to(&child)?;
    let to_server = Arc::new(Mutex::new(child.stdin.take()));
    let from_server = child.stdout.take().ok_or(io::ErrorKind::BrokenPipe)?;
    let gate = Arc::new(Mutex::new(gate));
    let to_client = Arc::new(Mutex::new(io::stdout()));
    let log = Arc::new(Mutex::new(log));
    // A stdio connection is one session, which has no id of its own: the gate's run names it,
    // so that the runs writing one log are told apart.
    let session = format!(
        "stdio-{}-{}",
        std::process::id(),
        (seconds_now() * 1e6) as u64
    );

    let client = {
        let (gate, to_server, to_client, log) = (
            gate.clone(),
            to_server.clone(),
            to_client.clone(),
            log.clone(),
        );
        let session = session.clone();
        let metrics = metrics.clone();
        std::thread::spawn(move || {
            let mut input = BufReader::new(io::stdin().lock());
            while let Some(line) = read_line(&mut input) {
                let started = Instant::now();
                let handled = match &line {
                    Line::Text(text) => lock(&gate).from_client(text),
                    Line::Unreadable(reason) => crate::Handled {
                        routes: vec![Route::ToClient(crate::reply::parse_error(reason))],
                        verdict: None,
                        listing: false,
                    },
                };
                // The verdict is kept before it takes effect: a log read in order has the
                // verdicts in the order the client saw them.
                if let (Some(verdict), Some(metrics)) = (&handled.verdict, &metrics) {
                    metrics.record_call(verdict, started.elapsed());
                }
                if let (Some(verdict), Some(log)) = (&handled.verdict, lock(&log).as_mut()) {
                    log.write(verdict, Some(&session), started);
                }
                for route in handled.routes {
                    let sent = match route {
                        Route::ToServer(text) => lock(&to_server)
                            .as_mut()
                            .map_or(Ok(()), |server| write_line(server, &text)),
                        Route::ToClient(text) => write_line(&mut *lock(&to_client), &text),
                    };
                    if sent.is_err() {
                        return;
                    }
                }
            }
            // The client is done: so is the server's input.
            lock(&to_server).take();
        })
    };
    drop(client);

    let mut output = BufReader::new(from_server);
    while let Some(line) = read_line(&mut output) {
        let (routes, released) = match &line {
            Line::Text(text) => {
                let mut gate = lock(&gate);
                let routes = gate.from_server(text);
                (routes, gate.take_released())
            }
            // Not forwarded as if valid: reported on stderr.
            Line::Unreadable(reason) => {
                eprintln!(
                    "toolargs gate: the server sent a line that is not a message: {}",
                    reason.message
                );
                (Vec::new(), Vec::new())
            }
        };
        report_new_tools(&mut lock(&gate));
        // The verdicts of the calls that waited for the gate's listing, kept before their
        // answers leave, as on the client's side.
        if let Some(metrics) = &metrics {
            for call in &released {
                metrics.record_call(&call.verdict, call.arrived.elapsed());
            }
        }
        if let Some(log) = lock(&log).as_mut() {
            for call in &released {
                log.write(&call.verdict, Some(&session), call.arrived);
            }
        }
        for route in routes {
            match route {
                Route::ToClient(text) => write_line(&mut *lock(&to_client), &text)?,
                // The gate's next listing page, or a call that waited for its listing.
                Route::ToServer(text) => {
                    if let Some(server) = lock(&to_server).as_mut() {
                        // A server that stopped reading ends; its output tells.
                        let _ = write_line(server, &text);
                    }
                }
            }
        }
    }
    let unanswered = lock(&gate).server_closed();
    if let Some(metrics) = &metrics {
        metrics.set_serving(false);
        metrics.upstream_errors(unanswered.len() as u64);
    }
    for route in unanswered {
        if let Route::ToClient(text) = route {
            let _ = write_line(&mut *lock(&to_client), &text);
        }
    }
    Ok(crate::signals::exit_code(child.wait()?))
}

/// One line read, without its line ending.
enum Line {
    Text(String),
    /// Not UTF-8, or longer than [`MAX_LINE_BYTES`] (the rest of it is skipped).
    Unreadable(crate::message::NotAMessage),
}

/// The next line, or `None` at the end of the input (or when it fails).
fn read_line(input: &mut impl BufRead) -> Option<Line> {
    let mut bytes = Vec::new();
    loop {
        let read = io::Read::take(
            &mut *input,
            (MAX_LINE_BYTES + 1 - bytes.len().min(MAX_LINE_BYTES)) as u64,
        )
        .read_until(b'\n', &mut bytes)
        .ok()?;
        if read == 0 && bytes.is_empty() {
            return None;
        }
        if bytes.last() == Some(&b'\n') || read == 0 {
            break;
        }
        if bytes.len() > MAX_LINE_BYTES {
            // Skip to the end of the line, keeping nothing.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let n = io::Read::take(&mut *input, 1 << 20)
                    .read_until(b'\n', &mut rest)
                    .ok()?;
                if n == 0 || rest.last() == Some(&b'\n') {
                    break;
                }
            }
            return Some(Line::Unreadable(crate::message::NotAMessage {
                code: -32600,
                message: format!("the message is longer than {MAX_LINE_BYTES} bytes"),
            }));
        }
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Some(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::Unreadable(crate::message::NotAMessage {
            code: -32700,
            message: "not JSON: the line is not UTF-8".to_owned(),
        }),
    })
}

fn write_line(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// A lock, even if a thread panicked while holding it: the gate's state stays usable.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Seconds since the Unix epoch, with microseconds.
fn seconds_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}
