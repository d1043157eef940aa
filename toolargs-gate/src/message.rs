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
    /// The client's capabilities as written, read only when a call needs one
    /// ([`declares_elicitation`]): an `initialize` request's `capabilities`, and those the
    /// request's `_meta` declares (the 2026-07-28 revision declares them on each request).
    pub capabilities: Option<&'a RawValue>,
    pub meta_capabilities: Option<&'a RawValue>,
    /// A retried request's answers to the input requests of an `input_required` result, and
    /// the state that result gave (2026-07-28).
    pub input_responses: Option<&'a RawValue>,
    pub request_state: Option<&'a RawValue>,
}

/// The `_meta` keys of a request's protocol version and of the client's capabilities
/// (2026-07-28).
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_META: &str = "io.modelcontextprotocol/clientCapabilities";

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
        let meta: BTreeMap<String, &'a RawValue> = members
            .get("_meta")
            .and_then(|meta| serde_json::from_str(meta.get()).ok())
            .unwrap_or_default();
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
            tagged: meta.contains_key(PROTOCOL_VERSION_META),
            capabilities: members.get("capabilities").copied(),
            meta_capabilities: meta.get(CLIENT_CAPABILITIES_META).copied(),
            input_responses: members.get("inputResponses").copied(),
            request_state: members.get("requestState").copied(),
        })
    }
}

/// Whether `capabilities`, a client's capabilities object as written, declares elicitation.
pub(crate) fn declares_elicitation(capabilities: &RawValue) -> bool {
    serde_json::from_str::<BTreeMap<String, &RawValue>>(capabilities.get()).is_ok_and(
        |capabilities| {
            capabilities
                .get("elicitation")
                .is_some_and(|e| e.get() != "null")
        },
    )
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

/// `line`, a call, without what the gate added to its rounds: the answer under `key` in its
/// `params.inputResponses` (the member goes when it held nothing else), and
/// `params.requestState`, the gate's. The other members of `params` are kept as written
/// (in the order of their names), and the rest of the line as it was.
pub(crate) fn without_round(line: &str, key: &str) -> String {
    let Some(params) = Message::read(line)
        .ok()
        .and_then(|message| message.params())
    else {
        return line.to_owned();
    };
    let Ok(members) = serde_json::from_str::<BTreeMap<String, &RawValue>>(params.raw.get()) else {
        return line.to_owned();
    };
    let mut kept = Vec::new();
    for (name, value) in members {
        let text = match name.as_str() {
            "requestState" => continue,
            "inputResponses" => {
                let Ok(mut answers) =
                    serde_json::from_str::<BTreeMap<String, &RawValue>>(value.get())
                else {
                    continue;
                };
                answers.remove(key);
                if answers.is_empty() {
                    continue;
                }
                serde_json::to_string(&answers).unwrap_or_default()
            }
            _ => value.get().to_owned(),
        };
        kept.push(format!("{}:{text}", Value::String(name)));
    }
    let start = params.raw.get().as_ptr() as usize - line.as_ptr() as usize;
    format!(
        "{}{{{}}}{}",
        &line[..start],
        kept.join(","),
        &line[start + params.raw.get().len()..]
    )
}
