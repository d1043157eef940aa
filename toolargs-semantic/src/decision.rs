//! The consequence gate: from the tool's effect and what the comparison found, whether the
//! corrected call runs, runs and is reported, waits for a confirmation, or is rejected.

use std::fmt;

use serde_json::{json, Value};

use super::fingerprint::Fingerprint;
use toolargs_core::effect::Effect;

/// How one value of the corrected call relates to the original.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The original has one reading, and it means the corrected value.
    Equivalent,
    /// The original has several readings; the corrected value is one of them. The correction
    /// picked a meaning that the original did not settle.
    Ambiguous,
    /// Nothing to compare with: the original lacked the value, could not be read, or an
    /// entity could not be resolved.
    Unverified,
    /// No reading of the original means the corrected value.
    Changed,
    /// The corrected value itself has no canonical form (an unknown currency or unit, an
    /// entity that resolves to nobody or to several).
    Invalid,
}

impl Verdict {
    /// The stable name: `equivalent`, `ambiguous`, `unverified`, `changed`, `invalid`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Equivalent => "equivalent",
            Verdict::Ambiguous => "ambiguous",
            Verdict::Unverified => "unverified",
            Verdict::Changed => "changed",
            Verdict::Invalid => "invalid",
        }
    }

    /// A proven difference in meaning (`changed` or `invalid`), as opposed to doubt.
    pub const fn is_mismatch(self) -> bool {
        matches!(self, Verdict::Changed | Verdict::Invalid)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// What to do with the corrected call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    /// Every value means what the original meant: run it.
    Proceed,
    /// A read-only tool whose corrected call means something else: run it (reading is
    /// harmless) and report the difference.
    ProceedAndReport,
    /// A tool that writes, deletes, pays or notifies, with a difference or a doubt: a human
    /// or a policy hook decides.
    Confirm,
    /// A critical field changed meaning: do not run it.
    Reject,
}

impl Decision {
    /// The stable name: `proceed`, `proceed_and_report`, `confirm`, `reject`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Decision::Proceed => "proceed",
            Decision::ProceedAndReport => "proceed_and_report",
            Decision::Confirm => "confirm",
            Decision::Reject => "reject",
        }
    }

    /// True when the call may run without anyone being asked.
    pub const fn runs(self) -> bool {
        matches!(self, Decision::Proceed | Decision::ProceedAndReport)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// What the comparison found for one value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// JSON path of the value (`$.amount_cents`, `$.lines[2].qty`).
    pub path: String,
    /// What it means: `money`, `date`, `quantity`, `entity`, `enum`, `number`, `text`, ...
    pub meaning: &'static str,
    /// How the corrected value relates to the original.
    pub verdict: Verdict,
    /// Declared critical (or the source of a critical amount's currency or unit).
    pub critical: bool,
    /// The value as the original sent it; `None` when absent.
    pub original: Option<Value>,
    /// The value in the corrected call; `None` when absent.
    pub corrected: Option<Value>,
    /// Every reading of the original, in canonical form.
    pub readings: Vec<String>,
    /// The corrected value's canonical form, when it has one.
    pub canonical: Option<String>,
    /// Why, in a sentence for a log or a confirmation prompt.
    pub reason: String,
}

impl Finding {
    /// The finding as JSON (for audit logs).
    pub fn to_json(&self) -> Value {
        json!({
            "path": self.path,
            "meaning": self.meaning,
            "verdict": self.verdict.as_str(),
            "critical": self.critical,
            "original": self.original,
            "corrected": self.corrected,
            "readings": self.readings,
            "canonical": self.canonical,
            "reason": self.reason,
        })
    }
}

/// Decides from the effect and the findings:
///
/// | findings | read-only | writes, deletes, pays, notifies |
/// |---|---|---|
/// | all equivalent | proceed | proceed |
/// | a doubt or a difference | proceed and report | confirm |
/// | a difference on a critical field | reject | reject |
pub fn decide(effect: Effect, findings: &[Finding]) -> Decision {
    if findings
        .iter()
        .any(|f| f.critical && f.verdict.is_mismatch())
    {
        return Decision::Reject;
    }
    if findings.iter().all(|f| f.verdict == Verdict::Equivalent) {
        return Decision::Proceed;
    }
    match effect {
        Effect::ReadOnly => Decision::ProceedAndReport,
        Effect::Additive | Effect::Destructive | Effect::External => Decision::Confirm,
    }
}

/// The semantic gate's answer for one corrected call.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Review {
    /// The tool's name.
    pub tool: String,
    /// The tool's effect.
    pub effect: Effect,
    /// What to do with the call.
    pub decision: Decision,
    /// Every value compared, in the order of the tool's arguments.
    pub findings: Vec<Finding>,
    /// The corrected call's semantic fingerprint: equal for calls that mean the same action.
    pub fingerprint: Fingerprint,
}

impl Review {
    /// The findings that are not equivalent: what changed, and what could not be proven.
    pub fn concerns(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.verdict != Verdict::Equivalent)
    }

    /// One line for a log: tool, decision, and each concern as `path=verdict`, with no
    /// argument values (they can hold personal data).
    ///
    /// `semantic tool=create_invoice effect=external decision=confirm concerns=$.amount=changed fingerprint=3f2a…`
    pub fn log_line(&self) -> String {
        let concerns: Vec<String> = self
            .concerns()
            .map(|f| {
                format!(
                    "{}={}{}",
                    f.path,
                    f.verdict,
                    if f.critical { "!" } else { "" }
                )
            })
            .collect();
        format!(
            "semantic tool={} effect={} decision={} concerns={} fingerprint={}",
            self.tool,
            self.effect.as_str(),
            self.decision,
            if concerns.is_empty() {
                "-".to_owned()
            } else {
                concerns.join(",")
            },
            &self.fingerprint.to_hex()[..16]
        )
    }

    /// A confirmation prompt for a person: what the call does, and each value that changed
    /// meaning or could not be proven, with the reason.
    pub fn prompt(&self) -> String {
        let mut text = format!(
            "The corrected call to {} ({}) needs a decision: {}.",
            self.tool,
            self.effect.as_str().replace('_', "-"),
            self.decision
        );
        for f in self.concerns() {
            text.push_str(&format!(
                "\n- {}{}: {} ({})",
                f.path,
                if f.critical { " [critical]" } else { "" },
                f.reason,
                f.verdict
            ));
        }
        text
    }

    /// The tool result for the model when the call is rejected:
    /// `{"ok":false,"errors":[{"error":"meaning_changed","path":PATH,"message":TEXT}, ...]}`,
    /// in the shape of [`Rejection::for_model`](toolargs_core::Rejection::for_model).
    pub fn for_model(&self) -> String {
        let errors: Vec<Value> = self
            .findings
            .iter()
            .filter(|f| f.verdict.is_mismatch())
            .map(|f| {
                json!({
                    "error": "meaning_changed",
                    "path": f.path,
                    "message": format!("{}; send the value the user asked for", f.reason),
                })
            })
            .collect();
        json!({"ok": false, "errors": errors}).to_string()
    }

    /// The review as JSON (for audit logs).
    pub fn to_json(&self) -> Value {
        json!({
            "tool": self.tool,
            "effect": self.effect.as_str(),
            "decision": self.decision.as_str(),
            "fingerprint": self.fingerprint.to_hex(),
            "findings": self.findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(verdict: Verdict, critical: bool) -> Finding {
        Finding {
            path: "$.x".into(),
            meaning: "number",
            verdict,
            critical,
            original: None,
            corrected: None,
            readings: vec![],
            canonical: None,
            reason: String::new(),
        }
    }

    #[test]
    fn the_decision_table() {
        use Decision::*;
        use Verdict::*;
        let all = [
            Effect::ReadOnly,
            Effect::Additive,
            Effect::Destructive,
            Effect::External,
        ];
        for effect in all {
            assert_eq!(decide(effect, &[]), Proceed);
            assert_eq!(decide(effect, &[finding(Equivalent, true)]), Proceed);
            assert_eq!(decide(effect, &[finding(Changed, true)]), Reject);
            assert_eq!(decide(effect, &[finding(Invalid, true)]), Reject);
            let doubt = if effect == Effect::ReadOnly {
                ProceedAndReport
            } else {
                Confirm
            };
            for verdict in [Ambiguous, Unverified, Changed, Invalid] {
                assert_eq!(decide(effect, &[finding(verdict, false)]), doubt);
            }
            assert_eq!(decide(effect, &[finding(Ambiguous, true)]), doubt);
            assert_eq!(decide(effect, &[finding(Unverified, true)]), doubt);
        }
    }
}
