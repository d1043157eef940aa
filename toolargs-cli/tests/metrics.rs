//! Operating `toolargs gate`: the Prometheus metrics and the health check of `--metrics`, over
//! stdio and over Streamable HTTP; the HTTP gate's limits (`--max-body-bytes`,
//! `--max-requests`) and its drain on `SIGTERM`.
//!
//! Every wait is on a condition (a line on stderr, an answer, a counter reaching its value),
//! bounded; none is a fixed sleep.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any one condition may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// The gate, killed when the test ends (unless it ended already).
struct Running {
    child: Child,
    /// Its stderr, line by line.
    lines: Receiver<String>,
    /// Every line read from `lines` so far.
    seen: Vec<String>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    /// `toolargs gate ARGS`, its stderr read line by line.
    fn start(args: &[&str], stdin: Stdio, stdout: Stdio) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolargs"))
            .arg("gate")
            .args(args)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the gate starts");
        let stderr = BufReader::new(child.stderr.take().expect("the gate's stderr"));
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The first line on stderr that holds `needle` (waiting for it).
    fn line_with(&mut self, needle: &str) -> String {
        if let Some(line) = self.seen.iter().find(|line| line.contains(needle)) {
            return line.clone();
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => panic!("no line with {needle:?} on stderr: {:#?}", self.seen),
            }
        }
    }

    /// The address of the metrics server, from the line the gate prints.
    fn metrics_address(&mut self) -> String {
        let line = self.line_with("toolargs gate: metrics on http://");
        line.split("http://")
            .nth(1)
            .and_then(|rest| rest.strip_suffix("/metrics"))
            .unwrap_or_else(|| panic!("not an address: {line}"))
            .to_owned()
    }

    /// The HTTP gate's endpoint, from the line the gate prints.
    fn endpoint(&mut self) -> String {
        let line = self.line_with("listening on ");
        line.split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("not an endpoint: {line}"))
            .to_owned()
    }

    /// The exit code, once the gate ended.
    fn exit_code(&mut self) -> Option<i32> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the gate did not end");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Waits until `condition` holds, polling.
fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !condition() {
        assert!(Instant::now() < deadline, "waited too long for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `head` and `body` to `address` and reads the whole answer (`None` when the
/// connection is refused or closed without one).
fn exchange(address: &str, head: &str, body: &[u8]) -> Option<String> {
    let mut stream = TcpStream::connect(address).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.set_write_timeout(Some(PATIENCE)).unwrap();
    stream.write_all(head.as_bytes()).ok()?;
    // The gate may answer (and stop reading) before the body ends.
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    (!answer.is_empty()).then(|| String::from_utf8_lossy(&answer).into_owned())
}

/// The status and the body of `GET path`.
fn get(address: &str, path: &str) -> (u16, String) {
    let head = format!("GET {path} HTTP/1.1\r\nHost: gate\r\nConnection: close\r\n\r\n");
    let answer = exchange(address, &head, b"").expect("an answer");
    (status(&answer), body(&answer).to_owned())
}

/// POSTs `body` to the endpoint (`http://ADDR/mcp`), with `headers`.
fn post(endpoint: &str, body: &[u8], headers: &[(&str, &str)]) -> Option<String> {
    let rest = endpoint.trim_start_matches("http://");
    let (address, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: gate\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    exchange(address, &head, body)
}

fn status(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"))
}

fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

/// The value of the sample `series` (its name and labels as written) in `text`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|value| value.parse().ok())
}

/// Asserts each series of `expected` has its value in a scrape of `address`.
fn assert_samples(address: &str, expected: &[(&str, f64)]) {
    let (code, text) = get(address, "/metrics");
    assert_eq!(code, 200, "{text}");
    for (series, value) in expected {
        assert_eq!(sample(&text, series), Some(*value), "{series} in\n{text}");
    }
}

fn call(id: u32, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
}

fn echo_server() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/echo_server.py")
}

#[test]
fn the_stdio_gate_counts_calls_by_tool_outcome_code_and_rule() {
    let server = echo_server();
    let mut gate = Running::start(
        &[
            "--metrics",
            "127.0.0.1:0",
            "--",
            "python3",
            server.to_str().unwrap(),
        ],
        Stdio::piped(),
        Stdio::piped(),
    );
    let address = gate.metrics_address();
    let mut to = gate.child.stdin.take().unwrap();
    let mut from = BufReader::new(gate.child.stdout.take().unwrap());
    let mut ask = |message: Value| {
        writeln!(to, "{message}").unwrap();
        let mut line = String::new();
        from.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"))
    };
    ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
    // Before any listing: held while the gate lists the tools itself, then judged.
    let reply = ask(call(2, "refund", json!({"amount_cents": "1999"})));
    assert_eq!(reply["id"], json!(2));
    ask(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}));
    let calls = [
        call(
            4,
            "refund",
            json!({"amount_cents": 1999, "overwrite": true}),
        ),
        call(5, "refund", json!({"amount_cents": 90000})),
        call(6, "lookup", json!({"q": "x", "ghost": 1})),
        call(7, "lookup", json!({"q": "y"})),
        // Not among the tools just listed: refused without another listing.
        call(8, "nope", json!({})),
    ];
    for (id, message) in (4..).zip(calls) {
        assert_eq!(ask(message)["id"], json!(id));
    }
    // Each verdict is counted before its routes are written; waiting costs nothing.
    wait_until("six verdicts counted", || {
        sample(
            &get(&address, "/metrics").1,
            "toolargs_gate_added_latency_seconds_count",
        ) == Some(6.0)
    });
    assert_samples(
        &address,
        &[
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="repaired"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="rejected"}"#,
                2.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="lookup",outcome="repaired"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="lookup",outcome="clean"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="_unlisted",outcome="unknown_tool"}"#,
                1.0,
            ),
            (r#"toolargs_gate_errors_total{code="unknown_field"}"#, 1.0),
            (r#"toolargs_gate_errors_total{code="out_of_range"}"#, 1.0),
            (r#"toolargs_gate_errors_total{code="unknown_tool"}"#, 1.0),
            (
                r#"toolargs_gate_repairs_total{rule="numeric_string_to_int"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_repairs_total{rule="strip_unknown_field"}"#,
                1.0,
            ),
            ("toolargs_gate_held_calls_total", 1.0),
            ("toolargs_gate_unlisted_calls_total", 1.0),
            ("toolargs_gate_upstream_errors_total", 0.0),
            (
                r#"toolargs_gate_added_latency_seconds_bucket{le="+Inf"}"#,
                6.0,
            ),
        ],
    );
    let (code, text) = get(&address, "/metrics");
    assert_eq!(code, 200);
    assert!(text.contains("# TYPE toolargs_gate_added_latency_seconds histogram"));
    assert_eq!(get(&address, "/healthz"), (200, "ok\n".to_owned()));
    // The server exits with 3 once its input closes; so does the gate.
    drop(to);
    assert_eq!(gate.exit_code(), Some(3));
}

/// What the test upstream does with a request.
#[derive(Clone, Copy)]
enum Upstream {
    /// Answers every request at once: a session at `initialize`, the `refund` tool at
    /// `tools/list`, a call's arguments as its result; closes the connection without an
    /// answer for a call whose `note` is `crash`.
    Answers,
    /// As `Answers`, but holds the answer to a `slow/op` request until released.
    Holds,
}

/// A Streamable HTTP server at `/mcp`, one request per connection, written here: its URL,
/// the requests it holds (each says it arrived), and their release.
struct TestUpstream {
    url: String,
    arrived: Receiver<()>,
    release: Sender<()>,
}

fn upstream(kind: Upstream) -> TestUpstream {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (arrived_send, arrived) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let released = Arc::new(Mutex::new(released));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let (arrived, released) = (arrived_send.clone(), released.clone());
            std::thread::spawn(move || answer(stream, kind, &arrived, &released));
        }
    });
    TestUpstream {
        url,
        arrived,
        release,
    }
}

/// Reads one request and answers it as `kind` says.
fn answer(stream: TcpStream, kind: Upstream, arrived: &Sender<()>, released: &Mutex<Receiver<()>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut extra = String::new();
    let result = match message["method"].as_str() {
        Some("initialize") => {
            extra.push_str("Mcp-Session-Id: session-1\r\n");
            json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "test", "version": "1"}})
        }
        Some("tools/list") => json!({"tools": [{"name": "refund", "inputSchema": {
            "type": "object",
            "properties": {"amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
                "note": {"type": "string"}},
            "required": ["amount_cents"]}}]}),
        Some("tools/call") if message["params"]["arguments"]["note"] == json!("crash") => return,
        Some("tools/call") => json!({"content": [{"type": "text",
            "text": message["params"]["arguments"].to_string()}]}),
        Some("slow/op") if matches!(kind, Upstream::Holds) => {
            let _ = arrived.send(());
            let _ = released.lock().unwrap().recv();
            json!({"slow": true})
        }
        _ => json!({}),
    };
    let text = json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{text}",
        text.len()
    );
}

#[test]
fn the_http_gate_counts_calls_sessions_and_upstream_errors() {
    let upstream = upstream(Upstream::Answers);
    let mut gate = Running::start(
        &[
            "--metrics",
            "127.0.0.1:0",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &upstream.url,
        ],
        Stdio::null(),
        Stdio::null(),
    );
    let address = gate.metrics_address();
    let endpoint = gate.endpoint();
    let send = |message: Value| {
        let answer = post(
            &endpoint,
            message.to_string().as_bytes(),
            &[("Mcp-Session-Id", "session-1")],
        )
        .expect("an answer");
        (status(&answer), body(&answer).to_owned())
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}});
    let answer = post(&endpoint, initialize.to_string().as_bytes(), &[]).expect("an answer");
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(answer
        .to_ascii_lowercase()
        .contains("mcp-session-id: session-1"));
    assert_eq!(
        send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).0,
        200
    );
    let (code, text) = send(call(3, "refund", json!({"amount_cents": "1999"})));
    assert_eq!(code, 200);
    assert!(text.contains(r#"{\"amount_cents\":1999}"#), "{text}");
    let (code, text) = send(call(4, "refund", json!({"amount_cents": 90000})));
    assert_eq!(code, 200);
    assert!(text.contains("out_of_range"), "{text}");
    assert_eq!(send(call(5, "refund", json!({"amount_cents": 7}))).0, 200);
    // Judged clean, and the upstream closes the connection without an answer.
    let (code, text) = send(call(
        6,
        "refund",
        json!({"amount_cents": 5, "note": "crash"}),
    ));
    assert_eq!(code, 502, "{text}");
    assert_samples(
        &address,
        &[
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="repaired"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="rejected"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="clean"}"#,
                2.0,
            ),
            (r#"toolargs_gate_errors_total{code="out_of_range"}"#, 1.0),
            (
                r#"toolargs_gate_repairs_total{rule="numeric_string_to_int"}"#,
                1.0,
            ),
            ("toolargs_gate_upstream_errors_total", 1.0),
            ("toolargs_gate_sessions", 1.0),
            ("toolargs_gate_added_latency_seconds_count", 4.0),
        ],
    );
    assert_eq!(get(&address, "/healthz"), (200, "ok\n".to_owned()));
}

#[test]
fn the_http_gate_answers_413_past_max_body_bytes_and_503_past_max_requests() {
    let upstream = upstream(Upstream::Holds);
    let mut gate = Running::start(
        &[
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &upstream.url,
            "--max-body-bytes",
            "1024",
        ],
        Stdio::null(),
        Stdio::null(),
    );
    let endpoint = gate.endpoint();
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let answer = post(&endpoint, ping, &[]).expect("an answer");
    assert_eq!(status(&answer), 200, "{answer}");
    let mut long = br#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":""#.to_vec();
    long.extend([b'x'; 1024]);
    long.extend(br#""}}"#);
    let answer = post(&endpoint, &long, &[]).expect("an answer");
    assert_eq!(status(&answer), 413, "{answer}");
    assert!(answer.contains("longer than 1024 bytes"), "{answer}");

    // One request held by the upstream is all this gate handles at once. It is the gate's
    // first: a request just answered may count until its worker is done with it.
    let mut gate = Running::start(
        &[
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &upstream.url,
            "--max-requests",
            "1",
        ],
        Stdio::null(),
        Stdio::null(),
    );
    let endpoint = gate.endpoint();
    let held = {
        let endpoint = endpoint.clone();
        std::thread::spawn(move || {
            post(
                &endpoint,
                br#"{"jsonrpc":"2.0","id":3,"method":"slow/op"}"#,
                &[],
            )
        })
    };
    upstream
        .arrived
        .recv_timeout(PATIENCE)
        .expect("the request arrives");
    let answer = post(&endpoint, ping, &[]).expect("an answer");
    assert_eq!(status(&answer), 503, "{answer}");
    assert!(answer.contains("too many requests"), "{answer}");
    upstream.release.send(()).unwrap();
    let answer = held.join().unwrap().expect("an answer");
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(answer.contains(r#""slow":true"#), "{answer}");
}

#[cfg(unix)]
#[test]
fn sigterm_drains_the_http_gate_and_it_exits_0() {
    let upstream = upstream(Upstream::Holds);
    let mut gate = Running::start(
        &[
            "--metrics",
            "127.0.0.1:0",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &upstream.url,
            "--drain-timeout",
            "600",
        ],
        Stdio::null(),
        Stdio::null(),
    );
    let address = gate.metrics_address();
    let endpoint = gate.endpoint();
    let in_flight = {
        let endpoint = endpoint.clone();
        std::thread::spawn(move || {
            post(
                &endpoint,
                br#"{"jsonrpc":"2.0","id":1,"method":"slow/op"}"#,
                &[],
            )
        })
    };
    upstream
        .arrived
        .recv_timeout(PATIENCE)
        .expect("the request arrives");
    let killed = Command::new("kill")
        .args(["-TERM", &gate.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    gate.line_with("toolargs gate: draining, 1 request(s) in flight");
    assert_eq!(get(&address, "/healthz").0, 503);
    // A new request is refused while the one in flight goes on.
    let ping = br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    if let Some(answer) = post(&endpoint, ping, &[]) {
        assert_eq!(status(&answer), 503, "{answer}");
        assert!(answer.contains("shutting down"), "{answer}");
    }
    assert!(
        gate.child.try_wait().unwrap().is_none(),
        "the gate ended mid-request"
    );
    upstream.release.send(()).unwrap();
    let answer = in_flight
        .join()
        .unwrap()
        .expect("the request in flight is answered");
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(answer.contains(r#""slow":true"#), "{answer}");
    assert_eq!(gate.exit_code(), Some(0));
    gate.line_with("toolargs gate: drained");
}
