//! Calls accepted as sent, recognised without the walk.
//!
//! Most calls need no repair. When the root schema has the plainest shape (an object whose
//! properties hold scalars or lists of scalars, each judged by its own keywords alone), a call
//! whose every key is declared, whose every value is of its property's type and passes that
//! property's keywords, and that lacks no required key, is one the walk would accept as it is,
//! with nothing to repair or report. [`Plain::read`] recognises such a call with the same
//! keyword checks the walk runs ([`check_number`], [`check_string`], the `enum` and `const`
//! comparisons), without the walk's frames, outcomes and paths.
//!
//! Of a value it only ever answers "accepted as sent" or "not sure": anything else (a `null`,
//! a value of another type, a failed keyword) goes to the walk, which alone repairs and
//! reports, and so does an unknown key or a missing required one. Of a call with every key
//! declared and every required key present, it answers which properties the walk must judge
//! ([`Reading`]). So it holds no policy of its own, and a call gets the same verdict either way.
//!
//! The arguments of such a call are handed over in the walk's order: the declared properties
//! in declaration order, each value accepted as sent as it was read (what the walk copies of
//! it), each absent one given its default as the walk gives it
//! ([`walk_properties`](super::walk_properties)).
//! A call that would spend the walk's whole budget of evaluations is left to the walk, which
//! alone says what running out gives.

use toolargs_core::cx::Cx;
use toolargs_core::internal::text::same_text;
use toolargs_core::node::Node;
use toolargs_core::path::Path;

use super::is_native;
use super::keywords::{check_number, check_string};
use crate::exact::{listed, node_equal};
use crate::shape::{Graph, Id, Rules, Schema, Types};

/// What [`Plain::read`] makes of a call.
pub(crate) enum Reading {
    /// Every key declared and every required key present; the properties set in `dirty`
    /// (bit `i` for property `i`) hold values the walk must judge, and none when the call is
    /// accepted as sent. The root's walk is then the walk of those properties alone, in
    /// order: nothing else about the object has anything to report
    /// ([`walk_properties`](super::walk_properties)). `spent` is what the root's walk spends
    /// of its evaluations on the root and on the other properties, which is less than its
    /// budget.
    Declared {
        dirty: u64,
        spent: usize,
        slots: Slots,
    },
    /// Left to the walk: a key is not declared, a required one is missing, or the values
    /// accepted as sent would take the walk's whole budget.
    Walk,
}

/// Where each property's member is among a call's members, as [`Plain::read`] found them, so
/// that the walk of the properties finds each without looking for it again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slots {
    /// `at[i]`: the position of property `i`'s member, when bit `i` of `present` is set.
    at: [u8; 64],
    present: u64,
}

impl Slots {
    /// The position of property `index`'s member among the call's members, when sent.
    pub(crate) fn member(&self, index: usize) -> Option<usize> {
        (index < 64 && self.present & (1 << index) != 0).then(|| usize::from(self.at[index]))
    }
}

/// A root schema whose calls accepted as sent can be recognised here (see the module).
#[derive(Clone, Debug)]
pub(crate) struct Plain {
    /// The root's `properties`, in order.
    fields: Vec<Field>,
    /// Bit `i` is set when `fields[i]` is required.
    required: u64,
}

/// A property, with the keywords of its schema copied from the graph: each value of a call
/// is judged without looking its schema up.
#[derive(Clone, Debug)]
struct Field {
    name: String,
    /// The keywords of the property's schema.
    rules: Rules,
    /// For a list, the keywords of every item's schema.
    items: Option<Rules>,
}

impl Plain {
    /// The plain reading of the graph's root, when the root has the plain shape.
    pub(crate) fn of(graph: &Graph) -> Option<Plain> {
        let Schema::Rules(root) = graph.get(graph.root) else {
            return None;
        };
        let object = matches!(root.types, None | Some(Types::OBJECT))
            && !root.in_place
            && root.allowed.is_none()
            && root.constant.is_none()
            && root.pattern_properties.is_empty()
            && root.property_names.is_none()
            && root.min_properties.is_none()
            && root.max_properties.is_none()
            && root.required_undeclared.is_empty()
            && root.dependent_required.is_empty();
        let properties = root.properties.as_deref().filter(|_| object)?;
        if properties.len() > 64 {
            return None;
        }
        let mut fields = Vec::with_capacity(properties.len());
        let mut required = 0;
        for (index, property) in properties.iter().enumerate() {
            let rules = own_rules(graph, property.schema)?;
            let types = rules.types?;
            let items = if types.has(Types::ARRAY) {
                // A list of scalars, and nothing else: no item is compared with another.
                let list = types == Types::ARRAY
                    && rules.allowed.is_none()
                    && rules.constant.is_none()
                    && rules.prefix_items.is_empty()
                    && rules.contains.is_none()
                    && !rules.unique_items;
                let items = own_rules(graph, rules.items.filter(|_| list)?)?;
                scalar_types(items)?;
                Some(items.clone())
            } else {
                scalar_types(rules)?;
                None
            };
            if property.required {
                required |= 1 << index;
            }
            fields.push(Field {
                name: property.name.clone(),
                rules: rules.clone(),
                items,
            });
        }
        Some(Plain { fields, required })
    }

    /// What the plain reading makes of `node` under the root schema, judged with the walk's
    /// keyword checks: accepted as sent, the properties the walk must judge, or the whole call
    /// left to the walk. Only ever "certain" or "not certain": the walk decides the rest.
    pub(crate) fn read(&self, node: &Node<'_>, cx: &Cx) -> Reading {
        let Node::Object(members) = node else {
            return Reading::Walk;
        };
        let mut clean = 0u64;
        let mut present = 0u64;
        let mut declared = true;
        // The root's own evaluation, then one for each value accepted as sent and each item
        // of a list.
        let mut spent = 1usize;
        // The keywords record what fails into a collector of their own, which is dropped: a
        // value that fails any of them is judged again, and reported, by the walk. It is
        // quiet: no message is written here only to be dropped.
        let mut scratch = cx.quiet_scratch();
        let mut at = [0u8; 64];
        // Members most often come in declaration order, some left out: each is looked for from
        // the property after the last one found.
        let mut next = 0;
        for (position, (key, value)) in members.iter().enumerate() {
            let Some(index) = self.field_named(key, next) else {
                declared = false;
                continue;
            };
            next = index + 1;
            // Keys are unique: each bit is set once. With every key declared there are at most
            // 64 members; a position past a byte is only kept where a key is not declared,
            // and then the slots are not used.
            present |= 1 << index;
            at[index] = u8::try_from(position).unwrap_or(u8::MAX);
            // First what needs no keyword (of its type, listed in its `enum`, equal to its
            // `const`): most values the walk must repair or reject stop here, before any
            // check that writes an error.
            let noted = scratch.error_count() + scratch.repairs().len();
            let passes = self.each_value(index, value, kind_passes)
                && self.each_value(index, value, |rules, node| {
                    keywords_pass(rules, node, &mut scratch)
                })
                && scratch.error_count() + scratch.repairs().len() == noted;
            if passes {
                clean |= 1 << index;
                spent += match value {
                    Node::Array(items) => 1 + items.len(),
                    _ => 1,
                };
            }
        }
        let complete = declared && present & self.required == self.required;
        match complete && spent < super::MAX_EVALUATIONS {
            true => Reading::Declared {
                dirty: present & !clean,
                spent,
                slots: Slots { at, present },
            },
            false => Reading::Walk,
        }
    }

    /// The index of the property named `key`, looked for from `from` on, then before it.
    fn field_named(&self, key: &str, from: usize) -> Option<usize> {
        let (before, after) = self.fields.split_at(from.min(self.fields.len()));
        let found = |fields: &[Field]| fields.iter().position(|f| same_text(&f.name, key));
        found(after)
            .map(|i| i + before.len())
            .or_else(|| found(before))
    }

    /// Whether the walk would accept `node` as sent.
    #[cfg(test)]
    fn accepts(&self, node: &Node<'_>, cx: &Cx) -> bool {
        matches!(self.read(node, cx), Reading::Declared { dirty: 0, .. })
    }

    /// Whether `pass` holds for the value of field `index` under its schema, or for each item
    /// when the field is a list.
    fn each_value(
        &self,
        index: usize,
        value: &Node<'_>,
        mut pass: impl FnMut(&Rules, &Node<'_>) -> bool,
    ) -> bool {
        let field = &self.fields[index];
        match (&field.items, value) {
            (Some(items), Node::Array(list)) => {
                field.rules.items_fit(list.len()) && list.iter().all(|item| pass(items, item))
            }
            (Some(_), _) => false,
            (None, value) => pass(&field.rules, value),
        }
    }
}

/// The keywords of schema `id` when they are all that applies to a value there.
fn own_rules(graph: &Graph, id: Id) -> Option<&Rules> {
    match graph.get(id) {
        Schema::Rules(rules) if !rules.in_place => Some(rules),
        _ => None,
    }
}

/// The types of a schema that allows only scalars.
fn scalar_types(rules: &Rules) -> Option<Types> {
    rules
        .types
        .filter(|t| !t.has(Types::ARRAY) && !t.has(Types::OBJECT))
}

/// Whether a scalar is as the walk's `own` settles it with nothing to do: of a type the
/// schema allows (a number that the walk passes through exactly), listed in its `enum`,
/// equal to its `const`. A `null` is never taken here: a property reads it as absent, which
/// the walk settles.
fn kind_passes(rules: &Rules, node: &Node<'_>) -> bool {
    let Some(types) = rules.types else {
        return false;
    };
    let exact = match node {
        Node::Null | Node::Array(_) | Node::Object(_) => return false,
        Node::Number(n) => n.is_exact(),
        Node::String(_) | Node::Bool(_) => true,
    };
    exact
        && is_native(types, node)
        && rules
            .allowed
            .as_ref()
            .is_none_or(|allowed| listed(node, allowed))
        && rules.constant.as_ref().is_none_or(|c| node_equal(node, c))
}

/// Whether a scalar that [`kind_passes`] passes the keywords of the walk's `assert` that
/// remain: bounds and `multipleOf`, lengths, `pattern` and `format`.
fn keywords_pass(rules: &Rules, node: &Node<'_>, cx: &mut Cx) -> bool {
    match node {
        Node::Number(n) => check_number(rules, n, node, &Path::ROOT, cx),
        Node::String(s) => check_string(rules, s, node, &Path::ROOT, cx),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use toolargs_core::cx::Cx;
    use toolargs_core::decode::parse_document;
    use toolargs_core::node::Node;
    use toolargs_core::path::Path;
    use toolargs_core::spec::UnknownPolicy;

    use serde_json::Value;
    use toolargs_core::decode::RawArgs;
    use toolargs_core::options::ParseOptions;
    use toolargs_core::report::{Parsed, Rejection};

    use super::{Plain, Reading};
    use crate::load::load_root;
    use crate::shape::Graph;
    use crate::Spec;

    /// A refund tool with every keyword the plain reading checks.
    const REFUND: &str = r#"{
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[A-Za-z0-9]{8}$"},
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
            "rate": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.25},
            "notify_customer": {"type": "boolean", "default": false},
            "reason": {"type": "string", "enum": ["damaged", "late", "duplicate", "other"]},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 3},
            "note": {"type": ["string", "null"], "minLength": 2},
            "currency": {"const": "usd", "type": "string"},
            "effective_date": {"type": "string", "format": "date"}
        },
        "required": ["order_id", "amount_cents", "reason"],
        "additionalProperties": false
    }"#;

    /// Values tried for each property, the first one passing: as sent, repairable, and wrong.
    const VALUES: &[(&str, &[&str])] = &[
        (
            "order_id",
            &[
                r#""ord_A4E1g0Fg""#,
                r#""ord_short""#,
                r#""ORD_A4E1g0Fg""#,
                "17",
                "null",
                r#""ord_A4E1g0F\u00e9""#,
            ],
        ),
        (
            "amount_cents",
            &[
                "2509",
                "1",
                "50000",
                "0",
                "50001",
                r#""1999""#,
                "19.99",
                "1999.0",
                "1e3",
                "-5",
                "true",
                "null",
                "123456789012345678901234567890",
                "2000.0000000000000001",
            ],
        ),
        (
            "rate",
            &["0.5", "0", "0.3", "1e400", "2", r#""0.25""#, "-0.25"],
        ),
        (
            "notify_customer",
            &["false", "true", r#""true""#, "0", "null"],
        ),
        (
            "reason",
            &[
                r#""damaged""#,
                r#""Damaged""#,
                r#""late""#,
                r#""nope""#,
                "1",
                "null",
            ],
        ),
        (
            "tags",
            &[
                "[]",
                r#"["gift"]"#,
                r#""gift""#,
                "[1]",
                r#"["a", "b", "c", "d"]"#,
                r#"["toolongtag"]"#,
                "null",
                "{}",
                r#"["x", null]"#,
            ],
        ),
        ("note", &[r#""ok""#, r#""x""#, "null", "3"]),
        ("currency", &[r#""usd""#, r#""USD""#, r#""eur""#]),
        (
            "effective_date",
            &[
                r#""2026-05-20""#,
                r#""2026-02-30""#,
                r#""05/20/2026""#,
                r#""""#,
                "20260520",
            ],
        ),
        ("refund_all", &["true"]),
    ];

    fn graph(schema: &str) -> Graph {
        let node = parse_document(schema, 64).expect("schema JSON");
        load_root(&node, "").expect("schema loads").graph
    }

    /// A payload from a seed: each property absent or one of its values, in shuffled order.
    fn payload(mut seed: u64) -> String {
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut members: Vec<String> = Vec::new();
        for (name, values) in VALUES {
            // The value is absent one time in three; unknown keys are rarer.
            let present = match *name {
                "refund_all" => next(8) == 0,
                _ => next(3) != 0,
            };
            if present {
                // The first value passes; three times in four it is the one sent.
                let value = match next(4) {
                    0 => values[next(values.len())],
                    _ => values[0],
                };
                members.push(format!("\"{name}\": {value}"));
            }
        }
        for i in (1..members.len()).rev() {
            members.swap(i, next(i + 1));
        }
        format!("{{{}}}", members.join(", "))
    }

    /// Whether the walk accepts the payload with nothing to repair or report.
    fn walk_accepts(graph: &Graph, text: &str) -> bool {
        let node = parse_document(text, 128).expect("payload JSON");
        let mut cx = Cx::new(UnknownPolicy::Strip);
        let judged = super::super::walk(graph, &node, &Path::ROOT, &mut cx, false);
        judged.is_some() && !cx.has_errors() && cx.repairs().is_empty()
    }

    /// The verdict of a judging walk: whether it read the value, and every repair and error,
    /// in order.
    fn verdict(graph: &Graph, text: &str) -> String {
        let node = parse_document(text, 128).expect("payload JSON");
        let mut cx = Cx::new(UnknownPolicy::Strip);
        let judged = super::super::walk(graph, &node, &Path::ROOT, &mut cx, false);
        let repairs = format!("{:?}", cx.repairs());
        match cx.finish(judged) {
            Ok(_) => format!("accepted {repairs}"),
            Err(rejection) => format!("rejected {:?}", rejection.errors()),
        }
    }

    /// The verdict of the walk of the properties in `dirty` alone, as [`verdict`] writes it.
    fn properties_verdict(graph: &Graph, text: &str, dirty: u64) -> String {
        let node = parse_document(text, 128).expect("payload JSON");
        let Node::Object(members) = &node else {
            panic!("an object: {text}");
        };
        let mut cx = Cx::new(UnknownPolicy::Strip);
        let plain = Plain::of(graph).expect("a plain schema");
        let Reading::Declared { slots, .. } = plain.read(&node, &cx) else {
            panic!("every key declared: {text}");
        };
        let reading = (dirty, 1, slots);
        let super::super::Properties::Judged(judged) =
            super::super::walk_properties(graph, members, reading, &mut cx, false)
        else {
            panic!("out of evaluations: {text}");
        };
        let repairs = format!("{:?}", cx.repairs());
        match cx.finish(judged) {
            Ok(_) => format!("accepted {repairs}"),
            Err(rejection) => format!("rejected {:?}", rejection.errors()),
        }
    }

    #[test]
    fn a_call_with_every_key_declared_is_judged_by_its_properties() {
        let graph = graph(REFUND);
        let plain = Plain::of(&graph).expect("a plain schema");
        let (mut left, mut declared) = (0, 0);
        for seed in 0..20_000 {
            let text = payload(seed);
            let node = parse_document(&text, 128).expect("payload JSON");
            match plain.read(&node, &Cx::new(UnknownPolicy::Strip)) {
                Reading::Declared { dirty: 0, .. } => {}
                Reading::Declared { dirty, .. } => {
                    declared += 1;
                    let whole = verdict(&graph, &text);
                    assert_eq!(properties_verdict(&graph, &text, dirty), whole, "{text}");
                }
                Reading::Walk => left += 1,
            }
        }
        assert!(left > 1_000, "{left} walked whole");
        assert!(declared > 3_000, "{declared} walked by their properties");
        // Walking by properties misses what is not among them: a property left out goes
        // unjudged.
        let wrong = r#"{"order_id": "ord_A4E1g0Fg", "amount_cents": 0, "reason": "late"}"#;
        assert_ne!(properties_verdict(&graph, wrong, 0), verdict(&graph, wrong));
        assert_eq!(
            properties_verdict(&graph, wrong, 0b10),
            verdict(&graph, wrong)
        );
    }

    fn plain_accepts(graph: &Graph, text: &str) -> bool {
        let node = parse_document(text, 128).expect("payload JSON");
        let plain = Plain::of(graph).expect("a plain schema");
        plain.accepts(&node, &Cx::new(UnknownPolicy::Strip))
    }

    #[test]
    fn accepts_only_what_the_walk_accepts_as_sent_and_nearly_all_of_it() {
        let graph = graph(REFUND);
        let (mut walked, mut recognised) = (0, 0);
        for seed in 0..20_000 {
            let text = payload(seed);
            let walk = walk_accepts(&graph, &text);
            let plain = plain_accepts(&graph, &text);
            assert!(!plain || walk, "accepted here, not by the walk: {text}");
            walked += usize::from(walk);
            recognised += usize::from(plain);
        }
        // Only a `null` is left to the walk among calls it accepts as sent (`note` allows it).
        assert!(walked > 500, "too few clean payloads generated: {walked}");
        assert!(
            recognised * 10 >= walked * 9,
            "recognised {recognised} of {walked} clean payloads"
        );
    }

    /// A parse's result as text: the arguments in their key order, with their numbers as
    /// written, and the repairs; or the rejection.
    fn parsed_text(parsed: &Result<Parsed<Value>, Rejection>) -> String {
        match parsed {
            Ok(p) => format!(
                "{} {:?}",
                serde_json::to_string(&p.args).unwrap(),
                p.repairs
            ),
            Err(rejection) => format!("rejected {:?}", rejection.errors()),
        }
    }

    /// Whether the parse, through the plain reading, gives what the walk of the whole call
    /// gives, to the key order and the digits; and the judging alike.
    fn parses_as_walked(spec: &Spec, text: &str) {
        let raw = RawArgs::from(text);
        let options = ParseOptions::DEFAULT;
        let parsed = spec.parse_with(&raw, &options);
        let walked = spec.parse_walking(&raw, &options);
        assert_eq!(parsed_text(&parsed), parsed_text(&walked), "{text}");
        let judged = parsed.map(|p| p.repairs);
        assert_eq!(spec.check_with(&raw, &options), judged, "{text}");
    }

    #[test]
    fn the_arguments_are_the_walks_to_the_key_order_and_the_digits() {
        let spec = Spec::from_json(REFUND).expect("schema loads");
        let graph = graph(REFUND);
        let plain = Plain::of(&graph).expect("a plain schema");
        let mut read = [0usize; 2];
        for seed in 0..20_000 {
            let text = payload(seed);
            parses_as_walked(&spec, &text);
            let node = parse_document(&text, 128).expect("payload JSON");
            if let Reading::Declared { dirty, .. } =
                plain.read(&node, &Cx::new(UnknownPolicy::Strip))
            {
                read[usize::from(dirty != 0)] += 1;
            }
        }
        assert!(read[0] > 1_000 && read[1] > 3_000, "{read:?}");
        // Sent in another order, with a default left out: the walk's order, the default in.
        let text =
            r#"{"reason": "late", "rate": 2.50, "amount_cents": 2509, "order_id": "ord_A4E1g0Fg"}"#;
        let parsed = spec.parse(text).expect("accepted");
        assert_eq!(
            serde_json::to_string(&parsed.args).unwrap(),
            r#"{"order_id":"ord_A4E1g0Fg","amount_cents":2509,"rate":2.5,"notify_customer":false,"reason":"late"}"#
        );
        for text in [
            r#"{"reason": "late", "amount_cents": 1e3, "order_id": "ord_A4E1g0Fg", "rate": 1E0}"#,
            r#"{"reason": "late", "amount_cents": -0, "order_id": "ord_A4E1g0Fg", "rate": 0.250}"#,
            r#"{"reason": "late", "amount_cents": 7, "order_id": "ord_A4E1g0Fg", "rate": 1e400}"#,
            r#"{"reason": "late", "amount_cents": 7, "order_id": "ord_A4E1g0Fg", "note": null}"#,
            r#"{"reason": "LATE", "amount_cents": 7, "order_id": "ord_A4E1g0Fg", "tags": "gift"}"#,
        ] {
            parses_as_walked(&spec, text);
        }
    }

    #[test]
    fn a_call_that_takes_the_whole_budget_is_left_to_the_walk() {
        let spec = Spec::from_json(
            r#"{"type": "object", "properties": {
                "a": {"type": "array", "items": {"type": "string"}},
                "b": {"type": "array", "items": {"type": "string"}},
                "c": {"type": "array", "items": {"type": "integer"}}}}"#,
        )
        .expect("schema loads");
        let list = |n: usize, item: &str| format!("[{}]", vec![item; n].join(","));
        // As sent, 210 003 evaluations: past the budget, as the walk says.
        let clean = format!(
            r#"{{"a": {}, "b": {}, "c": {}}}"#,
            list(70_000, r#""x""#),
            list(70_000, r#""y""#),
            list(70_000, "1")
        );
        // One item to repair: the walk of `c` runs out.
        let repaired = clean.replacen("1,", "\"1\",", 1);
        // Under the budget, repaired or not.
        let under = format!(r#"{{"a": {}, "c": [1, "2"]}}"#, list(99_990, r#""x""#),);
        for text in [clean, repaired, under] {
            parses_as_walked(&spec, &text);
        }
        assert!(spec
            .parse(format!(r#"{{"a": {}}}"#, list(60_000, "\"x\"")).as_str())
            .is_ok());
    }

    #[test]
    fn duplicate_and_unknown_keys_are_left_to_the_walk() {
        let graph = graph(REFUND);
        let clean = r#"{"order_id": "ord_A4E1g0Fg", "amount_cents": 5, "reason": "late"}"#;
        assert!(plain_accepts(&graph, clean));
        let unknown =
            r#"{"order_id": "ord_A4E1g0Fg", "amount_cents": 5, "reason": "late", "x": 1}"#;
        assert!(!plain_accepts(&graph, unknown));
        let missing = r#"{"order_id": "ord_A4E1g0Fg", "reason": "late"}"#;
        assert!(!plain_accepts(&graph, missing));
    }

    #[test]
    fn only_plain_roots_are_read_here() {
        for schema in [
            r##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}"##,
            r#"{"type": "object", "properties": {"a": {"type": "object"}}}"#,
            r#"{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}}"#,
            r#"{"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {}}}"#,
            r#"{"type": "object", "properties": {"a": {"type": "string"}}, "allOf": [{"required": ["a"]}]}"#,
            r#"{"type": "object", "properties": {"a": {}}}"#,
            r#"{"type": "object", "required": ["b"], "properties": {"a": {"type": "string"}}}"#,
            r#"{"type": "string"}"#,
        ] {
            assert!(Plain::of(&graph(schema)).is_none(), "{schema}");
        }
        assert!(Plain::of(&graph(REFUND)).is_some());
    }
}
