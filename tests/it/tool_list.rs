//! Lists of tool definitions: the strict loader fails the list, the lenient one refuses only the
//! definition that does not load.

use toolargs::dynamic::{load_tool_list, load_tool_list_lenient};

const GOOD_A: &str = r#"{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}"#;
const BROKEN: &str = r#"{"name": "book_room", "input_schema": {"type": "object", "properties": {"nights": {"type": "no-such-type"}}}}"#;
const GOOD_B: &str = r#"{"name": "get_time", "inputSchema": {"type": "object", "properties": {}}}"#;

#[test]
fn a_broken_definition_is_refused_and_the_others_load() {
    for (text, prefix) in [
        (format!("[{GOOD_A}, {BROKEN}, {GOOD_B}]"), ""),
        (
            format!(r#"{{"tools": [{GOOD_A}, {BROKEN}, {GOOD_B}]}}"#),
            "/tools",
        ),
    ] {
        let list = load_tool_list_lenient(&text).unwrap();
        let names: Vec<_> = list.specs.iter().map(|s| s.name()).collect();
        assert_eq!(names, [Some("get_weather"), Some("get_time")]);
        assert_eq!(list.len(), 3);
        assert_eq!(
            list.indexed_specs().map(|(i, _)| i).collect::<Vec<_>>(),
            [0, 2]
        );
        assert_eq!(list.pointer(1), format!("{prefix}/1"));

        assert_eq!(list.refused.len(), 1);
        let refused = &list.refused[0];
        assert_eq!(refused.index, 1);
        assert_eq!(refused.name.as_deref(), Some("book_room"));
        assert_eq!(
            refused.error.pointer,
            format!("{prefix}/1/input_schema/properties/nights/type")
        );
        assert!(
            refused.error.message.contains("no-such-type"),
            "{}",
            refused.error.message
        );

        // The strict loader fails the list with the same error.
        assert_eq!(load_tool_list(&text).unwrap_err(), refused.error);
    }
}

#[test]
fn the_name_of_a_refused_definition_is_read_in_every_shape() {
    let text = r#"[
        {"type": "function", "function": {"name": "chat_shape", "parameters": {"type": "nope"}}},
        {"type": "function", "name": "responses_shape", "parameters": {"type": "nope"}},
        {"name": "mcp_shape", "inputSchema": {"type": "nope"}},
        {"parameters": {"type": "nope"}},
        {"name": 7, "parameters": {"type": "nope"}},
        "not an object",
        {"name": "fine", "parameters": {"type": "object"}}
    ]"#;
    let list = load_tool_list_lenient(text).unwrap();
    let refused: Vec<(usize, Option<&str>)> = list
        .refused
        .iter()
        .map(|r| (r.index, r.name.as_deref()))
        .collect();
    assert_eq!(
        refused,
        [
            (0, Some("chat_shape")),
            (1, Some("responses_shape")),
            (2, Some("mcp_shape")),
            (3, None),
            (4, None),
            (5, None),
        ]
    );
    assert_eq!(list.refused[5].error.pointer, "/5");
    assert_eq!(
        list.indexed_specs()
            .map(|(i, s)| (i, s.name()))
            .collect::<Vec<_>>(),
        [(6, Some("fine"))]
    );
}

#[test]
fn only_text_that_is_not_a_list_of_definitions_fails() {
    for text in ["", "[", r#"{"name": "x"}"#, r#"{"tools": {}}"#, "42"] {
        assert!(load_tool_list_lenient(text).is_err(), "{text}");
    }
    let empty = load_tool_list_lenient("[]").unwrap();
    assert!(empty.is_empty() && empty.refused.is_empty());
}

/// A definition `levels` containers deep (itself included), through its `examples`.
fn deep_definition(levels: usize) -> String {
    // The definition, `parameters`, `properties`, `a`: 4 levels, then arrays.
    let arrays = levels - 4;
    format!(
        r#"{{"name": "deep", "parameters": {{"type": "object", "properties": {{"a": {{"type": "string", "examples": {}{}}}}}}}}}"#,
        "[".repeat(arrays),
        "]".repeat(arrays)
    )
}

#[test]
fn a_definition_nested_too_deeply_is_refused_alone_where_the_strict_loader_fails_the_list() {
    let good = r#"{"name": "fine", "parameters": {"type": "object"}}"#;
    for levels in [60, 62, 63, 64, 65, 100, 120] {
        for (open, close, above) in [("[", "]", 1), (r#"{"tools": ["#, "]}", 2)] {
            let text = format!("{open}{good}, {}{close}", deep_definition(levels));
            let strict = load_tool_list(&text);
            let lenient = load_tool_list_lenient(&text).unwrap();
            assert_eq!(lenient.specs[0].name(), Some("fine"));
            // Both loaders agree on whether the deep definition loads.
            assert_eq!(
                strict.is_ok(),
                lenient.refused.is_empty(),
                "{levels} levels, {above} above: {strict:?} / {:?}",
                lenient.refused
            );
            // The text may be 64 levels deep in all.
            assert_eq!(lenient.refused.is_empty(), levels + above <= 64);
            if let Some(refused) = lenient.refused.first() {
                assert_eq!(refused.name.as_deref(), Some("deep"));
                assert!(
                    refused.error.message.contains("nested too deeply"),
                    "{levels}: {refused:?}"
                );
            }
        }
    }
    // Far deeper than any schema: the text itself is refused.
    let text = format!("[{good}, {}]", deep_definition(400));
    assert!(load_tool_list_lenient(&text).is_err());
}
