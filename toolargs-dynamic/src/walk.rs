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

use std::borrow::Cow;

use chrono::{DateTime, FixedOffset, NaiveDate};
use serde_json::{Map, Value};

use crate::exact::{json_equal, node_equal, number_decimal};
use crate::format::Format;
use crate::shape::{Additional, Graph, Id, Limit, Property, Rules, Schema, Types};
use toolargs_core::coerce::any::coerce_any;
use toolargs_core::coerce::enumeration::coerce_enum;
use toolargs_core::coerce::integer::coerce_integer;
use toolargs_core::coerce::list::coerce_list;
use toolargs_core::coerce::number::coerce_number;
use toolargs_core::coerce::object::{field_with, unknown_member};
use toolargs_core::coerce::ArgType;
use toolargs_core::cx::Cx;
use toolargs_core::node::{IntegerReading, Node, Number};
use toolargs_core::path::Path;
use toolargs_core::report::{Code, Rule};
use toolargs_core::spec::{FieldSpec, UnknownPolicy};
use toolargs_core::text::{int_value, preview_str};

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
    };
    let value = walker
        .eval(graph.root, node, path, cx, true, 0)
        .map(|o| o.value);
    if budget.get() == 0 {
        // Whatever a branch reported after the budget ran out says nothing about the value.
        cx.error(
            path,
            Code::TooDeep,
            "the schema takes too many steps to judge this value",
        );
        return None;
    }
    value
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
    };
    walker.strict(id, &node, &Path::ROOT, &cx, 0)
}

/// A value's verdict: its canonical JSON and which of its keys and items a schema evaluated
/// (what `unevaluated*` and the unknown-key policy look at).
struct Outcome {
    value: Value,
    seen: Seen,
}

#[derive(Default)]
struct Seen {
    keys: Vec<bool>,
    items: Vec<bool>,
}

impl Seen {
    fn merge(&mut self, other: &Seen) {
        for (mine, theirs) in [
            (&mut self.keys, &other.keys),
            (&mut self.items, &other.items),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), false);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m |= *t;
            }
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
}

impl<'g> Walker<'g> {
    /// The same walk, building values: where parts must agree on a value, or items compare.
    fn building(&self) -> Walker<'g> {
        Walker {
            graph: self.graph,
            budget: self.budget,
            build: true,
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

    /// Whether `node` passes schema `id` as sent.
    fn strict(&self, id: Id, node: &Node<'_>, path: &Path<'_>, cx: &Cx, depth: usize) -> bool {
        let mut scratch = cx.scratch();
        let outcome = self.eval(id, node, path, &mut scratch, false, depth + 1);
        passes_as_sent(outcome.is_some(), &scratch)
    }

    // ---- the schema's own keywords ----

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
        if let Some(repaired) = self.enum_case(rules, node, path, cx)? {
            let node = Node::from_value(&repaired, VALUE_DEPTH).ok()?;
            return self.assert(rules, &node, path, cx, mode);
        }
        self.assert(rules, node, path, cx, mode)
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
            cx.error(
                path,
                Code::Type,
                format!("expected {expected}, got {}", node.describe()),
            );
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
        let spec = FieldSpec::new();
        match target {
            Types::INTEGER => coerce_integer(node, &spec, path, cx, INTEGER_RANGE).map(int_value),
            Types::NUMBER => coerce_number(node, &spec, path, cx, f64::MAX).map(Value::from),
            Types::BOOLEAN => bool::coerce(node, &spec, path, cx).map(Value::Bool),
            Types::STRING => String::coerce(node, &spec, path, cx).map(Value::String),
            Types::ARRAY => {
                let wrap = rules.scalar_to_list(self.graph);
                coerce_list(node, &spec, path, cx, wrap, |item, _, _| {
                    Some(item.to_value())
                })
                .map(Value::Array)
            }
            Types::OBJECT => {
                let _ = toolargs_core::coerce::object::object_members(node, path, cx)?;
                Some(node.to_value())
            }
            _ => {
                cx.error(
                    path,
                    Code::Type,
                    format!("expected null, got {}", node.describe()),
                );
                None
            }
        }
    }

    /// A string in the wrong ASCII case for exactly one `enum` value becomes that value.
    /// `Ok(None)` when the value needs no such repair.
    fn enum_case(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Option<Value>> {
        let (Some(allowed), Node::String(_), true) = (&rules.allowed, node, rules.casefold) else {
            return Some(None);
        };
        if allowed.iter().any(|a| node_equal(node, a)) {
            return Some(None);
        }
        let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
        // Records `enum` with the allowed strings when no single value matches.
        let index = coerce_enum(node, &names, &FieldSpec::new(), path, cx)?;
        Some(names.get(index).map(|name| Value::from(*name)))
    }

    /// Every assertion keyword, on a value whose representation is settled.
    fn assert(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        mode: Mode,
    ) -> Option<Outcome> {
        // `own` has settled the type: the node is of one the schema allows.
        let mut ok = true;
        if let Some(allowed) = &rules.allowed {
            ok &= self.one_of_values(allowed, node, path, cx);
        }
        if let Some(constant) = &rules.constant {
            ok &= self.one_of_values(std::slice::from_ref(constant), node, path, cx);
        }
        let outcome = match node {
            Node::Number(n) => {
                ok &= check_number(rules, n, node, path, cx);
                leaf(node, path, cx)?
            }
            Node::String(s) => {
                ok &= check_string(rules, s, node, path, cx);
                match self.build {
                    true => leaf(node, path, cx)?,
                    false => judged_leaf(node, path, cx)?,
                }
            }
            Node::Array(items) => self.array(rules, items, path, cx, &mut ok, mode),
            Node::Object(members) => self.object(rules, members, path, cx, &mut ok, mode),
            Node::Null | Node::Bool(_) => leaf(node, path, cx)?,
        };
        ok.then_some(outcome)
    }

    fn one_of_values(
        &self,
        allowed: &[Value],
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> bool {
        if allowed.iter().any(|a| node_equal(node, a)) {
            return true;
        }
        let shown: Vec<String> = allowed
            .iter()
            .take(20)
            .map(|v| preview_str(&v.to_string()))
            .collect();
        let more = if allowed.len() > 20 { ", ..." } else { "" };
        cx.error(
            path,
            Code::Enum,
            format!(
                "expected {}{}{more}, got {}",
                if allowed.len() == 1 { "" } else { "one of " },
                shown.join(", "),
                node.describe()
            ),
        );
        false
    }

    fn array(
        &self,
        rules: &Rules,
        items: &[Node<'_>],
        path: &Path<'_>,
        cx: &mut Cx,
        ok: &mut bool,
        mode: Mode,
    ) -> Outcome {
        let count = items.len();
        let too_few = rules.min_items.is_some_and(|min| count < min);
        let too_many = rules.max_items.is_some_and(|max| count > max);
        if too_few || too_many {
            *ok = false;
            cx.error(
                path,
                Code::Length,
                format!(
                    "expected {}, got {count}",
                    between(rules.min_items, rules.max_items, "items")
                ),
            );
        }
        if !self.build && (rules.contains.is_some() || rules.unique_items) {
            // `contains` and `uniqueItems` look at the items as read.
            return self.building().array(rules, items, path, cx, ok, mode);
        }
        let mut out = Vec::with_capacity(if self.build { count } else { 0 });
        let mut seen = mode.marks(count);
        for (index, item) in items.iter().enumerate() {
            let schema = rules.prefix_items.get(index).copied().or(rules.items);
            match schema {
                Some(schema) => {
                    seen.mark(index);
                    match self.eval(schema, item, &path.index(index), cx, true, 0) {
                        Some(child) => self.keep(&mut out, child.value),
                        None => *ok = false,
                    }
                }
                None => match coerce_any(item, &path.index(index), cx) {
                    Some(value) => self.keep(&mut out, value),
                    None => *ok = false,
                },
            }
        }
        if !*ok {
            return Outcome {
                value: Value::Null,
                seen: Seen::default(),
            };
        }
        if let Some(contains) = rules.contains {
            let mut matched = 0;
            for (index, value) in out.iter().enumerate() {
                let passes = Node::from_value(value, VALUE_DEPTH)
                    .is_ok_and(|n| self.strict(contains, &n, &path.index(index), cx, 0));
                if passes {
                    matched += 1;
                    seen.mark(index);
                }
            }
            let min = rules.min_contains.unwrap_or(1);
            if matched < min || rules.max_contains.is_some_and(|max| matched > max) {
                *ok = false;
                cx.error(
                    path,
                    Code::Contains,
                    format!(
                        "expected {} matching the schema's `contains`, got {matched}",
                        between(Some(min), rules.max_contains, "items")
                    ),
                );
            }
        }
        if rules.unique_items {
            for later in 1..out.len() {
                if out[..later]
                    .iter()
                    .any(|earlier| json_equal(earlier, &out[later]))
                {
                    *ok = false;
                    cx.error(
                        &path.index(later),
                        Code::DuplicateItem,
                        "this item equals an earlier one, and the items must be unique",
                    );
                }
            }
        }
        Outcome {
            value: Value::Array(out),
            seen: Seen {
                keys: Vec::new(),
                items: seen.0,
            },
        }
    }

    fn object(
        &self,
        rules: &Rules,
        members: &[(Cow<'_, str>, Node<'_>)],
        path: &Path<'_>,
        cx: &mut Cx,
        ok: &mut bool,
        mode: Mode,
    ) -> Outcome {
        let count = members.len();
        let too_few = rules.min_properties.is_some_and(|min| count < min);
        let too_many = rules.max_properties.is_some_and(|max| count > max);
        if too_few || too_many {
            *ok = false;
            cx.error(
                path,
                Code::PropertyCount,
                format!(
                    "expected {}, got {count}",
                    between(rules.min_properties, rules.max_properties, "keys")
                ),
            );
        }
        let properties = rules.properties.as_deref().unwrap_or_default();
        let matching = |key: &str| -> Vec<Id> {
            rules
                .pattern_properties
                .iter()
                .filter(|(pattern, _)| pattern.is_match(key))
                .map(|(_, id)| *id)
                .collect()
        };
        // Keys are sorted out first, so unknown keys are reported before the fields, and the
        // fields in declaration order, as a derived type reports them.
        // Most tools have few properties: their slots live on the stack.
        let mut few = [None; 16];
        let mut many = Vec::new();
        let slots: &mut [Option<&Node<'_>>] = if properties.len() <= few.len() {
            &mut few[..properties.len()]
        } else {
            many.resize(properties.len(), None);
            &mut many
        };
        let mut others: Vec<(usize, Vec<Id>)> = Vec::new();
        let mut seen = mode.marks(count);
        let undeclared = match mode {
            Mode::Alone { undeclared } => undeclared,
            Mode::Part => None,
        };
        for (index, (key, value)) in members.iter().enumerate() {
            let at = path.key(key);
            if let Some(names) = rules.property_names {
                let name = Node::String(Cow::Borrowed(key.as_ref()));
                if !self.strict(names, &name, &at, cx, 0) {
                    *ok = false;
                    cx.error(
                        &at,
                        Code::InvalidKey,
                        format!(
                            "the key {} is not one the schema allows (`propertyNames`)",
                            preview_str(key)
                        ),
                    );
                }
            }
            if let Some(i) = properties.iter().position(|p| p.name == key.as_ref()) {
                slots[i] = Some(value);
                seen.mark(index);
                continue;
            }
            let mut schemas = matching(key);
            if schemas.is_empty() {
                let known = match (rules.additional, undeclared) {
                    (Additional::Schema(id), _) => {
                        schemas.push(id);
                        None
                    }
                    (Additional::Closed, _) => Some(None),
                    (Additional::Absent, Some(id)) => Some(Some(id)),
                    (Additional::Absent, None) => None,
                };
                if let Some(known) = known {
                    seen.mark(index);
                    *ok &= self.unknown_key(known, properties, key, value, path, cx);
                    continue;
                }
            }
            if !schemas.is_empty() {
                seen.mark(index);
            }
            others.push((index, schemas));
        }
        let mut out = Map::with_capacity(if self.build { count } else { 0 });
        for (property, slot) in properties.iter().zip(slots.iter().copied()) {
            let at = path.key(&property.name);
            let with_patterns;
            let schemas = if rules.pattern_properties.is_empty() {
                std::slice::from_ref(&property.schema)
            } else {
                with_patterns = [vec![property.schema], matching(&property.name)].concat();
                &with_patterns
            };
            match self.property(property, slot, schemas, &at, cx) {
                Some(Some(v)) => {
                    if self.build {
                        out.insert(property.name.clone(), v);
                    }
                }
                Some(None) => {}
                None => *ok = false,
            }
        }
        for (index, schemas) in others {
            let (key, value) = &members[index];
            let read = if schemas.is_empty() {
                coerce_any(value, &path.key(key), cx)
            } else {
                self.value_of(&schemas, value, &path.key(key), cx)
            };
            match read {
                Some(v) => {
                    if self.build {
                        out.insert(key.as_ref().to_owned(), v);
                    }
                }
                None => *ok = false,
            }
        }
        for name in &rules.required {
            let declared = properties.iter().any(|p| &p.name == name);
            if !declared && !members.iter().any(|(k, _)| k == name) {
                *ok = false;
                cx.error(
                    &path.key(name),
                    Code::Missing,
                    "this field is required but was absent; send a value",
                );
            }
        }
        for (name, needed) in &rules.dependent_required {
            if !members.iter().any(|(k, _)| k == name) {
                continue;
            }
            for need in needed {
                if !members.iter().any(|(k, _)| k == need) {
                    *ok = false;
                    cx.error(
                        &path.key(need),
                        Code::Missing,
                        format!(
                            "this field is required when {} is present; send a value",
                            preview_str(name)
                        ),
                    );
                }
            }
        }
        Outcome {
            value: Value::Object(out),
            seen: Seen {
                keys: seen.0,
                items: Vec::new(),
            },
        }
    }

    /// A key nothing here declares, through the tool's unknown-key policy; hints come from
    /// the names schema `known` declares in place (or this object's own properties).
    /// Whether the key is let through (stripped, with a repair).
    fn unknown_key(
        &self,
        known: Option<Id>,
        properties: &[Property],
        key: &str,
        value: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> bool {
        let known: Vec<&str> = match known {
            Some(id) => self.graph.closures[id]
                .known
                .iter()
                .map(String::as_str)
                .collect(),
            None => properties.iter().map(|p| p.name.as_str()).collect(),
        };
        let before = cx.error_count();
        unknown_member(key, value, &known, path, cx);
        cx.error_count() == before
    }

    /// A declared property, present or absent. `null` where the schema does not allow it is
    /// read as absent (or `missing` when required), as for a derived type's fields, except
    /// under a `"default": null`, which says null is the value the tool expects when left out.
    fn property(
        &self,
        property: &Property,
        member: Option<&Node<'_>>,
        schemas: &[Id],
        at: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Option<Value>> {
        let takes_null = matches!(member, Some(Node::Null))
            && (property.default == Some(Value::Null)
                || schemas
                    .iter()
                    .all(|id| is_valid(self.graph, *id, &Value::Null)));
        if takes_null {
            return Some(Some(Value::Null));
        }
        let required = property.required;
        field_with(
            member,
            at,
            cx,
            || match &property.default {
                Some(default) if !required && !default.is_null() => Some(Some(default.clone())),
                _ if !required => Some(None),
                _ => None,
            },
            |v| v.clone().unwrap_or(Value::Null),
            |node, cx| self.value_of(schemas, node, at, cx).map(Some),
        )
    }

    /// A member's value under every schema that applies to it (its property, matching
    /// `patternProperties`, or `additionalProperties`).
    fn value_of(
        &self,
        schemas: &[Id],
        node: &Node<'_>,
        at: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Value> {
        match schemas {
            [one] => self.eval(*one, node, at, cx, true, 0).map(|o| o.value),
            many => {
                let parts: Vec<Part> = many.iter().map(|id| Part::Schema(*id)).collect();
                self.agree(&Rules::default(), &parts, node, at, cx, 0)
                    .map(|o| o.value)
            }
        }
    }

    // ---- schemas applied in place ----

    fn combine(
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
    fn agree(
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
                    scratch.error(
                        path,
                        Code::NotAllowed,
                        format!(
                            "{} matches a schema it must not match (`not`)",
                            node.describe()
                        ),
                    );
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
        if attempts.iter().any(|a| !a.failed() && !a.repaired()) {
            let valid = attempts
                .into_iter()
                .filter(|a| !a.failed() && !a.repaired());
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
            .filter(|i| !attempts[*i].failed() && !attempts[*i].repaired())
            .collect();
        if clean.len() > 1 {
            cx.error(
                path,
                Code::AmbiguousVariant,
                format!(
                    "{} matches {} of the schemas in `oneOf` (at {}), and must match exactly one",
                    node.describe(),
                    clean.len(),
                    indices(&clean)
                ),
            );
            return None;
        }
        if let Some(&only) = clean.first() {
            return attempts.into_iter().nth(only).and_then(|a| a.outcome);
        }
        let repaired: Vec<usize> = (0..attempts.len())
            .filter(|i| attempts[*i].repaired())
            .collect();
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
            None => cx.error(
                path,
                Code::Type,
                format!("no schema in `{keyword}` accepts this value"),
            ),
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
        let mut test = cx.scratch();
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
    fn unevaluated(
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
                outcome.seen.keys.resize(members.len(), false);
                for (index, (key, value)) in members.iter().enumerate() {
                    if outcome.seen.keys[index] {
                        continue;
                    }
                    outcome.seen.keys[index] = true;
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
                outcome.seen.items.resize(items.len(), false);
                for (index, item) in items.iter().enumerate() {
                    if outcome.seen.items[index] {
                        continue;
                    }
                    outcome.seen.items[index] = true;
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
    fn undeclared(
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
            if outcome.seen.keys.get(index).copied().unwrap_or(false) {
                continue;
            }
            self.unknown_key(Some(id), &[], key, value, path, cx);
            out.shift_remove(key.as_ref());
        }
    }
}

/// Whether an evaluation accepted the value as sent: no error, and no repair but, at most,
/// `integral_float_to_int`, since `1.0` already is an integer to JSON Schema.
fn passes_as_sent(accepted: bool, cx: &Cx) -> bool {
    accepted
        && !cx.has_errors()
        && cx
            .repairs()
            .iter()
            .all(|r| r.rule == Rule::IntegralFloatToInt)
}

/// Whether a node is, as sent, of one of the types. `1.0` is not yet an integer here: it is
/// read as one by the integer coercer, which records the repair.
fn is_native(types: Types, node: &Node<'_>) -> bool {
    match node {
        Node::Null => types.has(Types::NULL),
        Node::Bool(_) => types.has(Types::BOOLEAN),
        Node::Number(n) => {
            types.has(Types::NUMBER)
                || types.has(Types::INTEGER) && matches!(n.integer(), IntegerReading::Exact(_))
        }
        Node::String(_) => types.has(Types::STRING),
        Node::Array(_) => types.has(Types::ARRAY),
        Node::Object(_) => types.has(Types::OBJECT),
    }
}

/// A value kept as sent, which must pass through exactly (see `coerce_any`).
fn leaf(node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Outcome> {
    Some(Outcome {
        value: coerce_any(node, path, cx)?,
        seen: Seen::default(),
    })
}

/// [`leaf`] without building a string's copy, for a walk that only judges.
fn judged_leaf(node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Outcome> {
    match node {
        Node::String(_) | Node::Bool(_) | Node::Null => Some(Outcome {
            value: Value::Null,
            seen: Seen::default(),
        }),
        _ => leaf(node, path, cx),
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

/// The order of a number and a bound read as doubles, when that order is certain: both
/// written with at most 15 significant digits (distinct such decimals are distinct doubles, in
/// the same order), or a value that is a double against a different double. Else `None`, and
/// the digits decide.
fn float_order(n: &Number<'_>, limit: &Limit) -> Option<std::cmp::Ordering> {
    let bound = limit.float?;
    match *n {
        Number::F64(v) if v != bound => v.partial_cmp(&bound),
        Number::Literal(text) if significant_digits(text) <= 15 => {
            text.parse::<f64>().ok()?.partial_cmp(&bound)
        }
        _ => None,
    }
}

/// Digits of a number literal's mantissa, leading zeros included (an upper bound).
pub(crate) fn significant_digits(text: &str) -> usize {
    text.bytes()
        .take_while(|b| *b != b'e' && *b != b'E')
        .filter(u8::is_ascii_digit)
        .count()
}

fn check_number(
    rules: &Rules,
    n: &Number<'_>,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> bool {
    if rules.minimum.is_none() && rules.maximum.is_none() && rules.multiple_of.is_none() {
        return true;
    }
    // Integers against integer bounds compare as integers; anything else by its digits.
    let integer = match n.integer() {
        IntegerReading::Exact(v) => Some(v),
        _ => None,
    };
    let value = std::cell::OnceCell::new();
    let digits = || value.get_or_init(|| number_decimal(n));
    let outside = |limit: &Option<Limit>, upper: bool| {
        limit.as_ref().is_some_and(|l| {
            let order = match (integer, l.integer) {
                (Some(v), Some(bound)) => v.cmp(&bound),
                _ => float_order(n, l).unwrap_or_else(|| digits().cmp(&l.value)),
            };
            match (upper, l.exclusive) {
                (true, false) => order.is_gt(),
                (true, true) => order.is_ge(),
                (false, false) => order.is_lt(),
                (false, true) => order.is_le(),
            }
        })
    };
    let mut ok = true;
    if outside(&rules.minimum, false) || outside(&rules.maximum, true) {
        ok = false;
        let side = |limit: &Option<Limit>, word: &str, strict: &str| {
            limit
                .as_ref()
                .map(|l| format!("{} {}", if l.exclusive { strict } else { word }, l.value))
        };
        let bounds: Vec<String> = [
            side(&rules.minimum, "at least", "above"),
            side(&rules.maximum, "at most", "below"),
        ]
        .into_iter()
        .flatten()
        .collect();
        cx.error(
            path,
            Code::OutOfRange,
            format!(
                "expected a number {}, got {}",
                bounds.join(" and "),
                node.describe()
            ),
        );
    }
    if let Some(divisor) = &rules.multiple_of {
        if digits().is_multiple_of(divisor) == Some(false) {
            ok = false;
            cx.error(
                path,
                Code::NotMultiple,
                format!("expected a multiple of {divisor}, got {}", node.describe()),
            );
        }
    }
    ok
}

fn check_string(rules: &Rules, s: &str, node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> bool {
    let mut ok = true;
    if rules.min_length.is_some() || rules.max_length.is_some() {
        // Count no further than needed: a 10 MB string against `maxLength: 64` stops early.
        let limit = rules.max_length.map_or(usize::MAX, |m| m.saturating_add(1));
        let chars = s.chars().take(limit).count();
        if rules.min_length.is_some_and(|min| chars < min)
            || rules.max_length.is_some_and(|max| chars > max)
        {
            ok = false;
            let got = if rules.max_length.is_some_and(|max| chars > max) {
                format!("more than {}", chars - 1)
            } else {
                chars.to_string()
            };
            cx.error(
                path,
                Code::Length,
                format!(
                    "expected {}, got {got}",
                    between(rules.min_length, rules.max_length, "characters")
                ),
            );
        }
    }
    if let Some(pattern) = &rules.pattern {
        if !pattern.is_match(s) {
            ok = false;
            cx.error(
                path,
                Code::Pattern,
                format!(
                    "expected a string matching the pattern {}, got {}",
                    preview_str(&pattern.source),
                    node.describe()
                ),
            );
        }
    }
    match rules.format {
        None => {}
        Some(Format::Date) => ok &= NaiveDate::coerce(node, &FieldSpec::new(), path, cx).is_some(),
        Some(Format::DateTime) => {
            ok &= DateTime::<FixedOffset>::coerce(node, &FieldSpec::new(), path, cx).is_some();
        }
        Some(format) if !format.accepts(s) => {
            ok = false;
            let (code, expected) = format.code();
            cx.error(
                path,
                code,
                format!("expected {expected}, got {}", node.describe()),
            );
        }
        Some(_) => {}
    }
    ok
}
