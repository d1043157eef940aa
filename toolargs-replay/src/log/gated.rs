//! Counting the MCP gate's verdict log: every record's recorded verdict, and the call judged
//! again when it carries its arguments and its tool is defined, today's decision compared
//! with the recorded one.

use serde_json::{json, Value};

use super::verdicts::Verdict;
use super::Replayer;
use crate::formats::gate::{self, GateRecord};
use crate::formats::Call;
use crate::outcome::{Location, Outcome};
use crate::recorded::{Today, NO_ARGUMENTS, NO_DEFINITION};
use crate::tally::Report;

impl Replayer<'_> {
    /// Counts one record of a verdict log into `report`, and writes its verdict.
    pub(super) fn gate_record(
        &self,
        at: Location,
        name: &str,
        value: &Value,
        report: &mut Report,
        out: Option<&mut Vec<u8>>,
    ) {
        let mut record = match gate::read(value) {
            Ok(record) => record,
            Err(reason) => return self.count(at, name, Err(reason), report, out),
        };
        report.recorded.add(&record);
        let tool = Some(record.tool);
        let arguments = record.arguments.take();
        let not_judged = if arguments.is_none() {
            Some(NO_ARGUMENTS)
        } else if self.named_judge(tool).is_err() && self.tools.refusal(tool).is_none() {
            Some(NO_DEFINITION)
        } else {
            None
        };
        if let Some(reason) = not_judged {
            report.recorded.not_judged(reason);
            if let Some(out) = out {
                let verdict = Verdict::NotJudged(reason);
                let recorded = Some(recorded_json(&record, None));
                let key = gate::key(value, &self.by);
                self.write_verdict(out, name, at, tool, &verdict, &key, None, recorded);
            }
            return;
        }
        let call = Call {
            tool,
            key: gate::key(value, &self.by),
            arguments,
        };
        let verdict = self.verdict_of(&call);
        let today = match &verdict {
            Verdict::Judged(_, judgement) => Some(match &judgement.outcome {
                Outcome::Clean => today("clean", Vec::new(), Vec::new()),
                Outcome::Repaired(rules) => today(
                    "repaired",
                    Vec::new(),
                    rules.iter().map(|r| r.as_str()).collect(),
                ),
                Outcome::Rejected(codes) => today(
                    "rejected",
                    codes.iter().map(|c| c.as_str()).collect(),
                    Vec::new(),
                ),
            }),
            Verdict::Unchecked(_) => Some(today("unchecked", Vec::new(), Vec::new())),
            Verdict::Bad(_) | Verdict::NotJudged(_) => None,
        };
        let changed = today.and_then(|today| report.recorded.compare(at, &record, today));
        let recorded = out.is_some().then(|| recorded_json(&record, changed));
        self.count_verdict(at, name, call, verdict, report, out, recorded);
    }
}

fn today(outcome: &'static str, codes: Vec<&'static str>, rules: Vec<&'static str>) -> Today {
    Today {
        outcome,
        codes,
        rules,
    }
}

/// The recorded verdict in a verdict line: `{"outcome", "codes", "rules"}`, and `changed`
/// when today's decision was compared with it.
fn recorded_json(record: &GateRecord<'_>, changed: Option<bool>) -> Value {
    let mut out = json!({
        "outcome": record.outcome,
        "codes": record.codes,
        "rules": record.rules,
    });
    if let Some(changed) = changed {
        out["changed"] = json!(changed);
    }
    out
}
