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
# after round, in wall time and in CPU time (user + system, every thread of the process): on a
# machine shared with other work the CPU time is the steadier measure of throughput per core.
# Ratios are medians of the per-round ratios. Before the rounds, both must count the same
# clean, repaired and rejected calls.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(realpath "$1")
corpus=$(realpath "$2")
runs=${RUNS:-5}

if [ -z "${TOOLARGS:-}" ]; then
    cargo build --release --quiet -p toolargs-cli
fi
cli=${TOOLARGS:-${CARGO_TARGET_DIR:-target}/release/toolargs}
cargo build --release --quiet --manifest-path toolargs-datafusion/Cargo.toml --example throughput
df=${CARGO_TARGET_DIR:-toolargs-datafusion/target}/release/examples/throughput
lines=$(wc -l < "$corpus")
parquet=toolargs-datafusion/target/throughput/$(basename "$corpus" .jsonl)
rm -rf "$parquet"
"$df" prepare "$corpus" "$parquet"

# "WALL CPU" seconds of one run of the given command.
seconds() {
    local TIMEFORMAT='%R %U %S'
    { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ print $1, $2 + $3 }'
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

cli_wall=() cli_cpu=() df_wall=() df_cpu=() wall_ratios=() cpu_ratios=()
for round in $(seq "$runs"); do
    read -r w c < <(seconds "$cli" replay --jobs 1 --tools "$tools" --format json "$corpus")
    cli_wall+=("$w") cli_cpu+=("$c")
    read -r w c < <(seconds "$df" run "$tools" "$parquet")
    df_wall+=("$w") df_cpu+=("$c")
    wall_ratios+=("$(awk "BEGIN { print ${df_wall[-1]} / ${cli_wall[-1]} }")")
    cpu_ratios+=("$(awk "BEGIN { print ${df_cpu[-1]} / ${cli_cpu[-1]} }")")
    echo "round $round: toolargs replay --jobs 1 ${cli_wall[-1]} s (cpu ${cli_cpu[-1]} s)," \
        "DataFusion ${df_wall[-1]} s (cpu ${df_cpu[-1]} s)" >&2
done

report() {
    local wall cpu
    wall=$(printf '%s\n' $2 | median)
    cpu=$(printf '%s\n' $3 | median)
    printf '%-36s wall %7.3f s  cpu %7.3f s  %9.0f calls per cpu-second  (median of %d)\n' \
        "$1" "$wall" "$cpu" "$(awk "BEGIN { print $lines / $cpu }")" "$runs"
}

echo "corpus: $lines lines; machine: $(nproc) cores, $(rustc --version)"
report "toolargs replay --jobs 1 (JSONL)" "${cli_wall[*]}" "${cli_cpu[*]}"
report "toolargs_check, 1 thread (Parquet)" "${df_wall[*]}" "${df_cpu[*]}"
printf 'DataFusion / replay, median of rounds: %.2fx the cpu time, %.2fx the wall time\n' \
    "$(printf '%s\n' "${cpu_ratios[@]}" | median)" "$(printf '%s\n' "${wall_ratios[@]}" | median)"
