//! Standard output as the commands write their results to it.

use std::io::{self, Write};

/// Writes `text` to standard output and flushes it. A closed pipe (`| head`) is not an error
/// worth reporting.
pub fn write_out(text: &str) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("stdout: {e}")),
    }
}
