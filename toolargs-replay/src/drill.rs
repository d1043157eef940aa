//! The drill-down of a replay: per tool and per field (the JSON path of a repair or an error),
//! how often each rule and code happened, and where the first examples of each are.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::outcome::{merge_locations, Judgement, Location, Outcome};

/// How many example locations are kept per rule and per code.
pub const EXAMPLES_KEPT: usize = 3;

/// How many fields [`Drill::top_failing_fields`] lists in a report.
pub const TOP_FIELDS_SHOWN: usize = 10;

/// The counters of one field of one tool. A call counts once per distinct rule or code at
/// the field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldDrill {
    /// Accepted calls with a repair at this field.
    pub repaired_calls: u64,
    /// Rejected calls with an error at this field.
    pub rejected_calls: u64,
    /// Calls repaired at this field, by rule.
    pub repairs: BTreeMap<&'static str, u64>,
    /// Calls rejected at this field, by code.
    pub rejections: BTreeMap<&'static str, u64>,
}

/// The counters of one tool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolDrill {
    /// Calls judged (accepted or rejected); the rates of its fields are per such call.
    pub calls: u64,
    /// Calls accepted without repairs.
    pub ok_clean: u64,
    /// Calls accepted with at least one repair.
    pub ok_repaired: u64,
    /// Calls rejected.
    pub rejected: u64,
    /// The fields with a repair or an error, by path. Array indices read `[*]`, so that every
    /// element of a list counts as one field.
    pub fields: BTreeMap<String, FieldDrill>,
}

/// Drill-down counters of a replay: per tool, per field, with example locations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Drill {
    /// Per tool, by name.
    pub tools: BTreeMap<String, ToolDrill>,
    /// The first [`EXAMPLES_KEPT`] locations of calls repaired by each rule.
    pub repair_examples: BTreeMap<&'static str, Vec<Location>>,
    /// The first [`EXAMPLES_KEPT`] locations of calls rejected with each code.
    pub rejection_examples: BTreeMap<&'static str, Vec<Location>>,
}

/// A field that fails: tool, path, rejected calls with an error there, and their rate among
/// the tool's calls.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FailingField<'d> {
    /// The tool.
    pub tool: &'d str,
    /// The field's path.
    pub field: &'d str,
    /// Rejected calls with an error at the field.
    pub rejected_calls: u64,
    /// `rejected_calls` per call of the tool, in 0..=1.
    pub rate: f64,
}

/// A gate path with array indices as `[*]`: `$.items[3].sku` is `$.items[*].sku`.
///
/// ```
/// assert_eq!(toolargs_replay::field_of("$.items[3].sku"), "$.items[*].sku");
/// assert_eq!(toolargs_replay::field_of("$.order_id"), "$.order_id");
/// ```
pub fn field_of(path: &str) -> Cow<'_, str> {
    if !path.contains('[') {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        match rest.find(']') {
            Some(close) if close > 0 && rest[..close].bytes().all(|b| b.is_ascii_digit()) => {
                out.push('*');
                rest = &rest[close..];
            }
            _ => {}
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

fn keep_example(map: &mut BTreeMap<&'static str, Vec<Location>>, name: &'static str, at: Location) {
    let kept = map.entry(name).or_default();
    if kept.len() < EXAMPLES_KEPT && !kept.contains(&at) {
        kept.push(at);
    }
}

impl Drill {
    /// Counts one judged call to `tool` found at `at`.
    pub fn add(&mut self, tool: &str, at: Location, judgement: &Judgement) {
        let drill = match self.tools.get_mut(tool) {
            Some(drill) => drill,
            None => self.tools.entry(tool.to_owned()).or_default(),
        };
        drill.calls += 1;
        let (rejected, examples) = match &judgement.outcome {
            Outcome::Clean => {
                drill.ok_clean += 1;
                return;
            }
            Outcome::Repaired(_) => {
                drill.ok_repaired += 1;
                (false, &mut self.repair_examples)
            }
            Outcome::Rejected(_) => {
                drill.rejected += 1;
                (true, &mut self.rejection_examples)
            }
        };
        // Most calls have one finding: no list to build, sort and deduplicate.
        let one: [(Cow<'_, str>, &'static str); 1];
        let mut several: Vec<(Cow<'_, str>, &'static str)>;
        let distinct: &[(Cow<'_, str>, &'static str)] = match judgement.findings.as_slice() {
            [(path, name)] => {
                one = [(field_of(path), *name)];
                &one
            }
            findings => {
                several = findings
                    .iter()
                    .map(|(path, name)| (field_of(path), *name))
                    .collect();
                several.sort_unstable();
                several.dedup();
                &several
            }
        };
        let mut last_field: Option<&str> = None;
        for (field, name) in distinct {
            keep_example(examples, name, at);
            let counters = match drill.fields.get_mut(field.as_ref()) {
                Some(counters) => counters,
                None => drill.fields.entry(field.to_string()).or_default(),
            };
            // The set is ordered by field, so a call's findings at one field are adjacent.
            let new_field = last_field != Some(field.as_ref());
            last_field = Some(field);
            let (calls, by_name) = if rejected {
                (&mut counters.rejected_calls, &mut counters.rejections)
            } else {
                (&mut counters.repaired_calls, &mut counters.repairs)
            };
            if new_field {
                *calls += 1;
            }
            *by_name.entry(name).or_default() += 1;
        }
    }

    /// Adds another drill-down's counts; examples stay the smallest locations.
    pub fn merge(&mut self, other: &Drill) {
        for (tool, theirs) in &other.tools {
            let mine = self.tools.entry(tool.clone()).or_default();
            mine.calls += theirs.calls;
            mine.ok_clean += theirs.ok_clean;
            mine.ok_repaired += theirs.ok_repaired;
            mine.rejected += theirs.rejected;
            for (field, f) in &theirs.fields {
                let m = mine.fields.entry(field.clone()).or_default();
                m.repaired_calls += f.repaired_calls;
                m.rejected_calls += f.rejected_calls;
                for (rule, n) in &f.repairs {
                    *m.repairs.entry(rule).or_default() += n;
                }
                for (code, n) in &f.rejections {
                    *m.rejections.entry(code).or_default() += n;
                }
            }
        }
        for (mine, theirs) in [
            (&mut self.repair_examples, &other.repair_examples),
            (&mut self.rejection_examples, &other.rejection_examples),
        ] {
            for (name, kept) in theirs {
                merge_locations(mine.entry(name).or_default(), kept, EXAMPLES_KEPT);
            }
        }
    }

    /// The fields with the most rejected calls, most first (ties by tool, then field), at
    /// most `n`.
    pub fn top_failing_fields(&self, n: usize) -> Vec<FailingField<'_>> {
        let mut all: Vec<FailingField<'_>> = self
            .tools
            .iter()
            .flat_map(|(tool, drill)| {
                drill
                    .fields
                    .iter()
                    .filter(|(_, f)| f.rejected_calls > 0)
                    .map(move |(field, f)| FailingField {
                        tool,
                        field,
                        rejected_calls: f.rejected_calls,
                        rate: f.rejected_calls as f64 / drill.calls.max(1) as f64,
                    })
            })
            .collect();
        all.sort_by(|a, b| {
            b.rejected_calls
                .cmp(&a.rejected_calls)
                .then_with(|| a.tool.cmp(b.tool))
                .then_with(|| a.field.cmp(b.field))
        });
        all.truncate(n);
        all
    }

    /// The drill-down as JSON: `{"tools": {TOOL: {"calls", "ok_clean", "ok_repaired",
    /// "rejected", "fields": {FIELD: {"repaired_calls", "rejected_calls", "repairs": {RULE:
    /// {"count", "rate"}}, "rejections": {CODE: {"count", "rate"}}}}}}, "examples":
    /// {"repairs": {RULE: [LOCATION]}, "rejections": {CODE: [LOCATION]}},
    /// "top_failing_fields": [{"tool", "field", "rejected_calls", "rate"}]}`; rates are per
    /// call of the tool, locations written by `location`.
    pub fn to_json(&self, location: impl Fn(Location) -> String) -> Value {
        let rated = |m: &BTreeMap<&'static str, u64>, calls: u64| -> Value {
            Value::Object(
                m.iter()
                    .map(|(k, n)| {
                        (
                            (*k).to_owned(),
                            json!({"count": n, "rate": rate(*n, calls)}),
                        )
                    })
                    .collect(),
            )
        };
        let tools: Map<String, Value> = self
            .tools
            .iter()
            .map(|(tool, d)| {
                let fields: Map<String, Value> = d
                    .fields
                    .iter()
                    .map(|(field, f)| {
                        (
                            field.clone(),
                            json!({
                                "repaired_calls": f.repaired_calls,
                                "rejected_calls": f.rejected_calls,
                                "repairs": rated(&f.repairs, d.calls),
                                "rejections": rated(&f.rejections, d.calls),
                            }),
                        )
                    })
                    .collect();
                (
                    tool.clone(),
                    json!({
                        "calls": d.calls,
                        "ok_clean": d.ok_clean,
                        "ok_repaired": d.ok_repaired,
                        "rejected": d.rejected,
                        "fields": fields,
                    }),
                )
            })
            .collect();
        let examples = |m: &BTreeMap<&'static str, Vec<Location>>| -> Value {
            Value::Object(
                m.iter()
                    .map(|(k, kept)| {
                        let texts: Vec<String> = kept.iter().map(|at| location(*at)).collect();
                        ((*k).to_owned(), json!(texts))
                    })
                    .collect(),
            )
        };
        let top: Vec<Value> = self
            .top_failing_fields(TOP_FIELDS_SHOWN)
            .into_iter()
            .map(|f| {
                json!({"tool": f.tool, "field": f.field, "rejected_calls": f.rejected_calls, "rate": f.rate})
            })
            .collect();
        json!({
            "tools": tools,
            "examples": {
                "repairs": examples(&self.repair_examples),
                "rejections": examples(&self.rejection_examples),
            },
            "top_failing_fields": top,
        })
    }
}

/// `n` per `of`, 0 when `of` is 0.
fn rate(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        n as f64 / of as f64
    }
}
