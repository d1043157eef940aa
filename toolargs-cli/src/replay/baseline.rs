//! The regression gate: compare a report's rates with an earlier `--format json` report.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use serde_json::Value;
use toolargs_replay::Tally;

/// Rates read back from an earlier JSON report.
pub struct Baseline {
    calls: u64,
    repairs: Value,
    rejections: Value,
}

/// The printed comparison and whether any rate rose too much.
pub struct Comparison {
    pub text: String,
    pub regressed: bool,
}

impl Baseline {
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let report: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a JSON report: {e}", path.display()))?;
        let count = |key: &str| report.get(key).and_then(Value::as_u64);
        let (Some(clean), Some(repaired), Some(rejected)) =
            (count("ok_clean"), count("ok_repaired"), count("rejected"))
        else {
            return Err(format!(
                "{}: not a `toolargs replay --format json` report",
                path.display()
            ));
        };
        Ok(Baseline {
            calls: clean + repaired + rejected,
            repairs: report.get("repairs").cloned().unwrap_or(Value::Null),
            rejections: report.get("rejections").cloned().unwrap_or(Value::Null),
        })
    }

    /// Rate changes per rule and per code, in percentage points of calls.
    pub fn compare(&self, now: &Tally, max_rise: f64) -> Comparison {
        let rate = |n: u64, of: u64| {
            if of == 0 {
                0.0
            } else {
                n as f64 * 100.0 / of as f64
            }
        };
        let mut text = format!("rate changes against the baseline (max rise {max_rise} pp):\n");
        let mut regressed = false;
        for (kind, before, after) in [
            ("repair", &self.repairs, &now.repairs),
            ("rejection", &self.rejections, &now.rejections),
        ] {
            let names: BTreeSet<&str> = before
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys().map(String::as_str))
                .chain(after.keys().copied())
                .collect();
            for name in names {
                let old = rate(
                    before.get(name).and_then(Value::as_u64).unwrap_or(0),
                    self.calls,
                );
                let new = rate(after.get(name).copied().unwrap_or(0), now.calls());
                let rise = new - old;
                let flag = if rise > max_rise {
                    regressed = true;
                    "  REGRESSION"
                } else {
                    ""
                };
                let _ = writeln!(
                    text,
                    "  {kind:<9} {name:<26} {old:>7.2}% -> {new:>7.2}%  {rise:>+7.2} pp{flag}"
                );
            }
        }
        if now.unchecked > 0 {
            // Calls to a refused tool are in no rate, so a refusal can hide a regression.
            let _ = writeln!(
                text,
                "  note: {} calls unchecked (their tool's definition was refused) are in no rate",
                now.unchecked
            );
        }
        Comparison { text, regressed }
    }
}
