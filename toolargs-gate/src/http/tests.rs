//! The HTTP gate's drain and limits, through the library: [`DrainHandle`], [`HttpOptions`],
//! and the sessions gauge. Waits are on conditions (a request arriving, `serve` returning),
//! each bounded.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{DrainHandle, HttpGate, HttpOptions};
use crate::{Gate, Metrics};

const PATIENCE: Duration = Duration::from_secs(60);

/// An upstream at `/mcp` that answers `initialize` with a new session each time, lists one
/// destructive tool, `refund`, holds a `slow/op` until released (saying it arrived), and
/// answers anything else at once; it keeps the path and body of every request it gets.
struct Upstream {
    url: String,
    arrived: Receiver<()>,
    release: Sender<()>,
    seen: Arc<Mutex<Vec<(String, String)>>>,
}

fn upstream() -> Upstream {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", server.server_addr().to_ip().unwrap());
    let (arrived_send, arrived) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let released = Arc::new(Mutex::new(released));
    let server = Arc::new(server);
    let sessions = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = seen.clone();
    std::thread::spawn(move || {
        while let Ok(mut request) = server.recv() {
            let (arrived, released, sessions, seen) = (
                arrived_send.clone(),
                released.clone(),
                sessions.clone(),
                kept.clone(),
            );
            std::thread::spawn(move || {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                seen.lock()
                    .unwrap()
                    .push((request.url().to_owned(), body.clone()));
                let message: serde_json::Value =
                    serde_json::from_str(&body).unwrap_or(serde_json::Value::Null);
                let json: tiny_http::Header = "Content-Type: application/json".parse().unwrap();
                let result = match message["method"].as_str() {
                    Some("tools/list") => serde_json::json!({"tools": [{"name": "refund",
                        "inputSchema": {"type": "object", "properties": {
                            "amount_cents": {"type": "integer", "maximum": 50000}}}}]}),
                    _ => serde_json::json!({}),
                };
                let mut response = tiny_http::Response::from_string(
                    serde_json::json!({"jsonrpc": "2.0", "id": message["id"], "result": result})
                        .to_string(),
                )
                .with_header(json);
                match message["method"].as_str() {
                    Some("initialize") => {
                        let n = sessions.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let header = format!("Mcp-Session-Id: session-{n}");
                        response.add_header(header.parse::<tiny_http::Header>().unwrap());
                    }
                    Some("slow/op") => {
                        let _ = arrived.send(());
                        let _ = released.lock().unwrap().recv();
                    }
                    _ => {}
                }
                let _ = request.respond(response);
            });
        }
    });
    Upstream {
        url,
        arrived,
        release,
        seen,
    }
}

impl Upstream {
    /// The requests that reached it whose body holds `text`.
    fn got(&self, text: &str) -> Vec<(String, String)> {
        let seen = self.seen.lock().unwrap();
        seen.iter()
            .filter(|(_, body)| body.contains(text))
            .cloned()
            .collect()
    }
}

/// The gate in front of `upstream` with `options`, serving on a thread of its own: its
/// endpoint, its drain, and what `serve` returned, once it did.
fn gate(
    upstream: &Upstream,
    options: HttpOptions,
    metrics: Arc<Metrics>,
) -> (String, DrainHandle, Receiver<std::io::Result<()>>) {
    let gate = HttpGate::bind(
        "127.0.0.1:0".parse().unwrap(),
        &upstream.url,
        Gate::new,
        None,
    )
    .unwrap()
    .with_options(options)
    .with_metrics(metrics);
    let endpoint = gate.endpoint();
    let drain = gate.drain_handle();
    let (done, served) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(gate.serve());
    });
    (endpoint, drain, served)
}

/// POSTs `body`: the status and the body of the answer.
fn post(endpoint: &str, body: &str) -> (u16, String) {
    let mut answer = ureq::post(endpoint)
        .config()
        .http_status_as_error(false)
        .build()
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .send(body)
        .unwrap();
    let text = answer.body_mut().read_to_string().unwrap_or_default();
    (answer.status().as_u16(), text)
}

#[test]
fn a_drain_answers_new_requests_503_and_serve_returns_once_those_in_flight_are_answered() {
    let upstream = upstream();
    let metrics = Arc::new(Metrics::new());
    let (endpoint, drain, served) = gate(&upstream, HttpOptions::default(), metrics.clone());
    let in_flight = {
        let endpoint = endpoint.clone();
        std::thread::spawn(move || {
            post(&endpoint, r#"{"jsonrpc":"2.0","id":1,"method":"slow/op"}"#)
        })
    };
    upstream.arrived.recv_timeout(PATIENCE).unwrap();
    drain.drain();
    let (status, body) = post(&endpoint, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("shutting down"), "{body}");
    // The health check says so once `serve` has seen the drain.
    let deadline = std::time::Instant::now() + PATIENCE;
    while metrics.serving() {
        assert!(std::time::Instant::now() < deadline, "still serving");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Still serving the request in flight.
    assert!(served.try_recv().is_err());
    upstream.release.send(()).unwrap();
    let (status, body) = in_flight.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(served.recv_timeout(PATIENCE).unwrap().is_ok());
}

#[test]
fn a_drain_ends_at_its_timeout_or_when_asked_again() {
    let upstream = upstream();
    let options = HttpOptions::default().with_drain_timeout(Duration::ZERO);
    let (endpoint, drain, served) = gate(&upstream, options, Arc::new(Metrics::new()));
    let in_flight = {
        let endpoint = endpoint.clone();
        std::thread::spawn(move || {
            post(&endpoint, r#"{"jsonrpc":"2.0","id":1,"method":"slow/op"}"#)
        })
    };
    upstream.arrived.recv_timeout(PATIENCE).unwrap();
    drain.drain();
    // No time to wait: `serve` returns with the request still held upstream.
    assert!(served.recv_timeout(PATIENCE).unwrap().is_ok());
    upstream.release.send(()).unwrap();
    // Its worker still answers it (a process would have ended by now).
    assert_eq!(in_flight.join().unwrap().0, 200);

    let upstream = self::upstream();
    let options = HttpOptions::default().with_drain_timeout(PATIENCE * 10);
    let (endpoint, drain, served) = gate(&upstream, options, Arc::new(Metrics::new()));
    let in_flight = {
        let endpoint = endpoint.clone();
        std::thread::spawn(move || {
            post(&endpoint, r#"{"jsonrpc":"2.0","id":1,"method":"slow/op"}"#)
        })
    };
    upstream.arrived.recv_timeout(PATIENCE).unwrap();
    drain.drain();
    drain.drain();
    assert!(served.recv_timeout(PATIENCE).unwrap().is_ok());
    upstream.release.send(()).unwrap();
    assert_eq!(in_flight.join().unwrap().0, 200);
}

#[test]
fn the_sessions_kept_are_bounded_and_counted() {
    let upstream = upstream();
    let metrics = Arc::new(Metrics::new());
    let options = HttpOptions::default().with_max_sessions(2);
    let (endpoint, _drain, _served) = gate(&upstream, options, metrics.clone());
    let sessions = || {
        let text = metrics.encode();
        text.lines()
            .find_map(|line| line.strip_prefix("toolargs_gate_sessions "))
            .map(str::to_owned)
    };
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
    post(&endpoint, initialize);
    assert_eq!(sessions().as_deref(), Some("1"));
    for _ in 0..3 {
        post(&endpoint, initialize);
    }
    assert_eq!(sessions().as_deref(), Some("2"));
}

/// A call the gate rejects (an invented key to a destructive tool, an amount past the most).
const BAD_CALL: &str = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":999999,"overwrite":true}}}"#;

/// The gate's origin (`http://host:port`) of its endpoint.
fn origin(endpoint: &str) -> &str {
    endpoint.strip_suffix("/mcp").unwrap()
}

/// Sends `request` as it is on a connection of its own and reads until the gate closes it
/// (or `PATIENCE` passes): what came back.
fn raw(endpoint: &str, request: &[u8]) -> String {
    use std::io::{Read, Write};
    let address = origin(endpoint).strip_prefix("http://").unwrap();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn every_spelling_of_the_endpoint_and_every_json_body_is_judged() {
    let upstream = upstream();
    let (endpoint, _drain, _served) =
        gate(&upstream, HttpOptions::default(), Arc::new(Metrics::new()));
    let others = ["/messages/", "/elsewhere?session_id=1"];
    let paths = super::route::ENDPOINT_SPELLINGS.iter().chain(&others);
    for path in paths {
        let (status, body) = post(&format!("{}{path}", origin(&endpoint)), BAD_CALL);
        assert_eq!(status, 200, "{path}: {body}");
        assert!(
            body.contains(r#""isError":true"#) && body.contains("unknown_field"),
            "{path}: {body}"
        );
    }
    assert_eq!(upstream.got("tools/call"), []);
}

#[test]
fn another_path_takes_no_body_the_gate_cannot_read_unless_relayed() {
    let upstream = upstream();
    let gate = HttpGate::bind(
        "127.0.0.1:0".parse().unwrap(),
        &upstream.url,
        Gate::new,
        None,
    )
    .unwrap()
    .relaying(["/oauth/".to_owned()]);
    let endpoint = gate.endpoint();
    std::thread::spawn(move || gate.serve());
    // What Python's `json` reads and serde_json does not.
    let nan = BAD_CALL.replace("999999", "NaN");
    for path in ["/messages/", "/%6Dcp"] {
        let (status, body) = post(&format!("{}{path}", origin(&endpoint)), &nan);
        assert!(status == 404 || status == 400, "{path}: {status} {body}");
    }
    assert_eq!(upstream.got("NaN"), []);
    // Under a relayed prefix, a form goes on; so does a request without a body, anywhere.
    let form = "grant_type=client_credentials";
    let (status, _) = post(&format!("{}/oauth/token", origin(&endpoint)), form);
    assert_eq!(status, 200);
    assert_eq!(upstream.got(form).len(), 1);
    let answer = ureq::get(format!(
        "{}/.well-known/oauth-protected-resource",
        origin(&endpoint)
    ))
    .config()
    .http_status_as_error(false)
    .build()
    .call()
    .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
}

#[test]
fn standard_headers_that_disagree_with_the_body_are_a_400() {
    let upstream = upstream();
    let (endpoint, _drain, _served) =
        gate(&upstream, HttpOptions::default(), Arc::new(Metrics::new()));
    let clean = BAD_CALL.replace(r#"999999,"overwrite":true"#, "5");
    let send = |headers: &[(&str, &str)]| {
        let mut request = ureq::post(&endpoint)
            .config()
            .http_status_as_error(false)
            .build()
            .header("Content-Type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let mut answer = request.send(&clean).unwrap();
        let body = answer.body_mut().read_to_string().unwrap_or_default();
        (answer.status().as_u16(), body)
    };
    for headers in [
        vec![("Mcp-Method", "tools/list")],
        vec![("Mcp-Method", "tools/call"), ("Mcp-Name", "quote")],
        vec![("Mcp-Method", "tools/call"), ("Mcp-Method", "tools/call")],
    ] {
        let (status, body) = send(&headers);
        assert_eq!(status, 400, "{headers:?}: {body}");
        assert!(body.contains("-32020"), "{body}");
    }
    assert_eq!(upstream.got("tools/call"), []);
    let (status, body) = send(&[("Mcp-Method", "tools/call"), ("Mcp-Name", "refund")]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(upstream.got("tools/call").len(), 1);
}

#[test]
fn slow_clients_are_closed_and_one_client_cannot_take_every_request() {
    let upstream = upstream();
    let options = HttpOptions::default()
        .with_header_timeout(Duration::from_millis(300))
        .with_body_timeout(Duration::from_millis(300))
        .with_max_requests_per_client(1);
    let (endpoint, _drain, _served) = gate(&upstream, options, Arc::new(Metrics::new()));
    // Headers that never end: the connection is closed.
    let started = std::time::Instant::now();
    raw(&endpoint, b"POST /mcp HTTP/1.1\r\nHost: x\r\n");
    assert!(started.elapsed() < PATIENCE);
    // A body that never ends: 408, and closed.
    let answer = raw(
        &endpoint,
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"",
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_eq!(upstream.got("jsonrpc"), []);
    // One request of this client in flight: the next is a 429.
    let in_flight = {
        let endpoint = endpoint.clone();
        std::thread::spawn(move || {
            post(&endpoint, r#"{"jsonrpc":"2.0","id":1,"method":"slow/op"}"#)
        })
    };
    upstream.arrived.recv_timeout(PATIENCE).unwrap();
    let (status, body) = post(&endpoint, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert_eq!(status, 429, "{body}");
    upstream.release.send(()).unwrap();
    assert_eq!(in_flight.join().unwrap().0, 200);
    assert_eq!(
        post(&endpoint, r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#).0,
        200
    );
}

#[test]
fn requests_without_a_session_are_the_session_of_the_client_a_header_names() {
    let upstream = upstream();
    let policy = crate::Policy::from_toml(
        "[[tools]]\nname = \"refund\"\n[tools.meaning]\n\
         amount_cents = { semantic = \"money\", currency = \"USD\", minor_units = true }\n",
    )
    .unwrap();
    let gate = HttpGate::bind(
        "127.0.0.1:0".parse().unwrap(),
        &upstream.url,
        move || Gate::new().with_policy(policy.clone()),
        None,
    )
    .unwrap()
    .sessions_by("X-Client")
    .unwrap();
    let endpoint = gate.endpoint();
    std::thread::spawn(move || gate.serve());
    let refund = BAD_CALL.replace(r#"999999,"overwrite":true"#, "5");
    let send = |client: &str| post_as(&endpoint, client, &refund);
    // Each client's first refund goes on; the same one again from the same client is a
    // duplicate (this revision cannot be asked to confirm), from another client it is not.
    assert!(!send("a").contains("isError"));
    assert!(!send("b").contains("isError"));
    assert!(send("a").contains("duplicate_action"));
    assert_eq!(upstream.got("tools/call").len(), 2);
    assert!(HttpGate::bind(
        "127.0.0.1:0".parse().unwrap(),
        &upstream.url,
        Gate::new,
        None
    )
    .unwrap()
    .sessions_by("not a header")
    .is_err());
}

#[test]
fn gates_sharing_actions_hold_an_action_repeated_by_another_client() {
    let upstream = upstream();
    let policy = crate::Policy::from_toml(
        "[[tools]]\nname = \"refund\"\n[tools.meaning]\n\
         amount_cents = { semantic = \"money\", currency = \"USD\", minor_units = true }\n",
    )
    .unwrap();
    let actions = crate::Actions::default();
    // Options set after the sharing keep it.
    let new_gate = move || {
        Gate::new()
            .with_policy(policy.clone())
            .sharing_actions(actions.clone())
            .with_session_options(crate::SessionOptions::default())
    };
    let gate = HttpGate::bind(
        "127.0.0.1:0".parse().unwrap(),
        &upstream.url,
        new_gate,
        None,
    )
    .unwrap()
    .sessions_by("X-Client")
    .unwrap();
    let endpoint = gate.endpoint();
    std::thread::spawn(move || gate.serve());
    let refund = BAD_CALL.replace(r#"999999,"overwrite":true"#, "5");
    let other = BAD_CALL.replace(r#"999999,"overwrite":true"#, "6");
    let send = |client: &str, call: &str| post_as(&endpoint, client, call);
    assert!(!send("a", &refund).contains("isError"));
    // The same refund from another client is the same action; another refund is not.
    assert!(send("b", &refund).contains("duplicate_action"));
    assert!(!send("b", &other).contains("isError"));
    assert_eq!(upstream.got("tools/call").len(), 2);
}

/// The body of the answer to a POST of `body` to `endpoint` from the client `X-Client` names.
fn post_as(endpoint: &str, client: &str, body: &str) -> String {
    let mut answer = ureq::post(endpoint)
        .config()
        .http_status_as_error(false)
        .build()
        .header("Content-Type", "application/json")
        .header("X-Client", client)
        .send(body)
        .unwrap();
    answer.body_mut().read_to_string().unwrap_or_default()
}
