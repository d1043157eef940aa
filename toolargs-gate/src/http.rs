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
//! - anything else (`202 Accepted`, a DELETE, an error status) passes through as it is.
//!
//! Every spelling of the endpoint's path that some server reads as it (`/%6Dcp`, `//mcp`,
//! `/x/../mcp`, `/MCP`, `/mcp/`) is the endpoint. A request to another path goes on to that
//! path: without a body as it is (OAuth metadata, ...); with a body that reads as JSON
//! through the gate, as at the endpoint, since a server may take messages there too; with
//! any other body only under a prefix the operator relays ([`HttpGate::relaying`]), and
//! otherwise it is answered `404`. A request whose `Mcp-Method` or `Mcp-Name` header is sent
//! twice or disagrees with its body is answered `400` with the revision's `HeaderMismatch`
//! error (`-32020`); a notification or response the gate refuses, `400`.
//!
//! An upstream that cannot be reached is answered `502` with a JSON-RPC error `-32603`; a
//! body longer than [`HttpOptions::max_body_bytes`] ([`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES)
//! unless told) is answered `413`. A client has [`HttpOptions::header_timeout`] to send a
//! request's headers (then the connection is closed) and [`HttpOptions::body_timeout`] to
//! send its body (then it is answered `408` and the connection closed), and at most
//! [`HttpOptions::max_requests_per_client`] requests of one address are handled at once
//! (one more is answered `429`): slow clients cannot hold every request the gate serves.
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
//!
//! The transport is event-driven, as HTTP gateways are: [`HttpGate::serve`] runs a tokio
//! runtime of [`HttpOptions::worker_threads`] threads, hyper serves the clients' HTTP/1.1
//! connections (kept alive), and the upstream is reached through a pool of kept-alive
//! connections (hyper-util's client; `https://` through rustls with the `https` feature), with
//! `TCP_NODELAY` on both sides. No thread waits on a client or on the upstream: a request in
//! flight, an open event stream too, costs its buffers, not a thread. A session's [`Gate`]
//! is locked only while it judges a message, never while a request waits on the network.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode, Uri};
use http_body_util::Full;
use hyper::body::{Body as _, Incoming};

use crate::sse;
use crate::stdio::{lock, report_new_tools};
use crate::trace::CallSpan;
use crate::{reply, Gate, Metrics, Route, VerdictLog, MAX_LINE_BYTES};

/// A line on stderr, never a panic (stderr may be closed).
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("{}\n", format_args!($($arg)*)));
    }};
}

mod body;
mod listed;
mod route;
mod socket;
mod upstream;

pub use listed::list_upstream_tools;

/// The JSON-RPC error of a request whose `Mcp-Method` or `Mcp-Name` header disagrees with its
/// body (the 2026-07-28 revision's `HeaderMismatch`).
const HEADER_MISMATCH: i64 = -32020;

use body::Answer;
use socket::{Connection, Socket};

/// The most requests handled at once (an open GET stream included); one more is answered
/// `503`. The default of [`HttpOptions::max_requests`].
pub const MAX_REQUESTS: usize = 1024;

/// The most sessions kept; past it, the one unused the longest is forgotten (its next
/// request gets a fresh gate, which learns the tools when the client lists them again). The
/// default of [`HttpOptions::max_sessions`].
pub const MAX_SESSIONS: usize = 4096;

/// How long a drain waits for the requests in flight, by default.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a client has to send a request's headers, by default; an idle kept-alive
/// connection is closed after it too, as servers close theirs.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a client has to send a request's body, by default.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The most requests of one client address handled at once, by default.
pub const MAX_REQUESTS_PER_CLIENT: usize = 64;

/// The limits of an [`HttpGate`], how long its drain waits, and its threads
/// ([`HttpGate::with_options`]). A limit of 0 counts as 1.
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
    /// The threads that handle every connection and request; 0, the default, is one for
    /// every two cores the process may use, at least one: the gate shares its machine with
    /// its clients or its server, and on two cores one thread served more calls than two, at
    /// less CPU per call.
    pub worker_threads: usize,
    /// How long a client has to send a request's headers; past it the connection is closed
    /// ([`HEADER_TIMEOUT`]).
    pub header_timeout: Duration,
    /// How long a client has to send a request's body; past it the request is answered
    /// `408` and the connection closed ([`BODY_TIMEOUT`]).
    pub body_timeout: Duration,
    /// The most requests of one client address handled at once; one more is answered `429`,
    /// so that a few slow clients cannot take every request the gate handles
    /// ([`MAX_REQUESTS_PER_CLIENT`]).
    pub max_requests_per_client: usize,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            max_requests: MAX_REQUESTS,
            max_sessions: MAX_SESSIONS,
            max_body_bytes: MAX_LINE_BYTES,
            drain_timeout: DRAIN_TIMEOUT,
            worker_threads: 0,
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            max_requests_per_client: MAX_REQUESTS_PER_CLIENT,
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

    /// `worker_threads` threads handle the requests (0: one for every two cores).
    pub fn with_worker_threads(mut self, worker_threads: usize) -> HttpOptions {
        self.worker_threads = worker_threads;
        self
    }

    /// A client has `header_timeout` to send a request's headers.
    pub fn with_header_timeout(mut self, header_timeout: Duration) -> HttpOptions {
        self.header_timeout = header_timeout;
        self
    }

    /// A client has `body_timeout` to send a request's body.
    pub fn with_body_timeout(mut self, body_timeout: Duration) -> HttpOptions {
        self.body_timeout = body_timeout;
        self
    }

    /// At most `max_requests_per_client` requests of one client address handled at once.
    pub fn with_max_requests_per_client(mut self, max_requests_per_client: usize) -> HttpOptions {
        self.max_requests_per_client = max_requests_per_client;
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

/// How [`HttpGate::serve`] learns that it should end: a drain asked for, listening failed,
/// or (while draining) the last request in flight answered.
#[derive(Debug, Default)]
struct Control {
    state: Mutex<ControlState>,
    changed: Condvar,
    /// A drain was asked for (read by every request, without the lock).
    draining: AtomicBool,
    /// The requests being handled, each until its answer's body is done with.
    busy: AtomicUsize,
    /// The requests being handled, by client address, each until its answer's body is done
    /// with; an address is forgotten when it has none.
    clients: Mutex<HashMap<IpAddr, usize>>,
}

#[derive(Debug, Default)]
struct ControlState {
    /// How many times a drain was asked for.
    drains: u32,
    /// Why listening failed.
    failed: Option<io::Error>,
}

impl Control {
    /// A request of `client` arrived: how many of its requests were in flight before.
    fn client_started(&self, client: IpAddr) -> usize {
        let mut clients = lock(&self.clients);
        let count = clients.entry(client).or_insert(0);
        *count += 1;
        *count - 1
    }

    /// A request of `client` was answered.
    fn client_finished(&self, client: IpAddr) {
        let mut clients = lock(&self.clients);
        if let Some(count) = clients.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                clients.remove(&client);
            }
        }
    }

    /// `requests` in flight were answered.
    fn finished(&self, requests: usize) {
        self.busy.fetch_sub(requests, Ordering::SeqCst);
        // A drain waits for the last request.
        if self.draining.load(Ordering::SeqCst) {
            let _state = lock(&self.state);
            self.changed.notify_all();
        }
    }
}

/// One request in flight, counted in [`Control::busy`] from its arrival until its answer is
/// written to its connection ([`Connection::answered`] when the guard is dropped with the
/// answer's body).
struct Busy {
    connection: Arc<Connection>,
}

/// How many requests were in flight when one arrived: in all, and of its client.
struct InFlight {
    all: usize,
    client: usize,
}

impl Busy {
    /// Counts a request: the guard, and how many were in flight before it.
    fn start(connection: &Arc<Connection>) -> (Busy, InFlight) {
        let control = connection.control();
        let before = InFlight {
            all: control.busy.fetch_add(1, Ordering::SeqCst),
            client: control.client_started(connection.peer()),
        };
        let busy = Busy {
            connection: connection.clone(),
        };
        (busy, before)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let peer = self.connection.peer();
        self.connection.control().client_finished(peer);
        self.connection.answered();
    }
}

/// Headers that belong to one connection, never passed on; `accept-encoding` is dropped from
/// requests too, so that the upstream answers with bodies the gate can read.
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
    listener: std::net::TcpListener,
    address: SocketAddr,
    shared: Shared,
}

struct Shared {
    /// The upstream endpoint's URL, its origin (`scheme://authority`) and its path.
    upstream: Uri,
    origin: String,
    path: String,
    connector: upstream::Connector,
    client: upstream::Client,
    new_gate: Box<dyn Fn() -> Gate + Send + Sync>,
    /// The gate of the requests without a session.
    sessionless: Arc<Mutex<Gate>>,
    sessions: Mutex<HashMap<String, Session>>,
    log: Mutex<Option<VerdictLog>>,
    metrics: Option<Arc<Metrics>>,
    options: HttpOptions,
    control: Arc<Control>,
    /// The path prefixes whose requests are relayed with bodies the gate does not read
    /// ([`HttpGate::relaying`]).
    relayed: Vec<String>,
    /// The header that names the client of a request without a session
    /// ([`HttpGate::sessions_by`]).
    client_header: Option<HeaderName>,
}

impl Shared {
    /// The session a request belongs to: the upstream's (`Mcp-Session-Id`), or, for a request
    /// without one, the client the operator's header names (`client:` and its value).
    fn session_of(&self, sent: &FromClient) -> Option<String> {
        if let Some(session) = &sent.session {
            return Some(session.clone());
        }
        let header = self.client_header.as_ref()?;
        let client = sent.headers.get(header)?.to_str().ok()?;
        Some(format!("client:{client}"))
    }

    /// Whether requests to `path` are relayed whatever their body.
    fn relays(&self, path: &str) -> bool {
        self.relayed
            .iter()
            .any(|prefix| path.starts_with(prefix.as_str()))
    }
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
        let (uri, origin) = upstream::uri(upstream)?;
        let connector = upstream::connector()?;
        let client = upstream::client(connector.clone(), MAX_REQUESTS);
        // Answers are small and written as they are ready: with Nagle's algorithm on, one
        // written behind another waits for the client's delayed acknowledgement (40 ms on
        // Linux).
        let listener = std::net::TcpListener::bind(listen)?;
        socket2::SockRef::from(&listener).set_tcp_nodelay(true)?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let new_gate = move || new_gate().per_exchange();
        Ok(HttpGate {
            listener,
            address,
            shared: Shared {
                path: uri.path().to_owned(),
                upstream: uri,
                origin,
                connector,
                client,
                sessionless: Arc::new(Mutex::new(new_gate())),
                new_gate: Box::new(new_gate),
                sessions: Mutex::new(HashMap::new()),
                log: Mutex::new(log),
                metrics: None,
                options: HttpOptions::default(),
                control: Arc::default(),
                relayed: Vec::new(),
                client_header: None,
            },
        })
    }

    /// The gate's limits, drain timeout and threads are `options`.
    pub fn with_options(mut self, options: HttpOptions) -> HttpGate {
        if options.max_requests != self.shared.options.max_requests {
            let connector = self.shared.connector.clone();
            self.shared.client = upstream::client(connector, options.max_requests.max(1));
        }
        self.shared.options = options;
        self
    }

    /// Relays the requests to paths that start with one of `prefixes` whatever their body,
    /// for what a server serves beside its endpoint with bodies that are not JSON (an OAuth
    /// token endpoint's forms, say). A body that reads as JSON is judged as a message
    /// wherever it goes; any other body to a path that is not the endpoint and not relayed is
    /// answered `404`, since a server may read as a message what the gate cannot. Requests
    /// without a body go on to every path.
    pub fn relaying(mut self, prefixes: impl IntoIterator<Item = String>) -> HttpGate {
        self.shared.relayed.extend(prefixes);
        self
    }

    /// Requests without a session (the stateless 2026-07-28 revision, a stateless server)
    /// belong to the session of the client the request's `header` names, one gate each (its
    /// corrections and repeated actions are that client's), rather than to one gate shared
    /// by all: a header an authenticating proxy in front of the gate sets, say. Requests
    /// without the header share the one gate as before. An error for a name that is not a
    /// header's.
    pub fn sessions_by(mut self, header: &str) -> io::Result<HttpGate> {
        let name = HeaderName::from_bytes(header.to_ascii_lowercase().as_bytes()).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("the header `{header}`: {e}"),
            )
        })?;
        self.shared.client_header = Some(name);
        Ok(self)
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

    /// Handles requests until listening fails (the error) or a drain ends
    /// ([`HttpGate::drain_handle`]: `Ok`), on a runtime of its own whose threads
    /// ([`HttpOptions::worker_threads`]) serve every connection; the calling thread waits.
    ///
    /// Requests still in flight when a drain's timeout ends it go on in the background, on
    /// the runtime's threads, until they are answered or the process ends.
    pub fn serve(self) -> io::Result<()> {
        let HttpGate {
            listener, shared, ..
        } = self;
        let shared = Arc::new(shared);
        let threads = match shared.options.worker_threads {
            0 => std::thread::available_parallelism().map_or(1, |cores| (cores.get() / 2).max(1)),
            threads => threads,
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_name("toolargs-gate-http")
            .enable_io()
            .enable_time()
            .build()?;
        let accepting = {
            let _entered = runtime.enter();
            let listener = tokio::net::TcpListener::from_std(listener)?;
            runtime.spawn(accept(listener, shared.clone()))
        };
        let control = shared.control.clone();
        let mut state = lock(&control.state);
        loop {
            if let Some(failed) = state.failed.take() {
                drop(state);
                // Not waited for: `serve` may have been called where blocking is not allowed.
                runtime.shutdown_background();
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
        let in_flight = control.busy.load(Ordering::SeqCst);
        note!("toolargs gate: draining, {in_flight} request(s) in flight");
        // Each request that ends while draining says so.
        let deadline = Instant::now() + shared.options.drain_timeout;
        while control.busy.load(Ordering::SeqCst) > 0 && state.drains < 2 {
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
        accepting.abort();
        let cut = control.busy.load(Ordering::SeqCst);
        if cut == 0 {
            note!("toolargs gate: drained");
            runtime.shutdown_background();
            return Ok(());
        }
        note!("toolargs gate: drained, {cut} request(s) still in flight cut short");
        // The runtime is kept, on a thread of its own, until they are answered.
        let finishing = std::thread::Builder::new()
            .name("toolargs-gate-http".to_owned())
            .spawn(move || {
                let mut state = lock(&control.state);
                while control.busy.load(Ordering::SeqCst) > 0 {
                    state = control
                        .changed
                        .wait(state)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
                drop(state);
                runtime.shutdown_background();
            });
        if let Err(e) = finishing {
            note!("toolargs gate: cannot start a thread: {e}");
        }
        Ok(())
    }
}

/// Accepts connections until aborted, each served on a task of its own; says why listening
/// failed when it does.
async fn accept(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    let mut http = hyper::server::conn::http1::Builder::new();
    // Headers that never end would hold a connection for ever: past the timeout it is
    // closed, and so is a kept-alive connection idle that long, as servers close theirs.
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(shared.options.header_timeout.max(Duration::from_millis(1)));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok((stream, peer)) => (stream, peer.ip()),
            Err(e) if ended_connection(&e) => continue,
            Err(e) if out_of_resources(&e) => {
                // Connections wait in the backlog until some close.
                note!("toolargs gate: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(e) => {
                let mut state = lock(&shared.control.state);
                state.failed.get_or_insert(e);
                shared.control.changed.notify_all();
                return;
            }
        };
        // Answers leave as soon as they are written (see `bind`).
        let _ = stream.set_nodelay(true);
        let connection = Arc::new(Connection::new(shared.control.clone(), peer));
        let socket = Socket::new(stream, connection.clone());
        let service = {
            let shared = shared.clone();
            hyper::service::service_fn(move |request| {
                answer(shared.clone(), connection.clone(), request)
            })
        };
        let connection = http.serve_connection(socket, service);
        tokio::spawn(async move {
            // A connection's end, broken or not, is its client's business.
            let _ = connection.await;
        });
    }
}

/// An error of one connection that ended before it was accepted.
fn ended_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    )
}

/// The process or the system is out of descriptors or memory for now.
fn out_of_resources(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        use rustix::io::Errno;
        let limits = [Errno::MFILE, Errno::NFILE, Errno::NOBUFS, Errno::NOMEM];
        if limits
            .iter()
            .any(|errno| e.raw_os_error() == Some(errno.raw_os_error()))
        {
            return true;
        }
    }
    e.kind() == io::ErrorKind::OutOfMemory
}

/// The answer to one request: `503` past the limit or while draining, else the request
/// handled.
async fn answer(
    shared: Arc<Shared>,
    connection: Arc<Connection>,
    request: Request<Incoming>,
) -> Result<Response<Answer>, Infallible> {
    // Counted before the drain is looked at: a drain that sees no request in flight sees
    // every later one answered `503`.
    let (busy, before) = Busy::start(&connection);
    if shared.control.draining.load(Ordering::SeqCst) {
        let body = reply::not_forwarded("", "the gate is shutting down");
        let mut headers = json_type();
        headers.insert(http::header::CONNECTION, HeaderValue::from_static("close"));
        return Ok(whole(StatusCode::SERVICE_UNAVAILABLE, headers, body, busy));
    }
    if before.all >= shared.options.max_requests.max(1) {
        let body = reply::not_forwarded("", "the gate is handling too many requests");
        let status = StatusCode::SERVICE_UNAVAILABLE;
        return Ok(whole(status, HeaderMap::new(), body, busy));
    }
    if before.client >= shared.options.max_requests_per_client.max(1) {
        let body = reply::not_forwarded("", "this client has too many requests in flight");
        let status = StatusCode::TOO_MANY_REQUESTS;
        return Ok(whole(status, json_type(), body, busy));
    }
    Ok(handle(&shared, request, busy).await)
}

/// What the client sent: its method, its session and the headers to pass on.
struct FromClient {
    method: Method,
    session: Option<String>,
    headers: HeaderMap,
}

impl FromClient {
    fn of(method: Method, mut headers: HeaderMap) -> FromClient {
        for name in HOP_BY_HOP {
            headers.remove(name);
        }
        headers.remove(http::header::ACCEPT_ENCODING);
        let session = headers
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        FromClient {
            method,
            session,
            headers,
        }
    }
}

async fn handle(shared: &Shared, request: Request<Incoming>, busy: Busy) -> Response<Answer> {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path();
    let endpoint = route::same_path(path, &shared.path);
    let mut sent = FromClient::of(parts.method, parts.headers);
    let body = if sent.method == Method::POST || !body.is_end_stream() {
        let limit = shared.options.max_body_bytes.max(1);
        let read = tokio::time::timeout(shared.options.body_timeout, read_at_most(body, limit));
        match read.await {
            Ok(Ok(Some(body))) => Some(body),
            Ok(Ok(None)) => {
                let why = format!("the message is longer than {limit} bytes");
                let body = reply::not_forwarded("", &why);
                return whole(StatusCode::PAYLOAD_TOO_LARGE, HeaderMap::new(), body, busy);
            }
            // The client went away: nobody reads the answer.
            Ok(Err(_)) => return whole(StatusCode::BAD_REQUEST, HeaderMap::new(), "", busy),
            Err(_) => {
                let body = reply::not_forwarded("", "the request's body did not arrive in time");
                let mut headers = json_type();
                headers.insert(http::header::CONNECTION, HeaderValue::from_static("close"));
                return whole(StatusCode::REQUEST_TIMEOUT, headers, body, busy);
            }
        }
    } else {
        None
    };
    let target = if endpoint {
        shared.upstream.clone()
    } else {
        let path = parts.uri.path_and_query().map_or("/", |path| path.as_str());
        let target = format!("{}{path}", shared.origin);
        match target.parse() {
            Ok(target) => target,
            Err(e) => {
                let why = format!("the request to {target}: {e}");
                return failed(shared, None, &why, busy);
            }
        }
    };
    // Another path: a body that reads as JSON may be a message to a server that takes them
    // there too, and is judged as at the endpoint; any other body goes on only to the paths
    // the operator relays, since a server may read as a message what the gate cannot.
    let message_body = match body.as_deref() {
        Some(bytes) if !bytes.is_empty() => {
            endpoint || serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
        }
        _ => false,
    };
    if !endpoint && !message_body {
        let empty = body.as_ref().is_none_or(Bytes::is_empty);
        if empty || shared.relays(path) {
            return forward(shared, sent, target, body, None, busy).await;
        }
        let why = format!(
            "the gate judges messages at {}; it relays no other body",
            shared.path
        );
        let body = reply::not_forwarded("", &why);
        return whole(StatusCode::NOT_FOUND, json_type(), body, busy);
    }
    let session = shared.session_of(&sent);
    let gate = gate_of(shared, session.as_deref());
    let Some(body) = body.filter(|_| sent.method == Method::POST || message_body) else {
        // GET (the server's stream) and DELETE (the session's end) pass as they are; what the
        // server sends on the stream goes through the gate.
        let judged = Judged {
            gate,
            line: None,
            span: None,
        };
        return forward(shared, sent, target, None, Some(judged), busy).await;
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        let reason = crate::message::NotAMessage {
            code: -32700,
            message: "not JSON: the message is not UTF-8".to_owned(),
        };
        let body = reply::parse_error(&reason);
        return whole(StatusCode::BAD_REQUEST, json_type(), body, busy);
    };
    let started = Instant::now();
    let mismatch = route::headers_disagree(&sent.headers, text);
    let mut handled = {
        let mut gate = lock(&gate);
        match mismatch.clone() {
            Some(why) => gate.refuse_line(text, "header_mismatch", HEADER_MISMATCH, why),
            None => gate.from_client(text),
        }
    };
    // A call the gate cannot judge yet waits while the gate lists the upstream's tools, with
    // this client's headers and session: the tools this client would be shown.
    while handled.listing {
        let Some(Route::ToServer(request)) = handled.routes.first() else {
            break;
        };
        let answer = list_tools(shared, &sent, request).await;
        let mut gate = lock(&gate);
        handled = match answer {
            Ok(answer) => gate.server_line(&answer),
            Err(why) => gate.listing_unanswered(request, &why),
        };
        handled.verdict = gate.take_released().pop().map(|call| call.verdict);
    }
    let span = {
        let mut gate = lock(&gate);
        if let (Some(verdict), Some(Route::ToServer(line))) =
            (&handled.verdict, handled.routes.first())
        {
            if verdict.outcome == crate::Outcome::Repaired {
                let mirrors = gate.tools().mirrors(&verdict.tool);
                if !mirrors.is_empty() {
                    mirror_repaired(mirrors, &mut sent.headers, line);
                }
            }
        }
        gate.take_exchange_span()
    };
    if let Some(verdict) = &handled.verdict {
        if let Some(log) = lock(&shared.log).as_mut() {
            log.write(verdict, session.as_deref(), started);
        }
        if let Some(metrics) = &shared.metrics {
            metrics.record_call(verdict, started.elapsed());
        }
    }
    match handled.routes.into_iter().next() {
        Some(Route::ToServer(line)) => {
            let forwarded = Bytes::from(line.clone());
            let judged = Judged {
                gate,
                line: Some(line),
                span,
            };
            forward(shared, sent, target, Some(forwarded), Some(judged), busy).await
        }
        // Headers that disagree with the body (the revision's `400`), or a body that is not
        // JSON, as a server answers it.
        Some(Route::ToClient(answer))
            if mismatch.is_some()
                || handled
                    .verdict
                    .as_ref()
                    .is_some_and(|verdict| verdict.codes == ["invalid_json"]) =>
        {
            whole(StatusCode::BAD_REQUEST, json_type(), answer, busy)
        }
        // The gate's own answer: a JSON-RPC response, as a server would give it.
        Some(Route::ToClient(answer)) => whole(StatusCode::OK, json_type(), answer, busy),
        // A notification or response the gate refused: an error status, as a server that
        // cannot accept one answers.
        None if handled
            .verdict
            .as_ref()
            .is_some_and(|verdict| verdict.outcome == crate::Outcome::Refused) =>
        {
            let body = reply::not_forwarded("", "the gate refused the message");
            whole(StatusCode::BAD_REQUEST, json_type(), body, busy)
        }
        // Nothing to forward or answer (an answer to a confirmation nobody waits for).
        None => whole(StatusCode::ACCEPTED, HeaderMap::new(), "", busy),
    }
}

/// Sends `request`, the gate's own `tools/list`, to the upstream endpoint with the headers of
/// the client's request (`sent`, whose own `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
/// headers describe its call and are replaced), and returns the upstream's answer to it:
/// the JSON-RPC response, from a JSON body or from the event stream that carries it.
async fn list_tools(shared: &Shared, sent: &FromClient, request: &str) -> Result<String, String> {
    let mut headers = HeaderMap::with_capacity(sent.headers.len() + 2);
    let mut names_method = false;
    for (name, value) in &sent.headers {
        let lower = name.as_str();
        if lower == "mcp-method" {
            names_method = true;
            continue;
        }
        if lower == "mcp-name" || lower.starts_with("mcp-param-") || lower == "content-type" {
            continue;
        }
        headers.append(name.clone(), value.clone());
    }
    if names_method {
        let tools_list = HeaderValue::from_static("tools/list");
        headers.insert(HeaderName::from_static("mcp-method"), tools_list);
    }
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let mut post = Request::new(Full::new(Bytes::copy_from_slice(request.as_bytes())));
    *post.method_mut() = Method::POST;
    *post.uri_mut() = shared.upstream.clone();
    *post.headers_mut() = headers;
    let answer = shared.client.request(post).await.map_err(|e| {
        let why = upstream::why(&e);
        format!("the upstream server at {}: {why}", shared.upstream)
    })?;
    let status = answer.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(format!("the upstream answered HTTP {status}"));
    }
    let events = answer
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|value| is_type(value, "text/event-stream"));
    let body = match read_at_most(answer.into_body(), MAX_LINE_BYTES).await {
        Ok(Some(body)) => body,
        Ok(None) => return Err(format!("the answer is longer than {MAX_LINE_BYTES} bytes")),
        Err(e) => return Err(format!("the answer: {e}")),
    };
    if !events {
        return String::from_utf8(body.into()).map_err(|_| "the answer is not UTF-8".to_owned());
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
fn mirror_repaired(mirrors: &[crate::params::Mirror], headers: &mut HeaderMap, forwarded: &str) {
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

/// Sends the request to `target` and the upstream's answer back; with `judged`, the
/// answer's messages go through its gate.
async fn forward(
    shared: &Shared,
    sent: FromClient,
    target: Uri,
    body: Option<Bytes>,
    judged: Option<Judged>,
    busy: Busy,
) -> Response<Answer> {
    let FromClient {
        method,
        session,
        headers,
    } = sent;
    let mut request = Request::new(Full::new(body.unwrap_or_default()));
    *request.method_mut() = method.clone();
    *request.uri_mut() = target.clone();
    *request.headers_mut() = headers;
    let sent_line = judged.as_ref().and_then(|judged| judged.line.as_deref());
    let answer = match shared.client.request(request).await {
        Ok(answer) => answer,
        Err(e) => {
            let why = format!("the upstream server at {target}: {}", upstream::why(&e));
            return failed(shared, sent_line, &why, busy);
        }
    };
    let (parts, body) = answer.into_parts();
    let status = parts.status;
    let mut headers = parts.headers;
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
    let content_type = headers.get(CONTENT_TYPE);
    let events = content_type.is_some_and(|value| is_type(value, "text/event-stream"));
    let json = content_type.is_some_and(|value| is_type(value, "application/json"));
    if judged.is_some() {
        let answered = headers
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok());
        let sent = (&method, session.as_deref());
        track_session(shared, sent, status, answered, judged.as_ref());
    }
    let body = match judged {
        Some(judged) if events => Answer::events(body, judged, busy),
        Some(mut judged) if json => {
            let text = match read_at_most(body, MAX_LINE_BYTES).await {
                Ok(Some(text)) => text,
                Ok(None) => {
                    let why =
                        format!("the upstream's answer is longer than {MAX_LINE_BYTES} bytes");
                    return failed(shared, judged.line.as_deref(), &why, busy);
                }
                Err(e) => {
                    let why = format!("the upstream's answer: {e}");
                    return failed(shared, judged.line.as_deref(), &why, busy);
                }
            };
            let text = match std::str::from_utf8(&text) {
                Ok(answer) if !answer.trim().is_empty() => {
                    let routes = {
                        let mut gate = lock(&judged.gate);
                        let routes =
                            gate.server_answers(judged.line.as_deref(), answer, &mut judged.span);
                        report_new_tools(&mut gate);
                        routes
                    };
                    Bytes::from(to_client(routes))
                }
                _ => text,
            };
            Answer::whole(text, busy)
        }
        _ => Answer::relayed(body, busy),
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// Keeps the gate of the session an answer begins, and forgets the one it ends.
fn track_session(
    shared: &Shared,
    (method, sent): (&Method, Option<&str>),
    status: StatusCode,
    answered: Option<&str>,
    judged: Option<&Judged>,
) {
    let mut sessions = lock(&shared.sessions);
    if let Some(sent) = sent {
        // 404: the upstream no longer knows the session.
        if status == StatusCode::NOT_FOUND || (*method == Method::DELETE && status.is_success()) {
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
            let gate = match (judged, sent) {
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

/// The `502` of a request the upstream did not answer, with the JSON-RPC error of `line`
/// (the message forwarded, if any).
fn failed(shared: &Shared, line: Option<&str>, why: &str, busy: Busy) -> Response<Answer> {
    note!("toolargs gate: {why}");
    if let Some(metrics) = &shared.metrics {
        metrics.upstream_errors(1);
    }
    let body = reply::not_forwarded(line.unwrap_or(""), why);
    whole(StatusCode::BAD_GATEWAY, json_type(), body, busy)
}

/// An answer with a whole body.
fn whole(
    status: StatusCode,
    headers: HeaderMap,
    body: impl Into<Bytes>,
    busy: Busy,
) -> Response<Answer> {
    let mut response = Response::new(Answer::whole(body.into(), busy));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

fn json_type() -> HeaderMap {
    let mut headers = HeaderMap::with_capacity(2);
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers
}

/// Whether a `Content-Type` is `media` (any parameters after it), in any case.
fn is_type(value: &HeaderValue, media: &str) -> bool {
    value
        .as_bytes()
        .get(..media.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(media.as_bytes()))
}

/// The whole of `body`, or `None` when it is longer than `limit` bytes.
async fn read_at_most(
    body: Incoming,
    limit: usize,
) -> Result<Option<Bytes>, Box<dyn std::error::Error + Send + Sync>> {
    use http_body_util::BodyExt;
    match http_body_util::Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(Some(collected.to_bytes())),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
