#!/usr/bin/env bash
# Writes the refund corpus of the corpus benchmark (benches/corpus.rs) under target/corpus/:
# 50 000 calls of scripts/gen_corpus.py at its default seed.
#
#   scripts/corpus.sh            # target/corpus/refund.jsonl
#   scripts/corpus.sh 2000 7     # another size or seed (the benchmark reads the same path)
#
# Needs python3 (the standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-50000}
mkdir -p target/corpus
if [ $# -ge 2 ]; then
  python3 scripts/gen_corpus.py "$n" target/corpus/refund.jsonl --seed "$2"
else
  python3 scripts/gen_corpus.py "$n" target/corpus/refund.jsonl
fi
echo "wrote target/corpus/refund.jsonl ($(wc -l <target/corpus/refund.jsonl) calls)"
