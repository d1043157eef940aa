//! The audit record of an attempt: the arguments as sent, redacted by the toolbox's hook,
//! handed to its audit hook.

use serde_json::Value;

use crate::observe::AuditRecord;
use crate::Toolbox;
use toolargs_core::decode::RawArgs;
use toolargs_core::report::Repair;

impl Toolbox {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record(
        &self,
        tool: &str,
        call_id: &str,
        attempt: u32,
        mut raw: Value,
        mut repaired: Option<Value>,
        mut repairs: Vec<Repair>,
        errors: Vec<toolargs_core::report::ArgumentError>,
        outcome: &'static str,
    ) {
        let Some(audit) = &self.audit else { return };
        if let Some(redact) = &self.redact {
            redact(&mut raw);
            if let Some(value) = repaired.as_mut() {
                redact(value);
            }
            for r in &mut repairs {
                redact(&mut r.before);
                redact(&mut r.after);
            }
        }
        audit(&AuditRecord {
            tool: tool.to_owned(),
            call_id: call_id.to_owned(),
            attempt,
            raw,
            repaired,
            repairs,
            errors,
            outcome,
        });
    }
}

/// The arguments as a JSON value for the audit record; text that is not JSON stays a string.
pub(crate) fn raw_value(raw: &RawArgs<'_>) -> Value {
    match raw {
        RawArgs::Text(text) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
        }
        RawArgs::Bytes(bytes) => serde_json::from_slice(bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned())),
        RawArgs::Value(value) => value.as_ref().clone(),
    }
}
