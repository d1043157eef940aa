//! One JSON-RPC message as the gate reads it: its id, method, params and result, each kept as
//! the text it was written as, so that what the gate forwards is what was sent.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
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
    /// The id, unless it is absent or `null`.
    pub id: Option<&'a RawValue>,
    /// Whether the message has an `id` member at all, `null` included: a request, or a
    /// response, not a notification.
    pub has_id: bool,
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
    /// The resource a `resources/*` request names.
    pub uri: Option<String>,
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
            has_id: members.contains_key("id"),
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
            uri: members
                .get("uri")
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

/// Why the gate cannot read a message with certainty: another reader of the same text (one
/// that takes the first of a repeated member, or decodes a lone surrogate) could read another
/// message than the one the gate would judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Doubt {
    /// `duplicate_key` or `invalid_unicode`.
    pub code: &'static str,
    /// Where, as a JSON path (`$.params`).
    pub path: String,
}

impl Doubt {
    /// What the client is told.
    pub(crate) fn message(&self) -> String {
        match self.code {
            "duplicate_key" => format!(
                "a member is written twice at {}: the gate forwards only what it reads one way",
                self.path
            ),
            _ => format!(
                "a string at {} is not valid Unicode: the gate forwards only what it reads one way",
                self.path
            ),
        }
    }
}

/// Checks that `line`, a message [`Message::read`] read, has no member written twice and no
/// string that is not Unicode at any depth. The arguments of a `tools/call` (`call`) are left
/// to the judge, which refuses both with the argument's path.
pub(crate) fn certain(line: &str, call: bool) -> Result<(), Doubt> {
    let doubt = RefCell::new(None);
    let check = Check {
        path: "$".to_owned(),
        spared: if call {
            Spared::Arguments
        } else {
            Spared::Nothing
        },
        doubt: &doubt,
    };
    let mut reader = serde_json::Deserializer::from_str(line);
    match check.deserialize(&mut reader) {
        Ok(()) => Ok(()),
        // A string serde_json refuses to decode: a lone surrogate (the text was read as JSON).
        Err(_) => Err(doubt.into_inner().unwrap_or(Doubt {
            code: "invalid_unicode",
            path: "$".to_owned(),
        })),
    }
}

/// What [`Check`] leaves to the judge.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spared {
    Nothing,
    /// The arguments under this object's `params`.
    Arguments,
    /// This object's `arguments`.
    Here,
}

/// Reads a value at `path` for [`certain`]: the first doubt found is kept in `doubt`, and
/// ends the reading.
struct Check<'d> {
    path: String,
    spared: Spared,
    doubt: &'d RefCell<Option<Doubt>>,
}

impl Check<'_> {
    /// The check of a value under this one, at `path`.
    fn under(&self, path: String, spared: Spared) -> Check<'_> {
        Check {
            path,
            spared,
            doubt: self.doubt,
        }
    }

    /// Keeps `doubt` unless one was found deeper already, and ends the reading.
    fn doubt<E: de::Error>(&self, code: &'static str, path: &str) -> E {
        self.doubt.borrow_mut().get_or_insert_with(|| Doubt {
            code,
            path: path.to_owned(),
        });
        E::custom(code)
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<(), D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        for index in 0.. {
            let item = self.under(format!("{}[{index}]", self.path), Spared::Nothing);
            match items.next_element_seed(item) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(_) => {
                    return Err(self.doubt("invalid_unicode", &format!("{}[{index}]", self.path)))
                }
            }
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        let mut keys = HashSet::new();
        loop {
            let key: String = match members.next_key() {
                Ok(Some(key)) => key,
                Ok(None) => return Ok(()),
                Err(_) => return Err(self.doubt("invalid_unicode", &self.path)),
            };
            let path = format!("{}.{key}", self.path);
            let read = match (self.spared, key.as_str()) {
                (Spared::Arguments, "params") => {
                    members.next_value_seed(self.under(path.clone(), Spared::Here))
                }
                // Read as written: the judge reads it.
                (Spared::Here, "arguments") => members.next_value::<&RawValue>().map(drop),
                _ => members.next_value_seed(self.under(path.clone(), Spared::Nothing)),
            };
            if read.is_err() {
                return Err(self.doubt("invalid_unicode", &path));
            }
            if !keys.insert(key) {
                return Err(self.doubt("duplicate_key", &path));
            }
        }
    }
}
