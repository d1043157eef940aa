//! `toolargs.replay`: the CLI's replay, with its JSON report as a dict.

use std::io;

use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use toolargs_replay::inputs::{self, Input};
use toolargs_replay::{InputFormat, LogSource, LogTools, Replayer, ToolSet as ReplayTools};

use crate::convert::to_python;
use crate::spec::ToolSet;
use crate::LoadError;

/// Replays the logs at `paths` (files, directories, globs; gzip or zstd) against `tools` (a
/// `ToolSet`, definitions as a list, or the path of a definitions file) and the definitions the
/// logs carry, grouped by the record fields `by`; returns `toolargs replay --format json`'s
/// report. The GIL is released while the logs are read.
#[pyfunction]
#[pyo3(signature = (paths, tools=None, by=None))]
pub(crate) fn replay(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    tools: Option<&Bound<'_, PyAny>>,
    by: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let paths = strings(paths, "paths")?;
    let by = match by {
        Some(by) => strings(by, "by")?,
        None => Vec::new(),
    };
    let tools = match tools {
        None => ReplayTools::new(),
        Some(tools) => given_tools(tools)?,
    };
    let inputs = inputs::expand(&paths).map_err(|e| PyOSError::new_err(e.to_string()))?;
    let report = py.detach(|| run(tools, &inputs, by));
    let report = report.map_err(|e| match e {
        Failure::Load(message) => LoadError::new_err(message),
        Failure::Io(e) => PyOSError::new_err(e.to_string()),
    })?;
    Ok(to_python(py, &report)?.unbind())
}

enum Failure {
    Load(String),
    Io(io::Error),
}

/// The replay itself, as the CLI runs it: the given tools, then those the logs carry that the
/// given ones do not name, on every core.
fn run(
    mut tools: ReplayTools,
    inputs: &[Input],
    by: Vec<String>,
) -> Result<serde_json::Value, Failure> {
    let found = LogTools::from_inputs(inputs, InputFormat::Auto).map_err(Failure::Io)?;
    if !found.is_empty() {
        let from_logs = found
            .tool_set()
            .map_err(|e| Failure::Load(format!("tool definitions in the logs: {e}")))?;
        tools.add_missing(from_logs);
    }
    if tools.is_empty() && tools.refused().is_empty() {
        return Err(Failure::Load(
            "no tool definitions: give tools, or logs whose records carry them".to_owned(),
        ));
    }
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sources = inputs.iter().map(|input| {
        input
            .open(Default::default())
            .map(|reader| LogSource {
                name: input.name(),
                format: InputFormat::Auto,
                reader,
            })
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", input.name())))
    });
    let report = Replayer::new(&tools, by)
        .run_sources(sources, workers, |_| {}, None)
        .map_err(Failure::Io)?;
    Ok(report.to_json())
}

/// The tools given to `replay`: a `ToolSet`, a path to a definitions file, or definitions.
fn given_tools(tools: &Bound<'_, PyAny>) -> PyResult<ReplayTools> {
    let text = if let Ok(set) = tools.cast::<ToolSet>() {
        set.get().text.clone()
    } else if tools.is_instance_of::<PyString>() || tools.hasattr("__fspath__")? {
        let path: std::path::PathBuf = tools.extract()?;
        std::fs::read_to_string(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?
    } else {
        ToolSet::new(tools, None)?.text
    };
    ReplayTools::from_json_lenient(&text).map_err(|e| LoadError::new_err(e.to_string()))
}

/// One string or path, or a list or tuple of them.
fn strings(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    let one = |item: &Bound<'_, PyAny>| -> PyResult<String> {
        if let Ok(s) = item.cast::<PyString>() {
            return Ok(s.to_cow()?.into_owned());
        }
        let path: std::path::PathBuf = item
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{what}: expected a str or a path")))?;
        path.into_os_string()
            .into_string()
            .map_err(|_| PyValueError::new_err(format!("{what}: a path that is not valid Unicode")))
    };
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        value.try_iter()?.map(|item| one(&item?)).collect()
    } else {
        Ok(vec![one(value)?])
    }
}
