#!/usr/bin/env bash
# Writes the refund corpus of the corpus benchmark (benches/corpus.rs) under target/corpus/:
# 50 000 calls of ../shared/tools/gen_corpus.py at its default seed, as it writes them.
#
#   scripts/corpus.sh            # target/corpus/refund.jsonl
#   scripts/corpus.sh 2000 seed  # another size or seed (the benchmark reads the same path)
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-50000}
gen=${GEN_CORPUS:-../shared/tools/gen_corpus.py}
mkdir -p target/corpus
if [ $# -ge 2 ]; then
  python3 "$gen" "$n" target/corpus/refund.jsonl "$2"
else
  python3 "$gen" "$n" target/corpus/refund.jsonl
fi
echo "wrote target/corpus/refund.jsonl ($(wc -l <target/corpus/refund.jsonl) calls)"
