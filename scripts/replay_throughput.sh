#!/usr/bin/env bash
# Times `toolargs replay` on a JSON Lines corpus, on one worker and on all cores, optionally
# side by side with another replay command run on the same file.
#
#   scripts/replay_throughput.sh TOOLS.json CORPUS.jsonl [REFERENCE COMMAND...]
#   RUNS=9 scripts/replay_throughput.sh ...      # rounds (default 5)
#
# The reference command gets the corpus path appended, e.g. `python3 replay.py`. The commands
# run interleaved, round after round, so a machine that speeds up or slows down during the
# measurement (shared cores, frequency changes) affects every contender alike; the ratio is the
# median of the per-round ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(realpath "$1")
corpus=$(realpath "$2")
shift 2
runs=${RUNS:-5}

cargo build --release --quiet -p toolargs-cli
bin=${CARGO_TARGET_DIR:-target}/release/toolargs
lines=$(wc -l < "$corpus")

# Wall seconds of one run of the given command. The clock is bash's own (5.0 and later):
# starting `date` for each reading would add about a millisecond and a half to every run.
timed() {
    local start end
    start=$EPOCHREALTIME
    "$@" > /dev/null
    end=$EPOCHREALTIME
    awk "BEGIN { print $end - $start }"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

one=() all=() ref=() ratio_all=() ratio_one=()
for round in $(seq "$runs"); do
    one+=("$(timed "$bin" replay --jobs 1 --tools "$tools" --format json "$corpus")")
    all+=("$(timed "$bin" replay --tools "$tools" --format json "$corpus")")
    if [ $# -gt 0 ]; then
        ref+=("$(timed "$@" "$corpus")")
        ratio_all+=("$(awk "BEGIN { print ${ref[-1]} / ${all[-1]} }")")
        ratio_one+=("$(awk "BEGIN { print ${ref[-1]} / ${one[-1]} }")")
    fi
    echo "round $round: one worker ${one[-1]} s, all cores ${all[-1]} s${ref:+, reference ${ref[-1]} s}" >&2
done

report() {
    local m
    m=$(printf '%s\n' "${@:2}" | median)
    printf '%-30s %8.3f s  %10.0f lines/s  (median of %d)\n' "$1" "$m" "$(awk "BEGIN { print $lines / $m }")" "$runs"
}

echo "corpus: $lines lines; machine: $(nproc) cores, $(rustc --version)"
report "toolargs replay --jobs 1" "${one[@]}"
report "toolargs replay (all cores)" "${all[@]}"
if [ $# -gt 0 ]; then
    report "reference" "${ref[@]}"
    printf 'ratio (median of rounds): %.1fx on all cores, %.1fx on one worker\n' \
        "$(printf '%s\n' "${ratio_all[@]}" | median)" "$(printf '%s\n' "${ratio_one[@]}" | median)"
fi
