//! Lists of tool definitions: all or nothing ([`load_tool_list`]), or each definition on its
//! own ([`load_tool_list_lenient`]).

use toolargs_core::decode::parse_document;
use toolargs_core::node::Node;

use crate::load::{LoadError, LoadErrorKind, MAX_SCHEMA_DEPTH};
use crate::Spec;

const NOT_A_LIST: &str = "expected an array of tool definitions or an object with a `tools` array";

/// Loads a list of tool definitions from JSON text: an array, or an object with a `tools`
/// array, in any of the shapes [`Spec::from_tool_definition`] reads. Pointers in errors start at
/// the definition's index.
///
/// One definition that does not load fails the whole list; [`load_tool_list_lenient`] loads
/// the others and lists what it refused.
pub fn load_tool_list(text: &str) -> Result<Vec<Spec>, LoadError> {
    let node = parse_document(text, MAX_SCHEMA_DEPTH).map_err(|e| {
        LoadError::new(
            LoadErrorKind::InvalidJson,
            "",
            format!("not valid JSON: {}", e.message),
        )
    })?;
    let (list, prefix) = definitions(&node)?;
    list.iter()
        .enumerate()
        .map(|(i, definition)| {
            Spec::from_definition_node(definition).map_err(|e| e.under(&format!("{prefix}/{i}")))
        })
        .collect()
}

/// Loads every definition of a list that loads, and says why each other one did not.
///
/// The text is what [`load_tool_list`] reads: an array of tool definitions, or an object with a
/// `tools` array. The result is an `Err` only when the text is not JSON or not such a list; a
/// definition that does not load (an unsupported keyword, a type that does not exist, a
/// definition nested too deeply) is a [`RefusedDefinition`] and does not stop the others.
/// Exactly the definitions that [`load_tool_list`] accepts load here.
///
/// ```
/// use toolargs_dynamic::load_tool_list_lenient;
///
/// let text = r#"[
///   {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
///   {"type": "function", "function": {"name": "book", "parameters": {"type": "no-such-type"}}},
///   {"name": "get_time", "parameters": {"type": "object"}}
/// ]"#;
/// let list = load_tool_list_lenient(text).unwrap();
///
/// let names: Vec<_> = list.specs.iter().map(|s| s.name()).collect();
/// assert_eq!(names, [Some("get_weather"), Some("get_time")]);
///
/// let refused = &list.refused[0];
/// assert_eq!(refused.index, 1);
/// assert_eq!(refused.name.as_deref(), Some("book"));
/// assert_eq!(refused.error.pointer, "/1/function/parameters/type");
///
/// // Which definition each spec came from.
/// assert_eq!(list.indexed_specs().map(|(i, _)| i).collect::<Vec<_>>(), [0, 2]);
///
/// // Not a list at all is an error.
/// assert!(load_tool_list_lenient(r#"{"name": "get_time"}"#).is_err());
/// ```
pub fn load_tool_list_lenient(text: &str) -> Result<ToolList, LoadError> {
    // Read deeper than `load_tool_list` does, so that one definition nested too deeply is
    // refused on its own instead of failing the text; the limit it would have met is applied
    // to each definition below.
    let node = parse_document(text, 2 * MAX_SCHEMA_DEPTH).map_err(|e| {
        LoadError::new(
            LoadErrorKind::InvalidJson,
            "",
            format!("not valid JSON: {}", e.message),
        )
    })?;
    let (list, prefix) = definitions(&node)?;
    // Levels above a definition: the array, and the object holding `tools`.
    let above = if prefix.is_empty() { 1 } else { 2 };
    let mut loaded = ToolList {
        specs: Vec::new(),
        refused: Vec::new(),
        prefix,
    };
    for (index, definition) in list.iter().enumerate() {
        let result = if exceeds_depth(definition, MAX_SCHEMA_DEPTH - above) {
            Err(LoadError::new(
                LoadErrorKind::TooDeep,
                "",
                "the definition is nested too deeply",
            ))
        } else {
            Spec::from_definition_node(definition)
        };
        match result {
            Ok(spec) => loaded.specs.push(spec),
            Err(e) => loaded.refused.push(RefusedDefinition {
                index,
                name: definition_name(definition),
                error: e.under(&format!("{prefix}/{index}")),
            }),
        }
    }
    Ok(loaded)
}

/// What [`load_tool_list_lenient`] made of a list of definitions.
#[derive(Clone, Debug)]
pub struct ToolList {
    /// The definitions that loaded, in list order.
    pub specs: Vec<Spec>,
    /// The definitions that did not, in list order.
    pub refused: Vec<RefusedDefinition>,
    prefix: &'static str,
}

/// A [`ToolList`] for calls by name ([`ToolList::by_name`]).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct NamedTools {
    /// Each spec that can be called, under its tool's name, in list order.
    pub specs: Vec<(String, Spec)>,
    /// The definitions that cannot be: the tool's name when it has one, and why.
    pub unchecked: Vec<(Option<String>, String)>,
}

impl ToolList {
    /// The specs by tool name, for a tool set that is called by name: the definitions that
    /// did not load, a spec without a name and a second spec of a name are unchecked (with
    /// their reason) instead, so that no call is judged by a definition it did not name.
    pub fn by_name(self) -> NamedTools {
        let mut named = NamedTools {
            specs: Vec::with_capacity(self.specs.len()),
            unchecked: self
                .refused
                .iter()
                .map(|r| (r.name.clone(), r.error.to_string()))
                .collect(),
        };
        let mut seen = std::collections::HashSet::new();
        for spec in self.specs {
            let Some(name) = spec.name().map(str::to_owned) else {
                named
                    .unchecked
                    .push((None, "the definition has no name".to_owned()));
                continue;
            };
            if !seen.insert(name.clone()) {
                named
                    .unchecked
                    .push((Some(name), "a second definition of this name".to_owned()));
                continue;
            }
            named.specs.push((name, spec));
        }
        named
    }

    /// Each loaded spec with the index of its definition in the list.
    pub fn indexed_specs(&self) -> impl Iterator<Item = (usize, &Spec)> + '_ {
        // The specs fill, in order, the indices the refusals leave free.
        let mut refused = self.refused.iter().map(|r| r.index).peekable();
        let mut next = 0;
        self.specs.iter().map(move |spec| {
            while refused.peek() == Some(&next) {
                refused.next();
                next += 1;
            }
            next += 1;
            (next - 1, spec)
        })
    }

    /// The number of definitions in the list, loaded or not.
    pub fn len(&self) -> usize {
        self.specs.len() + self.refused.len()
    }

    /// True when the list holds no definition.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The JSON pointer of definition `index` in the text: `/3`, or `/tools/3` when the list
    /// is an object's `tools` array.
    pub fn pointer(&self, index: usize) -> String {
        format!("{}/{index}", self.prefix)
    }
}

/// A definition of a list that did not load.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RefusedDefinition {
    /// Its position in the list, from 0.
    pub index: usize,
    /// The tool's name, when the definition gives one (`name`, or `function.name`), read even
    /// though the rest did not load.
    pub name: Option<String>,
    /// Why it was refused; the pointer starts at the definition's index (`/1/parameters/...`).
    pub error: LoadError,
}

impl RefusedDefinition {
    /// The definition at `index` of a list, named `name` when it says, refused for `error`.
    pub fn new(index: usize, name: Option<String>, error: LoadError) -> RefusedDefinition {
        RefusedDefinition { index, name, error }
    }
}

/// The definitions of a list, and the pointer of the list in the text.
fn definitions<'n, 'a>(node: &'n Node<'a>) -> Result<(&'n [Node<'a>], &'static str), LoadError> {
    match node {
        Node::Array(items) => Ok((items, "")),
        Node::Object(members) => match members.iter().find(|(k, _)| k == "tools") {
            Some((_, Node::Array(items))) => Ok((items, "/tools")),
            _ => Err(LoadError::new(
                LoadErrorKind::NotADefinition,
                "",
                NOT_A_LIST,
            )),
        },
        _ => Err(LoadError::new(
            LoadErrorKind::NotADefinition,
            "",
            NOT_A_LIST,
        )),
    }
}

/// The name a definition gives its tool, in any shape, whether or not its schema loads.
fn definition_name(definition: &Node<'_>) -> Option<String> {
    let tool = match member(definition, "function") {
        Some(function @ Node::Object(_)) => function,
        _ => definition,
    };
    match member(tool, "name") {
        Some(Node::String(name)) => Some(name.as_ref().to_owned()),
        _ => None,
    }
}

fn member<'n, 'a>(node: &'n Node<'a>, key: &str) -> Option<&'n Node<'a>> {
    match node {
        Node::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// True when `node` has more than `levels` levels of arrays and objects (itself included).
fn exceeds_depth(node: &Node<'_>, levels: usize) -> bool {
    match node {
        Node::Array(items) => levels == 0 || items.iter().any(|n| exceeds_depth(n, levels - 1)),
        Node::Object(members) => {
            levels == 0 || members.iter().any(|(_, n)| exceeds_depth(n, levels - 1))
        }
        _ => false,
    }
}

#[cfg(test)]
mod by_name_tests {
    use super::load_tool_list_lenient;

    #[test]
    fn specs_by_name_leave_out_what_a_call_cannot_name() {
        let text = r#"{"tools": [
            {"name": "refund", "inputSchema": {"type": "object"}},
            {"name": "remote", "inputSchema": {"$ref": "https://example.com/s.json"}},
            {"name": "refund", "inputSchema": {"type": "object", "properties": {"a": {}}}},
            {"name": "lookup", "inputSchema": {"type": "object"}}
        ]}"#;
        let named = load_tool_list_lenient(text).unwrap().by_name();
        let names: Vec<&str> = named.specs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["refund", "lookup"]);
        let unchecked: Vec<(Option<&str>, &str)> = named
            .unchecked
            .iter()
            .map(|(n, why)| (n.as_deref(), why.as_str()))
            .collect();
        assert_eq!(unchecked.len(), 2, "{unchecked:?}");
        assert_eq!(unchecked[0].0, Some("remote"));
        assert_eq!(
            unchecked[1],
            (Some("refund"), "a second definition of this name")
        );
    }
}
