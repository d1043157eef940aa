//! Tool definitions carried by logs: the request's `tools` of provider records, an MCP
//! `tools/list` result, a span's `gen_ai.tool.definitions`.

use std::collections::BTreeSet;
use std::io::{self, BufRead};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use serde_json::Value;
use toolargs_core::provider::Provider;
use toolargs_dynamic::LoadError;

use crate::formats::{self, InputFormat};
use crate::inputs::Input;
use crate::log::ToolSet;

/// The distinct tool definitions found in logs, in order of first appearance, with where each
/// was first seen. Definitions of one name and one schema are one, whatever the provider's
/// wrapping; a definition of a name seen before with another schema is kept, and refused when
/// loaded (the first one found is the tool's).
///
/// ```
/// use toolargs_replay::{InputFormat, LogTools};
///
/// let log = r#"{"request":{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"get_time","parameters":{"type":"object","properties":{"zone":{"type":"string"}}}}}]},"response":{"choices":[]}}
/// {"request":{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"get_time","parameters":{"type":"object","properties":{"zone":{"type":"string"}}}}}]},"response":{"choices":[]}}
/// "#;
/// let mut found = LogTools::default();
/// found.scan("chat.jsonl", log.as_bytes(), InputFormat::Auto).unwrap();
/// assert_eq!(found.definitions.len(), 1); // the same definition twice is one
/// assert_eq!(found.origins, ["chat.jsonl:1"]);
/// let tools = found.tool_set().unwrap();
/// assert_eq!(tools.names().collect::<Vec<_>>(), ["get_time"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct LogTools {
    /// The definitions, each once.
    pub definitions: Vec<Value>,
    /// Where each definition was first seen (`FILE:LINE`).
    pub origins: Vec<String>,
    seen: BTreeSet<String>,
}

impl LogTools {
    /// Reads the definitions of every input but standard input (which a replay can only read
    /// once, for its calls), as [`LogTools::scan`] does; an input that cannot be opened or read
    /// is the error, with its name.
    pub fn from_inputs(inputs: &[Input], format: InputFormat) -> io::Result<LogTools> {
        let mut found = LogTools::default();
        for input in inputs.iter().filter(|i| **i != Input::Stdin) {
            let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", input.name()));
            let reader = input.open(Arc::new(AtomicU64::new(0))).map_err(named)?;
            found.scan(&input.name(), reader, format).map_err(named)?;
        }
        Ok(found)
    }

    /// Reads the definitions of every record of `reader` (named `name`), in `format`
    /// ([`InputFormat::Auto`] detects it from the first records). Lines that are not JSON
    /// are skipped: the replay counts them.
    pub fn scan(
        &mut self,
        name: &str,
        mut reader: impl BufRead,
        format: InputFormat,
    ) -> io::Result<()> {
        let mut format = format;
        let mut line = Vec::new();
        let mut number = 0u64;
        // The lines read before the format is known, and how many of them are records.
        let mut head = Vec::new();
        let mut records = 0usize;
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            number += 1;
            if format == InputFormat::Auto {
                // The first record that tells a format decides, as `detect_block` reads a file.
                let told = match line.trim_ascii().is_empty() {
                    true => None,
                    false => {
                        records += 1;
                        formats::detect_record(&line)
                    }
                };
                match told {
                    Some(found) => format = found,
                    None if records >= formats::DETECT_RECORDS => format = InputFormat::Lines,
                    None => {
                        head.push((number, line.clone()));
                        continue;
                    }
                }
                if format.carries_definitions() {
                    for (n, l) in std::mem::take(&mut head) {
                        self.scan_line(name, n, &l, format);
                    }
                }
            }
            if !format.carries_definitions() {
                return Ok(());
            }
            self.scan_line(name, number, &line, format);
        }
        // A file that ended before any record told its format is in the usual format, which
        // carries no definitions.
        Ok(())
    }

    fn scan_line(&mut self, name: &str, number: u64, line: &[u8], format: InputFormat) {
        if !format.carries_definitions()
            || memchr::memmem::find(line, b"tools").is_none()
                && memchr::memmem::find(line, b"gen_ai.tool.definitions").is_none()
        {
            return;
        }
        let Ok(record) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        for definition in formats::definitions(format, &record) {
            if self.seen.insert(identity(&definition)) {
                self.definitions.push(definition.into_owned());
                self.origins.push(format!("{name}:{number}"));
            }
        }
    }

    /// True when no definition was found.
    pub fn is_empty(&self) -> bool {
        self.definitions.is_empty()
    }

    /// Loads the definitions with [`ToolSet::from_json_lenient`]; a refused definition's
    /// message says where it was first seen. Two different definitions of one name: the first
    /// one found is the tool's, the other is refused.
    pub fn tool_set(&self) -> Result<ToolSet, LoadError> {
        let text = Value::Array(self.definitions.clone()).to_string();
        let mut set = ToolSet::from_json_lenient(&text)?;
        set.note_origins(&self.origins);
        Ok(set)
    }
}

/// What makes two definitions the same tool: the name, the schema and OpenAI's `strict` when
/// true, whatever the provider's wrapping (a chat tool and an MCP tool of one schema are one),
/// read where the core's registry of providers says ([`Provider::definition_parts`]).
fn identity(definition: &Value) -> String {
    let (tool, schema) = Provider::definition_parts(definition);
    let strict = tool.get("strict").filter(|s| **s != Value::Bool(false));
    serde_json::json!([tool.get("name"), schema, strict]).to_string()
}
