#!/usr/bin/env bash
# Times `toolargs replay` on a JSON Lines corpus (best of N runs), on one core and on all cores,
# optionally side by side with another replay command run on the same file.
#
#   scripts/replay_throughput.sh TOOLS.json CORPUS.jsonl [REFERENCE COMMAND...]
#
# The reference command gets the corpus path appended, e.g. `python3 replay.py`.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(realpath "$1")
corpus=$(realpath "$2")
shift 2
runs=${RUNS:-3}

cargo build --release --quiet -p toolargs-cli
bin=target/release/toolargs
lines=$(wc -l < "$corpus")

# Best wall time in seconds of `runs` runs of the given command.
best() {
    local best=""
    for _ in $(seq "$runs"); do
        local start end took
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        took=$(awk "BEGIN { print $end - $start }")
        if [ -z "$best" ] || awk "BEGIN { exit !($took < $best) }"; then best=$took; fi
    done
    echo "$best"
}

report() {
    printf '%-28s %8.3f s  %12.0f lines/s\n' "$1" "$2" "$(awk "BEGIN { print $lines / $2 }")"
}

echo "corpus: $lines lines; machine: $(nproc) cores, $(rustc --version)"
one=$(best "$bin" replay --jobs 1 --tools "$tools" --format json "$corpus")
all=$(best "$bin" replay --tools "$tools" --format json "$corpus")
report "toolargs replay --jobs 1" "$one"
report "toolargs replay (all cores)" "$all"
if [ $# -gt 0 ]; then
    ref=$(best "$@" "$corpus")
    report "reference" "$ref"
    printf 'ratio: %.1fx on all cores, %.1fx on one core\n' "$(awk "BEGIN { print $ref / $all }")" "$(awk "BEGIN { print $ref / $one }")"
fi
