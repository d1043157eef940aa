//! `toolargs gate --log`: the verdict log outlives the gate. Runs append to it, a gate killed
//! leaves whole lines, rotation (copytruncate, or mv and SIGUSR1) loses nothing, gates sharing
//! one file never mix their lines, and `--log-chain` chains the lines across runs and gates.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;
use common::{spawn_gate, watchdog};

/// A log file of the test's own, none there yet.
fn log_path(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "toolargs-verdict-log-{}-{name}.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// `toolargs gate OPTIONS -- python3 echo_server.py`, seen from the client.
struct Gate {
    child: Child,
    to: Option<ChildStdin>,
    from: BufReader<ChildStdout>,
    next_id: u64,
}

impl Gate {
    /// The gate, once the client initialized and listed the tools.
    fn start(options: &[&std::ffi::OsStr]) -> Gate {
        watchdog(300);
        let mut child = spawn_gate(options, Stdio::null());
        let mut gate = Gate {
            to: child.stdin.take(),
            from: BufReader::new(child.stdout.take().expect("the gate's stdout")),
            child,
            next_id: 1,
        };
        let init = gate.ask("initialize", json!({}));
        assert_eq!(init["result"]["serverInfo"]["name"], json!("echo"));
        let list = gate.ask("tools/list", json!({}));
        assert_eq!(list["result"]["tools"].as_array().map(Vec::len), Some(2));
        gate
    }

    /// A gate logging to `log`, with these options too.
    fn logging(log: &Path, options: &[&str]) -> Gate {
        let mut all: Vec<&std::ffi::OsStr> = vec!["--log".as_ref(), log.as_os_str()];
        all.extend(options.iter().map(std::ffi::OsStr::new));
        Gate::start(&all)
    }

    fn send(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.to.as_mut().unwrap(), "{message}").unwrap();
        id
    }

    /// The next line, as JSON; `None` once the gate's stdout closed.
    fn read(&mut self) -> Option<Value> {
        let mut line = String::new();
        match self.from.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(serde_json::from_str(&line).unwrap_or_else(|_| panic!("{line:?}"))),
        }
    }

    fn ask(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        let answer = self.read().expect("an answer");
        assert_eq!(answer["id"], json!(id), "{answer}");
        answer
    }

    /// The `n`th call's message: repaired, rejected and clean calls in turn.
    fn call_params(n: usize) -> Value {
        match n % 3 {
            0 => json!({"name": "refund", "arguments": {"amount_cents": "1999"}}),
            1 => json!({"name": "refund", "arguments": {"amount_cents": 90000}}),
            _ => json!({"name": "lookup", "arguments": {"q": format!("q{n}")}}),
        }
    }

    /// Makes `n` calls, one after the other, each answered.
    fn calls(&mut self, n: usize) {
        for i in 0..n {
            let answer = self.ask("tools/call", Gate::call_params(i));
            assert!(answer["result"].is_object(), "{answer}");
        }
    }

    /// Once a later request is answered, the gate wrote the verdicts of the calls before it:
    /// it reads the client's lines one at a time, logging each call before the next line.
    fn settle(&mut self) {
        self.ask("ping", json!({}));
    }

    /// Closes the client's side; the gate's exit code, once the server ended.
    fn finish(mut self) -> Option<i32> {
        self.to.take();
        while self.read().is_some() {}
        self.child.wait().unwrap().code()
    }
}

/// The log's lines, each checked whole: the file has no hole, ends with a newline, and every
/// line is JSON.
fn whole_lines(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    assert!(!bytes.contains(&0), "a hole of NULs in {}", path.display());
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "a line cut short"
    );
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for line in &lines {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    }
    lines
}

/// Every line has the fields of a verdict, its `timestamp` in RFC 3339 with microseconds.
fn assert_verdicts(lines: &[String]) {
    for line in lines {
        let verdict: Value = serde_json::from_str(line).unwrap();
        for field in [
            "time",
            "timestamp",
            "session",
            "tool",
            "outcome",
            "latency_us",
        ] {
            assert!(verdict.get(field).is_some(), "no {field}: {line}");
        }
        let timestamp = verdict["timestamp"].as_str().unwrap();
        assert!(
            timestamp.len() == 27 && timestamp.ends_with('Z'),
            "{timestamp}"
        );
    }
}

fn kill(signal: &str, pid: u32) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(sent.success());
}

#[test]
fn runs_into_one_log_append_to_it() {
    let path = log_path("runs");
    let mut sessions = Vec::new();
    for calls in [4, 5] {
        let mut gate = Gate::logging(&path, &[]);
        gate.calls(calls);
        assert_eq!(gate.finish(), Some(3));
        let lines = whole_lines(&path);
        let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        sessions.push(last["session"].as_str().unwrap().to_owned());
    }
    let lines = whole_lines(&path);
    assert_eq!(lines.len(), 9);
    assert_verdicts(&lines);
    // The runs are told apart by their session.
    assert_ne!(sessions[0], sessions[1]);
    let first: Vec<Value> = lines
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        first
            .iter()
            .filter(|v| v["session"] == json!(sessions[0]))
            .count(),
        4
    );
    // Without `--log-chain`, no `prev`.
    assert!(first.iter().all(|v| v.get("prev").is_none()));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_gate_killed_mid_run_leaves_whole_lines_and_every_answered_verdict() {
    let path = log_path("killed");
    let mut gate = Gate::logging(&path, &[]);
    gate.calls(2);
    assert_eq!(gate.finish(), Some(3));

    let mut gate = Gate::logging(&path, &[]);
    gate.calls(30);
    gate.settle();
    // Calls sent and not waited for: the gate is killed while it handles them.
    for i in 0..40 {
        gate.send("tools/call", Gate::call_params(i));
    }
    gate.child.kill().unwrap();
    gate.child.wait().unwrap();
    let lines = whole_lines(&path);
    assert!(
        (32..=72).contains(&lines.len()),
        "{} lines: the 32 answered, and at most the 40 sent after",
        lines.len()
    );
    assert_verdicts(&lines);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn copytruncate_rotation_goes_on_from_the_start_of_the_file() {
    let path = log_path("copytruncate");
    let mut gate = Gate::logging(&path, &[]);
    gate.calls(5);
    gate.settle();
    // What logrotate's copytruncate does: copy, then truncate in place.
    let rotated = log_path("copytruncate.1");
    std::fs::copy(&path, &rotated).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    gate.calls(3);
    gate.settle();
    assert_eq!(whole_lines(&path).len(), 3);
    assert_eq!(whole_lines(&rotated).len(), 5);
    assert_eq!(gate.finish(), Some(3));
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&rotated).unwrap();
}

/// `mv` and then `SIGUSR1`: the gate writes to a new file at the path, and the server, which
/// would end on a SIGUSR1, never gets it.
#[cfg(unix)]
#[test]
fn mv_and_sigusr1_rotation_loses_no_line() {
    let path = log_path("usr1");
    let rotated = log_path("usr1.1");
    let mut gate = Gate::logging(&path, &[]);
    gate.calls(4);
    gate.settle();
    std::fs::rename(&path, &rotated).unwrap();
    // Until the signal, the lines go on to the file moved.
    gate.calls(2);
    gate.settle();
    kill("USR1", gate.child.id());
    let deadline = Instant::now() + Duration::from_secs(30);
    while !path.exists() {
        assert!(Instant::now() < deadline, "the log was not reopened");
        std::thread::sleep(Duration::from_millis(10));
    }
    gate.calls(3);
    gate.settle();
    assert_eq!(whole_lines(&rotated).len(), 6);
    assert_eq!(whole_lines(&path).len(), 3);
    // The server ends as it does when its input closes, not by the signal.
    assert_eq!(gate.finish(), Some(3));
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&rotated).unwrap();
}

/// Gates writing one log at once, each `calls` calls.
fn concurrent_gates(path: &Path, options: &'static [&'static str], gates: usize, calls: usize) {
    let runs: Vec<_> = (0..gates)
        .map(|_| {
            let path = path.to_owned();
            std::thread::spawn(move || {
                let mut gate = Gate::logging(&path, options);
                gate.calls(calls);
                gate.finish()
            })
        })
        .collect();
    for run in runs {
        assert_eq!(run.join().unwrap(), Some(3));
    }
}

#[test]
fn gates_writing_one_log_at_once_keep_every_line_whole() {
    let path = log_path("concurrent");
    // Lines long enough that a torn write would show.
    std::fs::write(&path, "").unwrap();
    concurrent_gates(&path, &["--log-arguments"], 3, 150);
    let lines = whole_lines(&path);
    assert_eq!(lines.len(), 450);
    assert_verdicts(&lines);
    let sessions: std::collections::HashSet<String> = lines
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["session"].to_string())
        .collect();
    assert_eq!(sessions.len(), 3);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_chain_holds_across_runs_and_gates_and_breaks_at_a_line_changed() {
    let path = log_path("chain");
    for calls in [3, 4] {
        let mut gate = Gate::logging(&path, &["--log-chain"]);
        gate.calls(calls);
        assert_eq!(gate.finish(), Some(3));
    }
    let lines = whole_lines(&path);
    assert_eq!(lines.len(), 7);
    assert_verdicts(&lines);
    let first: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(first["prev"], json!("0".repeat(64)));
    // The second run's first line follows the first run's last.
    let fourth: Value = serde_json::from_str(&lines[3]).unwrap();
    assert_eq!(
        fourth["prev"],
        json!(toolargs_gate::line_hash(lines[2].as_bytes()))
    );
    assert_eq!(toolargs_gate::verify_chain(&lines), Ok(()));

    concurrent_gates(&path, &["--log-chain"], 3, 100);
    let lines = whole_lines(&path);
    assert_eq!(lines.len(), 307);
    assert_eq!(toolargs_gate::verify_chain(&lines), Ok(()));

    // An edited line: the chain breaks at the line after it.
    let mut edited = lines.clone();
    edited[4] = edited[4].replacen("\"latency_us\":", "\"latency_us\":1", 1);
    assert_ne!(edited[4], lines[4]);
    let broken = toolargs_gate::verify_chain(&edited).unwrap_err();
    assert_eq!(broken.line, 6);
    assert_eq!(
        broken.expected,
        toolargs_gate::line_hash(edited[4].as_bytes())
    );
    assert_eq!(
        broken.found.as_deref(),
        Some(toolargs_gate::line_hash(lines[4].as_bytes()).as_str())
    );
    // A deleted line: the chain breaks where it was.
    let mut deleted = lines.clone();
    deleted.remove(200);
    assert_eq!(toolargs_gate::verify_chain(&deleted).unwrap_err().line, 201);
    // The last line edited is not found by the chain alone: its hash is the anchor to keep.
    std::fs::remove_file(&path).unwrap();
}

/// The HTTP gate takes `SIGUSR1` as well: the verdicts after it go to the new file.
#[cfg(unix)]
#[test]
fn the_http_gate_reopens_its_log_on_sigusr1() {
    let path = log_path("http-usr1");
    let rotated = log_path("http-usr1.1");
    let upstream = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/mcp", listener.local_addr().unwrap())
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["gate", "--listen", "127.0.0.1:0", "--upstream", &upstream])
        .arg("--log")
        .arg(&path)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    stderr.read_line(&mut said).unwrap();
    let endpoint = said
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{said:?}"))
        .to_owned();
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let address = endpoint
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    // A call the gate judges, whatever the upstream (which is not there) answers.
    let call = |id: u32| {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "lookup", "arguments": {"q": "x"}}})
        .to_string();
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: gate\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = std::io::Read::read_to_string(&mut stream, &mut answer);
        assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    };
    call(1);
    call(2);
    std::fs::rename(&path, &rotated).unwrap();
    kill("USR1", child.id());
    let deadline = Instant::now() + Duration::from_secs(30);
    while !path.exists() {
        assert!(Instant::now() < deadline, "the log was not reopened");
        std::thread::sleep(Duration::from_millis(10));
    }
    call(3);
    // The gate is still there.
    assert!(child.try_wait().unwrap().is_none());
    let _ = child.kill();
    let _ = child.wait();
    let (old, new) = (whole_lines(&rotated), whole_lines(&path));
    assert_eq!((old.len(), new.len()), (2, 1));
    assert_verdicts(&old);
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&rotated).unwrap();
}
