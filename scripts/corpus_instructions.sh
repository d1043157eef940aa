#!/usr/bin/env bash
# Instructions per call of serde and toolargs on each set of the corpus benchmark
# (benches/corpus.rs), counted by callgrind over one pass of the set and nothing else: a figure
# that does not drift with the machine's speed, for comparing two builds.
#
#   scripts/corpus.sh && scripts/corpus_instructions.sh
#   scripts/corpus_instructions.sh "five_errors/all shipment/clean"
#   BENCH=path/to/corpus-binary scripts/corpus_instructions.sh   # another build
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

printf '| set | serde | toolargs | toolargs / serde |\n|---|---:|---:|---:|\n'
for set in $sets; do
  s=$(count "$set" serde) t=$(count "$set" toolargs)
  calls=$(echo "$s" | sed -n 's/^calls //p')
  si=$(( $(echo "$s" | sed -n 's/^ir //p') / calls ))
  ti=$(( $(echo "$t" | sed -n 's/^ir //p') / calls ))
  printf '| %s | %d | %d | %s |\n' "$set" "$si" "$ti" "$(awk "BEGIN{printf \"%.2fx\", $ti/$si}")"
done
