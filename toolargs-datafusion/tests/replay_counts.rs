//! The counts of SQL over `toolargs_check` equal those of a replay of the same calls.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Int64Type, UInt64Type};
use datafusion::prelude::{JsonReadOptions, ParquetReadOptions, SessionConfig, SessionContext};
use serde_json::{json, Map, Value};
use toolargs_replay::{Replayer, Report, Tally, ToolSet, BAD_LINES_KEPT};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../toolargs-cli/tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fresh directory for this test's Parquet files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn query(ctx: &SessionContext, sql: &str) -> Vec<RecordBatch> {
    ctx.sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The string of column `c` at `row`, `None` when null.
fn text(batch: &RecordBatch, c: usize, row: usize) -> Option<String> {
    let column = batch.column(c);
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Utf8 => column.as_string::<i32>().value(row).to_owned(),
        DataType::LargeUtf8 => column.as_string::<i64>().value(row).to_owned(),
        DataType::Utf8View => column.as_string_view().value(row).to_owned(),
        other => panic!("column {c} is {other}, not a string"),
    })
}

fn int(batch: &RecordBatch, c: usize, row: usize) -> u64 {
    let column = batch.column(c);
    match column.data_type() {
        DataType::Int64 => column.as_primitive::<Int64Type>().value(row) as u64,
        DataType::UInt64 => column.as_primitive::<UInt64Type>().value(row),
        other => panic!("column {c} is {other}, not an integer"),
    }
}

/// `(key, count)` rows of a `SELECT key, count(*) ... GROUP BY key` query.
async fn counts(ctx: &SessionContext, sql: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for batch in query(ctx, sql).await {
        for row in 0..batch.num_rows() {
            let key = text(&batch, 0, row).unwrap_or_default();
            *out.entry(key).or_default() += int(&batch, 1, row);
        }
    }
    out
}

fn object(counts: &BTreeMap<String, u64>) -> Value {
    Value::Object(counts.iter().map(|(k, n)| (k.clone(), json!(n))).collect())
}

/// A replay tally's counters as JSON (the fields `Tally::to_json` writes them under).
fn replay_json(t: &Tally) -> Value {
    let bad: Map<String, Value> = t
        .bad_records
        .iter()
        .map(|(reason, n)| {
            let lines = t.bad_lines.get(reason).cloned().unwrap_or_default();
            (
                reason.as_str().to_owned(),
                json!({"count": n, "first_lines": lines}),
            )
        })
        .collect();
    json!({
        "total": t.total,
        "ok_clean": t.ok_clean,
        "ok_repaired": t.ok_repaired,
        "rejected": t.rejected,
        "unchecked": t.unchecked,
        "unchecked_tools": t.unchecked_tools,
        "bad_records": bad,
        "repairs": t.repairs,
        "rejections": t.rejections,
    })
}

/// The counters of the rows that pass `filter`, in the shape of [`replay_json`], from SQL
/// over the view `checked` (`line`, `tool`, `model`, and `c`, the function's result).
/// `not_json` and `not_object` are the lines that are not records (no rows).
async fn tally_json(
    ctx: &SessionContext,
    filter: &str,
    not_json: &[u64],
    not_object: &[u64],
) -> Value {
    let outcomes = counts(
        ctx,
        &format!(
            "SELECT get_field(c, 'outcome') AS outcome, count(*) AS n FROM checked WHERE {filter} \
             GROUP BY outcome"
        ),
    )
    .await;
    let repairs = counts(
        ctx,
        &format!(
            "SELECT rule, count(*) FROM (SELECT unnest(get_field(c, 'rules')) AS rule FROM checked \
             WHERE {filter}) GROUP BY rule"
        ),
    )
    .await;
    let rejections = counts(
        ctx,
        &format!(
            "SELECT code, count(*) FROM (SELECT unnest(get_field(c, 'codes')) AS code FROM checked \
             WHERE {filter}) GROUP BY code"
        ),
    )
    .await;
    let unchecked_tools = counts(
        ctx,
        &format!(
            "SELECT coalesce(tool, ''), count(*) FROM checked \
             WHERE {filter} AND get_field(c, 'outcome') = 'unchecked' GROUP BY tool"
        ),
    )
    .await;

    // Bad records: the rows the function names as such, and the lines that are not records.
    let mut bad: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let sql = format!(
        "SELECT get_field(c, 'outcome'), line FROM checked WHERE {filter} AND get_field(c, 'outcome') NOT IN \
         ('clean', 'repaired', 'rejected', 'unchecked') ORDER BY line"
    );
    for batch in query(ctx, &sql).await {
        for row in 0..batch.num_rows() {
            let reason = text(&batch, 0, row).unwrap_or_default();
            bad.entry(reason).or_default().push(int(&batch, 1, row));
        }
    }
    for (reason, lines) in [("not_json", not_json), ("not_object", not_object)] {
        if !lines.is_empty() {
            bad.entry(reason.to_owned()).or_default().extend(lines);
        }
    }
    let bad_records: Map<String, Value> = bad
        .into_iter()
        .map(|(reason, mut lines)| {
            lines.sort_unstable();
            let count = lines.len();
            lines.truncate(BAD_LINES_KEPT);
            (reason, json!({"count": count, "first_lines": lines}))
        })
        .collect();

    let n = |k: &str| outcomes.get(k).copied().unwrap_or(0);
    let rows: u64 = outcomes.values().sum();
    json!({
        "total": rows + (not_json.len() + not_object.len()) as u64,
        "ok_clean": n("clean"),
        "ok_repaired": n("repaired"),
        "rejected": n("rejected"),
        "unchecked": n("unchecked"),
        "unchecked_tools": object(&unchecked_tools),
        "bad_records": bad_records,
        "repairs": object(&repairs),
        "rejections": object(&rejections),
    })
}

/// Replays `log` against `tools_json` with `toolargs_replay::Replayer`, writes the same calls to
/// Parquet, and checks that SQL over `toolargs_check` counts exactly what the report counts,
/// overall and per model.
async fn same_counts_as_replay(tools_json: &str, log: &str, name: &str, config: SessionConfig) {
    let calls = common::calls_from_json_lines(log, &["model"]);
    let dir = scratch(name);
    common::write_parquet(&calls.batch, &dir, 3, 16);
    let ctx = SessionContext::new_with_config(config);
    ctx.register_parquet(
        "calls",
        dir.to_str().expect("a UTF-8 path"),
        ParquetReadOptions::default(),
    )
    .await
    .expect("register the Parquet files");
    compare(
        &ctx,
        tools_json,
        log,
        name,
        &calls.not_json,
        &calls.not_object,
    )
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checks that SQL over `toolargs_check` on the table `calls` of `ctx` counts what a replay of
/// `log` counts, overall and per model. `not_json` and `not_object` are the lines of the log
/// that are not records, which the table has no row for.
async fn compare(
    ctx: &SessionContext,
    tools_json: &str,
    log: &str,
    name: &str,
    not_json: &[u64],
    not_object: &[u64],
) {
    let tools = ToolSet::from_json_lenient(tools_json).expect("the fixture's tools load");
    let report: Report = Replayer::new(&tools, vec!["model".to_owned()])
        .run(log.as_bytes(), 1, |_| {})
        .expect("replay");
    toolargs_datafusion::register(ctx, Arc::new(tools));
    query(
        ctx,
        "CREATE VIEW checked AS SELECT line, tool, model, toolargs_check(tool, arguments) AS c \
         FROM calls",
    )
    .await;

    let overall = tally_json(ctx, "true", not_json, not_object).await;
    assert_eq!(overall, replay_json(&report.overall), "{name}: overall");
    assert!(report.overall.calls() > 0, "{name}: the fixture has calls");

    // Replay groups the records it could read; the lines that are not records are in no group.
    assert!(!report.groups.is_empty());
    for (key, tally) in report.groups.values() {
        let filter = match &key[..] {
            [Value::String(model)] => format!("model = '{}'", model.replace('\'', "''")),
            [Value::Null] => "model IS NULL".to_owned(),
            other => panic!("unexpected group key {other:?}"),
        };
        let group = tally_json(ctx, &filter, &[], &[]).await;
        assert_eq!(group, replay_json(tally), "{name}: group {filter}");
    }
}

#[tokio::test]
async fn counts_equal_replay_on_the_cli_fixture() {
    same_counts_as_replay(
        &fixture("tools.json"),
        &fixture("calls.jsonl"),
        "cli_fixture",
        SessionConfig::new(),
    )
    .await;
}

#[tokio::test]
async fn counts_equal_replay_with_refused_definitions() {
    same_counts_as_replay(
        &fixture("tools_partial.json"),
        &fixture("calls_partial.jsonl"),
        "partial_fixture",
        SessionConfig::new(),
    )
    .await;
}

/// The fixture many times over, in three files of several row groups, on four partitions.
#[tokio::test]
async fn counts_equal_replay_over_partitions() {
    let log = fixture("calls.jsonl").repeat(40);
    same_counts_as_replay(
        &fixture("tools.json"),
        &log,
        "partitions",
        SessionConfig::new()
            .with_target_partitions(4)
            .with_batch_size(64),
    )
    .await;
}

/// A JSON Lines log whose `arguments` are all strings reads straight into a table.
#[tokio::test]
async fn counts_equal_replay_from_json_lines() {
    // The fixture's records, less the one whose arguments are a decoded object (a field that
    // is a string on one line and an object on another has no single Arrow type), each with
    // its line number as a field.
    let mut log = String::new();
    for line in fixture("calls.jsonl").lines() {
        let Ok(Value::Object(mut record)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if record.get("arguments").is_some_and(|a| !a.is_string()) {
            continue;
        }
        let number = log.lines().count() + 1;
        record.insert("line".to_owned(), json!(number));
        log.push_str(&Value::Object(record).to_string());
        log.push('\n');
    }
    let dir = scratch("json_lines");
    std::fs::create_dir_all(&dir).expect("create the directory");
    let file = dir.join("calls.json");
    std::fs::write(&file, &log).expect("write the log");

    let ctx = SessionContext::new();
    ctx.register_json(
        "calls",
        file.to_str().expect("a UTF-8 path"),
        JsonReadOptions::default(),
    )
    .await
    .expect("register the JSON Lines file");
    compare(&ctx, &fixture("tools.json"), &log, "json_lines", &[], &[]).await;
    let _ = std::fs::remove_dir_all(&dir);
}
