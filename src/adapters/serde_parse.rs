//! A derived type's parse (`parse_with`) run inside serde's `Deserialize`: what the rmcp and
//! rig wrappers share.

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

use crate::{ArgumentError, Code, ParseOptions, Parsed, Rejection, ToolArgs};
use toolargs_core::telemetry;
use toolargs_core::tool::parse_with;

/// Parses whatever `deserializer` holds as the arguments of `T`, and never fails as a
/// deserializer: a rejection is a value, so a framework that deserializes arguments with serde
/// hands it to the tool instead of replacing it with the text of one serde error.
///
/// The arguments are taken as raw JSON text where the deserializer has it (`serde_json` reading
/// text keeps a key sent twice, which the parse then rejects as `duplicate_key`); a decoded
/// `serde_json::Value` is written back to text first. `options` are those of the dialect the
/// tool is published in.
pub(crate) fn deserialize<'de, T, D>(
    deserializer: D,
    options: &ParseOptions,
) -> Result<Parsed<T>, Rejection>
where
    T: ToolArgs,
    D: Deserializer<'de>,
{
    let span = telemetry::tool_span(T::NAME, None);
    let parsed = span.in_scope(|| match Box::<RawValue>::deserialize(deserializer) {
        Ok(raw) => parse_with(&raw.get().into(), options),
        Err(error) => Err(Rejection::single(ArgumentError::new(
            "$",
            Code::InvalidJson,
            format!("the arguments could not be read as JSON: {error}"),
        ))),
    });
    telemetry::record_outcome(&span, telemetry::SpanOutcome::of(&parsed));
    parsed
}
