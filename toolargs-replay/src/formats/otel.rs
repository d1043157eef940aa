//! OpenTelemetry GenAI spans as JSON: OTLP JSON (`resourceSpans[].scopeSpans[].spans[]`, each
//! attribute `{"key", "value": {"stringValue": ...}}`) or one span per line with an
//! `attributes` map. A span with `gen_ai.tool.name` is a call, its arguments in
//! `gen_ai.tool.call.arguments`; a span's `gen_ai.tool.definitions` (a JSON array, as text or
//! as a value) supplies definitions. Grouping fields are span attributes
//! (`gen_ai.request.model`), span fields (`name`) or resource attributes (`service.name`).

use std::borrow::Cow;

use serde_json::Value;

use super::{Args, Call};

const TOOL_NAME: &str = "gen_ai.tool.name";
const ARGUMENTS: &str = "gen_ai.tool.call.arguments";
const DEFINITIONS: &str = "gen_ai.tool.definitions";

/// True when a record is one span: `attributes` and a span's identity.
pub(super) fn is_span(record: &Value) -> bool {
    record
        .get("attributes")
        .is_some_and(|a| a.is_object() || a.is_array())
        && [
            "traceId", "spanId", "trace_id", "span_id", "context", "name",
        ]
        .iter()
        .any(|k| record.get(k).is_some())
}

/// The elements of an array, none for anything else.
fn list(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The spans of a record, each with its resource (when the record is OTLP JSON).
fn spans(record: &Value) -> Vec<(&Value, Option<&Value>)> {
    let Some(resources) = record.get("resourceSpans") else {
        return if is_span(record) {
            vec![(record, None)]
        } else {
            Vec::new()
        };
    };
    let mut out = Vec::new();
    for resource in list(Some(resources)) {
        let attributes = resource.get("resource");
        for scope in list(resource.get("scopeSpans")) {
            for span in list(scope.get("spans")) {
                out.push((span, attributes));
            }
        }
    }
    out
}

/// An attribute of a span (or resource): from an OTLP list, the `AnyValue` itself; from a
/// map, the value.
fn attribute<'a>(owner: &'a Value, key: &str) -> Option<&'a Value> {
    match owner.get("attributes")? {
        Value::Object(map) => map.get(key),
        Value::Array(list) => list
            .iter()
            .find(|kv| kv.get("key").and_then(Value::as_str) == Some(key))
            .and_then(|kv| kv.get("value")),
        _ => None,
    }
}

/// An OTLP `AnyValue` as plain JSON (`{"stringValue": "x"}` is `"x"`; a plain value stays).
fn plain(value: &Value) -> Cow<'_, Value> {
    let Some(object) = value.as_object().filter(|o| o.len() == 1) else {
        return Cow::Borrowed(value);
    };
    match object.iter().next() {
        Some((kind, inner)) => match kind.as_str() {
            "stringValue" | "boolValue" | "doubleValue" => Cow::Borrowed(inner),
            // int64 is written as a string in OTLP JSON.
            "intValue" => match inner.as_str().and_then(|s| s.parse::<i64>().ok()) {
                Some(n) => Cow::Owned(Value::from(n)),
                None => Cow::Borrowed(inner),
            },
            _ => Cow::Borrowed(value),
        },
        None => Cow::Borrowed(value),
    }
}

/// The calls of a record: one per span with a tool name; `None` when no span is in it.
pub(super) fn calls<'a>(record: &'a Value, by: &[String]) -> Option<Vec<Call<'a>>> {
    let spans = spans(record);
    if spans.is_empty() && record.get("resourceSpans").is_none() {
        return None;
    }
    let mut calls = Vec::new();
    for (span, resource) in spans {
        let Some(name) = attribute(span, TOOL_NAME) else {
            continue;
        };
        let tool = match plain(name) {
            Cow::Borrowed(Value::String(name)) => Some(name.as_str()),
            Cow::Borrowed(Value::Null) => None,
            _ => Some(""),
        };
        let arguments = attribute(span, ARGUMENTS).map(|a| match plain(a) {
            Cow::Borrowed(Value::String(text)) => Args::Text(text),
            other => Args::Value(other),
        });
        let key = by
            .iter()
            .map(|field| {
                attribute(span, field)
                    .map(|v| plain(v).into_owned())
                    .or_else(|| span.get(field).cloned())
                    .or_else(|| {
                        resource
                            .and_then(|r| attribute(r, field))
                            .map(|v| plain(v).into_owned())
                    })
                    .unwrap_or(Value::Null)
            })
            .collect();
        calls.push(Call {
            tool,
            arguments,
            key,
        });
    }
    Some(calls)
}

/// The definitions of every span's `gen_ai.tool.definitions`.
pub(super) fn definitions(record: &Value) -> Vec<Cow<'_, Value>> {
    let mut out = Vec::new();
    for (span, _) in spans(record) {
        let Some(value) = attribute(span, DEFINITIONS) else {
            continue;
        };
        let list = match plain(value) {
            Cow::Borrowed(Value::String(text)) => match serde_json::from_str::<Value>(text) {
                Ok(Value::Array(list)) => list.into_iter().map(Cow::Owned).collect(),
                _ => Vec::new(),
            },
            Cow::Borrowed(Value::Array(list)) => list.iter().map(Cow::Borrowed).collect(),
            _ => Vec::new(),
        };
        out.extend(list);
    }
    out
}
