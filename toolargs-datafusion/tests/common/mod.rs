//! JSON Lines logs of tool calls (replay's record shape) as Arrow batches and Parquet files.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringBuilder, UInt64Builder};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::file::properties::WriterProperties;
use serde_json::Value;

/// A log read into columns: one row per record, the lines that are not records aside.
pub struct Calls {
    pub batch: RecordBatch,
    /// Lines (1-based) that are not JSON, or JSON but not an object: replay's `not_json` and
    /// `not_object` bad records, which have no row.
    pub not_json: Vec<u64>,
    pub not_object: Vec<u64>,
}

/// Reads a JSON Lines log into the columns `line` (1-based), `tool`, `arguments` and the
/// `extra` fields, as replay reads its records: blank lines are skipped; a `tool` that is not a
/// string is the empty name, a missing or `null` one is `NULL`; `arguments` is the text the
/// model sent, or the JSON text of arguments logged as decoded JSON, and `NULL` when the record
/// has none. An extra field that is not a string is kept as its JSON text.
pub fn calls_from_json_lines(text: &str, extra: &[&str]) -> Calls {
    let mut line_no = UInt64Builder::new();
    let mut tool = StringBuilder::new();
    let mut arguments = StringBuilder::new();
    let mut extras: Vec<StringBuilder> = extra.iter().map(|_| StringBuilder::new()).collect();
    let (mut not_json, mut not_object) = (Vec::new(), Vec::new());
    for (index, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let number = index as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            not_json.push(number);
            continue;
        };
        let Value::Object(record) = value else {
            not_object.push(number);
            continue;
        };
        line_no.append_value(number);
        match record.get("tool") {
            None | Some(Value::Null) => tool.append_null(),
            Some(Value::String(name)) => tool.append_value(name),
            Some(_) => tool.append_value(""),
        }
        match record.get("arguments") {
            None => arguments.append_null(),
            Some(Value::String(text)) => arguments.append_value(text),
            Some(decoded) => arguments.append_value(decoded.to_string()),
        }
        for (name, column) in extra.iter().zip(&mut extras) {
            match record.get(*name) {
                None | Some(Value::Null) => column.append_null(),
                Some(Value::String(s)) => column.append_value(s),
                Some(other) => column.append_value(other.to_string()),
            }
        }
    }
    let mut fields = vec![
        Field::new("line", DataType::UInt64, false),
        Field::new("tool", DataType::Utf8, true),
        Field::new("arguments", DataType::Utf8, true),
    ];
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(line_no.finish()),
        Arc::new(tool.finish()),
        Arc::new(arguments.finish()),
    ];
    for (name, mut column) in extra.iter().zip(extras) {
        fields.push(Field::new(*name, DataType::Utf8, true));
        columns.push(Arc::new(column.finish()));
    }
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
        .expect("columns match the schema");
    Calls {
        batch,
        not_json,
        not_object,
    }
}

/// Writes `batch` to `files` Parquet files in `dir` (`part-N.parquet`), splitting its rows
/// evenly, with row groups of at most `row_group` rows.
pub fn write_parquet(batch: &RecordBatch, dir: &Path, files: usize, row_group: usize) {
    std::fs::create_dir_all(dir).expect("create the Parquet directory");
    let files = files.max(1);
    let per_file = batch.num_rows().div_ceil(files).max(1);
    let properties = WriterProperties::builder()
        .set_max_row_group_row_count(Some(row_group.max(1)))
        .build();
    for part in 0..files {
        let start = (part * per_file).min(batch.num_rows());
        let len = per_file.min(batch.num_rows() - start);
        let file = File::create(dir.join(format!("part-{part}.parquet"))).expect("create file");
        let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(properties.clone()))
            .expect("a Parquet writer");
        writer.write(&batch.slice(start, len)).expect("write rows");
        writer.close().expect("close the Parquet file");
    }
}
