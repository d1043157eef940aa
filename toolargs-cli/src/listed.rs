//! A stdio MCP server's tools, as `lint` and `pin` ask for them: the server started, asked as
//! a client asks (`initialize`, `notifications/initialized`, every page of `tools/list`), and
//! stopped.

use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde_json::{json, Value};

/// At most this many pages of `tools/list`, as the gate asks.
const MAX_PAGES: usize = 1000;

/// How long the server may take to answer one request.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// Starts the MCP server `command` on stdio, lists its tools (every page, in order) as the
/// client `client` (its `clientInfo` name), and stops it. The server's stderr is this
/// process's.
pub fn over_stdio(command: &[OsString], client: &str) -> Result<Vec<Value>, String> {
    let (program, rest) = command.split_first().ok_or("no command to start")?;
    let mut child = Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{}: {e}", program.to_string_lossy()))?;
    let result = ask_for_tools(&mut child, client);
    drop(child.stdin.take());
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn ask_for_tools(child: &mut Child, client: &str) -> Result<Vec<Value>, String> {
    let mut input = child.stdin.take().ok_or("the server's stdin")?;
    let output = BufReader::new(child.stdout.take().ok_or("the server's stdout")?);
    // Lines are read on a thread of their own, so that a server that never answers is a
    // timeout, not a hang.
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in output.lines() {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |message: Value| -> Result<(), String> {
        writeln!(input, "{message}")
            .and_then(|()| input.flush())
            .map_err(|e| format!("writing to the server: {e}"))
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client, "version": env!("CARGO_PKG_VERSION")},
        }}),
    )?;
    answer(&received, 0)?;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let mut tools = Vec::new();
    let mut cursor: Option<Value> = None;
    for page in 1..=MAX_PAGES {
        let params = cursor.take().map_or(json!({}), |c| json!({ "cursor": c }));
        send(json!({"jsonrpc": "2.0", "id": page, "method": "tools/list", "params": params}))?;
        let result = answer(&received, page)?;
        let Some(listed) = result.get("tools").and_then(Value::as_array) else {
            return Err("the server's tools/list result holds no `tools` array".into());
        };
        tools.extend(listed.iter().cloned());
        match result.get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => return Ok(tools),
        }
    }
    Err(format!(
        "the server's tool list runs past {MAX_PAGES} pages"
    ))
}

/// The `result` of the response numbered `id`, reading past notifications and requests.
fn answer(lines: &Receiver<io::Result<String>>, id: usize) -> Result<Value, String> {
    loop {
        let line = match lines.recv_timeout(ANSWER_TIMEOUT) {
            Ok(line) => line.map_err(|e| format!("reading from the server: {e}"))?,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "the server did not answer within {} s",
                    ANSWER_TIMEOUT.as_secs()
                ))
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("the server closed its output before answering".into())
            }
        };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if message.get("id") != Some(&json!(id)) || message.get("method").is_some() {
            continue;
        }
        if let Some(error) = message.get("error") {
            return Err(format!("the server answered with an error: {error}"));
        }
        return Ok(message.get("result").cloned().unwrap_or(Value::Null));
    }
}
