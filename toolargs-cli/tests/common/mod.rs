//! What the CLI's test files share: their data folder, and `toolargs gate` started in front
//! of the echo server with a watchdog, so that a gate that never answers fails the test
//! instead of hanging it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::time::Duration;

/// A file of `tests/data`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Ends the test process, failing, when it is still running after `seconds`.
pub fn watchdog(seconds: u64) {
    static WATCHDOG: Once = Once::new();
    WATCHDOG.call_once(|| {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(seconds));
            eprintln!("the gate did not answer within {seconds} s");
            std::process::exit(1);
        });
    });
}

/// `toolargs gate OPTIONS -- python3 echo_server.py`, its stdin and stdout piped, its stderr
/// (where the echo server names every call) as given.
pub fn spawn_gate(options: &[&OsStr], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .arg("gate")
        .args(options)
        .arg("--")
        .arg("python3")
        .arg(data("echo_server.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the gate starts")
}
