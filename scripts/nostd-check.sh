#!/usr/bin/env bash
# Proof that starkbatch with `default-features = false` is no_std + alloc (docs/hardening.md):
# builds tools/nostd-check, a #![no_std] staticlib with its own #[panic_handler] that calls the
# core API. Any crate in the graph that links std would bring a second `panic_impl` lang item and
# fail the build. Then a negative control: the same crate with starkbatch's `std` feature must
# fail with exactly that error, so the check cannot pass vacuously.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=tools/nostd-check/Cargo.toml

echo "-- cargo build --release --manifest-path $manifest"
cargo build --release --manifest-path "$manifest"
lib=tools/nostd-check/target/release/libstarkbatch_nostd_check.a
test -s "$lib"
echo "built $lib ($(stat -c %s "$lib") bytes)"

echo "-- the serde feature without std"
cargo check --release --manifest-path "$manifest" --features starkbatch/serde

echo "-- negative control: with starkbatch/std the build must fail on the duplicate panic_impl"
log=$(mktemp)
if cargo check --release --manifest-path "$manifest" --features starkbatch/std >"$log" 2>&1; then
    cat "$log"
    echo "FAIL: the no_std check crate built with starkbatch/std; the check proves nothing" >&2
    exit 1
fi
if ! grep -q "duplicate lang item" "$log"; then
    cat "$log"
    echo "FAIL: the std build failed for another reason than the duplicate lang item" >&2
    exit 1
fi
grep -m1 "duplicate lang item" "$log"
rm -f "$log"
echo "nostd-check passed"
