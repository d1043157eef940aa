//! Reads a tool definition in any of the shapes providers use, and finds its schema, name,
//! description and MCP annotations.

use toolargs_core::effect::Effect;
use toolargs_core::node::Node;
use toolargs_core::provider::Provider;

use crate::load::{member, LoadError, LoadErrorKind};

/// What a tool definition holds besides its schema.
pub(crate) struct ToolParts<'n, 'a> {
    pub name: Option<String>,
    pub description: Option<String>,
    pub effect: Option<Effect>,
    pub arguments: Arguments<'n, 'a>,
}

/// Where a definition's argument schema is.
pub(crate) enum Arguments<'n, 'a> {
    /// The definition is itself a schema.
    Bare,
    /// The schema and its JSON pointer in the definition.
    Schema(&'n Node<'a>, String),
    /// A tool that declares no parameters: it takes an empty object.
    Nothing,
}

pub(crate) fn string_member(node: &Node<'_>, key: &str) -> Option<String> {
    match member(node, key) {
        Some(Node::String(s)) => Some(s.as_ref().to_owned()),
        _ => None,
    }
}

/// Recognises every provider's shape, where [`Provider`] says a definition keeps its schema;
/// anything else is taken as a bare schema.
pub(crate) fn read_definition<'n, 'a>(def: &'n Node<'a>) -> Result<ToolParts<'n, 'a>, LoadError> {
    if !matches!(def, Node::Object(_)) {
        return Err(LoadError::new(
            LoadErrorKind::NotADefinition,
            "",
            "a tool definition must be a JSON object",
        ));
    }
    // Inside a wrapper (OpenAI chat's `function`) when there is one; that provider's schema
    // paths are tried first, then every provider's.
    let wrapped = Provider::ALL.into_iter().find_map(|provider| {
        let wrapper = provider.wrapper()?;
        match member(def, wrapper) {
            Some(inner @ Node::Object(_)) => Some((inner, format!("/{wrapper}"), provider)),
            _ => None,
        }
    });
    let (tool, prefix) = wrapped
        .as_ref()
        .map_or((def, String::new()), |(inner, prefix, _)| {
            (*inner, prefix.clone())
        });
    let own = wrapped.map(|(_, _, provider)| provider).into_iter();
    let paths = own
        .chain(Provider::ALL)
        .flat_map(|provider| provider.schema_paths().iter().copied());
    let found = paths.into_iter().find_map(|path| {
        let schema = path.iter().try_fold(tool, |node, key| member(node, key))?;
        Some((schema, format!("{prefix}/{}", path.join("/"))))
    });
    let effect = member(tool, "annotations").map(effect_from_annotations);
    let is_tool = found.is_some()
        || member(tool, "name").is_some()
            && prefix.is_empty()
            && member(def, "properties").is_none();
    if !is_tool {
        return Ok(ToolParts {
            name: None,
            description: None,
            effect: None,
            arguments: Arguments::Bare,
        });
    }
    Ok(ToolParts {
        name: string_member(tool, "name"),
        description: string_member(tool, "description"),
        effect,
        arguments: match found {
            Some((schema, pointer)) => Arguments::Schema(schema, pointer),
            None => Arguments::Nothing,
        },
    })
}

/// MCP's hints, with its defaults where absent ([`Effect::from_mcp_hints`]).
fn effect_from_annotations(annotations: &Node<'_>) -> Effect {
    Effect::from_mcp_hints(|key| match member(annotations, key) {
        Some(Node::Bool(b)) => Some(*b),
        _ => None,
    })
}
