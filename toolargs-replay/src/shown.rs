//! What the model was not shown of each tool, field by field: the keywords the dialect it was
//! shown the tools in does not show as written ([`dialect::lower`]), which the gate enforces
//! alone. A report that has them links a field's rejections to them. A tool set makes them
//! ([`Shown::of`]).

use std::collections::BTreeMap;

use serde_json::{json, Value};
use toolargs_core::dialect::{lower, Dialect};
use toolargs_core::Effect;

/// One keyword the model was not shown as written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotShown {
    /// The keyword (`maxLength`, `oneOf`).
    pub keyword: String,
    /// What the model was shown instead.
    pub instead: String,
}

/// The keywords of each tool the model was not shown, by the field they constrain.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Shown {
    /// The dialect the model was shown the tools in.
    pub dialect: Dialect,
    /// By tool, then by field (`$.items[*].sku`, as the drill-down names fields).
    pub tools: BTreeMap<String, BTreeMap<String, Vec<NotShown>>>,
}

impl Shown {
    /// What the model was not shown of each tool of `schemas` (by name), shown in `dialect`:
    /// [`Shown::of`]'s work, which the tool set hands its schemas to.
    pub(crate) fn of_schemas<'a>(
        schemas: impl Iterator<Item = (&'a str, Value)>,
        dialect: Dialect,
    ) -> Shown {
        let mut shown = Shown {
            dialect,
            tools: BTreeMap::new(),
        };
        for (name, schema) in schemas {
            let lowering = lower(dialect, name, None, Effect::Destructive, &schema);
            let mut fields: BTreeMap<String, Vec<NotShown>> = BTreeMap::new();
            for change in lowering
                .changes
                .into_iter()
                .filter(|c| c.enforced && !c.exact)
            {
                let Some(field) = field_of_pointer(&change.path) else {
                    continue;
                };
                fields.entry(field).or_default().push(NotShown {
                    keyword: change.keyword,
                    instead: change.instead,
                });
            }
            if !fields.is_empty() {
                shown.tools.insert(name.to_owned(), fields);
            }
        }
        shown
    }

    /// The keywords not shown at `field` of `tool`.
    pub fn at(&self, tool: &str, field: &str) -> &[NotShown] {
        self.tools
            .get(tool)
            .and_then(|fields| fields.get(field))
            .map_or(&[], Vec::as_slice)
    }

    /// `{"dialect", "tools": {TOOL: {FIELD: [{"keyword", "instead"}]}}}`.
    pub fn to_json(&self) -> Value {
        let tools: serde_json::Map<String, Value> = self
            .tools
            .iter()
            .map(|(tool, fields)| {
                let fields: serde_json::Map<String, Value> = fields
                    .iter()
                    .map(|(field, list)| {
                        let list: Vec<Value> = list
                            .iter()
                            .map(|n| json!({"keyword": n.keyword, "instead": n.instead}))
                            .collect();
                        (field.clone(), Value::Array(list))
                    })
                    .collect();
                (tool.clone(), Value::Object(fields))
            })
            .collect();
        json!({"dialect": self.dialect.name(), "tools": tools})
    }
}

/// The field a schema's JSON pointer constrains, as the drill-down names fields: `""` is `$`,
/// `/properties/a/items/properties/b` is `$.a[*].b`; a branch of `anyOf`, `oneOf` or `allOf`
/// constrains the field it is on. `None` for a definition under `$defs`, which may be used at
/// several fields.
///
/// ```
/// use toolargs_replay::field_of_pointer;
///
/// assert_eq!(field_of_pointer("").as_deref(), Some("$"));
/// assert_eq!(field_of_pointer("/properties/items/items/properties/sku").as_deref(), Some("$.items[*].sku"));
/// assert_eq!(field_of_pointer("/properties/kind/oneOf/0").as_deref(), Some("$.kind"));
/// assert_eq!(field_of_pointer("/properties/odd key").as_deref(), Some("$['odd key']"));
/// assert_eq!(field_of_pointer("/$defs/node/properties/a"), None);
/// ```
pub fn field_of_pointer(pointer: &str) -> Option<String> {
    let mut field = String::from("$");
    let mut steps = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"));
    while let Some(step) = steps.next() {
        match step.as_str() {
            "properties" => {
                let name = steps.next()?;
                let plain = name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if plain {
                    field.push('.');
                    field.push_str(&name);
                } else {
                    field.push_str(&format!("['{}']", name.replace('\'', "\\'")));
                }
            }
            "items" | "additionalProperties" => field.push_str("[*]"),
            "anyOf" | "oneOf" | "allOf" => {
                steps.next()?;
            }
            _ => return None,
        }
    }
    Some(field)
}
