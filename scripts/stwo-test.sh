#!/usr/bin/env bash
# Differential tests against the stwo crate (tools/stwo, docs/provers.md): stwo 2.x needs a
# nightly toolchain, so the crate is built apart with `cargo +nightly`. The tests run once per
# starkbatch backend this CPU offers (the detected one, avx2 when AVX2 is present, portable).
# Installs a minimal nightly toolchain when none is present.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=tools/stwo/Cargo.toml

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal

backends=(detected portable)
grep -qw avx2 /proc/cpuinfo 2>/dev/null && backends+=(avx2)
for b in "${backends[@]}"; do
    echo "-- STARKBATCH_BACKEND=$b"
    if [ "$b" = detected ]; then
        cargo +nightly test --release --manifest-path "$manifest"
    else
        STARKBATCH_BACKEND=$b cargo +nightly test --release --manifest-path "$manifest"
    fi
done
