#!/usr/bin/env bash
# Fuzz smoke run: builds every cargo-fuzz target in fuzz/ and runs each for a few seconds
# (default 5; first argument to change). Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). Long runs: docs/hardening.md.
#
# Each target starts from its checked-in seeds (fuzz/seeds/<target>, if any) plus the local
# corpus (fuzz/corpus/<target>, not committed). A crash leaves its input in
# fuzz/artifacts/<target>/ and fails the script.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-5}
cd "$root/fuzz"
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz-smoke: cargo-fuzz (nightly) is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi
targets=$(cargo +nightly fuzz list)
start=$(date +%s)
cargo +nightly fuzz build
built=$(date +%s)
for t in $targets; do
    mkdir -p "corpus/$t"
    seeds=()
    [ -d "seeds/$t" ] && seeds=("seeds/$t")
    echo "fuzz-smoke: $t (${secs}s)"
    log="corpus/$t.log"
    if ! cargo +nightly fuzz run "$t" "corpus/$t" "${seeds[@]}" -- \
        -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1; then
        tail -n 40 "$log"
        echo "fuzz-smoke: $t FAILED (input in fuzz/artifacts/$t)"
        exit 1
    fi
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec)" "$log" || true
done
end=$(date +%s)
echo "fuzz-smoke: build $((built - start)) s, runs $((end - built)) s"
