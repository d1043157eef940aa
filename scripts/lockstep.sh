#!/usr/bin/env bash
# Proves the toolargs crates resolve only in lockstep: in a copy of the workspace where
# toolargs-core alone is at another version, no dependency graph resolves, because every
# crate that depends on it asks for exactly the version it was released with (`=x.y.z`). The
# unchanged copy resolves, and so does the changed one under caret requirements, so the
# failure is the exact pin's doing.
set -euo pipefail
cd "$(dirname "$0")/.."

copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$copy"

cargo tree --offline --locked --depth 0 --manifest-path "$copy/Cargo.toml" > /dev/null

sed -i 's/^version.workspace = true$/version = "0.1.999"/' "$copy/toolargs-core/Cargo.toml"
grep -q '^version = "0.1.999"$' "$copy/toolargs-core/Cargo.toml"
if out=$(cargo tree --offline --depth 0 --manifest-path "$copy/Cargo.toml" 2>&1); then
  echo "toolargs-core 0.1.999 resolved beside crates released with another version" >&2
  exit 1
fi
if ! grep -q 'failed to select a version for the requirement `toolargs-core = "=' <<<"$out"; then
  echo "resolution failed for another reason:" >&2
  echo "$out" >&2
  exit 1
fi
# With caret requirements the same copy resolves: the exact pin is what keeps them together.
sed -i 's/version = "=\([0-9.]*\)"/version = "\1"/' "$copy/Cargo.toml"
cargo tree --offline --depth 0 --manifest-path "$copy/Cargo.toml" > /dev/null 2>&1 || {
  echo "the copy does not resolve even without the exact pins" >&2
  exit 1
}
echo "lockstep: a toolargs-core of another version does not resolve"
