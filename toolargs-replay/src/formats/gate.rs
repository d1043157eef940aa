//! The verdict log of `toolargs gate`: one record per `tools/call` the gate judged,
//! `{"time", "timestamp", "session", "tool", "outcome", "codes", "rules", "paths",
//! "latency_us", "confirmed", "meaning", "arguments", "prev"}`. Each record is a verdict
//! already made; one that carries its `arguments` is a call too, judged again when its tool
//! is defined.

use serde_json::{Map, Value};

use toolargs_core::provider::LoggedArguments;

use super::Args;
use crate::clock;
use crate::outcome::BadRecord;

/// One record of a verdict log, as read.
pub(crate) struct GateRecord<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// What the gate did: an open set (`clean`, `repaired`, `rejected`, `unchecked`,
    /// `blocked`, ... and whatever later gates write).
    pub outcome: &'a str,
    /// The error codes of a rejection or a refusal, one per error.
    pub codes: Vec<&'a str>,
    /// The rules of the repairs, one per repair.
    pub rules: Vec<&'a str>,
    /// The session, `None` when the record names none.
    pub session: Option<&'a str>,
    /// When, in Unix seconds: `time`, else `timestamp`; `None` when neither reads.
    pub time: Option<f64>,
    /// The user confirmed the call.
    pub confirmed: bool,
    /// What the gate made of the call's meaning (`correction`, `duplicate_of`,
    /// `fingerprint`), for a tool whose meaning is declared.
    pub meaning: Option<&'a Value>,
    /// The arguments as the client sent them, when logged.
    pub arguments: Option<Args<'a>>,
}

/// True when a record is a gate's verdict: a tool, an outcome, its codes or rules, and the
/// time or latency every such line carries. A replay log's record has no `outcome`, and a
/// replay's own verdicts (`--format jsonl`) have no time.
pub(crate) fn is_verdict(record: &Map<String, Value>) -> bool {
    record.contains_key("tool")
        && record.get("outcome").is_some_and(Value::is_string)
        && (record.contains_key("codes") || record.contains_key("rules"))
        && ["time", "timestamp", "latency_us"]
            .iter()
            .any(|k| record.contains_key(*k))
}

/// Reads one record: `Err` when it is not a verdict (no tool or outcome as strings).
pub(crate) fn read(record: &Value) -> Result<GateRecord<'_>, BadRecord> {
    let Value::Object(fields) = record else {
        return Err(BadRecord::NotObject);
    };
    let text = |name: &str| fields.get(name).and_then(Value::as_str);
    let (Some(tool), Some(outcome)) = (text("tool"), text("outcome")) else {
        return Err(BadRecord::UnrecognizedRecord);
    };
    let names = |name: &str| -> Vec<&str> {
        fields
            .get(name)
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |list| {
                list.iter().filter_map(Value::as_str).collect()
            })
    };
    let time = fields
        .get("time")
        .and_then(Value::as_f64)
        .and_then(clock::seconds)
        .or_else(|| text("timestamp").and_then(clock::parse_rfc3339));
    Ok(GateRecord {
        tool,
        outcome,
        codes: names("codes"),
        rules: names("rules"),
        session: text("session"),
        time,
        confirmed: fields.get("confirmed") == Some(&Value::Bool(true)),
        meaning: fields.get("meaning").filter(|m| m.is_object()),
        arguments: fields
            .get("arguments")
            .filter(|a| !a.is_null())
            .map(|a| LoggedArguments::of(a).into()),
    })
}

/// The values of the grouping fields `by`, top-level fields of the record (`null` when absent).
pub(crate) fn key(record: &Value, by: &[String]) -> Vec<Value> {
    by.iter()
        .map(|f| record.get(f).cloned().unwrap_or(Value::Null))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_verdict_line_reads_whole() {
        let line = json!({
            "time": 1796390503.25, "timestamp": "2026-12-04T13:21:43.250000Z",
            "session": "s1", "tool": "refund", "outcome": "repaired", "codes": [],
            "rules": ["numeric_string_to_int", "numeric_string_to_int"], "paths": ["$.a", "$.b"],
            "latency_us": 41, "confirmed": true, "arguments": "{\"a\":\"1\"}",
        });
        assert!(is_verdict(line.as_object().unwrap()));
        let record = read(&line).unwrap();
        assert_eq!((record.tool, record.outcome), ("refund", "repaired"));
        assert_eq!(record.rules, ["numeric_string_to_int"; 2]);
        assert!(record.codes.is_empty());
        assert_eq!(record.session, Some("s1"));
        assert_eq!(record.time, Some(1_796_390_503.25));
        assert!(record.confirmed);
        assert!(matches!(
            record.arguments,
            Some(Args::Text("{\"a\":\"1\"}"))
        ));
    }

    #[test]
    fn odd_lines_read_as_far_as_they_go() {
        // Only a timestamp, a null session, an outcome no gate writes today, no arguments.
        let line = json!({
            "timestamp": "2026-12-04T13:21:43Z", "session": null, "tool": "t",
            "outcome": "tools_unavailable", "codes": ["tools_unavailable"], "rules": [],
        });
        assert!(is_verdict(line.as_object().unwrap()));
        let record = read(&line).unwrap();
        assert_eq!(record.outcome, "tools_unavailable");
        assert_eq!(record.time, Some(1_796_390_503.0));
        assert_eq!(record.session, None);
        assert!(record.arguments.is_none());
        // No time at all, one that does not read, codes that are not strings.
        let line = json!({"latency_us": 3, "tool": "t", "outcome": "clean", "codes": [1, "x"], "time": "soon"});
        let record = read(&line).unwrap();
        assert_eq!(record.time, None);
        assert_eq!(record.codes, ["x"]);
        let line = json!({"time": -5, "tool": "t", "outcome": "clean", "rules": []});
        assert_eq!(read(&line).unwrap().time, None);
        // Not verdicts.
        for line in [
            json!({"tool": "t", "arguments": "{}"}),
            json!({"tool": "t", "outcome": "clean", "codes": [], "fields": []}),
            json!({"tool": "t", "outcome": 3, "codes": [], "time": 1}),
        ] {
            assert!(!is_verdict(line.as_object().unwrap()), "{line}");
        }
        assert!(matches!(
            read(&json!({"tool": 1, "outcome": "clean"})),
            Err(BadRecord::UnrecognizedRecord)
        ));
        assert!(matches!(read(&json!([1])), Err(BadRecord::NotObject)));
    }
}
