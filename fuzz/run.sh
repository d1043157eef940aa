#!/usr/bin/env bash
# Reruns every fuzz target for the given number of seconds each (default 600), one after another.
#   fuzz/run.sh            # ten minutes per target
#   fuzz/run.sh 60         # a quick pass
#   JOBS=2 fuzz/run.sh     # two fuzzing processes per target
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Crashes land in
# fuzz/artifacts/<target>/; reproduce one with `cargo +nightly fuzz run <target> <file>`.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
parallel=()
if [ "${JOBS:-1}" -gt 1 ]; then
    parallel=(-jobs="$JOBS" -workers="$JOBS")
fi
cargo +nightly fuzz build
for target in decode spec_loader differential differential_nested differential_schema gate; do
    mkdir -p "corpus/$target"
    echo "== $target: ${seconds}s"
    extra=("${parallel[@]}")
    # The oracle of differential_schema, the jsonschema crate (0.33), keeps memory for each
    # distinct schema its meta-schema check has seen (815 schemas of one corpus: 5 GB, the same
    # when they are checked again), so one process grows past any limit in a long run. That
    # target runs in fork mode instead: child processes started afresh, an out-of-memory child
    # replaced by the next (a disagreement still stops the run).
    if [ "$target" = differential_schema ]; then
        extra=(-fork="${JOBS:-1}" -ignore_ooms=1)
    fi
    cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 "${extra[@]}"
done
