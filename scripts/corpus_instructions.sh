#!/usr/bin/env bash
# Instructions per call of serde and toolargs on each set of the corpus benchmark
# (benches/corpus.rs), counted by callgrind over one pass of the set and nothing else: a figure
# that does not drift with the machine's speed, for comparing two builds.
#
#   scripts/corpus.sh && scripts/corpus_instructions.sh
#   scripts/corpus_instructions.sh "five_errors/all shipment/clean"
#   BENCH=path/to/corpus-binary scripts/corpus_instructions.sh   # another build
#   scripts/corpus_instructions.sh "refund_compact/clean" "serde serde_scan toolargs_read toolargs"
#   scripts/corpus_instructions.sh "refund_compact/clean" "serde toolargs toolargs_stream"
#
# The second argument names the contenders (by default serde and toolargs), among them the
# probes serde_scan (serde checking the JSON, building nothing), toolargs_read (toolargs'
# envelope and tree, no coercion) and toolargs_stream (a stream fed the whole call in one
# piece); the last column is the last contender over the first.
#
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."

bench=${BENCH:-$(cargo bench --bench corpus --no-run --message-format=json 2>/dev/null |
  sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)}
sets=${1:-"refund_written/clean refund_written/all refund_compact/clean refund_compact/all shipment/clean shipment/all five_errors/all"}

count() {
  TOOLARGS_REPEAT="$1:$2:1" valgrind --tool=callgrind --toggle-collect='corpus::Set::pass' \
    --callgrind-out-file=/dev/null "$bench" 2>&1 |
    sed -n -e 's/^calls per pass: \([0-9]*\)/calls \1/p' -e 's/.*Collected : \([0-9]*\).*/ir \1/p'
}

contenders=${2:-"serde toolargs"}
read -r -a names <<< "$contenders"
printf '| set |'; printf ' %s |' "${names[@]}"; printf ' %s / %s |\n' "${names[-1]}" "${names[0]}"
printf '|---|'; printf -- '---:|%.0s' "${names[@]}"; printf -- '---:|\n'
for set in $sets; do
  row="| $set |" first="" last=""
  for name in "${names[@]}"; do
    out=$(count "$set" "$name")
    calls=$(echo "$out" | sed -n 's/^calls //p')
    per=$(( $(echo "$out" | sed -n 's/^ir //p') / calls ))
    row="$row $per |" first=${first:-$per} last=$per
  done
  printf '%s %s |\n' "$row" "$(awk "BEGIN{printf \"%.2fx\", $last/$first}")"
done
