#!/usr/bin/env bash
# Runs the backend tests three ways and checks which backend each run selects:
#   (a) natively                                   -> expects avx512ifma on an AVX-512 IFMA
#                                                     host (then again with
#                                                     STARKBATCH_BACKEND=avx2 -> avx2), avx2 on
#                                                     an AVX2 x86-64 host
#   (b) x86-64 under qemu-x86_64 -cpu Nehalem      -> expects portable (no AVX2)
#   (c) aarch64 under qemu-aarch64 (static binary) -> expects neon
# Installs the cross toolchain and qemu when missing (Debian/Ubuntu, needs root).
# Environment: PROPTEST_CASES (default 8 for the emulated runs), SKIP_NATIVE=1 to skip (a).
set -euo pipefail
cd "$(dirname "$0")/.."

need_install=0
command -v qemu-x86_64 >/dev/null || need_install=1
command -v qemu-aarch64 >/dev/null || need_install=1
command -v aarch64-linux-gnu-gcc >/dev/null || need_install=1
[ -d /usr/lib/rustlib/aarch64-unknown-linux-gnu ] || need_install=1
if [ "$need_install" = 1 ]; then
    echo "== installing cross toolchain and qemu"
    dpkg --add-architecture arm64
    apt-get update
    apt-get install -y rustc-web libstd-rust-web-dev libstd-rust-web-dev:arm64 \
        gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
fi

# The library's unit tests, then the kernel modules of the integration suite (tests/suite).
SUITE_FILTERS=(backends:: curve_batch:: ecdsa_batch:: blake2s:: class_hash_v2:: prover::)
run_tests() { # [VAR=value ...] cargo-test-arguments
    local vars=()
    while [[ "${1:-}" == *=* ]]; do
        vars+=("$1")
        shift
    done
    env "${vars[@]}" cargo test "$@" --lib
    env "${vars[@]}" cargo test "$@" --test suite -- "${SUITE_FILTERS[@]}"
}
# Emulated runs: fewer random cases, no fat LTO (the link dominates otherwise).
EMU_ENV=(PROPTEST_CASES="${PROPTEST_CASES:-8}" CARGO_PROFILE_RELEASE_LTO=false
         CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16)

timed() {
    local name=$1
    shift
    local start=$SECONDS
    echo "== $name"
    "$@"
    echo "== $name: passed in $((SECONDS - start)) s"
}

if [ "${SKIP_NATIVE:-0}" != 1 ]; then
    native=portable
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then native=avx2; fi
    if grep -qw avx512f /proc/cpuinfo 2>/dev/null &&
        grep -qw avx512ifma /proc/cpuinfo 2>/dev/null; then native=avx512ifma; fi
    timed "native (expect $native)" \
        run_tests STARKBATCH_EXPECT_BACKEND=$native --release
    if [ "$native" = avx512ifma ]; then
        # AVX2 stays tested on AVX-512 hosts: the free functions forced to it (the backend
        # tests also compare every available backend, avx2 included, in every run).
        timed "native, STARKBATCH_BACKEND=avx2 (expect avx2)" \
            run_tests STARKBATCH_BACKEND=avx2 STARKBATCH_EXPECT_BACKEND=avx2 --release
    fi
fi

# The same host build as (a) (no --target, same profile: nothing is rebuilt), only run
# through the emulator; the runner applies to test executables, not to build scripts.
timed "x86-64 under qemu -cpu Nehalem (expect portable)" \
    run_tests PROPTEST_CASES="${PROPTEST_CASES:-8}" STARKBATCH_EXPECT_BACKEND=portable \
    CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="qemu-x86_64 -cpu Nehalem" \
    --release

# Debian's rustc (rustc-web) carries the aarch64 standard library; static linking because
# dynamically linked threaded programs hang under this qemu.
timed "aarch64 under qemu-aarch64 (expect neon)" \
    run_tests "${EMU_ENV[@]}" STARKBATCH_EXPECT_BACKEND=neon \
    RUSTC=/usr/bin/rustc RUSTFLAGS="-C target-feature=+crt-static" \
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64 \
    CARGO_TARGET_DIR=target/aarch64-cross \
    --release --target aarch64-unknown-linux-gnu
