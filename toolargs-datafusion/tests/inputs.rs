//! `toolargs_check` on every string type, on nulls and on text that is not JSON.

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, LargeStringArray, RecordBatch, StringArray, StringViewArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::prelude::SessionContext;
use toolargs_replay::ToolSet;

const TOOLS: &str = r#"[
  {"name": "get_time", "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"]}},
  {"name": "set_alarm", "parameters": {"type": "object", "properties": {"minutes": {"type": "integer"}}, "required": ["minutes"]}},
  {"name": "book_room", "parameters": {"type": "object", "properties": {"nights": {"type": "no-such-type"}}}}
]"#;

/// `(outcome, codes, rules)` of every row of `SELECT toolargs_check(...) AS c ...`.
async fn outcomes(ctx: &SessionContext, sql: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    let batches = ctx
        .sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    let list = |array: &ArrayRef, row: usize| -> Vec<String> {
        let values = array.as_list::<i32>().value(row);
        let values = values.as_string::<i32>();
        (0..values.len())
            .map(|i| values.value(i).to_owned())
            .collect()
    };
    let mut out = Vec::new();
    for batch in batches {
        let c = batch.column(0).as_struct();
        let outcome = c
            .column_by_name("outcome")
            .expect("outcome")
            .as_string::<i32>();
        let codes = c.column_by_name("codes").expect("codes");
        let rules = c.column_by_name("rules").expect("rules");
        for row in 0..batch.num_rows() {
            out.push((
                outcome.value(row).to_owned(),
                list(codes, row),
                list(rules, row),
            ));
        }
    }
    out
}

fn context() -> SessionContext {
    let ctx = SessionContext::new();
    let tools = ToolSet::from_json_lenient(TOOLS).expect("tools load");
    assert_eq!(tools.refused().len(), 1);
    toolargs_datafusion::register(&ctx, Arc::new(tools));
    ctx
}

fn rows() -> (Vec<Option<&'static str>>, Vec<Option<&'static str>>) {
    let tool = vec![
        Some("get_time"),
        Some("set_alarm"),
        Some("set_alarm"),
        Some("get_time"),
        Some("get_time"),
        Some("book_room"),
        Some("no_such_tool"),
        None,
        Some("set_alarm"),
        Some("get_time"),
    ];
    let arguments = vec![
        Some(r#"{"zone":"UTC"}"#),
        Some(r#"{"minutes":"15"}"#),
        Some(r#"{"minutes":"15.5"}"#),
        None,
        Some("{not json"),
        Some(r#"{"nights":2}"#),
        Some("{}"),
        Some("{}"),
        Some(""),
        Some("\u{0}\u{ffff}]]]"),
    ];
    (tool, arguments)
}

fn check_rows(got: &[(String, Vec<String>, Vec<String>)]) {
    let outcome: Vec<&str> = got.iter().map(|(o, _, _)| o.as_str()).collect();
    assert_eq!(
        outcome,
        [
            "clean",
            "repaired",
            "rejected",
            "missing_arguments",
            "rejected",
            "unchecked",
            "unknown_tool",
            "missing_tool",
            "rejected",
            "rejected",
        ]
    );
    assert_eq!(got[1].2, ["numeric_string_to_int"]);
    assert!(got[1].1.is_empty());
    assert!(got[2].2.is_empty() && !got[2].1.is_empty());
    for (outcome, codes, rules) in got {
        if outcome == "rejected" {
            assert!(!codes.is_empty(), "a rejection has a code");
        } else {
            assert!(codes.is_empty());
        }
        if outcome != "repaired" {
            assert!(rules.is_empty());
        }
    }
}

#[tokio::test]
async fn every_string_type() {
    let (tool, arguments) = rows();
    let columns: Vec<(&str, ArrayRef, ArrayRef)> = vec![
        (
            "utf8",
            Arc::new(StringArray::from(tool.clone())),
            Arc::new(StringArray::from(arguments.clone())),
        ),
        (
            "large",
            Arc::new(LargeStringArray::from(tool.clone())),
            Arc::new(LargeStringArray::from(arguments.clone())),
        ),
        (
            "view",
            Arc::new(StringViewArray::from(tool.clone())),
            Arc::new(StringViewArray::from(arguments.clone())),
        ),
        (
            "mixed",
            Arc::new(StringViewArray::from(tool.clone())),
            Arc::new(LargeStringArray::from(arguments.clone())),
        ),
    ];
    let ctx = context();
    for (name, tool, arguments) in columns {
        let schema = Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("tool", tool.data_type().clone(), true),
            Field::new("arguments", arguments.data_type().clone(), true),
        ]);
        let ids = Arc::new(datafusion::arrow::array::Int64Array::from_iter_values(
            0..tool.len() as i64,
        ));
        let batch =
            RecordBatch::try_new(Arc::new(schema), vec![ids, tool, arguments]).expect("a batch");
        ctx.register_batch(name, batch).expect("register");
        let got = outcomes(
            &ctx,
            &format!("SELECT toolargs_check(tool, arguments) AS c FROM {name} ORDER BY id"),
        )
        .await;
        check_rows(&got);
    }
}

#[tokio::test]
async fn literals_and_nulls() {
    let ctx = context();
    let got = outcomes(
        &ctx,
        r#"SELECT toolargs_check('get_time', '{"zone":"UTC"}') AS c
           UNION ALL SELECT toolargs_check(NULL, NULL)
           UNION ALL SELECT toolargs_check('get_time', NULL)
           UNION ALL SELECT toolargs_check(NULL, '{}')
           UNION ALL SELECT toolargs_check(arrow_cast('set_alarm', 'Utf8View'), arrow_cast('{"minutes":"7"}', 'LargeUtf8'))"#,
    )
    .await;
    let mut outcome: Vec<&str> = got.iter().map(|(o, _, _)| o.as_str()).collect();
    outcome.sort_unstable();
    assert_eq!(
        outcome,
        [
            "clean",
            "missing_arguments",
            "missing_arguments",
            "missing_tool",
            "repaired"
        ]
    );
}

#[tokio::test]
async fn a_single_tool_needs_no_name() {
    let ctx = SessionContext::new();
    let tools = ToolSet::from_json_lenient(
        r#"[{"name": "get_time", "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}}}]"#,
    )
    .expect("tools load");
    toolargs_datafusion::register(&ctx, Arc::new(tools));
    let got = outcomes(
        &ctx,
        r#"SELECT toolargs_check(NULL, '{"zone":"UTC"}') AS c"#,
    )
    .await;
    assert_eq!(got[0].0, "clean");
}

#[tokio::test]
async fn other_types_are_a_planning_error() {
    let ctx = context();
    let Err(err) = ctx.sql("SELECT toolargs_check('get_time', 42)").await else {
        panic!("an integer is not a string");
    };
    assert!(err.to_string().contains("must be a string"), "{err}");
    assert!(ctx.sql("SELECT toolargs_check('get_time')").await.is_err());
}
