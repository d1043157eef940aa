//! A call's payload object read one member at a time, as a stream delivers them, and
//! assembled into the verdict the walk of the whole object gives.
//!
//! Only for a root that is an object schema of its own keywords alone
//! ([`RootMembers::of`]): its walk is `Walker::object` on the payload, whose steps are each
//! a member's own (its key, its value) but for the key count and the keys required, which
//! wait for the end. Each member is read through the same steps, into two collectors (what
//! its key recorded, what its value recorded), and the assembly absorbs them in the order
//! the walk records them: every key in payload order, then the declared properties in
//! declaration order, then the other members in payload order.
//!
//! The evaluation budget is the whole call's, spent across the members; since each
//! member's evaluations are the walk's, a budget that runs out here would run out there too.
//! The assembly then leaves the verdict to the walk of the whole text, whose errors come in
//! its own order.

use std::cell::Cell;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::keywords::{property_count, required_keys, Sorted};
use super::{Walker, MAX_EVALUATIONS};
use crate::shape::{Graph, Rules, Schema, Types};
use toolargs_core::cx::Cx;
use toolargs_core::judge::MemberSlots;
use toolargs_core::node::Node;
use toolargs_core::path::Path;
use toolargs_core::spec::UnknownPolicy;

/// The members of a call read so far, for a root [`RootMembers::of`] accepts.
pub(crate) struct RootMembers {
    graph: Arc<Graph>,
    unknown: UnknownPolicy,
    /// Evaluations left (the walk's budget, across the members).
    budget: usize,
    members: Vec<Read>,
    /// For each declared property, the member that holds it.
    declared: Vec<Option<usize>>,
}

/// One member, read.
struct Read {
    key: String,
    sorted: Sorted,
    /// Its value as read (`None`: refused; `Some(None)`: nothing to keep).
    value: Option<Option<Value>>,
    /// Whether its key passed.
    key_ok: bool,
    /// What its key recorded, then what its value recorded; nothing when neither recorded
    /// anything, as for most members (an empty collector absorbs as nothing).
    recorded: Vec<Cx>,
}

impl RootMembers {
    /// Slots for the calls of `graph`'s root, when it is an object schema of its own
    /// keywords alone: no keyword applying other schemas to the object in place, no `enum`
    /// or `const`, and `object` among its types.
    pub(crate) fn of(graph: &Arc<Graph>, unknown: UnknownPolicy) -> Option<RootMembers> {
        let rules = root_rules(graph)?;
        let objects = rules.types.is_none_or(|types| types.has(Types::OBJECT));
        if rules.in_place || rules.allowed.is_some() || rules.constant.is_some() || !objects {
            return None;
        }
        let properties = rules.properties.as_deref().unwrap_or_default().len();
        Some(RootMembers {
            graph: Arc::clone(graph),
            unknown,
            // The root's own evaluation, as the walk spends it.
            budget: MAX_EVALUATIONS - 1,
            members: Vec::new(),
            declared: vec![None; properties],
        })
    }

    /// The walk, spending `budget` (taken from and given back to `self.budget`, so that the
    /// slots hold nothing a thread could not share).
    fn walker<'a>(&'a self, budget: &'a Cell<usize>) -> Walker<'a> {
        Walker {
            graph: &self.graph,
            budget,
            build: true,
            forbid_repairs: false,
        }
    }
}

impl Read {
    /// Moves what part `part` recorded (0: the key, 1: the value) into `cx`.
    fn absorb_into(&mut self, part: usize, cx: &mut Cx) {
        if let Some(recorded) = self.recorded.get_mut(part) {
            cx.absorb(std::mem::replace(recorded, cx.scratch()));
        }
    }
}

/// The root's keywords, when it has any.
fn root_rules(graph: &Graph) -> Option<&Rules> {
    match graph.get(graph.root) {
        Schema::Rules(rules) => Some(rules),
        _ => None,
    }
}

impl MemberSlots<Value> for RootMembers {
    /// Unused: every key is settled here, through the schema.
    fn known(&self) -> &'static [&'static str] {
        &[]
    }

    fn unknown_policy(&self) -> UnknownPolicy {
        self.unknown
    }

    fn read(&mut self, key: &str, value: &Node<'_>, cx: Cx) -> Result<&[Cx], Cx> {
        let Some(rules) = root_rules(&self.graph) else {
            return Err(cx);
        };
        let budget = Cell::new(self.budget);
        let walker = self.walker(&budget);
        // As the walk reads the root alone: its undeclared keys are the tool's policy's when
        // it declares properties.
        let root = self.graph.root;
        let undeclared = self.graph.closures[root]
            .declares_properties
            .then_some(root);
        let (mut of_key, mut of_value) = (cx.scratch(), cx);
        let mut key_ok = true;
        let sorted = walker.sort_member(
            rules,
            key,
            value,
            &Path::ROOT,
            &mut of_key,
            &mut key_ok,
            undeclared,
        );
        let read = match &sorted {
            Sorted::Declared(i) => {
                let properties = rules.properties.as_deref().unwrap_or_default();
                walker.declared(
                    rules,
                    &properties[*i],
                    Some(value),
                    &Path::ROOT,
                    &mut of_value,
                )
            }
            Sorted::Other(_) | Sorted::Additional(_) => walker
                .other(key, value, sorted.schemas(), &Path::ROOT, &mut of_value)
                .map(Some),
            Sorted::Settled => Some(None),
        };
        self.budget = budget.get();
        if let Sorted::Declared(i) = sorted {
            self.declared[i] = Some(self.members.len());
        }
        self.members.push(Read {
            key: key.to_owned(),
            sorted,
            value: read,
            key_ok,
            recorded: match of_key.is_empty() && of_value.is_empty() {
                true => Vec::new(),
                false => vec![of_key, of_value],
            },
        });
        Ok(self
            .members
            .last()
            .map(|read| &read.recorded[..])
            .unwrap_or_default())
    }

    fn assemble(mut self: Box<Self>, cx: &mut Cx) -> Option<Option<Value>> {
        let graph = Arc::clone(&self.graph);
        let rules = root_rules(&graph)?;
        let budget = Cell::new(self.budget);
        let mut ok = property_count(rules, self.members.len(), &Path::ROOT, cx);
        for read in &mut self.members {
            read.absorb_into(0, cx);
            ok &= read.key_ok;
        }
        // Recorded last, but asked first, while the keys are still here.
        let mut required = cx.scratch();
        let has = |name: &str| self.members.iter().any(|read| read.key == name);
        ok &= required_keys(rules, has, &Path::ROOT, &mut required);
        let mut out = Map::with_capacity(self.members.len());
        let mut keep = |name: String, value: Option<Option<Value>>, ok: &mut bool| match value {
            Some(Some(value)) => {
                out.insert(name, value);
            }
            Some(None) => {}
            None => *ok = false,
        };
        let properties = rules.properties.as_deref().unwrap_or_default();
        for (property, member) in properties.iter().zip(&self.declared) {
            let value = match member.and_then(|i| self.members.get_mut(i)) {
                Some(read) => {
                    read.absorb_into(1, cx);
                    read.value.take()
                }
                None => self
                    .walker(&budget)
                    .declared(rules, property, None, &Path::ROOT, cx),
            };
            keep(property.name.clone(), value, &mut ok);
        }
        for read in &mut self.members {
            if read.sorted.is_other() {
                read.absorb_into(1, cx);
                keep(std::mem::take(&mut read.key), read.value.take(), &mut ok);
            }
        }
        cx.absorb(required);
        // Past the budget, the walk's errors come in its own order: it gives the verdict.
        if budget.get() == 0 {
            return None;
        }
        Some(ok.then_some(Value::Object(out)))
    }
}
