//! `toolargs pin`: a server's tool definitions written to a pin file, which
//! `toolargs gate --pin` holds the server to; what changed since the file's last pins is said
//! on stderr.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use toolargs_gate::{PinCheck, Pins};

/// The options of `toolargs pin`.
#[derive(Args)]
pub struct PinArgs {
    /// The pin file to write (replaced whole): each tool's SHA-256 and its definition.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The server's Streamable HTTP endpoint (e.g. http://127.0.0.1:8000/mcp), instead of a
    /// command to start.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    upstream: Option<String>,
    /// The server to start, and its arguments (after `--`), as `gate` starts one.
    #[arg(required_unless_present = "upstream", last = true)]
    command: Vec<OsString>,
}

/// Lists the server's tools, pins them, and writes the file.
pub fn run(args: PinArgs) -> Result<ExitCode, String> {
    let tools = match &args.upstream {
        Some(url) => toolargs_gate::list_upstream_tools(url).map_err(|e| format!("{url}: {e}"))?,
        None => crate::listed::over_stdio(&args.command, "toolargs-pin")?,
    };
    let pins = Pins::from_tools(&tools).map_err(|e| format!("{e}; nothing was written"))?;
    // What the file pinned before, to say what this changes.
    let before = Pins::load(&args.out).ok();
    write_whole(&args.out, &pins.to_json())?;
    for line in changes(before.as_ref(), &pins) {
        eprintln!("  {line}");
    }
    eprintln!(
        "toolargs pin: {} tool{} pinned in {}",
        pins.len(),
        if pins.len() == 1 { "" } else { "s" },
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// What `pins` changes of `before`, a line per tool: added, changed (with what), no longer
/// listed; nothing without an earlier file.
fn changes(before: Option<&Pins>, pins: &Pins) -> Vec<String> {
    let Some(before) = before else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for name in pins.names() {
        let Some(definition) = pins.definition(name) else {
            continue;
        };
        match before.check(name, definition) {
            PinCheck::Pinned => {}
            PinCheck::Unpinned => lines.push(format!("`{name}`: newly pinned")),
            PinCheck::Changed(changes) => lines.push(format!(
                "`{name}` changed: {}",
                toolargs_gate::describe_changes(&changes)
            )),
        }
    }
    for name in before.names() {
        if pins.digest(name).is_none() {
            lines.push(format!("`{name}`: no longer listed, unpinned"));
        }
    }
    lines
}

/// Writes `text` to `path` whole: to a file beside it, then renamed over it, so that a gate
/// starting meanwhile reads the old pins or the new ones, never part of them.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let mut temporary = name.to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary);
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            format!("{}: {e}", path.display())
        })
}
