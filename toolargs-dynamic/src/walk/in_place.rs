//! Schemas applied to the same value (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`,
//! `dependentSchemas`) and the keywords that look at what they evaluated (`unevaluated*`,
//! undeclared keys).

use serde_json::Value;

use super::{
    indices, is_valid, leaf, passes_as_sent, Attempt, Mode, Outcome, Part, Seen, Walker,
    VALUE_DEPTH,
};
use crate::exact::json_equal;
use crate::shape::{Id, Rules, Schema};
use toolargs_core::cx::Cx;
use toolargs_core::node::Node;
use toolargs_core::path::Path;
use toolargs_core::report::Code;

impl Walker<'_> {
    pub(super) fn combine(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        depth: usize,
    ) -> Option<Outcome> {
        let mut parts = vec![Part::Own];
        parts.extend(rules.reference.map(Part::Schema));
        parts.extend(rules.all_of.iter().map(|id| Part::Schema(*id)));
        if !rules.any_of.is_empty() {
            parts.push(Part::AnyOf);
        }
        if !rules.one_of.is_empty() {
            parts.push(Part::OneOf);
        }
        parts.extend(rules.not.map(Part::Not));
        if rules.condition.is_some() {
            parts.push(Part::Condition);
        }
        if let Node::Object(members) = node {
            for (name, id) in &rules.dependent_schemas {
                if members.iter().any(|(k, _)| k == name) {
                    parts.push(Part::Schema(*id));
                }
            }
        }
        self.agree(rules, &parts, node, path, cx, depth)
    }

    /// Runs every part on the value and settles one verdict (see the module docs).
    pub(super) fn agree(
        &self,
        rules: &Rules,
        parts: &[Part],
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        depth: usize,
    ) -> Option<Outcome> {
        let attempts: Vec<Attempt> = parts
            .iter()
            .map(|part| self.attempt(rules, *part, node, path, cx, depth))
            .collect();
        let Some(first) = attempts.iter().position(Attempt::repaired) else {
            if attempts.iter().any(Attempt::failed) {
                for attempt in attempts.into_iter().filter(Attempt::failed) {
                    cx.absorb(attempt.cx);
                }
                return None;
            }
            return Some(merge(attempts.into_iter().filter_map(|a| a.outcome)));
        };
        let target = attempts[first].outcome.as_ref().map(|o| o.value.clone())?;
        let disagree = attempts.iter().filter(|a| a.repaired()).any(|a| {
            a.outcome
                .as_ref()
                .is_some_and(|o| !json_equal(&o.value, &target))
        });
        if disagree {
            cx.error(
                path,
                Code::AmbiguousVariant,
                "the schemas that apply here repair this value in different ways, so its meaning is unclear; send it in the exact form the schema asks for",
            );
            return None;
        }
        // The repaired value must satisfy every part as it is.
        let repaired = Node::from_value(&target, VALUE_DEPTH).ok()?;
        let mut outcomes = Vec::with_capacity(parts.len());
        let mut repairs = None;
        for (part, attempt) in parts.iter().zip(attempts) {
            if attempt.repaired() {
                outcomes.extend(attempt.outcome);
                if repairs.is_none() {
                    repairs = Some(attempt.cx);
                }
                continue;
            }
            let again = self.attempt(rules, *part, &repaired, path, cx, depth);
            if again.failed() || again.repaired() {
                cx.absorb(if attempt.failed() {
                    attempt.cx
                } else {
                    again.cx
                });
                return None;
            }
            outcomes.extend(again.outcome);
        }
        cx.absorb(repairs?);
        let mut merged = merge(outcomes.into_iter());
        merged.value = merge_values(target, merged.value);
        Some(merged)
    }

    fn attempt(
        &self,
        rules: &Rules,
        part: Part,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &Cx,
        depth: usize,
    ) -> Attempt {
        let mut scratch = cx.scratch();
        let outcome = match part {
            Part::Own => self.own(rules, node, path, &mut scratch, Mode::Part),
            Part::Schema(id) => self.eval(id, node, path, &mut scratch, false, depth + 1),
            Part::AnyOf => self.any_of(&rules.any_of, node, path, &mut scratch, depth),
            Part::OneOf => self.one_of(&rules.one_of, node, path, &mut scratch, depth),
            Part::Not(id) => {
                if self.strict(id, node, path, &scratch, depth) {
                    scratch.error_with(path, Code::NotAllowed, || {
                        format!(
                            "{} matches a schema it must not match (`not`)",
                            node.describe()
                        )
                    });
                    None
                } else {
                    leaf(node, path, &mut scratch)
                }
            }
            Part::Condition => self.condition(rules, node, path, &mut scratch, depth),
        };
        Attempt {
            outcome,
            cx: scratch,
        }
    }

    fn branches(
        &self,
        ids: &[Id],
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &Cx,
        depth: usize,
    ) -> Vec<Attempt> {
        ids.iter()
            .map(|id| {
                let mut scratch = cx.scratch();
                let outcome = self.eval(*id, node, path, &mut scratch, false, depth + 1);
                Attempt {
                    outcome,
                    cx: scratch,
                }
            })
            .collect()
    }

    /// `anyOf`: a value some branch accepts as sent stays as sent; otherwise the branches that
    /// accept it with repairs must agree on one value.
    fn any_of(
        &self,
        ids: &[Id],
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        depth: usize,
    ) -> Option<Outcome> {
        let attempts = self.branches(ids, node, path, cx, depth);
        if attempts.iter().any(|a| a.clean()) {
            let valid = attempts.into_iter().filter(|a| a.clean());
            return Some(merge(valid.filter_map(|a| a.outcome)));
        }
        self.by_repair(attempts, "anyOf", path, cx)
    }

    /// `oneOf`: exactly one branch may accept the value as sent; failing that, exactly one
    /// may accept it with repairs, and no other branch may accept the repaired value.
    fn one_of(
        &self,
        ids: &[Id],
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        depth: usize,
    ) -> Option<Outcome> {
        let attempts = self.branches(ids, node, path, cx, depth);
        let clean: Vec<usize> = (0..attempts.len())
            .filter(|i| attempts[*i].clean())
            .collect();
        if clean.len() > 1 {
            cx.error_with(path, Code::AmbiguousVariant, || {
                format!(
                    "{} matches {} of the schemas in `oneOf` (at {}), and must match exactly one",
                    node.describe(),
                    clean.len(),
                    indices(&clean)
                )
            });
            return None;
        }
        let repaired: Vec<usize> = (0..attempts.len())
            .filter(|i| attempts[*i].repaired())
            .collect();
        if let Some(&only) = clean.first() {
            // A branch that repairs the value may still take it as sent, as JSON Schema reads
            // it (`1.0` is an integer there): then two branches match, and the value is not
            // valid as sent.
            if !repaired.is_empty() {
                let sent = node.to_value();
                let also: Vec<usize> = repaired
                    .iter()
                    .copied()
                    .filter(|i| is_valid(self.graph, ids[*i], &sent))
                    .collect();
                if !also.is_empty() {
                    cx.error_with(path, Code::AmbiguousVariant, || {
                        format!(
                            "{} matches more than one of the schemas in `oneOf` (at {only} and {}), and must match exactly one",
                            node.describe(),
                            indices(&also)
                        )
                    });
                    return None;
                }
            }
            return attempts.into_iter().nth(only).and_then(|a| a.outcome);
        }
        if let [only] = repaired.as_slice() {
            let value = attempts[*only].outcome.as_ref().map(|o| o.value.clone())?;
            let others: Vec<usize> = (0..ids.len())
                .filter(|i| i != only)
                .filter(|i| is_valid(self.graph, ids[*i], &value))
                .collect();
            if !others.is_empty() {
                cx.error(
                    path,
                    Code::AmbiguousVariant,
                    format!("once repaired, this value matches more than one of the schemas in `oneOf` (at {only} and {}), and must match exactly one", indices(&others)),
                );
                return None;
            }
        }
        self.by_repair(attempts, "oneOf", path, cx)
    }

    /// No branch accepts the value as sent: the branches that accept it with repairs must
    /// agree on one value; with none, the closest branch's errors are the reason.
    fn by_repair(
        &self,
        attempts: Vec<Attempt>,
        keyword: &str,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Outcome> {
        let repaired: Vec<usize> = (0..attempts.len())
            .filter(|i| attempts[*i].repaired())
            .collect();
        if let Some(&first) = repaired.first() {
            let target = attempts[first].outcome.as_ref().map(|o| &o.value)?;
            let agree = repaired.iter().all(|i| {
                attempts[*i]
                    .outcome
                    .as_ref()
                    .is_some_and(|o| json_equal(&o.value, target))
            });
            if !agree || (keyword == "oneOf" && repaired.len() > 1) {
                cx.error(
                    path,
                    Code::AmbiguousVariant,
                    format!(
                        "this value reads as more than one of the schemas in `{keyword}` (at {}), so its meaning is unclear; send it in the exact form of one of them",
                        indices(&repaired)
                    ),
                );
                return None;
            }
            let mut attempts = attempts;
            let chosen = attempts.swap_remove(first);
            cx.absorb(chosen.cx);
            return chosen.outcome;
        }
        let closest = attempts
            .into_iter()
            .min_by_key(|a| a.cx.error_count())
            .filter(|a| a.cx.has_errors());
        match closest {
            Some(attempt) => cx.absorb(attempt.cx),
            None => cx.error_with(path, Code::Type, || {
                format!("no schema in `{keyword}` accepts this value")
            }),
        }
        None
    }

    fn condition(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        depth: usize,
    ) -> Option<Outcome> {
        let condition = rules.condition.as_ref()?;
        // Only whether the condition holds is read: a quiet collector.
        let mut test = cx.quiet_scratch();
        let tested = self.eval(condition.test, node, path, &mut test, false, depth + 1);
        let holds = passes_as_sent(tested.is_some(), &test);
        let branch = if holds {
            condition.then
        } else {
            condition.otherwise
        };
        let mut outcome = match branch {
            Some(id) => self.eval(id, node, path, cx, false, depth + 1)?,
            None => leaf(node, path, cx)?,
        };
        if let (true, Some(tested)) = (holds, tested) {
            outcome.seen.merge(&tested.seen);
        }
        Some(outcome)
    }

    /// `unevaluatedProperties` and `unevaluatedItems`: what no part of this schema evaluated.
    pub(super) fn unevaluated(
        &self,
        owner: Id,
        rules: &Rules,
        node: &Node<'_>,
        mut outcome: Outcome,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Outcome> {
        let mut ok = true;
        match (node, &mut outcome.value) {
            (Node::Object(members), Value::Object(out)) => {
                let Some(id) = rules.unevaluated_properties else {
                    return Some(outcome);
                };
                outcome.seen.0.resize(members.len(), false);
                for (index, (key, value)) in members.iter().enumerate() {
                    if outcome.seen.0[index] {
                        continue;
                    }
                    outcome.seen.0[index] = true;
                    if matches!(self.graph.get(id), Schema::False) {
                        ok &= self.unknown_key(Some(owner), &[], key, value, path, cx);
                        out.shift_remove(key.as_ref());
                        continue;
                    }
                    match self.eval(id, value, &path.key(key), cx, true, 0) {
                        Some(child) => {
                            out.insert(key.as_ref().to_owned(), child.value);
                        }
                        None => ok = false,
                    }
                }
            }
            (Node::Array(items), Value::Array(out)) if out.len() == items.len() => {
                let Some(id) = rules.unevaluated_items else {
                    return Some(outcome);
                };
                outcome.seen.0.resize(items.len(), false);
                for (index, item) in items.iter().enumerate() {
                    if outcome.seen.0[index] {
                        continue;
                    }
                    outcome.seen.0[index] = true;
                    match self.eval(id, item, &path.index(index), cx, true, 0) {
                        Some(child) => out[index] = child.value,
                        None => ok = false,
                    }
                }
            }
            _ => {}
        }
        ok.then_some(outcome)
    }

    /// Keys no schema evaluated, where properties are declared, go through the tool's
    /// unknown-key policy: stripped (a repair) or rejected with a did-you-mean hint.
    pub(super) fn undeclared(
        &self,
        id: Id,
        node: &Node<'_>,
        outcome: &mut Outcome,
        path: &Path<'_>,
        cx: &mut Cx,
    ) {
        let (Node::Object(members), Value::Object(out)) = (node, &mut outcome.value) else {
            return;
        };
        for (index, (key, value)) in members.iter().enumerate() {
            if outcome.seen.0.get(index).copied().unwrap_or(false) {
                continue;
            }
            self.unknown_key(Some(id), &[], key, value, path, cx);
            out.shift_remove(key.as_ref());
        }
    }
}

fn merge(outcomes: impl Iterator<Item = Outcome>) -> Outcome {
    let mut merged: Option<Outcome> = None;
    for outcome in outcomes {
        match &mut merged {
            None => merged = Some(outcome),
            Some(m) => {
                m.seen.merge(&outcome.seen);
                let value = std::mem::take(&mut m.value);
                m.value = merge_values(value, outcome.value);
            }
        }
    }
    merged.unwrap_or(Outcome {
        value: Value::Null,
        seen: Seen::default(),
    })
}

/// `base`, plus the keys only `other` has (the defaults another part filled in).
fn merge_values(base: Value, other: Value) -> Value {
    match (base, other) {
        (Value::Object(mut base), Value::Object(other)) => {
            for (key, value) in other {
                base.entry(key).or_insert(value);
            }
            Value::Object(base)
        }
        (base, _) => base,
    }
}
