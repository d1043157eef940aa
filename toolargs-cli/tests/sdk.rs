//! `toolargs gate` between parts this project did not write: the official MCP SDK clients
//! (Python's `mcp`, TypeScript's `@modelcontextprotocol/sdk`) in front of the reference servers
//! `mcp-server-time`, `mcp-server-git`, `@modelcontextprotocol/server-memory`,
//! `@modelcontextprotocol/server-everything`, and a FastMCP server with typed tools.
//!
//! Each client script (`tests/sdk/client.py`, `tests/sdk/client.mjs`) opens, for every server
//! of `tests/sdk/scenarios.json`, one session through the gate and one directly, makes the same
//! calls in both, and checks them: the same tool list and the same answers to clean calls,
//! repaired calls answered as their clean form, rejected calls answered by the gate and never
//! reaching the server (its state file and the follow-up reads show it), and the gate's
//! verdict log naming each repair and rejection. A script exits non-zero on a failed check.
//!
//! `tests/sdk/http_client.py` does the same over Streamable HTTP: the FastMCP server at an HTTP
//! endpoint, `toolargs gate --listen` in front of it, in both revisions the SDK speaks over HTTP
//! (2025-11-25 with sessions, 2026-07-28 without), then the session header passing through
//! and 16 sessions at once.
//!
//! `tests/sdk/attack_client.py` sends, as raw lines and raw HTTP requests, calls written so
//! that a server would read them otherwise than the gate (an id `null`, a call as a
//! notification, members written twice, a lone surrogate, a tool listed twice, other spellings
//! of the endpoint's path, headers that disagree with the body), in front of the recording
//! servers `tests/sdk/recording_server.py` and `tests/sdk/recording_server.mjs` (Python's
//! `json`, JavaScript's `JSON.parse`) and of the FastMCP server over HTTP: each is answered by
//! the gate, logged, and never reaches the tool; a client that stops mid-request is let go.
//!
//! `tests/sdk/meaning_client.py` makes the calls of a model asked to refund $19.99 through
//! `toolargs gate --policy` with the amount's meaning declared, over stdio and over HTTP in
//! both revisions: the FastMCP server executes only the refund meant (no correction 100
//! times the amount, no repeated refund, no currency swapped), and the log holds each
//! decision.
//!
//! `tests/sdk/pin_client.py` pins the FastMCP server's tool definitions with `toolargs pin`
//! over stdio and over Streamable HTTP (a stateless server too), gates it with
//! `toolargs gate --pin`, and has its `tighten` tool change `quote`: the calls to `quote` are
//! refused `tool_changed` (the log and stderr saying what changed) until it is pinned again.
//!
//! The packages, pinned in `tests/sdk/requirements.txt` and `tests/sdk/package-lock.json`, are
//! installed under the target directory: a virtual environment (pip) and an npm project (`npm
//! ci`), each installed again only when its pins change.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::json;

/// How long one client script may run: a hang fails the test instead of blocking it.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(120);

/// Where the packages are installed.
struct Installed {
    venv: PathBuf,
    npm: PathBuf,
}

fn sdk_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk")
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gate-sdk")
}

/// Runs `command` to its end, failing the test with its output when it fails.
fn run(what: &str, command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Whether `stamp` holds exactly the text of `pins`: what was installed is what is pinned.
fn installed_from(stamp: &Path, pins: &Path) -> bool {
    let pins = std::fs::read(pins).expect("the pins are readable");
    std::fs::read(stamp).is_ok_and(|stamp| stamp == pins)
}

/// The virtual environment with `requirements.txt` installed.
fn install_python(root: &Path) -> PathBuf {
    let venv = root.join("venv");
    let requirements = sdk_dir().join("requirements.txt");
    let stamp = venv.join("toolargs-requirements.txt");
    if venv.join("bin/python").exists() && installed_from(&stamp, &requirements) {
        return venv;
    }
    run(
        "python3 -m venv",
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv),
    );
    run(
        "pip install -r tests/sdk/requirements.txt",
        Command::new(venv.join("bin/python"))
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .arg("-r")
            .arg(&requirements),
    );
    std::fs::copy(&requirements, &stamp).unwrap();
    venv
}

/// The npm project with `package-lock.json` installed, and the Node client in it (its imports
/// resolve from where it is).
fn install_node(root: &Path) -> PathBuf {
    let npm = root.join("npm");
    let sdk = sdk_dir();
    let stamp = npm.join("node_modules/.toolargs-package-lock.json");
    if !installed_from(&stamp, &sdk.join("package-lock.json"))
        || !installed_from(&npm.join("package.json"), &sdk.join("package.json"))
    {
        std::fs::create_dir_all(&npm).unwrap();
        for file in ["package.json", "package-lock.json"] {
            std::fs::copy(sdk.join(file), npm.join(file)).unwrap();
        }
        run(
            "npm ci",
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&npm),
        );
        std::fs::copy(sdk.join("package-lock.json"), &stamp).unwrap();
    }
    std::fs::copy(sdk.join("client.mjs"), npm.join("client.mjs")).unwrap();
    npm
}

/// The packages, installed once for both tests (they run as threads of one process).
fn installed() -> &'static Installed {
    static INSTALLED: OnceLock<Installed> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let root = scratch();
        std::fs::create_dir_all(&root).unwrap();
        let started = Instant::now();
        let installed = Installed {
            venv: install_python(&root),
            npm: install_node(&root),
        };
        println!("packages ready in {:.1} s", started.elapsed().as_secs_f64());
        installed
    })
}

/// A fresh folder for one client's run, with the git repository the git server is given: one
/// commit, made here so both sides of a session see the same history.
fn fresh_run(client: &str) -> (PathBuf, PathBuf) {
    let run_dir = scratch().join("runs").join(client);
    let _ = std::fs::remove_dir_all(&run_dir);
    let repo = run_dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let git = |args: &[&str]| {
        run(
            &format!("git {}", args.join(" ")),
            Command::new("git")
                .args([
                    "-c",
                    "user.name=toolargs",
                    "-c",
                    "user.email=toolargs@example.com",
                ])
                .args([
                    "-c",
                    "commit.gpgsign=false",
                    "-c",
                    "init.defaultBranch=main",
                ])
                .args(args)
                .current_dir(&repo),
        )
    };
    git(&["init", "-q"]);
    std::fs::write(repo.join("README.md"), "A repository for the git server.\n").unwrap();
    git(&["add", "README.md"]);
    git(&["commit", "-q", "-m", "the first commit"]);
    (run_dir, repo)
}

/// Runs a client script with the context it reads, and fails the test when it fails or takes
/// longer than [`SCRIPT_TIMEOUT`]. Prints what it printed.
fn run_client(client: &str, program: &Path, script: &Path) {
    let installed = installed();
    let (run_dir, repo) = fresh_run(client);
    let context = json!({
        "gate": env!("CARGO_BIN_EXE_toolargs"),
        "venv": installed.venv,
        "node_modules": installed.npm.join("node_modules"),
        "sdk": sdk_dir(),
        "repo": repo,
        "run": run_dir,
        "servers": null,
    });
    let started = Instant::now();
    let mut child = Command::new(program)
        .arg(script)
        .arg(context.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{client} client: cannot start {}: {e}", program.display()));
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > SCRIPT_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    println!(
        "{stdout}{stderr}{client} client ran {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let Some(status) = status else {
        panic!(
            "{client} client: no end after {} s; the servers' stderr is in {}",
            SCRIPT_TIMEOUT.as_secs(),
            run_dir.display()
        );
    };
    assert!(
        status.success(),
        "{client} client failed ({status}); the servers' stderr is in {}:\n{stdout}\n{stderr}",
        run_dir.display()
    );
    // The script's own summary line: checks were made, and counted.
    assert!(
        stdout.contains(&format!("{client} client: ")) && stdout.contains(" cases, 0 failures"),
        "{stdout}"
    );
}

#[test]
fn the_python_sdk_client_sees_through_the_gate_what_it_sees_without_it() {
    let venv = &installed().venv;
    run_client(
        "python",
        &venv.join("bin/python"),
        &sdk_dir().join("client.py"),
    );
}

#[test]
fn the_typescript_sdk_client_sees_through_the_gate_what_it_sees_without_it() {
    let npm = &installed().npm;
    run_client("node", Path::new("node"), &npm.join("client.mjs"));
}

#[test]
fn the_python_sdk_client_sees_through_the_http_gate_what_it_sees_without_it() {
    let venv = &installed().venv;
    run_client(
        "http",
        &venv.join("bin/python"),
        &sdk_dir().join("http_client.py"),
    );
}

#[test]
fn no_way_around_the_gate_works_for_the_python_sdk_client() {
    let venv = &installed().venv;
    run_client(
        "around",
        &venv.join("bin/python"),
        &sdk_dir().join("around_client.py"),
    );
}

#[test]
fn no_envelope_gets_a_call_past_the_gate() {
    let venv = &installed().venv;
    run_client(
        "attack",
        &venv.join("bin/python"),
        &sdk_dir().join("attack_client.py"),
    );
}

#[test]
fn corrections_and_repeated_actions_are_judged_by_meaning_for_the_python_sdk_client() {
    let venv = &installed().venv;
    run_client(
        "meaning",
        &venv.join("bin/python"),
        &sdk_dir().join("meaning_client.py"),
    );
}

#[test]
fn pinned_definitions_hold_the_server_to_what_was_approved_for_the_python_sdk_client() {
    let venv = &installed().venv;
    run_client(
        "pin",
        &venv.join("bin/python"),
        &sdk_dir().join("pin_client.py"),
    );
}
