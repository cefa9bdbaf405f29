#!/usr/bin/env bash
# Checks that no SIMD intrinsic is called out of line in the release binaries already built by
# `cargo test --release` (x86-64 hosts; elsewhere it does nothing).
#
# Why: an intrinsic only compiles to its instruction when it is inlined into code compiled with
# its target feature. Code that does not inherit the `#[target_feature]` of the entry point (a
# closure, a non-inlined helper) turns every intrinsic into a function call, silently and at a
# large cost (docs/backends.md: once a factor of ten, in the verify_batch gather).
# This scans the disassembly for calls into `core::core_arch` and names the functions that
# make them. Allowed: run-time feature detection (`std_detect`, and the cpuid probe of the
# chacha20 crate that proptest pulls in) and the Pedersen lanes' cold fallback `Scratch::leave`
# (reached only when two x-coordinates coincide). The library's unit-test binary is skipped:
# its tests call the lane types from plain test functions on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -m)" != x86_64 ]; then
    echo "intrinsics-check: not an x86-64 host, skipped"
    exit 0
fi
command -v objdump >/dev/null || { echo "intrinsics-check: objdump (binutils) missing" >&2; exit 1; }

dir=${1:-target/release/deps}
found=0
checked=0
for bin in "$dir"/*; do
    # Executables only (test and bench binaries), not .d/.rlib/.rmeta files.
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    case "$bin" in *.so | *.d | *.rlib | *.rmeta) continue ;; esac
    nm "$bin" 2>/dev/null | grep starkbatch >/dev/null || continue
    # The library's unit-test binary: its tests call the lane types directly from plain
    # functions (guarded by run-time detection), by design.
    if nm -C "$bin" 2>/dev/null | grep 'starkbatch::backend::packed::tests::' >/dev/null; then
        continue
    fi
    checked=$((checked + 1))
    bad=$(objdump -d --no-show-raw-insn -C "$bin" |
        awk '/^[0-9a-f]+ <.*>:$/ { f = $0 } /call.*core::core_arch::/ { print f }' |
        grep -v -e 'std_detect::' -e 'chacha20::avx2_cpuid' \
            -e 'pedersen::lanes::Scratch<P>::leave' |
        sort | uniq -c || true)
    if [ -n "$bad" ]; then
        echo "intrinsics-check: out-of-line intrinsic calls in $bin:"
        echo "$bad"
        found=1
    fi
done
if [ "$checked" = 0 ]; then
    echo "intrinsics-check: no starkbatch binaries in $dir (run cargo test --release first)" >&2
    exit 1
fi
if [ "$found" = 1 ]; then
    exit 1
fi
echo "intrinsics-check: $checked binaries, no out-of-line intrinsic calls"
