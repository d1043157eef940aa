//! The set of tools a log is replayed against: loading their definitions, keeping those that
//! do not load, and finding the judge of the tool a record's `tool` field names; and what a
//! dialect did not show of them ([`Shown::of`]).

use std::collections::BTreeMap;

use crate::outcome::BadRecord;
use crate::shown::Shown;
use crate::tally::ToolWarning;
use toolargs_core::judge::Judge;
use toolargs_core::Dialect;
use toolargs_dynamic::{LoadError, LoadErrorKind, LoadWarning, RefusedDefinition};

/// The tools a log is replayed against, by name, and the definitions that did not load.
#[derive(Default)]
pub struct ToolSet {
    pub(super) tools: BTreeMap<String, Box<dyn Judge>>,
    /// Where each tool's definition is in the text it was loaded from.
    pointers: BTreeMap<String, String>,
    refused: Vec<RefusedDefinition>,
}

impl ToolSet {
    /// An empty set.
    pub fn new() -> ToolSet {
        ToolSet::default()
    }

    /// Adds a tool's judge under `name` (replacing one of the same name): `Typed::<T>::new()`
    /// for a derived type, or a loaded `Spec`.
    pub fn insert(&mut self, name: impl Into<String>, judge: impl Judge + 'static) -> &mut Self {
        let name = name.into();
        self.pointers.remove(&name);
        self.tools.insert(name, Box::new(judge));
        self
    }

    /// Loads tool definitions: a JSON array of definitions, or an object with a `tools` array,
    /// in any of the OpenAI chat / responses, Anthropic, Gemini and MCP shapes, mixed freely.
    /// Every definition needs a name, unless there is only one.
    ///
    /// Strict: the first definition that does not load is the error. See
    /// [`ToolSet::from_json_lenient`] to load the others.
    pub fn from_json(text: &str) -> Result<ToolSet, LoadError> {
        let set = ToolSet::from_json_lenient(text)?;
        match set.refused.first() {
            Some(refused) => Err(refused.error.clone()),
            None => Ok(set),
        }
    }

    /// Loads every tool definition that loads, as [`ToolSet::from_json`] reads them, and keeps
    /// the others as [`ToolSet::refused`]: a schema the gate cannot enforce, a definition
    /// without a name in a list of several, a second definition of a name (the first one
    /// stays). A replay counts the calls to a refused tool as `unchecked`.
    ///
    /// An error only when the text is not JSON or not a list of definitions.
    pub fn from_json_lenient(text: &str) -> Result<ToolSet, LoadError> {
        let list = toolargs_dynamic::load_tool_list_lenient(text)?;
        let single = list.len() == 1;
        let indices: Vec<usize> = list.indexed_specs().map(|(i, _)| i).collect();
        let pointers: Vec<String> = indices.iter().map(|&i| list.pointer(i)).collect();
        let mut set = ToolSet {
            refused: list.refused,
            ..ToolSet::default()
        };
        for ((index, pointer), spec) in indices.into_iter().zip(pointers).zip(list.specs) {
            let name = match (spec.name(), single) {
                (Some(name), _) => name.to_owned(),
                (None, true) => String::new(),
                (None, false) => {
                    set.refused.push(RefusedDefinition::new(
                        index,
                        None,
                        LoadError::new(
                            LoadErrorKind::UnnamedTool,
                            &pointer,
                            "a tool definition without a name; every tool in a set needs one",
                        ),
                    ));
                    continue;
                }
            };
            if set.tools.contains_key(&name) {
                let error = LoadError::new(
                    LoadErrorKind::DuplicateTool,
                    &pointer,
                    format!(
                        "a second tool named `{name}`; its calls are checked against the first"
                    ),
                );
                set.refused
                    .push(RefusedDefinition::new(index, Some(name), error));
                continue;
            }
            set.insert(name.clone(), spec);
            set.pointers.insert(name, pointer);
        }
        set.refused.sort_by_key(|r| r.index);
        Ok(set)
    }

    /// Adds the tools of `other` that this set does not name (loaded or refused): a set loaded
    /// from `--tools` wins over the definitions found in a log.
    pub fn add_missing(&mut self, other: ToolSet) {
        let ToolSet {
            tools,
            mut pointers,
            refused,
        } = other;
        let named = |set: &ToolSet, name: &str| {
            set.tools.contains_key(name)
                || set.refused.iter().any(|r| r.name.as_deref() == Some(name))
        };
        let mut added = Vec::new();
        for (name, judge) in tools {
            if !named(self, &name) {
                if let Some(pointer) = pointers.remove(&name) {
                    self.pointers.insert(name.clone(), pointer);
                }
                added.push((name, judge));
            }
        }
        let refused: Vec<RefusedDefinition> = refused
            .into_iter()
            .filter(|r| r.name.as_deref().is_some_and(|name| !named(self, name)))
            .collect();
        self.tools.extend(added);
        self.refused.extend(refused);
    }

    /// Prefixes the message of every refused definition with where it was found
    /// (`origins[index]`).
    pub(crate) fn note_origins(&mut self, origins: &[String]) {
        for refused in &mut self.refused {
            if let Some(origin) = origins.get(refused.index) {
                refused.error.message = format!("(found at {origin}) {}", refused.error.message);
            }
        }
    }

    /// The definitions that did not load, in list order (empty unless loaded with
    /// [`ToolSet::from_json_lenient`]).
    pub fn refused(&self) -> &[RefusedDefinition] {
        &self.refused
    }

    /// The refused definition a record's `tool` field points at, when no loaded tool answers
    /// to it: a refused definition of that name, or the only definition of the list when the
    /// record names none.
    pub fn refusal(&self, name: Option<&str>) -> Option<&RefusedDefinition> {
        match name {
            Some(name) if self.tools.contains_key(name) => None,
            Some(name) => self
                .refused
                .iter()
                .find(|r| r.name.as_deref() == Some(name)),
            None if self.tools.is_empty() && self.refused.len() == 1 => self.refused.first(),
            None => None,
        }
    }

    /// The load warnings of every tool, in name order.
    pub fn warnings(&self) -> Vec<ToolWarning> {
        self.tools
            .iter()
            .flat_map(|(name, judge)| {
                let at = self.pointers.get(name).map_or("", String::as_str);
                judge.load_warnings().iter().map(move |w| ToolWarning {
                    tool: name.clone(),
                    warning: LoadWarning::new(format!("{at}{}", w.pointer), w.message.clone()),
                })
            })
            .collect()
    }

    /// The tool names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when the set holds no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The judge of the tool a record's `tool` field names (`None` allowed when there is
    /// exactly one tool and no refused definition).
    pub fn judge(&self, name: Option<&str>) -> Result<&dyn Judge, BadRecord> {
        self.named_judge(name).map(|(_, judge)| judge)
    }

    /// The judge of the tool a record's `tool` field names, with the tool's name, as
    /// [`ToolSet::judge`].
    pub fn named_judge(&self, name: Option<&str>) -> Result<(&str, &dyn Judge), BadRecord> {
        match name {
            Some(name) => self
                .tools
                .get_key_value(name)
                .map(|(k, g)| (k.as_str(), g.as_ref()))
                .ok_or(BadRecord::UnknownTool),
            None if self.tools.len() == 1 && self.refused.is_empty() => self
                .tools
                .iter()
                .next()
                .map(|(k, g)| (k.as_str(), g.as_ref()))
                .ok_or(BadRecord::MissingTool),
            None => Err(BadRecord::MissingTool),
        }
    }
}

impl Shown {
    /// What the model was not shown of each tool of `tools` that has a schema to lower,
    /// shown in `dialect`. Only what it was told less of counts: a keyword said another way
    /// that means the same, or an annotation, is not listed.
    ///
    /// ```
    /// use toolargs_core::Dialect;
    /// use toolargs_replay::{Shown, ToolSet};
    ///
    /// let tools = ToolSet::from_json(r#"[{"name": "order", "inputSchema": {"type": "object",
    ///     "properties": {"sku": {"type": "string", "maxLength": 12}}}}]"#)?;
    /// let shown = Shown::of(&tools, Dialect::OpenAiChat { strict: true });
    /// assert_eq!(shown.tools["order"]["$.sku"][0].keyword, "maxLength");
    /// # Ok::<(), toolargs_dynamic::LoadError>(())
    /// ```
    pub fn of(tools: &ToolSet, dialect: Dialect) -> Shown {
        let schemas = tools.names().filter_map(|name| {
            let schema = tools.judge(Some(name)).ok().and_then(|j| j.schema())?;
            Some((name, schema))
        });
        Shown::of_schemas(schemas, dialect)
    }
}
