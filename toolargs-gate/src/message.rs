//! One JSON-RPC message as the gate reads it: its id, method, params and result, each kept as
//! the text it was written as, so that what the gate forwards is what was sent.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::Value;

/// Why a line is not a message the gate reads.
#[derive(Debug)]
pub(crate) struct NotAMessage {
    /// The JSON-RPC error code: `-32700` for text that is not JSON, `-32600` for JSON that is
    /// not one request, response or notification.
    pub code: i64,
    pub message: String,
}

/// A message, its members as written.
pub(crate) struct Message<'a> {
    pub id: Option<&'a RawValue>,
    pub method: Option<String>,
    pub params: Option<&'a RawValue>,
    pub result: Option<&'a RawValue>,
    pub error: Option<&'a RawValue>,
}

/// The members of a request's params the gate reads.
pub(crate) struct Params<'a> {
    /// The params object as written.
    pub raw: &'a RawValue,
    pub name: Option<String>,
    pub arguments: Option<&'a RawValue>,
    pub cursor: Option<&'a RawValue>,
    /// The request a `notifications/cancelled` cancels.
    pub request_id: Option<&'a RawValue>,
    /// Whether the request names its protocol version in its `_meta`, as every request of
    /// the 2026-07-28 revision does: its results carry `resultType`.
    pub tagged: bool,
}

/// The `_meta` key of a request's protocol version (2026-07-28).
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

impl<'a> Message<'a> {
    pub(crate) fn read(line: &'a str) -> Result<Message<'a>, NotAMessage> {
        let members: BTreeMap<String, &'a RawValue> =
            serde_json::from_str(line).map_err(|err| {
                match err.classify() {
                // JSON of another shape (`[...]`, `"text"`): unless the text goes on to be no
                // JSON at all, which the reader stopped before seeing (`"1999"}}}`).
                serde_json::error::Category::Data
                    if serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok() =>
                {
                    NotAMessage {
                    code: -32600,
                    message:
                        "not a JSON-RPC message: the gate reads one object per line (no batches)"
                            .to_owned(),
                    }
                }
                _ => NotAMessage {
                    code: -32700,
                    message: format!("not JSON: {err}"),
                },
            }
            })?;
        let method = match members.get("method") {
            Some(raw) => {
                Some(
                    serde_json::from_str::<String>(raw.get()).map_err(|_| NotAMessage {
                        code: -32600,
                        message: "the method is not a string".to_owned(),
                    })?,
                )
            }
            None => None,
        };
        Ok(Message {
            id: members.get("id").copied().filter(|id| id.get() != "null"),
            method,
            params: members.get("params").copied(),
            result: members.get("result").copied(),
            error: members.get("error").copied(),
        })
    }

    /// The params, when they are an object.
    pub(crate) fn params(&self) -> Option<Params<'a>> {
        let raw = self.params?;
        let members: BTreeMap<String, &'a RawValue> = serde_json::from_str(raw.get()).ok()?;
        Some(Params {
            raw,
            name: members
                .get("name")
                .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok()),
            arguments: members
                .get("arguments")
                .copied()
                .filter(|a| a.get() != "null"),
            cursor: members.get("cursor").copied().filter(|c| c.get() != "null"),
            request_id: members.get("requestId").copied(),
            tagged: members.get("_meta").is_some_and(|meta| {
                serde_json::from_str::<BTreeMap<String, &RawValue>>(meta.get())
                    .is_ok_and(|meta| meta.contains_key(PROTOCOL_VERSION_META))
            }),
        })
    }
}

/// `line` with `arguments` in place of the ones its `params` (read from `line`) hold, or
/// added to them when they hold none. The rest of the line is kept as written.
pub(crate) fn with_arguments(line: &str, params: &Params<'_>, arguments: &Value) -> String {
    let text = arguments.to_string();
    let at = |raw: &RawValue| raw.get().as_ptr() as usize - line.as_ptr() as usize;
    match params.arguments {
        Some(raw) => {
            let start = at(raw);
            format!(
                "{}{text}{}",
                &line[..start],
                &line[start + raw.get().len()..]
            )
        }
        // Added as the first member of the params object (`params` read it as one).
        None => {
            let start = at(params.raw) + 1;
            let rest = line[start..].trim_start();
            let comma = if rest.starts_with('}') { "" } else { "," };
            format!(
                "{}\"arguments\":{text}{comma}{}",
                &line[..start],
                &line[start..]
            )
        }
    }
}
