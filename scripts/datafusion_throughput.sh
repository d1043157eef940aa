#!/usr/bin/env bash
# Throughput per core of the DataFusion function (`toolargs-datafusion`, SQL over a Parquet copy
# of the log, one thread, one partition) against `toolargs replay --jobs 1` on the same calls.
#
#   scripts/datafusion_throughput.sh TOOLS.json CORPUS.jsonl
#   RUNS=9 scripts/datafusion_throughput.sh ...      # rounds (default 5)
#   TOOLARGS=path/to/toolargs scripts/datafusion_throughput.sh ...   # another build of the CLI
#
# The Parquet copy is written once, before the rounds (toolargs-datafusion/target/throughput/).
# Both contenders are timed as whole processes (loading the tools included), interleaved round
# after round; the ratio is the median of the per-round ratios. The first round also checks
# that both count the same clean, repaired and rejected calls.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(realpath "$1")
corpus=$(realpath "$2")
runs=${RUNS:-5}

if [ -z "${TOOLARGS:-}" ]; then
    cargo build --release --quiet -p toolargs-cli
fi
cli=${TOOLARGS:-target/release/toolargs}
cargo build --release --quiet --manifest-path toolargs-datafusion/Cargo.toml --example throughput
df=toolargs-datafusion/target/release/examples/throughput
lines=$(wc -l < "$corpus")
parquet=toolargs-datafusion/target/throughput/$(basename "$corpus" .jsonl)
rm -rf "$parquet"
"$df" prepare "$corpus" "$parquet"

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    awk "BEGIN { print $end - $start }"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The same counts from both.
json=$("$cli" replay --jobs 1 --tools "$tools" --format json "$corpus")
field() { printf '%s\n' "$json" | sed -n "s/^  \"$1\": \([0-9]*\),\$/\1/p"; }
expected="clean=$(field ok_clean) rejected=$(field rejected) repaired=$(field ok_repaired)"
got=$("$df" run "$tools" "$parquet" | cut -d' ' -f2-)
got=$(printf '%s\n' $got | grep -E '^(clean|rejected|repaired)=' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$expected" ]; then
    echo "counts differ: toolargs replay: $expected; DataFusion: $got" >&2
    exit 1
fi
echo "same counts: $got" >&2

cli_times=() df_times=() ratios=()
for round in $(seq "$runs"); do
    cli_times+=("$(seconds "$cli" replay --jobs 1 --tools "$tools" --format json "$corpus")")
    df_times+=("$(seconds "$df" run "$tools" "$parquet")")
    ratios+=("$(awk "BEGIN { print ${df_times[-1]} / ${cli_times[-1]} }")")
    echo "round $round: toolargs replay --jobs 1 ${cli_times[-1]} s, DataFusion ${df_times[-1]} s" >&2
done

report() {
    local m
    m=$(printf '%s\n' "${@:2}" | median)
    printf '%-36s %8.3f s  %10.0f calls/s  (median of %d)\n' "$1" "$m" "$(awk "BEGIN { print $lines / $m }")" "$runs"
}

echo "corpus: $lines lines; machine: $(nproc) cores, $(rustc --version)"
report "toolargs replay --jobs 1 (JSONL)" "${cli_times[@]}"
report "toolargs_check, 1 thread (Parquet)" "${df_times[@]}"
printf 'time ratio DataFusion / replay (median of rounds): %.2fx\n' "$(printf '%s\n' "${ratios[@]}" | median)"
