//! How values and readings appear in the reasons of findings: shortened, and only the first
//! few readings listed.

use serde_json::Value;

use crate::canonical::Canonical;
use toolargs_core::internal::text::preview_str;

/// Readings listed in a reason before the rest are only counted.
const SHOWN_READINGS: usize = 4;

pub(super) fn list_readings(readings: &[Canonical]) -> String {
    let mut parts: Vec<String> = readings
        .iter()
        .take(SHOWN_READINGS)
        .map(ToString::to_string)
        .collect();
    if readings.len() > SHOWN_READINGS {
        parts.push(format!("and {} more", readings.len() - SHOWN_READINGS));
    }
    parts.join(", ")
}

/// A value as it was sent, for reasons: JSON, shortened.
pub(super) fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => preview_str(s),
        other => {
            let text = other.to_string();
            if text.chars().count() > 40 {
                format!("{}...", text.chars().take(40).collect::<String>())
            } else {
                text
            }
        }
    }
}
