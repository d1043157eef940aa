//! The Python package's suite, from `cargo test`: the package is installed with pip into a
//! virtual environment under the target directory, with the test dependencies pinned in
//! `requirements-test.txt` (and a Java runtime for Spark, `tests/java.sh`), and `tests/*.py`
//! run under pytest. The environment passes through: `TOOLARGS_BFCL` (a folder, relative to
//! the workspace or absolute) has `tests/test_provider_sdks.py` check BFCL's definitions too.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(what: &str, command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
}

/// `PATH` with the environment's scripts first: pip runs the `maturin` installed there.
fn with_venv_first(venv: &Path) -> std::ffi::OsString {
    let mut dirs = vec![venv.join("bin")];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap_or_default()
}

#[test]
fn the_python_package_installs_and_its_suite_passes() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("python");
    let venv = scratch.join("venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        run(
            "python3 -m venv",
            Command::new("python3").arg("-m").arg("venv").arg(&venv),
        );
    }
    run(
        "pip install -r requirements-test.txt",
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "-r",
            ])
            .arg(package.join("requirements-test.txt")),
    );
    // The wheel is built by maturin through pip, as a user's `pip install ./toolargs-python`
    // builds it; in its own target directory (the outer `cargo test` holds the workspace's),
    // with the dev profile, which builds in a fraction of release's time.
    run(
        "pip install ./toolargs-python",
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(["--no-build-isolation", "--no-deps", "--force-reinstall"])
            .arg(package)
            .env("PATH", with_venv_first(&venv))
            .env("CARGO_TARGET_DIR", scratch.join("target"))
            .env("MATURIN_PEP517_ARGS", "--profile dev"),
    );
    run(
        "tests/java.sh (a Java runtime for Spark)",
        Command::new("bash").arg(package.join("tests").join("java.sh")),
    );
    run(
        "pytest",
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(package.join("tests"))
            .current_dir(&scratch),
    );
}
