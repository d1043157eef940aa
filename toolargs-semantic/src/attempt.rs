//! The first gate: preserve the original. Every attempt at a call keeps its arguments exactly as
//! received next to what the parser made of them (canonical arguments and repairs, or the
//! errors sent back to the model), so a correction can be compared and audited later.

use std::borrow::Cow;

use serde_json::{json, Value};

use toolargs_core::decode::RawArgs;
use toolargs_core::report::{ArgumentError, Code, Parsed, Rejection, Repair};
use toolargs_core::tool::ToolArgs;

/// What the parser made of one attempt.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AttemptOutcome {
    /// Parsed: the canonical arguments (`to_json()`) and the repairs it took.
    Accepted {
        /// The canonical arguments.
        canonical: Value,
        /// Every repair, in order.
        repairs: Vec<Repair>,
    },
    /// Rejected: the errors sent back to the model, which triggered the next attempt.
    Rejected {
        /// Every error kept by the rejection.
        errors: Vec<ArgumentError>,
    },
}

/// One attempt at a call: the arguments as received, and the outcome.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Attempt {
    raw: RawArgs<'static>,
    outcome: AttemptOutcome,
}

fn owned(raw: RawArgs<'_>) -> RawArgs<'static> {
    match raw {
        RawArgs::Text(t) => RawArgs::Text(Cow::Owned(t.into_owned())),
        RawArgs::Bytes(b) => RawArgs::Bytes(Cow::Owned(b.into_owned())),
        RawArgs::Value(v) => RawArgs::Value(Cow::Owned(v.into_owned())),
    }
}

impl Attempt {
    /// Records an attempt at a derived tool's call: the raw arguments and the parse result.
    ///
    /// ```
    /// use toolargs_semantic::Attempt;
    /// # use toolargs_core::ToolArgs;
    /// # fn demo<T: ToolArgs>(raw: &str) {
    /// let result = T::parse(raw);
    /// let attempt = Attempt::new(raw, &result);
    /// # }
    /// ```
    pub fn new<'a, T: ToolArgs>(
        raw: impl Into<RawArgs<'a>>,
        result: &Result<Parsed<T>, Rejection>,
    ) -> Attempt {
        let outcome = match result {
            Ok(parsed) => AttemptOutcome::Accepted {
                canonical: parsed.args.to_json(),
                repairs: parsed.repairs.clone(),
            },
            Err(rejection) => AttemptOutcome::Rejected {
                errors: rejection.errors().to_vec(),
            },
        };
        Attempt {
            raw: owned(raw.into()),
            outcome,
        }
    }

    /// Records an attempt whose arguments parse to canonical JSON, as a
    /// `toolargs_dynamic::Spec` gives them.
    pub fn from_json_result<'a>(
        raw: impl Into<RawArgs<'a>>,
        result: &Result<Parsed<Value>, Rejection>,
    ) -> Attempt {
        let outcome = match result {
            Ok(parsed) => AttemptOutcome::Accepted {
                canonical: parsed.args.clone(),
                repairs: parsed.repairs.clone(),
            },
            Err(rejection) => AttemptOutcome::Rejected {
                errors: rejection.errors().to_vec(),
            },
        };
        Attempt {
            raw: owned(raw.into()),
            outcome,
        }
    }

    /// The arguments exactly as received.
    pub fn raw(&self) -> &RawArgs<'static> {
        &self.raw
    }

    /// What the parser made of them.
    pub fn outcome(&self) -> &AttemptOutcome {
        &self.outcome
    }

    /// The canonical arguments, when the attempt parsed.
    pub fn canonical(&self) -> Option<&Value> {
        match &self.outcome {
            AttemptOutcome::Accepted { canonical, .. } => Some(canonical),
            AttemptOutcome::Rejected { .. } => None,
        }
    }

    /// The repairs, when the attempt parsed.
    pub fn repairs(&self) -> &[Repair] {
        match &self.outcome {
            AttemptOutcome::Accepted { repairs, .. } => repairs,
            AttemptOutcome::Rejected { .. } => &[],
        }
    }

    /// The errors, when the attempt was rejected.
    pub fn errors(&self) -> &[ArgumentError] {
        match &self.outcome {
            AttemptOutcome::Accepted { .. } => &[],
            AttemptOutcome::Rejected { errors } => errors,
        }
    }

    /// The raw arguments read as JSON as leniently as meaning allows: a code fence around the
    /// payload and one level of JSON-in-a-string are unwrapped (each has one reading), nothing
    /// else. `None` when they are not JSON.
    pub fn arguments(&self) -> Option<Value> {
        match &self.raw {
            RawArgs::Text(text) => decode_text(text),
            RawArgs::Bytes(bytes) => std::str::from_utf8(bytes).ok().and_then(decode_text),
            RawArgs::Value(value) => match value.as_ref() {
                Value::String(text) => decode_text(text),
                other => Some(other.clone()),
            },
        }
    }

    /// The attempt as JSON for an audit log: the raw arguments as received, and the outcome.
    pub fn to_json(&self) -> Value {
        let raw = match &self.raw {
            RawArgs::Text(t) => Value::String(t.to_string()),
            RawArgs::Bytes(b) => Value::String(String::from_utf8_lossy(b).into_owned()),
            RawArgs::Value(v) => v.as_ref().clone(),
        };
        match &self.outcome {
            AttemptOutcome::Accepted { canonical, repairs } => json!({
                "raw": raw,
                "accepted": canonical,
                "repairs": repairs.iter().map(|r| json!({
                    "path": r.path, "rule": r.rule.as_str(), "before": r.before, "after": r.after,
                })).collect::<Vec<_>>(),
            }),
            AttemptOutcome::Rejected { errors } => json!({
                "raw": raw,
                "errors": errors.iter().map(|e| json!({
                    "path": e.path, "code": e.code.as_str(), "message": e.message,
                })).collect::<Vec<_>>(),
            }),
        }
    }
}

fn decode_text(text: &str) -> Option<Value> {
    let mut body = text.trim();
    if let Some(fenced) = body.strip_prefix("```") {
        let after_tag = fenced.split_once('\n').map_or("", |(_, rest)| rest);
        body = after_tag.trim_end().strip_suffix("```")?.trim();
    }
    match serde_json::from_str::<Value>(body).ok()? {
        Value::String(inner) => match serde_json::from_str::<Value>(&inner) {
            Ok(object @ Value::Object(_)) => Some(object),
            _ => Some(Value::String(inner)),
        },
        other => Some(other),
    }
}

/// Every attempt at one logical call, in order: the original first, the corrected call last.
/// This is what the semantic gate compares, and what an audit log keeps.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Correction {
    attempts: Vec<Attempt>,
}

impl Correction {
    /// No attempt yet.
    pub fn new() -> Correction {
        Correction::default()
    }

    /// Records the next attempt.
    pub fn push(&mut self, attempt: Attempt) -> &mut Correction {
        self.attempts.push(attempt);
        self
    }

    /// Records the next attempt at a derived tool's call.
    pub fn record<'a, T: ToolArgs>(
        &mut self,
        raw: impl Into<RawArgs<'a>>,
        result: &Result<Parsed<T>, Rejection>,
    ) -> &mut Correction {
        self.push(Attempt::new(raw, result))
    }

    /// Every attempt, in order.
    pub fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    /// The first attempt: the arguments the model first meant to send.
    pub fn original(&self) -> Option<&Attempt> {
        self.attempts.first()
    }

    /// The last attempt.
    pub fn latest(&self) -> Option<&Attempt> {
        self.attempts.last()
    }

    /// The canonical arguments of the last attempt, when it parsed.
    pub fn corrected(&self) -> Option<&Value> {
        self.latest().and_then(Attempt::canonical)
    }

    /// The errors of every rejected attempt: what triggered each retry.
    pub fn errors(&self) -> impl Iterator<Item = &ArgumentError> {
        self.attempts.iter().flat_map(Attempt::errors)
    }

    /// Paths where the original sent a key twice.
    pub(crate) fn duplicate_paths(&self) -> Vec<String> {
        self.original()
            .map(|a| {
                a.errors()
                    .iter()
                    .filter(|e| e.code == Code::DuplicateKey)
                    .map(|e| e.path.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The correction as JSON for an audit log: every attempt with its raw arguments.
    pub fn to_json(&self) -> Value {
        Value::Array(self.attempts.iter().map(Attempt::to_json).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::decode_text;
    use serde_json::json;

    #[test]
    fn decodes_what_has_one_reading() {
        assert_eq!(decode_text(r#"{"a":1}"#), Some(json!({"a": 1})));
        assert_eq!(
            decode_text("```json\n{\"a\":1}\n```"),
            Some(json!({"a": 1}))
        );
        assert_eq!(decode_text(r#""{\"a\":1}""#), Some(json!({"a": 1})));
        assert_eq!(decode_text("sure! {\"a\":1}"), None);
    }
}
