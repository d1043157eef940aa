//! Signals to the gate reach the server it started (Unix): `SIGTERM`, `SIGINT`, `SIGHUP`
//! and `SIGQUIT` sent to the gate are sent on to the server, which ends as it would without
//! the gate, and the gate ends with it. A signal the kernel sent (a terminal's Ctrl-C) is
//! not passed on: it went to the whole process group, the server included. The HTTP gate,
//! which starts no server, drains on `SIGTERM` and `SIGINT` instead.

use std::io;
use std::process::ExitStatus;

/// The signals passed on.
#[cfg(unix)]
const FORWARDED: [i32; 4] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
];

/// Passes the signals the gate receives on to `child`, from a thread of its own, for as
/// long as the process runs.
#[cfg(unix)]
pub(crate) fn forward_to(child: &std::process::Child) -> io::Result<()> {
    use signal_hook::iterator::exfiltrator::WithOrigin;
    use signal_hook::iterator::SignalsInfo;
    use signal_hook::low_level::siginfo::Cause;

    let pid = rustix::process::Pid::from_child(child);
    let mut signals = SignalsInfo::<WithOrigin>::new(FORWARDED)?;
    std::thread::Builder::new()
        .name("toolargs-gate-signals".to_owned())
        .spawn(move || {
            for origin in signals.forever() {
                if origin.cause == Cause::Kernel {
                    continue;
                }
                if let Some(signal) = rustix::process::Signal::from_named_raw(origin.signal) {
                    // The server may have ended already: nothing to pass on to.
                    let _ = rustix::process::kill_process(pid, signal);
                }
            }
        })?;
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn forward_to(_child: &std::process::Child) -> io::Result<()> {
    Ok(())
}

/// Calls `drain` each time the process gets `SIGTERM` or `SIGINT`, from a thread of its own,
/// for as long as the process runs: the HTTP gate, which has no child to pass them on to,
/// stops taking requests and lets those in flight finish, instead of ending mid-answer.
#[cfg(unix)]
pub(crate) fn on_terminate(drain: impl Fn() + Send + 'static) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
    ])?;
    std::thread::Builder::new()
        .name("toolargs-gate-signals".to_owned())
        .spawn(move || {
            for _ in signals.forever() {
                drain();
            }
        })?;
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn on_terminate(_drain: impl Fn() + Send + 'static) -> io::Result<()> {
    Ok(())
}

/// The gate's exit code for the server's `status`: the server's code, or for a server a
/// signal ended, 128 and the signal's number, as a shell says.
pub(crate) fn exit_code(status: ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    status.code().unwrap_or(1)
}
