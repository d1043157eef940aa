#!/usr/bin/env bash
# Instructions per call of each contender on each benchmark group, counted by callgrind: a
# figure that does not drift with the machine's speed, for comparing two builds.
#
#   scripts/instructions.sh                      # every group, toolargs and spec
#   scripts/instructions.sh refund_clean toolargs
#
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."

bench=$(cargo bench --bench parse --no-run --message-format=json 2>/dev/null |
  sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
groups=${1:-"refund_clean refund_repaired refund_rejected refund_rejected_many shipment_clean shipment_repaired shipment_rejected"}
contenders=${2:-"toolargs spec"}
n=2000

count() {
  TOOLARGS_REPEAT="$1:$2:$3" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

printf '| group | contender | instructions per call |\n|---|---|---:|\n'
for group in $groups; do
  for contender in $contenders; do
    base=$(count "$group" "$contender" 0)
    many=$(count "$group" "$contender" "$n")
    printf '| %s | %s | %d |\n' "$group" "$contender" $(( (many - base) / n ))
  done
done
