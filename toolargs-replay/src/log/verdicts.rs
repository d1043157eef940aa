//! The verdict of each call, and the JSON line [`Replayer::with_verdicts`] writes for it.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::Replayer;
use crate::formats::lines::with_unescaped;
use crate::formats::Args;
use crate::outcome::{BadRecord, Judgement, Location, Outcome};

/// What became of one call.
pub(super) enum Verdict<'r> {
    /// The judgement of a call by the named tool's judge.
    Judged(&'r str, Judgement),
    /// A call to a tool whose definition was refused: nothing to judge it against.
    Unchecked(&'r str),
    /// Not a call.
    Bad(BadRecord),
    /// A verdict the MCP gate recorded that is not judged again, and why
    /// ([`NO_ARGUMENTS`](crate::NO_ARGUMENTS), [`NO_DEFINITION`](crate::NO_DEFINITION)).
    NotJudged(&'static str),
}

impl Replayer<'_> {
    /// Writes one verdict line; `recorded` is the verdict the MCP gate recorded for the call,
    /// when the log is its verdict log.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_verdict(
        &self,
        out: &mut Vec<u8>,
        name: &str,
        at: Location,
        tool: Option<&str>,
        verdict: &Verdict<'_>,
        key: &[Value],
        arguments: Option<&Args<'_>>,
        recorded: Option<Value>,
    ) {
        let mut line = serde_json::Map::new();
        line.insert("file".into(), json!(name));
        line.insert("line".into(), json!(at.line));
        let tool = match verdict {
            Verdict::Judged(tool, _) | Verdict::Unchecked(tool) => Some(*tool),
            Verdict::Bad(_) | Verdict::NotJudged(_) => tool,
        };
        line.insert("tool".into(), json!(tool));
        let (outcome, codes, rules, fields): (&str, Vec<&str>, Vec<&str>, BTreeSet<String>) =
            match verdict {
                Verdict::Judged(_, judgement) => {
                    let fields = judgement
                        .findings
                        .iter()
                        .map(|(path, _)| path.clone())
                        .collect();
                    match &judgement.outcome {
                        Outcome::Clean => ("clean", vec![], vec![], fields),
                        Outcome::Repaired(rules) => (
                            "repaired",
                            vec![],
                            rules.iter().map(|r| r.as_str()).collect(),
                            fields,
                        ),
                        Outcome::Rejected(codes) => (
                            "rejected",
                            codes.iter().map(|c| c.as_str()).collect(),
                            vec![],
                            fields,
                        ),
                    }
                }
                Verdict::Unchecked(_) => ("unchecked", vec![], vec![], BTreeSet::new()),
                Verdict::Bad(reason) => {
                    line.insert("reason".into(), json!(reason.as_str()));
                    ("bad", vec![], vec![], BTreeSet::new())
                }
                Verdict::NotJudged(reason) => {
                    line.insert("reason".into(), json!(reason));
                    ("not_judged", vec![], vec![], BTreeSet::new())
                }
            };
        line.insert("outcome".into(), json!(outcome));
        line.insert("codes".into(), json!(codes));
        line.insert("rules".into(), json!(rules));
        line.insert("fields".into(), json!(fields));
        if !self.by.is_empty() && key.len() == self.by.len() {
            let group: serde_json::Map<String, Value> =
                self.by.iter().cloned().zip(key.iter().cloned()).collect();
            line.insert("group".into(), Value::Object(group));
        }
        if let Some(recorded) = recorded {
            line.insert("recorded".into(), recorded);
        }
        // Arguments logged as a value are written as logged, numbers exactly: appended to the
        // line's text rather than read into a `Value`.
        let mut logged = None;
        if self.verdicts == Some(true) {
            let arguments = match arguments {
                Some(Args::Text(text)) => json!(text),
                Some(Args::Escaped(text, _)) => {
                    with_unescaped(text, |text| json!(text)).unwrap_or(Value::Null)
                }
                Some(Args::Logged(text, _)) => {
                    logged = Some(text.as_ref());
                    Value::Null
                }
                Some(Args::Value(value)) => value.as_ref().clone(),
                None => Value::Null,
            };
            line.insert("arguments".into(), arguments);
        }
        let start = out.len();
        if serde_json::to_writer(&mut *out, &Value::Object(line)).is_err() {
            out.truncate(start);
            return;
        }
        if let Some(text) = logged {
            // `"arguments":null}` closes the line: `null}` gives way to the logged text.
            out.truncate(out.len() - "null}".len());
            out.extend_from_slice(text.as_bytes());
            out.push(b'}');
        }
        out.push(b'\n');
    }
}
