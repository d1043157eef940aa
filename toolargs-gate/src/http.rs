//! The Streamable HTTP transport: the gate as an MCP endpoint of its own, in front of a
//! server's endpoint (`toolargs gate --listen ADDR --upstream URL`).
//!
//! Every request to the gate's endpoint (the path of the upstream URL) goes to the upstream
//! endpoint with the client's headers (`Mcp-Session-Id`, `MCP-Protocol-Version`, `Accept`,
//! `Authorization`, `Last-Event-ID`, the `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers of the
//! 2026-07-28 revision, and any other header but the hop-by-hop ones), and its answer comes
//! back with the upstream's status and headers, whatever revision the two speak:
//!
//! - a POST's message goes through [`Gate::from_client`] first: a call the gate answers
//!   itself (a rejection) comes back as `application/json` and never reaches the upstream, a
//!   repaired call is forwarded repaired, with the `Mcp-Param-*` headers the client sent made
//!   to mirror its repaired arguments (the tool's `x-mcp-header` properties);
//! - an `application/json` answer goes through the gate whole; a `text/event-stream` answer
//!   (to a POST, or the GET stream) is relayed event by event as it arrives, each event's
//!   data going through the gate and the event kept as written (`id:`, `event:`, `retry:`,
//!   comments); the gate learns the tools from the `tools/list` results either way;
//! - anything else (`202 Accepted`, a DELETE, an error status) passes through as it is, and
//!   so does every request to another path (OAuth metadata, ...), unjudged.
//!
//! An upstream that cannot be reached is answered `502` with a JSON-RPC error `-32603`; a
//! body longer than [`HttpOptions::max_body_bytes`] ([`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES)
//! unless told) is answered `413`.
//!
//! A drain ([`DrainHandle::drain`], or `SIGTERM`/`SIGINT` after [`HttpGate::drain_on_signals`])
//! answers every new request `503` while the requests in flight finish, for at most
//! [`HttpOptions::drain_timeout`]; then [`HttpGate::serve`] returns.
//!
//! Each MCP session (an `Mcp-Session-Id` the upstream gave) has a [`Gate`] of its own, as a
//! stdio connection has: its tool list is the one that session was given (a server may list
//! other tools to another user). Requests without a session (the stateless 2026-07-28
//! revision, or a stateless server) share one gate: the tool list is then the server's, for
//! every client. Either way each answer is matched to its request by the POST it comes on,
//! not by its id, which clients sharing a gate may all use. A call the policy wants
//! confirmed is asked about in the rounds of the 2026-07-28 revision (an `input_required`
//! answer, which holds nothing open); a call of an earlier revision is refused
//! (`confirmation_unavailable`): its confirmation would come back on another request, and
//! this transport holds no call.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use ureq::http::{self as h, HeaderName, HeaderValue};

use crate::sse;
use crate::stdio::{lock, report_new_tools};
use crate::trace::CallSpan;
use crate::{reply, Gate, Metrics, Route, VerdictLog, MAX_LINE_BYTES};

/// A line on stderr, never a panic (stderr may be closed).
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stderr(), $($arg)*);
    }};
}

/// The most requests handled at once (each on a worker thread of its own, an open GET
/// stream included); one more is answered `503`. The default of
/// [`HttpOptions::max_requests`].
pub const MAX_REQUESTS: usize = 1024;

/// The most sessions kept; past it, the one unused the longest is forgotten (its next
/// request gets a fresh gate, which learns the tools when the client lists them again). The
/// default of [`HttpOptions::max_sessions`].
pub const MAX_SESSIONS: usize = 4096;

/// How long a drain waits for the requests in flight, by default.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// The limits of an [`HttpGate`], and how long its drain waits ([`HttpGate::with_options`]).
/// A limit of 0 counts as 1.
///
/// ```
/// use std::time::Duration;
/// use toolargs_gate::HttpOptions;
///
/// let options = HttpOptions::default()
///     .with_max_requests(256)
///     .with_max_body_bytes(1 << 20)
///     .with_drain_timeout(Duration::from_secs(10));
/// assert_eq!(options.max_sessions, toolargs_gate::MAX_SESSIONS);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpOptions {
    /// The most requests handled at once, an open event stream included; one more is
    /// answered `503` ([`MAX_REQUESTS`]).
    pub max_requests: usize,
    /// The most sessions a gate is kept for; past it, the one unused the longest is
    /// forgotten ([`MAX_SESSIONS`]).
    pub max_sessions: usize,
    /// The most bytes of a client's request body; a longer one is answered `413`
    /// ([`MAX_LINE_BYTES`]).
    pub max_body_bytes: usize,
    /// How long a drain waits for the requests in flight before [`HttpGate::serve`] returns
    /// anyway ([`DRAIN_TIMEOUT`]).
    pub drain_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            max_requests: MAX_REQUESTS,
            max_sessions: MAX_SESSIONS,
            max_body_bytes: MAX_LINE_BYTES,
            drain_timeout: DRAIN_TIMEOUT,
        }
    }
}

impl HttpOptions {
    /// At most `max_requests` requests handled at once.
    pub fn with_max_requests(mut self, max_requests: usize) -> HttpOptions {
        self.max_requests = max_requests;
        self
    }

    /// At most `max_sessions` sessions kept.
    pub fn with_max_sessions(mut self, max_sessions: usize) -> HttpOptions {
        self.max_sessions = max_sessions;
        self
    }

    /// Request bodies of at most `max_body_bytes` bytes.
    pub fn with_max_body_bytes(mut self, max_body_bytes: usize) -> HttpOptions {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// A drain waits at most `drain_timeout` for the requests in flight.
    pub fn with_drain_timeout(mut self, drain_timeout: Duration) -> HttpOptions {
        self.drain_timeout = drain_timeout;
        self
    }
}

/// Starts the drain of an [`HttpGate`] from another thread ([`HttpGate::drain_handle`]).
#[derive(Clone, Debug)]
pub struct DrainHandle {
    control: Arc<Control>,
}

impl DrainHandle {
    /// Starts the drain: new requests are answered `503`, and [`HttpGate::serve`] returns
    /// once the requests in flight are answered, or the drain timeout passed. Asked again
    /// during the drain, `serve` returns at once.
    pub fn drain(&self) {
        let mut state = lock(&self.control.state);
        state.drains = state.drains.saturating_add(1);
        self.control.draining.store(true, Ordering::SeqCst);
        self.control.changed.notify_all();
    }
}

/// How [`HttpGate::serve`] learns that it should end: a drain asked for, or listening failed.
#[derive(Debug, Default)]
struct Control {
    state: Mutex<ControlState>,
    changed: Condvar,
    /// A drain was asked for (read by every request, without the lock).
    draining: AtomicBool,
}

#[derive(Debug, Default)]
struct ControlState {
    /// How many times a drain was asked for.
    drains: u32,
    /// Why listening failed.
    failed: Option<io::Error>,
}

/// The bytes of an upstream's body read at a time when relaying it (zeroed once per answer:
/// most are a few hundred bytes).
const RELAY_BUFFER: usize = 16 << 10;

/// How long connecting to the upstream may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Headers that belong to one connection, never passed on; `accept-encoding` too, so that
/// the upstream answers with bodies the gate can read.
const HOP_BY_HOP: [&str; 11] = [
    "host",
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
    "expect",
];

/// The gate at an HTTP address, in front of an MCP server's Streamable HTTP endpoint.
///
/// ```no_run
/// use toolargs_gate::{Gate, HttpGate};
///
/// let gate = HttpGate::bind(
///     "127.0.0.1:8931".parse().unwrap(),
///     "http://127.0.0.1:8000/mcp",
///     Gate::new,
///     None,
/// )?;
/// eprintln!("listening on {}", gate.endpoint());
/// gate.serve()?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct HttpGate {
    server: Arc<tiny_http::Server>,
    address: SocketAddr,
    shared: Shared,
}

struct Shared {
    /// The upstream endpoint's URL, its origin (`scheme://authority`) and its path.
    upstream: String,
    origin: String,
    path: String,
    agent: ureq::Agent,
    new_gate: Box<dyn Fn() -> Gate + Send + Sync>,
    /// The gate of the requests without a session.
    sessionless: Arc<Mutex<Gate>>,
    sessions: Mutex<HashMap<String, Session>>,
    log: Mutex<Option<VerdictLog>>,
    metrics: Option<Arc<Metrics>>,
    options: HttpOptions,
    control: Arc<Control>,
    /// The workers started, those waiting for a request, and the requests being handled.
    workers: AtomicUsize,
    idle: AtomicUsize,
    busy: AtomicUsize,
}

struct Session {
    gate: Arc<Mutex<Gate>>,
    used: Instant,
}

impl HttpGate {
    /// Listens on `listen` (port 0 picks a free one) in front of the Streamable HTTP endpoint
    /// at `upstream` (`http://` or, with the `https` feature, `https://`). `new_gate` makes
    /// the gate of each session, and of the requests without one; each `tools/call` verdict
    /// goes to `log`.
    pub fn bind(
        listen: SocketAddr,
        upstream: &str,
        new_gate: impl Fn() -> Gate + Send + Sync + 'static,
        log: Option<VerdictLog>,
    ) -> io::Result<HttpGate> {
        let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
        let uri: h::Uri = upstream
            .parse()
            .map_err(|e| invalid(format!("the upstream URL `{upstream}`: {e}")))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(invalid(format!(
                "the upstream URL `{upstream}` is not absolute (http://host:port/path)"
            )));
        };
        match scheme {
            "http" => {}
            "https" if cfg!(feature = "https") => {}
            "https" => {
                return Err(invalid(format!(
                    "the upstream URL `{upstream}` is https, and this build has no TLS (the `https` feature)"
                )))
            }
            _ => return Err(invalid(format!("the upstream URL `{upstream}` is not http"))),
        }
        let agent = agent(MAX_REQUESTS);
        // Answers are small and written as they are ready: with Nagle's algorithm on, one
        // written behind another waits for the client's delayed acknowledgement (40 ms on
        // Linux). Accepted connections inherit the option from the listener.
        let listener = std::net::TcpListener::bind(listen)?;
        socket2::SockRef::from(&listener).set_tcp_nodelay(true)?;
        let server = tiny_http::Server::from_listener(listener, None).map_err(io::Error::other)?;
        let address = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("not listening on an IP address"))?;
        let new_gate = move || new_gate().per_exchange();
        Ok(HttpGate {
            server: Arc::new(server),
            address,
            shared: Shared {
                upstream: upstream.to_owned(),
                origin: format!("{scheme}://{authority}"),
                path: uri.path().to_owned(),
                agent,
                sessionless: Arc::new(Mutex::new(new_gate())),
                new_gate: Box::new(new_gate),
                sessions: Mutex::new(HashMap::new()),
                log: Mutex::new(log),
                metrics: None,
                options: HttpOptions::default(),
                control: Arc::default(),
                workers: AtomicUsize::new(0),
                idle: AtomicUsize::new(0),
                busy: AtomicUsize::new(0),
            },
        })
    }

    /// The gate's limits and drain timeout are `options`.
    pub fn with_options(mut self, options: HttpOptions) -> HttpGate {
        if options.max_requests != self.shared.options.max_requests {
            self.shared.agent = agent(options.max_requests.max(1));
        }
        self.shared.options = options;
        self
    }

    /// Counts the gate's work in `metrics`: each verdict, each `502`, the sessions kept; and
    /// says it no longer serves once it drains.
    pub fn with_metrics(mut self, metrics: Arc<Metrics>) -> HttpGate {
        self.shared.metrics = Some(metrics);
        self
    }

    /// A handle that starts the gate's drain from another thread.
    pub fn drain_handle(&self) -> DrainHandle {
        DrainHandle {
            control: self.shared.control.clone(),
        }
    }

    /// On Unix, `SIGTERM` and `SIGINT` start the gate's drain (a second one ends it at
    /// once), from a thread of their own; elsewhere, nothing. Their default action, ending
    /// the process, is replaced for as long as the process runs.
    pub fn drain_on_signals(&self) -> io::Result<()> {
        let handle = self.drain_handle();
        crate::signals::on_terminate(move || handle.drain())
    }

    /// The address listened on (with the port chosen, for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// The URL of the gate's endpoint, for a client's configuration.
    pub fn endpoint(&self) -> String {
        format!("http://{}{}", self.address, self.shared.path)
    }

    /// Handles requests, each on a worker thread of its own, until listening fails (the
    /// error) or a drain ends ([`HttpGate::drain_handle`]: `Ok`).
    ///
    /// Workers are kept and reused: a thread started for each request cost more than the
    /// rest of its handling (a new thread's stack and allocator heap are fresh pages the
    /// kernel zeroes). One more starts whenever none is left waiting, so that a long answer
    /// (an event stream) never holds up the requests behind it.
    pub fn serve(self) -> io::Result<()> {
        let HttpGate { server, shared, .. } = self;
        let shared = Arc::new(shared);
        spawn_worker(&server, &shared)?;
        let control = shared.control.clone();
        let mut state = lock(&control.state);
        loop {
            if let Some(failed) = state.failed.take() {
                return Err(failed);
            }
            if state.drains > 0 {
                break;
            }
            state = control
                .changed
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        if let Some(metrics) = &shared.metrics {
            metrics.set_serving(false);
        }
        let in_flight = shared.busy.load(Ordering::SeqCst);
        note!("toolargs gate: draining, {in_flight} request(s) in flight");
        // Each worker that ends a request while draining says so.
        let deadline = Instant::now() + shared.options.drain_timeout;
        while shared.busy.load(Ordering::SeqCst) > 0 && state.drains < 2 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = control
                .changed
                .wait_timeout(state, left)
                .map_or_else(|e| e.into_inner().0, |(state, _)| state);
        }
        drop(state);
        let cut = shared.busy.load(Ordering::SeqCst);
        if cut > 0 {
            note!("toolargs gate: drained, {cut} request(s) still in flight cut short");
        } else {
            note!("toolargs gate: drained");
        }
        // The workers waiting for a request end.
        for _ in 0..shared.workers.load(Ordering::SeqCst) {
            server.unblock();
        }
        Ok(())
    }
}

/// The upstream's client: a connection kept for every request the gate handles at once, not
/// ureq's 3, so that concurrent clients do not open a connection to the upstream per call.
fn agent(max_requests: usize) -> ureq::Agent {
    ureq::Agent::config_builder()
        .max_idle_connections(max_requests)
        .max_idle_connections_per_host(max_requests)
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_connect(Some(CONNECT_TIMEOUT))
        .build()
        .new_agent()
}

/// Starts a worker on a thread of its own.
fn spawn_worker(server: &Arc<tiny_http::Server>, shared: &Arc<Shared>) -> io::Result<()> {
    let (server, shared) = (server.clone(), shared.clone());
    std::thread::Builder::new()
        .name("toolargs-gate-http".to_owned())
        .spawn(move || work(&server, &shared))?;
    Ok(())
}

/// One worker: takes the next request, starts another worker when it took the last one
/// waiting, and handles it; until listening fails (said to [`HttpGate::serve`]) or the
/// drain ends.
fn work(server: &Arc<tiny_http::Server>, shared: &Arc<Shared>) {
    let max_requests = shared.options.max_requests.max(1);
    shared.workers.fetch_add(1, Ordering::SeqCst);
    loop {
        shared.idle.fetch_add(1, Ordering::SeqCst);
        let request = server.recv();
        let waiting = shared.idle.fetch_sub(1, Ordering::SeqCst) - 1;
        let request = match request {
            Ok(request) => request,
            Err(e) => {
                shared.workers.fetch_sub(1, Ordering::SeqCst);
                // Unblocked at the drain's end: not a failure.
                if !shared.control.draining.load(Ordering::SeqCst) {
                    let mut state = lock(&shared.control.state);
                    state.failed.get_or_insert(e);
                    shared.control.changed.notify_all();
                }
                return;
            }
        };
        // One worker more than `max_requests`, to answer `503` past it.
        if waiting == 0 && shared.workers.load(Ordering::SeqCst) <= max_requests {
            let (server, shared) = (server.clone(), shared.clone());
            let spawned = std::thread::Builder::new()
                .name("toolargs-gate-http".to_owned())
                .spawn(move || work(&server, &shared));
            if let Err(e) = spawned {
                note!("toolargs gate: cannot start a worker thread: {e}");
            }
        }
        // Counted before the drain is looked at: a drain that sees no request in flight
        // sees every later one answered `503`.
        let busy = shared.busy.fetch_add(1, Ordering::SeqCst);
        if shared.control.draining.load(Ordering::SeqCst) {
            let body = reply::not_forwarded("", "the gate is shutting down");
            let close = ("connection".to_owned(), "close".to_owned());
            respond(request, 503, &[json_type(), close], body.as_bytes());
        } else if busy >= max_requests {
            let body = reply::not_forwarded("", "the gate is handling too many requests");
            respond(request, 503, &[], body.as_bytes());
        } else {
            handle(shared, request);
        }
        shared.busy.fetch_sub(1, Ordering::SeqCst);
        if shared.control.draining.load(Ordering::SeqCst) {
            let _state = lock(&shared.control.state);
            shared.control.changed.notify_all();
        }
    }
}

/// What the client sent, read from tiny_http's request.
struct Incoming {
    method: String,
    session: Option<String>,
    headers: Vec<(HeaderName, HeaderValue)>,
}

fn handle(shared: &Shared, mut request: tiny_http::Request) {
    let url = request.url().to_owned();
    let path = url.split_once('?').map_or(&url[..], |(path, _)| path);
    let mut incoming = incoming(&request);
    let endpoint = path == shared.path;
    let target = if endpoint {
        shared.upstream.clone()
    } else {
        format!("{}{url}", shared.origin)
    };
    let has_body = request.body_length().is_some_and(|n| n > 0)
        || request
            .headers()
            .iter()
            .any(|h| h.field.equiv("Transfer-Encoding"));
    let body = if has_body || incoming.method == "POST" {
        let limit = shared.options.max_body_bytes.max(1);
        match read_at_most(request.as_reader(), limit) {
            Ok(Some(body)) => Some(body),
            Ok(None) => {
                let why = format!("the message is longer than {limit} bytes");
                let body = reply::not_forwarded("", &why);
                return respond(request, 413, &[], body.as_bytes());
            }
            // The client went away.
            Err(_) => return,
        }
    } else {
        None
    };
    if !endpoint {
        return forward(shared, request, &incoming, &target, body, None);
    }
    let gate = gate_of(shared, incoming.session.as_deref());
    let Some(body) = body.filter(|_| incoming.method == "POST") else {
        // GET (the server's stream) and DELETE (the session's end) pass as they are; what the
        // server sends on the stream goes through the gate.
        let judged = Judged {
            gate,
            line: None,
            span: None,
        };
        return forward(shared, request, &incoming, &target, None, Some(judged));
    };
    let Ok(text) = String::from_utf8(body) else {
        let reason = crate::message::NotAMessage {
            code: -32700,
            message: "not JSON: the message is not UTF-8".to_owned(),
        };
        let body = reply::parse_error(&reason);
        return respond(request, 400, &[json_type()], body.as_bytes());
    };
    let started = Instant::now();
    let (handled, span) = {
        let mut handled = lock(&gate).from_client(&text);
        // A call the gate cannot judge yet waits while the gate lists the upstream's tools,
        // with this client's headers and session: the tools this client would be shown.
        while handled.listing {
            let Some(Route::ToServer(request)) = handled.routes.first() else {
                break;
            };
            let answer = list_tools(shared, &incoming, request);
            let mut gate = lock(&gate);
            handled = match answer {
                Ok(answer) => gate.server_line(&answer),
                Err(why) => gate.listing_unanswered(request, &why),
            };
            handled.verdict = gate.take_released().pop().map(|call| call.verdict);
        }
        let mut gate = lock(&gate);
        if let (Some(verdict), Some(Route::ToServer(line))) =
            (&handled.verdict, handled.routes.first())
        {
            if verdict.outcome == crate::Outcome::Repaired {
                let mirrors = gate.tools().mirrors(&verdict.tool);
                if !mirrors.is_empty() {
                    mirror_repaired(mirrors, &mut incoming.headers, line);
                }
            }
        }
        (handled, gate.take_exchange_span())
    };
    if let (Some(verdict), Some(log)) = (&handled.verdict, lock(&shared.log).as_mut()) {
        log.write(verdict, incoming.session.as_deref(), started);
    }
    if let (Some(verdict), Some(metrics)) = (&handled.verdict, &shared.metrics) {
        metrics.record_call(verdict, started.elapsed());
    }
    match handled.routes.into_iter().next() {
        Some(Route::ToServer(line)) => {
            let sent = line.clone().into_bytes();
            let judged = Judged {
                gate,
                line: Some(line),
                span,
            };
            forward(
                shared,
                request,
                &incoming,
                &target,
                Some(sent),
                Some(judged),
            )
        }
        // The gate's own answer: a JSON-RPC response, as a server would give it.
        Some(Route::ToClient(answer)) => respond(request, 200, &[json_type()], answer.as_bytes()),
        // Nothing to forward or answer (an answer to a confirmation nobody waits for).
        None => respond(request, 202, &[], b""),
    }
}

/// Sends `request`, the gate's own `tools/list`, to the upstream endpoint with the headers of
/// the client's request (`incoming`, whose own `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
/// headers describe its call and are replaced), and returns the upstream's answer to it:
/// the JSON-RPC response, from a JSON body or from the event stream that carries it.
fn list_tools(shared: &Shared, incoming: &Incoming, request: &str) -> Result<String, String> {
    let mut builder = h::Request::builder()
        .method("POST")
        .uri(shared.upstream.as_str());
    let mut names_method = false;
    for (name, value) in &incoming.headers {
        let lower = name.as_str();
        if lower == "mcp-method" {
            names_method = true;
            continue;
        }
        if lower == "mcp-name" || lower.starts_with("mcp-param-") || lower == "content-type" {
            continue;
        }
        builder = builder.header(name, value);
    }
    if names_method {
        builder = builder.header("mcp-method", "tools/list");
    }
    builder = builder.header("content-type", "application/json");
    let answer = builder
        .body(request.as_bytes().to_vec())
        .map_err(|e| format!("the request: {e}"))?;
    let answer = shared
        .agent
        .run(answer)
        .map_err(|e| format!("the upstream server at {}: {e}", shared.upstream))?;
    let status = answer.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(format!("the upstream answered HTTP {status}"));
    }
    let events = answer
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.to_ascii_lowercase().starts_with("text/event-stream"));
    let mut body = answer.into_body().into_reader();
    let body = match read_bounded(&mut body) {
        Ok(Some(body)) => body,
        Ok(None) => return Err(format!("the answer is longer than {MAX_LINE_BYTES} bytes")),
        Err(e) => return Err(format!("the answer: {e}")),
    };
    if !events {
        return String::from_utf8(body).map_err(|_| "the answer is not UTF-8".to_owned());
    }
    // The response is the event whose message carries the request's id; what else the
    // stream holds (progress, logging) was caused by the gate's own request and goes nowhere.
    let id = crate::message::Message::read(request)
        .ok()
        .and_then(|message| message.id.map(|id| id.get().to_owned()));
    let mut reader = sse::Reader::default();
    let mut events = reader
        .feed(&body)
        .map_err(|_| format!("an event is longer than {MAX_LINE_BYTES} bytes"))?;
    events.extend(reader.feed(b"\n\n").unwrap_or_default());
    events
        .into_iter()
        .filter_map(|event| event.data)
        .find(|data| {
            crate::message::Message::read(data).is_ok_and(|message| {
                message.method.is_none() && message.id.map(|id| id.get().to_owned()) == id
            })
        })
        .ok_or_else(|| "the upstream's event stream ended without an answer".to_owned())
}

/// Makes the `Mcp-Param-*` headers of a call the gate repaired mirror the arguments it
/// forwards (`forwarded`, the call as it goes on), for its tool's `mirrors`.
fn mirror_repaired(
    mirrors: &[crate::params::Mirror],
    headers: &mut Vec<(HeaderName, HeaderValue)>,
    forwarded: &str,
) {
    #[derive(serde::Deserialize)]
    struct Call {
        params: Params,
    }
    #[derive(serde::Deserialize)]
    struct Params {
        #[serde(default)]
        arguments: serde_json::Value,
    }
    if let Ok(call) = serde_json::from_str::<Call>(forwarded) {
        crate::params::mirror(headers, mirrors, &call.params.arguments);
    }
}

/// The method, the session and the headers to pass on of a request.
fn incoming(request: &tiny_http::Request) -> Incoming {
    let mut session = None;
    let mut headers = Vec::new();
    for header in request.headers() {
        let name = header.field.as_str().as_str().to_ascii_lowercase();
        if HOP_BY_HOP.contains(&name.as_str()) || name == "accept-encoding" {
            continue;
        }
        let value = header.value.as_str();
        if name == "mcp-session-id" {
            session = Some(value.to_owned());
        }
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.push((name, value));
        }
    }
    Incoming {
        method: request.method().as_str().to_owned(),
        session,
        headers,
    }
}

/// The gate of `session`, made when it is new; the shared one without a session.
fn gate_of(shared: &Shared, session: Option<&str>) -> Arc<Mutex<Gate>> {
    let Some(session) = session else {
        return shared.sessionless.clone();
    };
    let mut sessions = lock(&shared.sessions);
    if let Some(known) = sessions.get_mut(session) {
        known.used = Instant::now();
        return known.gate.clone();
    }
    // A session this gate did not see begin (it began before the gate did, or was forgotten):
    // a gate of its own from now on.
    let gate = Arc::new(Mutex::new((shared.new_gate)()));
    remember(shared, &mut sessions, session, gate.clone());
    gate
}

/// Keeps `gate` as the gate of `session`, forgetting the session unused the longest when
/// there are too many.
fn remember(
    shared: &Shared,
    sessions: &mut HashMap<String, Session>,
    session: &str,
    gate: Arc<Mutex<Gate>>,
) {
    if sessions.len() >= shared.options.max_sessions.max(1) {
        let oldest = sessions
            .iter()
            .min_by_key(|(_, known)| known.used)
            .map(|(id, _)| id.clone());
        if let Some(oldest) = oldest {
            sessions.remove(&oldest);
        }
    }
    sessions.insert(
        session.to_owned(),
        Session {
            gate,
            used: Instant::now(),
        },
    );
    if let Some(metrics) = &shared.metrics {
        metrics.set_sessions(sessions.len());
    }
}

/// The gate judging a request, the client's message it forwarded (`None` for a GET), and
/// the span of the call it forwarded, which the answer ends.
struct Judged {
    gate: Arc<Mutex<Gate>>,
    line: Option<String>,
    span: Option<CallSpan>,
}

/// Sends the request to `target` and the upstream's answer back; with `gate`, the answer's
/// messages go through it.
fn forward(
    shared: &Shared,
    request: tiny_http::Request,
    incoming: &Incoming,
    target: &str,
    body: Option<Vec<u8>>,
    gate: Option<Judged>,
) {
    let sent_line = gate.as_ref().and_then(|judged| judged.line.clone());
    let failed = |request: tiny_http::Request, why: String| {
        note!("toolargs gate: {why}");
        if let Some(metrics) = &shared.metrics {
            metrics.upstream_errors(1);
        }
        let body = reply::not_forwarded(sent_line.as_deref().unwrap_or(""), &why);
        respond(request, 502, &[json_type()], body.as_bytes());
    };
    let mut builder = h::Request::builder()
        .method(incoming.method.as_str())
        .uri(target);
    for (name, value) in &incoming.headers {
        builder = builder.header(name, value);
    }
    let answer = match body {
        Some(body) => builder.body(body).map(|r| shared.agent.run(r)),
        None => builder.body(()).map(|r| shared.agent.run(r)),
    };
    let answer = match answer {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => return failed(request, format!("the upstream server at {target}: {e}")),
        Err(e) => return failed(request, format!("the request to {target}: {e}")),
    };
    let status = answer.status().as_u16();
    let mut headers = Vec::new();
    let mut session = None;
    let mut content_type = String::new();
    for (name, value) in answer.headers() {
        let name = name.as_str();
        if HOP_BY_HOP.contains(&name) {
            continue;
        }
        let Ok(text) = value.to_str() else { continue };
        match name {
            "mcp-session-id" => session = Some(text.to_owned()),
            "content-type" => content_type = text.to_ascii_lowercase(),
            _ => {}
        }
        headers.push((name.to_owned(), text.to_owned()));
    }
    if gate.is_some() {
        track_session(shared, incoming, status, session.as_deref(), &gate);
    }
    let mut body = answer.into_body().into_reader();
    match gate {
        Some(mut judged) if content_type.starts_with("text/event-stream") => {
            relay_events(request, status, &headers, &mut body, &mut judged)
        }
        Some(mut judged) if content_type.starts_with("application/json") => {
            let text = match read_bounded(&mut body) {
                Ok(Some(text)) => text,
                Ok(None) => {
                    let why =
                        format!("the upstream's answer is longer than {MAX_LINE_BYTES} bytes");
                    return failed(request, why);
                }
                Err(e) => return failed(request, format!("the upstream's answer: {e}")),
            };
            let text = match String::from_utf8(text) {
                Ok(text) if !text.trim().is_empty() => {
                    let routes = {
                        let mut gate = lock(&judged.gate);
                        let routes =
                            gate.server_answers(judged.line.as_deref(), &text, &mut judged.span);
                        report_new_tools(&mut gate);
                        routes
                    };
                    to_client(routes).into_bytes()
                }
                Ok(text) => text.into_bytes(),
                Err(e) => e.into_bytes(),
            };
            respond(request, status, &headers, &text)
        }
        _ => relay_bytes(request, status, &headers, &mut body),
    }
}

/// Keeps the gate of the session an answer begins, and forgets the one it ends.
fn track_session(
    shared: &Shared,
    incoming: &Incoming,
    status: u16,
    answered: Option<&str>,
    gate: &Option<Judged>,
) {
    let mut sessions = lock(&shared.sessions);
    if let Some(sent) = &incoming.session {
        // 404: the upstream no longer knows the session.
        if status == 404 || (incoming.method == "DELETE" && (200..300).contains(&status)) {
            sessions.remove(sent);
            if let Some(metrics) = &shared.metrics {
                metrics.set_sessions(sessions.len());
            }
            return;
        }
    }
    if let Some(answered) = answered {
        if !sessions.contains_key(answered) {
            // The session begins (the answer to `initialize`): a gate of its own, which must
            // not inherit what the request's gate knows of other sessions.
            let gate = match (gate, &incoming.session) {
                (Some(judged), Some(_)) => judged.gate.clone(),
                _ => Arc::new(Mutex::new((shared.new_gate)())),
            };
            remember(shared, &mut sessions, answered, gate);
        }
    }
}

/// The messages the gate routes to the client, as one body.
fn to_client(routes: Vec<Route>) -> String {
    let mut texts: Vec<String> = routes
        .into_iter()
        .filter_map(|route| match route {
            Route::ToClient(text) => Some(text),
            Route::ToServer(_) => None,
        })
        .collect();
    match texts.len() {
        1 => texts.remove(0),
        _ => format!("[{}]", texts.join(",")),
    }
}

/// Relays a stream of server-sent events as each event arrives, its data through the gate.
fn relay_events(
    request: tiny_http::Request,
    status: u16,
    headers: &[(String, String)],
    body: &mut impl Read,
    judged: &mut Judged,
) {
    let mut out = request.into_writer();
    if write_head(&mut out, status, headers, None).is_err() {
        return;
    }
    let mut events = sse::Reader::default();
    let mut buffer = vec![0; RELAY_BUFFER];
    loop {
        let read = match body.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                note!("toolargs gate: the upstream's event stream failed: {e}");
                break;
            }
        };
        let Ok(complete) = events.feed(&buffer[..read]) else {
            note!("toolargs gate: the upstream sent an event longer than {MAX_LINE_BYTES} bytes; its stream is closed");
            return;
        };
        let mut relayed = Vec::new();
        for event in complete {
            relayed.extend(through_gate(event, judged));
        }
        if !relayed.is_empty() && write_chunk(&mut out, &relayed).is_err() {
            // The client went away: so does the upstream's stream, dropped here.
            return;
        }
    }
    let rest = events.finish();
    if !rest.is_empty() {
        let _ = write_chunk(&mut out, &rest);
    }
    let _ = out.write_all(b"0\r\n\r\n").and_then(|()| out.flush());
}

/// An event as it goes on to the client: as written, unless the gate routes other messages.
fn through_gate(event: sse::Event, judged: &mut Judged) -> Vec<u8> {
    let Some(data) = event.data.as_deref().filter(|data| !data.trim().is_empty()) else {
        return event.raw;
    };
    let routes = {
        let mut gate = lock(&judged.gate);
        let routes = gate.server_answers(judged.line.as_deref(), data, &mut judged.span);
        report_new_tools(&mut gate);
        routes
    };
    match routes.as_slice() {
        [Route::ToClient(text)] if text == data => event.raw,
        _ => {
            let mut out = Vec::new();
            for route in routes {
                if let Route::ToClient(text) = route {
                    out.extend(event.with_data(&text));
                }
            }
            out
        }
    }
}

/// Relays a body as it comes, unread.
fn relay_bytes(
    request: tiny_http::Request,
    status: u16,
    headers: &[(String, String)],
    body: &mut impl Read,
) {
    let mut out = request.into_writer();
    if !carries_body(status) {
        let _ = write_head(&mut out, status, headers, Some(0)).and_then(|()| out.flush());
        return;
    }
    if write_head(&mut out, status, headers, None).is_err() {
        return;
    }
    let mut buffer = vec![0; RELAY_BUFFER];
    loop {
        match body.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => {
                if write_chunk(&mut out, &buffer[..read]).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let _ = out.write_all(b"0\r\n\r\n").and_then(|()| out.flush());
}

/// Whether an answer with `status` has a body at all.
fn carries_body(status: u16) -> bool {
    !(status < 200 || status == 204 || status == 304)
}

fn json_type() -> (String, String) {
    ("content-type".to_owned(), "application/json".to_owned())
}

/// Answers with a whole body.
fn respond(request: tiny_http::Request, status: u16, headers: &[(String, String)], body: &[u8]) {
    let mut out = request.into_writer();
    let length = if carries_body(status) { body.len() } else { 0 };
    let _ = write_head(&mut out, status, headers, Some(length))
        .and_then(|()| out.write_all(&body[..length]))
        .and_then(|()| out.flush());
}

/// The status line and the headers; `length` is the body's, or `None` for a chunked one.
fn write_head(
    out: &mut impl Write,
    status: u16,
    headers: &[(String, String)],
    length: Option<usize>,
) -> io::Result<()> {
    let reason = tiny_http::StatusCode(status).default_reason_phrase();
    let mut head = format!("HTTP/1.1 {status} {reason}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    match length {
        Some(length) if carries_body(status) => {
            head.push_str(&format!("content-length: {length}\r\n"));
        }
        Some(_) => {}
        None => head.push_str("transfer-encoding: chunked\r\n"),
    }
    head.push_str("\r\n");
    // Not flushed: the head leaves with the body's first bytes, in one segment.
    out.write_all(head.as_bytes())
}

/// One chunk of a chunked body, sent at once.
fn write_chunk(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    write!(out, "{:x}\r\n", bytes.len())?;
    out.write_all(bytes)?;
    out.write_all(b"\r\n")?;
    out.flush()
}

/// The whole of `input`, or `None` when it is longer than [`MAX_LINE_BYTES`].
fn read_bounded(input: &mut dyn Read) -> io::Result<Option<Vec<u8>>> {
    read_at_most(input, MAX_LINE_BYTES)
}

/// The whole of `input`, or `None` when it is longer than `limit` bytes.
fn read_at_most(input: &mut dyn Read, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    input
        .take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() <= limit).then_some(bytes))
}

#[cfg(test)]
mod tests;
