//! The assertion keywords of one schema, on a value whose representation is settled.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{
    between, discard, is_valid, judged_leaf, leaf, Mode, Outcome, Part, Seen, Walker,
    INTEGER_RANGE, VALUE_DEPTH,
};
use crate::exact::{json_equal, listed, number_decimal};
use crate::shape::{Additional, Id, Limit, Property, Rules, Types};
use toolargs_core::coerce::any::coerce_any;
use toolargs_core::coerce::integer::coerce_integer;
use toolargs_core::coerce::string::check_string as check_length;
use toolargs_core::cx::Cx;
use toolargs_core::internal::text::{preview_str, same_text};
use toolargs_core::internal::{field_with, unknown_member};
use toolargs_core::node::{IntegerReading, Node, Number};
use toolargs_core::path::Path;
use toolargs_core::report::Code;
use toolargs_core::spec::FieldSpec;

impl Walker<'_> {
    /// Every assertion keyword, on a value whose representation is settled; `listed` when
    /// the value is already known to be one of the `enum` values.
    pub(super) fn assert(
        &self,
        rules: &Rules,
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        mode: Mode,
        listed: bool,
    ) -> Option<Outcome> {
        // `own` has settled the type: the node is of one the schema allows.
        let mut ok = true;
        if let (Some(allowed), false) = (&rules.allowed, listed) {
            ok &= self.one_of_values(allowed, node, path, cx);
        }
        if let Some(constant) = &rules.constant {
            ok &= self.one_of_values(std::slice::from_ref(constant), node, path, cx);
        }
        let outcome = match node {
            Node::Number(n) => {
                ok &= check_number(rules, n, node, path, cx);
                let integers = rules
                    .types
                    .is_some_and(|t| t.has(Types::INTEGER) && !t.has(Types::NUMBER));
                if integers && !n.is_exact() {
                    // Integers are read within 64 bits, as a repaired value is: past them,
                    // `out_of_range` (once, when no bound said it), as a derived type says.
                    if ok {
                        let _ = coerce_integer(node, &FieldSpec::new(), path, cx, INTEGER_RANGE);
                    }
                    return None;
                }
                self.scalar(node, path, cx)?
            }
            Node::String(s) => {
                ok &= check_string(rules, s, node, path, cx);
                self.scalar(node, path, cx)?
            }
            Node::Array(items) => self.array(rules, items, path, cx, &mut ok, mode),
            Node::Object(members) => self.object(rules, members, path, cx, &mut ok, mode),
            Node::Null | Node::Bool(_) => self.scalar(node, path, cx)?,
        };
        ok.then_some(outcome)
    }

    /// A scalar's outcome: its value when values are built, else only whether it passes
    /// through exactly.
    fn scalar(&self, node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Outcome> {
        match self.build {
            true => leaf(node, path, cx),
            false => judged_leaf(node, path, cx),
        }
    }

    fn one_of_values(
        &self,
        allowed: &[Value],
        node: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> bool {
        if listed(node, allowed) {
            return true;
        }
        let shown: Vec<String> = allowed
            .iter()
            .take(20)
            .map(|v| preview_str(&v.to_string()))
            .collect();
        let more = if allowed.len() > 20 { ", ..." } else { "" };
        cx.error_with(path, Code::Enum, || {
            format!(
                "expected {}{}{more}, got {}",
                if allowed.len() == 1 { "" } else { "one of " },
                shown.join(", "),
                node.describe()
            )
        });
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
        if !rules.items_fit(count) {
            *ok = false;
            cx.error_with(path, Code::Length, || {
                format!(
                    "expected {}, got {count}",
                    between(rules.min_items, rules.max_items, "items")
                )
            });
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
                cx.error_with(path, Code::Contains, || {
                    format!(
                        "expected {} matching the schema's `contains`, got {matched}",
                        between(Some(min), rules.max_contains, "items")
                    )
                });
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
            seen: Seen(seen.0),
        }
    }

    /// An object's keywords, in the order of their errors: the key count; each key's own
    /// (`propertyNames`, a key nothing declares) in payload order; the declared properties
    /// in declaration order; the other members (`patternProperties`,
    /// `additionalProperties`) in payload order; the keys required. A stream reads the same
    /// steps one member at a time ([`super::members`]).
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
        *ok &= property_count(rules, count, path, cx);
        let properties = rules.properties.as_deref().unwrap_or_default();
        // Most tools have few properties: their slots live on the stack.
        let mut few = [None; 16];
        let mut many = Vec::new();
        let slots: &mut [Option<&Node<'_>>] = if properties.len() <= few.len() {
            &mut few[..properties.len()]
        } else {
            many.resize(properties.len(), None);
            &mut many
        };
        let mut others: Vec<(usize, Sorted)> = Vec::new();
        let mut seen = mode.marks(count);
        let undeclared = match mode {
            Mode::Alone { undeclared } => undeclared,
            Mode::Part => None,
        };
        for (index, (key, value)) in members.iter().enumerate() {
            match self.sort_member(rules, key, value, path, cx, ok, undeclared) {
                Sorted::Declared(i) => {
                    slots[i] = Some(value);
                    seen.mark(index);
                }
                Sorted::Settled => seen.mark(index),
                other => {
                    if !other.schemas().is_empty() {
                        seen.mark(index);
                    }
                    others.push((index, other));
                }
            }
        }
        // A judging walk builds no object: its value is `null`, as a scalar's.
        let mut out = self.build.then(|| Map::with_capacity(count));
        for (property, slot) in properties.iter().zip(slots.iter().copied()) {
            match self.declared(rules, property, slot, path, cx) {
                Some(Some(v)) => match &mut out {
                    Some(out) => {
                        out.insert(property.name.clone(), v);
                    }
                    None => discard(v),
                },
                Some(None) => {}
                None => *ok = false,
            }
        }
        for (index, sorted) in others {
            let (key, value) = &members[index];
            match self.other(key, value, sorted.schemas(), path, cx) {
                Some(v) => match &mut out {
                    Some(out) => {
                        out.insert(key.as_ref().to_owned(), v);
                    }
                    None => discard(v),
                },
                None => *ok = false,
            }
        }
        *ok &= required_keys(
            rules,
            |name| members.iter().any(|(k, _)| k == name),
            path,
            cx,
        );
        Outcome {
            value: out.map_or(Value::Null, Value::Object),
            seen: Seen(seen.0),
        }
    }

    /// A member's key, judged (`propertyNames`; a key nothing declares goes through the
    /// tool's policy), and where its value is read. `ok` turns false on an error.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sort_member(
        &self,
        rules: &Rules,
        key: &str,
        value: &Node<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
        ok: &mut bool,
        undeclared: Option<Id>,
    ) -> Sorted {
        if let Some(names) = rules.property_names {
            let at = path.key(key);
            let name = Node::String(Cow::Borrowed(key));
            if !self.strict(names, &name, &at, cx, 0) {
                *ok = false;
                cx.error_with(&at, Code::InvalidKey, || {
                    format!(
                        "the key {} is not one the schema allows (`propertyNames`)",
                        preview_str(key)
                    )
                });
            }
        }
        let properties = rules.properties.as_deref().unwrap_or_default();
        if let Some(i) = properties.iter().position(|p| same_text(&p.name, key)) {
            return Sorted::Declared(i);
        }
        let schemas = matching(rules, key);
        if schemas.is_empty() {
            let known = match (rules.additional, undeclared) {
                (Additional::Schema(id), _) => return Sorted::Additional(id),
                (Additional::Closed, _) => Some(None),
                (Additional::Absent, Some(id)) => Some(Some(id)),
                (Additional::Absent, None) => None,
            };
            if let Some(known) = known {
                *ok &= self.unknown_key(known, properties, key, value, path, cx);
                return Sorted::Settled;
            }
        }
        Sorted::Other(schemas)
    }

    /// A declared property of the object at `path`, present (`member`) or absent, under its
    /// schema and the `patternProperties` its name matches.
    pub(super) fn declared(
        &self,
        rules: &Rules,
        property: &Property,
        member: Option<&Node<'_>>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Option<Value>> {
        let at = path.key(&property.name);
        let with_patterns;
        let schemas = if rules.pattern_properties.is_empty() {
            std::slice::from_ref(&property.schema)
        } else {
            with_patterns = [vec![property.schema], matching(rules, &property.name)].concat();
            &with_patterns
        };
        self.property(property, member, schemas, &at, cx)
    }

    /// A member no property declares, under the schemas [`Walker::sort_member`] found for it
    /// (none: it passes as sent).
    pub(super) fn other(
        &self,
        key: &str,
        value: &Node<'_>,
        schemas: &[Id],
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Value> {
        if schemas.is_empty() {
            coerce_any(value, &path.key(key), cx)
        } else {
            self.value_of(schemas, value, &path.key(key), cx)
        }
    }

    /// A key nothing here declares, through the tool's unknown-key policy; hints come from
    /// the names schema `known` declares in place (or this object's own properties).
    /// Whether the key is let through (stripped, with a repair).
    pub(super) fn unknown_key(
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
    /// read as absent (or `missing` when required), as for a derived type's fields: a
    /// `null_to_absent` repair, also under a `"default": null` (which makes the field
    /// optional, but does not make null a value its schema accepts as sent).
    pub(super) fn property(
        &self,
        property: &Property,
        member: Option<&Node<'_>>,
        schemas: &[Id],
        at: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Option<Value>> {
        if property.strict && !self.forbid_repairs {
            return self
                .forbidding_repairs()
                .property(property, member, schemas, at, cx);
        }
        // A value that is there: its schemas judge it (what `field_with` does with it).
        if let Some(node) = member.filter(|node| !matches!(node, Node::Null)) {
            return self.value_of(schemas, node, at, cx).map(Some);
        }
        let takes_null = matches!(member, Some(Node::Null))
            && schemas
                .iter()
                .all(|id| is_valid(self.graph, *id, &Value::Null));
        if takes_null {
            return Some(Some(Value::Null));
        }
        let required = property.required;
        field_with(
            member,
            at,
            cx,
            || match &property.default {
                _ if required => None,
                // A judging walk keeps no value: the default is only copied where it is kept,
                // or shown as the repair of a `null` member.
                Some(_) if !self.build && member.is_none() => Some(Some(Value::Null)),
                _ => Some(property.absent_value().cloned()),
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
}

/// Where [`Walker::sort_member`] puts a member.
pub(super) enum Sorted {
    /// The value of the declared property at this index.
    Declared(usize),
    /// A key nothing declares, settled by the tool's policy: stripped or an error.
    Settled,
    /// A member read under the `patternProperties` schemas its key matches, or as sent when
    /// there are none.
    Other(Vec<Id>),
    /// A member read under `additionalProperties` (no pattern matched).
    Additional(Id),
}

impl Sorted {
    /// The schemas a member no property declares is read under.
    pub(super) fn schemas(&self) -> &[Id] {
        match self {
            Sorted::Other(schemas) => schemas,
            Sorted::Additional(id) => std::slice::from_ref(id),
            Sorted::Declared(_) | Sorted::Settled => &[],
        }
    }

    /// Whether the member is read in the pass after the declared properties.
    pub(super) fn is_other(&self) -> bool {
        matches!(self, Sorted::Other(_) | Sorted::Additional(_))
    }
}

/// The `patternProperties` schemas whose pattern `key` matches.
fn matching(rules: &Rules, key: &str) -> Vec<Id> {
    rules
        .pattern_properties
        .iter()
        .filter(|(pattern, _)| pattern.is_match(key))
        .map(|(_, id)| *id)
        .collect()
}

/// `minProperties` and `maxProperties`, on an object of `count` keys.
pub(super) fn property_count(rules: &Rules, count: usize, path: &Path<'_>, cx: &mut Cx) -> bool {
    let too_few = rules.min_properties.is_some_and(|min| count < min);
    let too_many = rules.max_properties.is_some_and(|max| count > max);
    if too_few || too_many {
        cx.error_with(path, Code::PropertyCount, || {
            format!(
                "expected {}, got {count}",
                between(rules.min_properties, rules.max_properties, "keys")
            )
        });
    }
    !(too_few || too_many)
}

/// The keys an object of these keys (`has`) must hold: `required` keys no property declares
/// (a declared one is missing in its own place), and `dependentRequired`.
pub(super) fn required_keys(
    rules: &Rules,
    has: impl Fn(&str) -> bool,
    path: &Path<'_>,
    cx: &mut Cx,
) -> bool {
    let mut ok = true;
    for name in &rules.required_undeclared {
        if !has(name) {
            ok = false;
            cx.error(
                &path.key(name),
                Code::Missing,
                "this field is required but was absent; send a value",
            );
        }
    }
    for (name, needed) in &rules.dependent_required {
        if !has(name) {
            continue;
        }
        for need in needed {
            if !has(need) {
                ok = false;
                cx.error_with(&path.key(need), Code::Missing, || {
                    format!(
                        "this field is required when {} is present; send a value",
                        preview_str(name)
                    )
                });
            }
        }
    }
    ok
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

pub(super) fn check_number(
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
    let reading = n.integer();
    if let (IntegerReading::Exact(v), None) = (&reading, &rules.multiple_of) {
        // The usual number, an integer within integer bounds, is settled here.
        let within = |limit: &Option<Limit>, upper: bool| match limit {
            None => true,
            Some(Limit {
                integer: Some(bound),
                exclusive,
                ..
            }) => match (upper, exclusive) {
                (true, false) => v <= bound,
                (true, true) => v < bound,
                (false, false) => v >= bound,
                (false, true) => v > bound,
            },
            Some(_) => false,
        };
        if within(&rules.minimum, false) && within(&rules.maximum, true) {
            return true;
        }
    }
    let integer = match reading {
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
        cx.error_with(path, Code::OutOfRange, || {
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
            format!(
                "expected a number {}, got {}",
                bounds.join(" and "),
                node.describe()
            )
        });
    }
    if let Some(divisor) = &rules.multiple_of {
        if digits().is_multiple_of(divisor) == Some(false) {
            ok = false;
            cx.error_with(path, Code::NotMultiple, || {
                format!("expected a multiple of {divisor}, got {}", node.describe())
            });
        }
    }
    ok
}

pub(super) fn check_string(
    rules: &Rules,
    s: &str,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> bool {
    let mut ok = true;
    // Lengths in code points, as for derived fields; the pattern is ECMA-262, checked below.
    if rules.min_length.is_some() || rules.max_length.is_some() {
        let lengths = FieldSpec::new().with_length(rules.min_length, rules.max_length);
        ok &= check_length(s, &lengths, path, cx);
    }
    if let Some(pattern) = &rules.pattern {
        if !pattern.is_match(s) {
            ok = false;
            cx.error_with(path, Code::Pattern, || {
                format!(
                    "expected a string matching the pattern {}, got {}",
                    preview_str(&pattern.source),
                    node.describe()
                )
            });
        }
    }
    if let Some(format) = rules.format {
        ok &= format.check(s, node, path, cx);
    }
    ok
}
