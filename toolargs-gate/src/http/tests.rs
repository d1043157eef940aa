//! The HTTP gate's drain and limits, through the library: [`DrainHandle`], [`HttpOptions`],
//! and the sessions gauge. Waits are on conditions (a request arriving, `serve` returning),
//! each bounded.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{DrainHandle, HttpGate, HttpOptions};
use crate::{Gate, Metrics};

const PATIENCE: Duration = Duration::from_secs(60);

/// An upstream at `/mcp` that answers `initialize` with a new session each time, holds a
/// `slow/op` until released (saying it arrived), and answers anything else at once.
struct Upstream {
    url: String,
    arrived: Receiver<()>,
    release: Sender<()>,
}

fn upstream() -> Upstream {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", server.server_addr().to_ip().unwrap());
    let (arrived_send, arrived) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let released = Arc::new(Mutex::new(released));
    let server = Arc::new(server);
    let sessions = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    std::thread::spawn(move || {
        while let Ok(mut request) = server.recv() {
            let (arrived, released, sessions) =
                (arrived_send.clone(), released.clone(), sessions.clone());
            std::thread::spawn(move || {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                let message: serde_json::Value =
                    serde_json::from_str(&body).unwrap_or(serde_json::Value::Null);
                let json: tiny_http::Header = "Content-Type: application/json".parse().unwrap();
                let mut response = tiny_http::Response::from_string(
                    serde_json::json!({"jsonrpc": "2.0", "id": message["id"], "result": {}})
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
