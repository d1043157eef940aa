//! `toolargs gate --listen ADDR --upstream URL` without a server behind it: the flags, and the
//! answers the gate gives itself (an upstream that cannot be reached, a body it does not
//! read). The end-to-end sessions through a real server are in `tests/sdk.rs`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;

/// The gate, ended when the test is.
struct Running {
    child: Child,
    endpoint: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nothing listens on (it was free a moment ago).
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The gate on a free port in front of `upstream`, once it says where it listens.
fn gate(upstream: &str) -> Running {
    let mut child = Command::cargo_bin("toolargs")
        .unwrap()
        .args(["gate", "--listen", "127.0.0.1:0", "--upstream", upstream])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let endpoint = line
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the gate did not say where it listens: {line:?}"))
        .to_owned();
    assert!(line.contains(&format!("in front of {upstream}")), "{line}");
    // Kept open: the gate writes its notes there.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    Running { child, endpoint }
}

/// Sends `head` and `body` to the gate's address and reads the whole answer.
fn exchange(endpoint: &str, head: &str, body: &[u8]) -> String {
    let address = endpoint
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
        .set_write_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    // The gate may answer (and stop reading) before the body ends.
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn post(endpoint: &str, body: &[u8]) -> String {
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: gate\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    exchange(endpoint, &head, body)
}

#[test]
fn an_upstream_that_cannot_be_reached_is_a_502_with_a_json_rpc_error_for_the_request() {
    let upstream = format!("http://127.0.0.1:{}/mcp", closed_port());
    let gate = gate(&upstream);
    assert!(gate.endpoint.ends_with("/mcp"), "{}", gate.endpoint);
    let answer = post(
        &gate.endpoint,
        br#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}"#,
    );
    assert!(answer.starts_with("HTTP/1.1 502"), "{answer}");
    assert!(answer.contains(r#""id":7"#), "{answer}");
    assert!(answer.contains("-32603"), "{answer}");
    assert!(answer.contains(&upstream), "{answer}");
}

#[test]
fn a_body_that_is_not_utf8_is_a_parse_error_and_an_oversized_one_a_413() {
    let gate = gate(&format!("http://127.0.0.1:{}/mcp", closed_port()));
    let answer = post(&gate.endpoint, b"{\"id\":\xff}");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("-32700"), "{answer}");

    let oversized = vec![b' '; (64 << 20) + 1];
    let answer = post(&gate.endpoint, &oversized);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("longer than"), "{answer}");
}

#[test]
fn listen_and_a_command_are_one_or_the_other() {
    let run = |args: &[&str]| {
        Command::cargo_bin("toolargs")
            .unwrap()
            .arg("gate")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let both = run(&[
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "http://127.0.0.1:9/mcp",
        "--",
        "true",
    ]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"));
    let alone = run(&["--listen", "127.0.0.1:0"]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&alone.stderr).contains("--upstream"));
    let neither = run(&[]);
    assert_eq!(neither.status.code(), Some(2));
    let bad = run(&["--listen", "127.0.0.1:0", "--upstream", "ftp://host/mcp"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not http"));
}
