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
//! body longer than [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES) is answered `413`.
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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ureq::http::{self as h, HeaderName, HeaderValue};

use crate::sse;
use crate::stdio::{lock, report_new_tools};
use crate::trace::CallSpan;
use crate::{reply, Gate, Route, VerdictLog, MAX_LINE_BYTES};

/// A line on stderr, never a panic (stderr may be closed).
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stderr(), $($arg)*);
    }};
}

/// The most requests handled at once (each on a worker thread of its own, an open GET
/// stream included); one more is answered `503`.
const MAX_REQUESTS: usize = 1024;

/// The most sessions kept; past it, the one unused the longest is forgotten (its next
/// request gets a fresh gate, which learns the tools when the client lists them again).
const MAX_SESSIONS: usize = 4096;

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
    shared: Arc<Shared>,
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
        let agent = ureq::Agent::config_builder()
            // A connection kept for every client at once, not ureq's 3, so that concurrent
            // clients do not open a connection to the upstream per call.
            .max_idle_connections(MAX_REQUESTS)
            .max_idle_connections_per_host(MAX_REQUESTS)
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .build()
            .new_agent();
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
            shared: Arc::new(Shared {
                upstream: upstream.to_owned(),
                origin: format!("{scheme}://{authority}"),
                path: uri.path().to_owned(),
                agent,
                sessionless: Arc::new(Mutex::new(new_gate())),
                new_gate: Box::new(new_gate),
                sessions: Mutex::new(HashMap::new()),
                log: Mutex::new(log),
                workers: AtomicUsize::new(0),
                idle: AtomicUsize::new(0),
                busy: AtomicUsize::new(0),
            }),
        })
    }

    /// The address listened on (with the port chosen, for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// The URL of the gate's endpoint, for a client's configuration.
    pub fn endpoint(&self) -> String {
        format!("http://{}{}", self.address, self.shared.path)
    }

    /// Handles requests until listening fails, each on a worker thread of its own.
    ///
    /// Workers are kept and reused: a thread started for each request cost more than the
    /// rest of its handling (a new thread's stack and allocator heap are fresh pages the
    /// kernel zeroes). One more starts whenever none is left waiting, so that a long answer
    /// (an event stream) never holds up the requests behind it.
    pub fn serve(self) -> io::Result<()> {
        work(&self.server, &self.shared)
    }
}

/// One worker: takes the next request, starts another worker when it took the last one
/// waiting, and handles it; until listening fails.
fn work(server: &Arc<tiny_http::Server>, shared: &Arc<Shared>) -> io::Result<()> {
    shared.workers.fetch_add(1, Ordering::SeqCst);
    loop {
        shared.idle.fetch_add(1, Ordering::SeqCst);
        let request = server.recv();
        let waiting = shared.idle.fetch_sub(1, Ordering::SeqCst) - 1;
        let request = match request {
            Ok(request) => request,
            Err(e) => {
                shared.workers.fetch_sub(1, Ordering::SeqCst);
                return Err(e);
            }
        };
        // One worker more than `MAX_REQUESTS`, to answer `503` past it.
        if waiting == 0 && shared.workers.load(Ordering::SeqCst) <= MAX_REQUESTS {
            let (server, shared) = (server.clone(), shared.clone());
            let spawned = std::thread::Builder::new()
                .name("toolargs-gate-http".to_owned())
                .spawn(move || work(&server, &shared));
            if let Err(e) = spawned {
                note!("toolargs gate: cannot start a worker thread: {e}");
            }
        }
        if shared.busy.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
            let body = reply::not_forwarded("", "the gate is handling too many requests");
            respond(request, 503, &[], body.as_bytes());
        } else {
            handle(shared, request);
        }
        shared.busy.fetch_sub(1, Ordering::SeqCst);
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
        match read_bounded(request.as_reader()) {
            Ok(Some(body)) => Some(body),
            Ok(None) => {
                let why = format!("the message is longer than {MAX_LINE_BYTES} bytes");
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
        let mut gate = lock(&gate);
        let handled = gate.from_client(&text);
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
    remember(&mut sessions, session, gate.clone());
    gate
}

/// Keeps `gate` as the gate of `session`, forgetting the session unused the longest when
/// there are too many.
fn remember(sessions: &mut HashMap<String, Session>, session: &str, gate: Arc<Mutex<Gate>>) {
    if sessions.len() >= MAX_SESSIONS {
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
            remember(&mut sessions, answered, gate);
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
    let mut bytes = Vec::new();
    input
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() <= MAX_LINE_BYTES).then_some(bytes))
}
