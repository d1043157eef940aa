//! Throughput of `toolargs_check` over a Parquet copy of a JSON Lines log, on one core.
//!
//! ```sh
//! # Once: the log's records as Parquet (columns line, tool, arguments, model, prompt_version).
//! cargo run --release --example throughput -- prepare CORPUS.jsonl DIR
//! # Counts outcomes with SQL on one thread and one partition; prints seconds and counts.
//! cargo run --release --example throughput -- run TOOLS.json DIR [PARTITIONS]
//! ```
//!
//! `scripts/datafusion_throughput.sh` runs it against `toolargs replay --jobs 1`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use toolargs_replay::ToolSet;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["prepare", corpus, dir] => prepare(corpus, dir),
        ["run", tools, dir] => run(tools, dir, 1),
        ["run", tools, dir, partitions] => match partitions.parse() {
            Ok(n) => run(tools, dir, n),
            Err(e) => Err(format!("{partitions}: {e}")),
        },
        _ => Err(
            "usage: throughput prepare CORPUS.jsonl DIR | run TOOLS.json DIR [PARTITIONS]".into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("throughput: {message}");
            ExitCode::from(2)
        }
    }
}

fn prepare(corpus: &str, dir: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(corpus).map_err(|e| format!("{corpus}: {e}"))?;
    let calls = common::calls_from_json_lines(&text, &["model", "prompt_version"]);
    common::write_parquet(&calls.batch, std::path::Path::new(dir), 1, 65536);
    eprintln!(
        "{dir}: {} records ({} lines not JSON, {} not objects)",
        calls.batch.num_rows(),
        calls.not_json.len(),
        calls.not_object.len()
    );
    Ok(())
}

fn run(tools: &str, dir: &str, partitions: usize) -> Result<(), String> {
    let start = Instant::now();
    let text = std::fs::read_to_string(tools).map_err(|e| format!("{tools}: {e}"))?;
    let tools = ToolSet::from_json_lenient(&text).map_err(|e| format!("{tools}: {e}"))?;
    // One thread: the figure is per core.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let counts = runtime.block_on(async {
        let ctx = SessionContext::new_with_config(
            SessionConfig::new().with_target_partitions(partitions.max(1)),
        );
        toolargs_datafusion::register(&ctx, Arc::new(tools));
        ctx.register_parquet("calls", dir, ParquetReadOptions::default())
            .await?;
        ctx.sql(
            "SELECT get_field(c, 'outcome') AS outcome, count(*) AS n \
             FROM (SELECT toolargs_check(tool, arguments) AS c FROM calls) \
             GROUP BY outcome ORDER BY outcome",
        )
        .await?
        .collect()
        .await
    });
    let batches = counts.map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let mut line = Vec::new();
    for batch in &batches {
        let outcome = batch.column(0).as_string::<i32>();
        let n = batch.column(1).as_primitive::<Int64Type>();
        for row in 0..batch.num_rows() {
            if !outcome.is_null(row) {
                line.push(format!("{}={}", outcome.value(row), n.value(row)));
            }
        }
    }
    println!("{seconds:.4} {}", line.join(" "));
    Ok(())
}
