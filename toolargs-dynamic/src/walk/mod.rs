//! Walks a payload through a loaded [`Graph`], calling the same coercers as derived types.
//!
//! A schema is read in two steps. First the representation: when the value is not of a type
//! the schema allows, the type's coercer may repair it (`"5"` for an integer), by the
//! one-meaning rule when several types are allowed; a string in the wrong case may become the
//! one `enum` value it matches. Then every assertion keyword judges the value as it now is.
//!
//! Keywords that apply other schemas to the same value (`$ref`, `allOf`, `anyOf`, `oneOf`,
//! `not`, `if`, `dependentSchemas`) are parts of one verdict. When no part repairs, each part
//! must accept the value as sent. When some part repairs, all repairing parts must agree on
//! one value, and every part must accept that value as it is; otherwise the meaning is unclear
//! and the call is rejected. Under `not` and `if` nothing is repaired: they test the value as
//! sent.
//!
//! This module reads the representation and drives the walk; `keywords` judges one schema's
//! assertion keywords, and `in_place` settles the schemas applied to the same value.

mod in_place;
mod keywords;
mod members;
mod plain;

pub(crate) use members::RootMembers;
pub(crate) use plain::{Plain, Reading, Slots};

use serde_json::Value;

use crate::arguments::{Key, Member};
use crate::exact::{json_equal, listed};
use crate::shape::{Graph, Id, Property, Rules, Schema, Types};
use toolargs_core::coerce::any::coerce_any;
use toolargs_core::coerce::enumeration::coerce_enum;
use toolargs_core::coerce::integer::{coerce_integer, is_integer_as_sent, same_number};
use toolargs_core::coerce::list::{coerce_list, wraps_scalar};
use toolargs_core::coerce::number::coerce_number;
use toolargs_core::coerce::ArgType;
use toolargs_core::cx::Cx;
use toolargs_core::internal::text::int_value;
use toolargs_core::internal::{reread, Shape};
use toolargs_core::node::Node;
use toolargs_core::path::Path;
use toolargs_core::report::Code;
use toolargs_core::spec::{FieldSpec, UnknownPolicy};

/// JSON Schema integers have no width; the widest range a JSON value holds exactly.
const INTEGER_RANGE: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);

/// How many schemas may apply to one value in place, one inside the other (`$ref` chains,
/// nested `allOf`), before the walk stops: a schema that refers to itself without descending
/// into the value would otherwise never end.
const MAX_IN_PLACE: usize = 32;

/// Schema evaluations allowed for one call: far beyond what a real tool needs (a call to a
/// tool of ten fields takes about twenty), and small enough to answer in a fraction of a second.
const MAX_EVALUATIONS: usize = 200_000;

/// Below this much free stack, an evaluation continues on a new stack segment of
/// `STACK_GROWTH` bytes (a level of a recursive schema takes a few kilobytes unoptimised).
const STACK_RED_ZONE: usize = 128 * 1024;
const STACK_GROWTH: usize = 2 * 1024 * 1024;

/// Depth allowed when a repaired value is read back as a node (it came from a payload that
/// already passed the depth limit).
const VALUE_DEPTH: usize = 1024;

/// Reads `node` as the graph's root schema; the canonical JSON, or `None` with errors in `cx`.
/// With `build` off the verdict is the same, but the value is not built (it is `null`) where
/// no keyword needs it: replay only counts verdicts.
pub(crate) fn walk(
    graph: &Graph,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    build: bool,
) -> Option<Value> {
    let budget = std::cell::Cell::new(MAX_EVALUATIONS);
    let walker = Walker {
        graph,
        budget: &budget,
        build,
        forbid_repairs: false,
    };
    let value = walker
        .eval(graph.root, node, path, cx, true, 0)
        .map(|o| o.value);
    out_of_budget(&budget, path, cx)?;
    value
}

/// `None`, with the error in `cx`, when a walk ran out of evaluations: whatever a branch
/// reported after the budget ran out says nothing about the value.
fn out_of_budget(budget: &std::cell::Cell<usize>, path: &Path<'_>, cx: &mut Cx) -> Option<()> {
    if budget.get() == 0 {
        cx.error(
            path,
            Code::TooDeep,
            "the schema takes too many steps to judge this value",
        );
        return None;
    }
    Some(())
}

/// What [`walk_properties`] makes of a call.
pub(crate) enum Properties<'a> {
    /// The root's verdict: its members (none when not built), or `None` with errors in `cx`.
    Judged(Option<Vec<(Key<'a>, Member<'a>)>>),
    /// The evaluations ran out: only the root's walk says what that gives (each evaluation
    /// past the budget has an error of its own), so it must judge the call.
    Walk,
}

/// The walk of a call to a plain root (see [`Plain`]) whose every key is declared and every
/// required key present, as [`Plain::read`] reads it: the walk of its properties set in
/// `dirty` (bit `i` for property `i`), in declaration order, each as the root's walk judges
/// it. Every other property is absent and optional, or accepted as sent, and the object
/// itself has nothing else to report; so the verdict is the root walk's. Built (`build`), the
/// members are the root walk's value's: the declared properties in declaration order, a value
/// accepted as sent handed over as read, an absent one given its default. `spent`
/// is what the root's walk spends of its budget on the root and the properties not in
/// `dirty`; `slots` where the reading found each property's member.
pub(crate) fn walk_properties<'a>(
    graph: &'a Graph,
    members: &'a [(std::borrow::Cow<'a, str>, Node<'a>)],
    (dirty, spent, slots): (u64, usize, Slots),
    cx: &mut Cx,
    build: bool,
) -> Properties<'a> {
    let Some(properties) = root_properties(graph) else {
        return Properties::Walk;
    };
    let budget = std::cell::Cell::new(MAX_EVALUATIONS.saturating_sub(spent));
    let walker = Walker {
        graph,
        budget: &budget,
        build,
        forbid_repairs: false,
    };
    let mut ok = true;
    let mut out = Vec::with_capacity(if build { properties.len() } else { 0 });
    for (index, property) in properties.iter().enumerate() {
        let judged = index < 64 && dirty & (1 << index) != 0;
        if !judged && !build {
            continue;
        }
        let member = slots
            .member(index)
            .and_then(|at| members.get(at))
            .map(|(_, value)| value);
        let value = match member {
            // Accepted as sent, and so a scalar or a list of scalars that passes through
            // exactly: what the walk's `leaf` copies of it, handed over uncopied.
            Some(node) if !judged => Some(Some(Member::Sent(node))),
            // Absent and not required: what `Walker::property` gives it, with nothing to
            // judge or report.
            None if !property.required => {
                Some(property.absent_value().map(|v| Member::Built(v.clone())))
            }
            _ => {
                let at = Path::ROOT.key(&property.name);
                let schemas = std::slice::from_ref(&property.schema);
                let value = walker.property(property, member, schemas, &at, cx);
                value.map(|built| built.map(Member::Built))
            }
        };
        match value {
            Some(Some(member)) if build => {
                let key = Key {
                    name: &property.name,
                    index,
                };
                out.push((key, member));
            }
            Some(Some(Member::Built(value))) => discard(value),
            Some(_) => {}
            None => ok = false,
        }
    }
    if budget.get() == 0 {
        return Properties::Walk;
    }
    Properties::Judged(ok.then_some(out))
}

/// The root's `properties`, in declaration order, when the root is a schema of keywords: the
/// places [`Key::index`] counts.
pub(crate) fn root_properties(graph: &Graph) -> Option<&[Property]> {
    match graph.get(graph.root) {
        Schema::Rules(root) => Some(root.properties.as_deref().unwrap_or_default()),
        _ => None,
    }
}

/// Whether `value` satisfies schema `id` as it is, without repairs.
pub(crate) fn is_valid(graph: &Graph, id: Id, value: &Value) -> bool {
    let Ok(node) = Node::from_value(value, VALUE_DEPTH) else {
        return false;
    };
    let cx = Cx::new(UnknownPolicy::Reject);
    let budget = std::cell::Cell::new(MAX_EVALUATIONS);
    let walker = Walker {
        graph,
        budget: &budget,
        build: true,
        forbid_repairs: false,
    };
    walker.strict(id, &node, &Path::ROOT, &cx, 0)
}

/// A value's verdict: its canonical JSON and which of its keys or items a schema evaluated
/// (what `unevaluated*` and the unknown-key policy look at).
struct Outcome {
    value: Value,
    seen: Seen,
}

/// Which keys (of an object) or items (of an array) were evaluated, by index. A value is one
/// or the other, so one list serves both; and the smaller the outcome, the cheaper each level
/// of the walk hands it up.
#[derive(Default)]
struct Seen(Vec<bool>);

impl Seen {
    fn merge(&mut self, other: &Seen) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), false);
        }
        for (m, t) in self.0.iter_mut().zip(&other.0) {
            *m |= *t;
        }
    }
}

/// How a schema's own keywords are read: alone (the fast path: unknown keys are settled right
/// there, against the properties of schema `undeclared`), or as one part of several, which
/// must say which keys and items they evaluated.
#[derive(Clone, Copy)]
enum Mode {
    Alone { undeclared: Option<Id> },
    Part,
}

impl Mode {
    fn marks(self, len: usize) -> Marks {
        Marks(match self {
            Mode::Alone { .. } => Vec::new(),
            Mode::Part => vec![false; len],
        })
    }
}

/// Which keys or items were evaluated; empty when nobody asks.
struct Marks(Vec<bool>);

impl Marks {
    fn mark(&mut self, index: usize) {
        if let Some(slot) = self.0.get_mut(index) {
            *slot = true;
        }
    }
}

/// One of the schemas that judge the same value.
#[derive(Clone, Copy)]
enum Part {
    /// The schema's own keywords.
    Own,
    /// A schema applied in place (`$ref`, an `allOf` branch, a `dependentSchemas` entry).
    Schema(Id),
    AnyOf,
    OneOf,
    Not(Id),
    Condition,
}

/// A part's attempt, recorded apart until the verdict is known.
struct Attempt {
    outcome: Option<Outcome>,
    cx: Cx,
}

impl Attempt {
    fn failed(&self) -> bool {
        self.outcome.is_none() || self.cx.has_errors()
    }

    /// Accepted as sent, with no repair.
    fn clean(&self) -> bool {
        !self.failed() && self.cx.repairs().is_empty()
    }

    fn repaired(&self) -> bool {
        !self.failed() && !self.cx.repairs().is_empty()
    }
}

struct Walker<'g> {
    graph: &'g Graph,
    /// Schema evaluations left for this call. Loading refuses schemas that apply themselves
    /// to the same value, but nested `anyOf`s sharing `$ref`s can still multiply the work of
    /// one value; past the budget the call is refused, not left running.
    budget: &'g std::cell::Cell<usize>,
    /// Whether values are built; off, only what a keyword compares is built.
    build: bool,
    /// Whether every value repair is refused: under a strict property, at every depth.
    forbid_repairs: bool,
}

impl<'g> Walker<'g> {
    /// The same walk, building values: where parts must agree on a value, or items compare.
    fn building(&self) -> Walker<'g> {
        Walker {
            build: true,
            ..*self
        }
    }

    /// The same walk, refusing every value repair (below a strict property).
    fn forbidding_repairs(&self) -> Walker<'g> {
        Walker {
            forbid_repairs: true,
            ..*self
        }
    }
}

impl Walker<'_> {
    /// Adds a read item to an array being built.
    fn keep(&self, out: &mut Vec<Value>, value: Value) {
        if self.build {
            out.push(value);
        }
    }

    fn eval(
        &self,
        id: Id,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        owner: bool,
        depth: usize,
    ) -> Option<Outcome> {
        // A scalar under a schema of its own keywords alone goes no deeper: it needs neither
        // a stack check nor anything else `eval_here` settles, but one evaluation of the budget.
        if let (
            Node::String(_) | Node::Number(_) | Node::Bool(_) | Node::Null,
            Schema::Rules(rules),
        ) = (node, self.graph.get(id))
        {
            let left = self.budget.get();
            if !rules.in_place && left > 0 && depth <= MAX_IN_PLACE {
                self.budget.set(left - 1);
                let mode = match owner {
                    true => Mode::Alone { undeclared: None },
                    false => Mode::Part,
                };
                return self.own(rules, node, path, cx, mode);
            }
        }
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || {
            self.eval_here(id, node, path, cx, owner, depth)
        })
    }

    fn eval_here(
        &self,
        id: Id,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        owner: bool,
        depth: usize,
    ) -> Option<Outcome> {
        let left = self.budget.get();
        if depth > MAX_IN_PLACE || left == 0 {
            cx.error(
                path,
                Code::TooDeep,
                "the schema takes too many steps to judge this value",
            );
            return None;
        }
        self.budget.set(left - 1);
        let rules = match self.graph.get(id) {
            Schema::True => return leaf(node, path, cx),
            Schema::False => {
                cx.error(path, Code::NotAllowed, "no value is allowed here");
                return None;
            }
            Schema::Rules(rules) => rules,
        };
        let closed = owner && self.graph.closures[id].declares_properties;
        if !rules.in_place {
            // Alone, the schema's own `properties` are all there is: undeclared keys are
            // settled as they come. Applied in place, it reports what it evaluated instead.
            let mode = match owner {
                true => Mode::Alone {
                    undeclared: closed.then_some(id),
                },
                false => Mode::Part,
            };
            return self.own(rules, node, path, cx, mode);
        }
        let outcome = self.building().combine(rules, node, path, cx, depth)?;
        let mut outcome = self.unevaluated(id, rules, node, outcome, path, cx)?;
        if closed {
            self.undeclared(id, node, &mut outcome, path, cx);
        }
        Some(outcome)
    }

    /// Whether `node` passes schema `id` as sent. What the schema would say is not kept, so
    /// it is not written either (a quiet collector).
    fn strict(&self, id: Id, node: &Node<'_>, path: &Path<'_>, cx: &Cx, depth: usize) -> bool {
        let mut scratch = cx.quiet_scratch();
        let outcome = self.eval(id, node, path, &mut scratch, false, depth + 1);
        passes_as_sent(outcome.is_some(), &scratch)
    }

    // ---- the representation: types and enum case ----

    /// The schema's own keywords, read in `mode`.
    fn own(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        mode: Mode,
    ) -> Option<Outcome> {
        if let Some(types) = rules.types {
            if !is_native(types, node) {
                let repaired = self.coerce_type(rules, types, node, path, cx)?;
                let node = Node::from_value(&repaired, VALUE_DEPTH).ok()?;
                return self.own(rules, &node, path, cx, mode);
            }
        }
        match self.enum_case(rules, node, path, cx)? {
            EnumCase::Repaired(repaired) => {
                let node = Node::from_value(&repaired, VALUE_DEPTH).ok()?;
                self.assert(rules, &node, path, cx, mode, true)
            }
            EnumCase::Listed => self.assert(rules, node, path, cx, mode, true),
            EnumCase::Unsettled => self.assert(rules, node, path, cx, mode, false),
        }
    }

    /// Reads a value of a type the schema does not allow as one it does, through that type's
    /// coercer. Of several allowed types, exactly one reading (or several that agree) may win.
    fn coerce_type(
        &self,
        rules: &Rules,
        types: Types,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Value> {
        let candidates: Vec<Types> = types
            .each()
            .filter(|t| *t != Types::NULL && !(*t == Types::INTEGER && types.has(Types::NUMBER)))
            .collect();
        if let [only] = candidates.as_slice() {
            return self.coerce_to(rules, *only, node, path, cx);
        }
        let mut readings: Vec<(Value, Cx)> = Vec::new();
        for t in &candidates {
            let mut scratch = cx.scratch();
            if let Some(value) = self.coerce_to(rules, *t, node, path, &mut scratch) {
                if !scratch.has_errors() {
                    readings.push((value, scratch));
                }
            }
        }
        let agree = readings
            .first()
            .is_some_and(|(first, _)| readings.iter().all(|(v, _)| json_equal(v, first)));
        if agree {
            let (value, scratch) = readings.swap_remove(0);
            cx.absorb(scratch);
            return Some(value);
        }
        let names: Vec<&str> = types.each().map(Types::name).collect();
        if readings.is_empty() {
            let expected = match names.is_empty() {
                true => "nothing (the schema allows no type)".to_owned(),
                false => names.join(" or "),
            };
            cx.error_with(path, Code::Type, || {
                format!("expected {expected}, got {}", node.describe())
            });
        } else {
            cx.error(
                path,
                Code::AmbiguousVariant,
                format!(
                    "{} reads as more than one of {}, so its meaning is unclear; send it as one of them exactly",
                    node.describe(),
                    names.join(", ")
                ),
            );
        }
        None
    }

    fn coerce_to(
        &self,
        rules: &Rules,
        target: Types,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Value> {
        let spec = FieldSpec::new().with_strict(self.forbid_repairs);
        match target {
            Types::INTEGER => coerce_integer(node, &spec, path, cx, INTEGER_RANGE).map(int_value),
            Types::NUMBER => coerce_number(node, &spec, path, cx, f64::MAX).map(Value::from),
            Types::BOOLEAN => bool::coerce(node, &spec, path, cx).map(Value::Bool),
            Types::STRING => String::coerce(node, &spec, path, cx).map(Value::String),
            Types::ARRAY => {
                let wrap = wraps_scalar(rules.items_honour(self.graph));
                coerce_list(node, &spec, path, cx, wrap, |item, _, _| {
                    Some(item.to_value())
                })
                .map(Value::Array)
            }
            Types::OBJECT => {
                // An object sent as JSON text is decoded once, then judged as sent.
                let decoded = reread(
                    node,
                    Shape::Object,
                    self.forbid_repairs,
                    path,
                    cx,
                    |inner, _| Some(inner.to_value()),
                );
                if let Some(read) = decoded {
                    return read;
                }
                let _ = toolargs_core::internal::object_members(node, path, cx)?;
                Some(node.to_value())
            }
            _ => {
                cx.error_with(path, Code::Type, || {
                    format!("expected null, got {}", node.describe())
                });
                None
            }
        }
    }

    /// A string in the wrong ASCII case for exactly one `enum` value becomes that value.
    /// `None` when no value matches (with the error in `cx`).
    fn enum_case(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<EnumCase> {
        let (Some(allowed), Node::String(_), true) = (&rules.allowed, node, rules.casefold) else {
            return Some(EnumCase::Unsettled);
        };
        if listed(node, allowed) {
            return Some(EnumCase::Listed);
        }
        let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
        // Records `enum` with the allowed strings when no single value matches.
        let spec = FieldSpec::new().with_strict(self.forbid_repairs);
        let index = coerce_enum(node, &names, &spec, path, cx)?;
        Some(match names.get(index) {
            Some(name) => EnumCase::Repaired(Value::from(*name)),
            None => EnumCase::Unsettled,
        })
    }
}

/// What the `enum` case repair found. A value known to be listed is not looked up again.
enum EnumCase {
    /// One of the `enum` values as sent.
    Listed,
    /// The one `enum` value a string in the wrong case stands for.
    Repaired(Value),
    /// Not settled here: `enum` (if any) is checked with the other keywords.
    Unsettled,
}

/// Whether an evaluation accepted the value as sent: no error, and no repair but those the
/// integer coercer says keep the number (`1.0` already is an integer to JSON Schema).
fn passes_as_sent(accepted: bool, cx: &Cx) -> bool {
    accepted && !cx.has_errors() && cx.repairs().iter().all(|r| same_number(r.rule))
}

/// Whether a node is, as sent, of one of the types. A number is an integer as sent when the
/// integer coercer says so; `1.0` is not yet one here: the coercer reads it as one, recording
/// the repair.
fn is_native(types: Types, node: &Node<'_>) -> bool {
    match node {
        Node::Null => types.has(Types::NULL),
        Node::Bool(_) => types.has(Types::BOOLEAN),
        Node::Number(n) => {
            types.has(Types::NUMBER) || types.has(Types::INTEGER) && is_integer_as_sent(n)
        }
        Node::String(_) => types.has(Types::STRING),
        Node::Array(_) => types.has(Types::ARRAY),
        Node::Object(_) => types.has(Types::OBJECT),
    }
}

/// Lets go of a value that a judging walk does not keep. Most are `null`, which owns nothing:
/// they are forgotten, which costs nothing, rather than dropped, which is a call.
fn discard(value: Value) {
    if value.is_null() {
        std::mem::forget(value);
    }
}

/// A value kept as sent, which must pass through exactly (see `coerce_any`).
fn leaf(node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Outcome> {
    Some(Outcome {
        value: coerce_any(node, path, cx)?,
        seen: Seen::default(),
    })
}

/// [`leaf`] without building the value, for a walk that only judges: a scalar that passes
/// through exactly is `null`. A number that does not is left to [`leaf`], which says why.
fn judged_leaf(node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Outcome> {
    match node {
        Node::String(_) | Node::Bool(_) | Node::Null => Some(Outcome {
            value: Value::Null,
            seen: Seen::default(),
        }),
        Node::Number(n) if n.is_exact() => Some(Outcome {
            value: Value::Null,
            seen: Seen::default(),
        }),
        _ => leaf(node, path, cx),
    }
}

fn indices(list: &[usize]) -> String {
    list.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn between(min: Option<usize>, max: Option<usize>, what: &str) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("from {min} to {max} {what}"),
        (Some(min), None) => format!("at least {min} {what}"),
        (None, Some(max)) => format!("at most {max} {what}"),
        (None, None) => format!("any number of {what}"),
    }
}
