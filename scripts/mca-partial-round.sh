#!/usr/bin/env bash
# Static analysis of the AVX2 Poseidon hot loop: the 82 middle partial rounds of the eight-lane
# (`entry::avx2_twin`) permutation, as compiled into the `batch` bench binary: the generated
# assembly of `poseidon/avx2_rounds.rs`.
#
# Prints the loop's instruction mix (how many `vpmuludq`, `vpaddq`, spill stores and reloads, ...)
# and llvm-mca's model of it on Zen 3: the cycles per iteration it simulates and the pressure
# on each execution pipe. The busiest of the four vector pipes FP0..FP3 is a lower bound on
# the cycles of one round for this instruction mix; the gap between that bound and the
# simulated cycles is what better scheduling and register allocation could still win
# (docs/poseidon-kernels.md). Developer tool, not part of CI: needs x86-64, objdump,
# python3 and llvm-mca (Debian: `apt-get install llvm`).
#
# Usage: scripts/mca-partial-round.sh [MCPU]    (default znver3)
set -euo pipefail
cd "$(dirname "$0")/.."
mcpu=${1:-znver3}
for tool in objdump python3 llvm-mca; do
    command -v "$tool" >/dev/null || { echo "mca-partial-round: $tool missing" >&2; exit 1; }
done

bin=$(cargo bench --bench batch --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "batch":
        print(m["executable"])')
[ -n "$bin" ] || { echo "mca-partial-round: could not build the batch bench" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objdump -d --no-show-raw-insn -C "$bin" >"$work/all.s"

# The partial-round loop: inside `avx2_twin::hash2`, a backward jump whose body holds between
# 1000 and 3000 instructions, among them the four products of a round (292 `vpmuludq`, the
# reduction's m_k * 17 * 2^24 being one product). The
# rolled full rounds have such a loop too (one S-box per iteration), nested in the loop over
# the rounds; the partial-round loop is the one neither nested in nor containing another.
python3 - "$work/all.s" "$work/loop.s" <<'EOF'
import re, sys
from collections import Counter
lines = open(sys.argv[1]).read().split("\n")
head = re.compile(r"^[0-9a-f]+ <starkbatch::batch::entry::avx2_twin::hash2>:$")
start = next(i for i, l in enumerate(lines) if head.match(l))
insns = []
for l in lines[start + 1:]:
    if not l.strip():
        break
    m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", l)
    if m:
        insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
cands = []
for addr, op, args in insns:
    t = re.match(r"([0-9a-f]+)", args)
    if op.startswith("j") and t and int(t.group(1), 16) < addr:
        lo = int(t.group(1), 16)
        body = [x for x in insns if lo <= x[0] < addr]
        if 1000 <= len(body) <= 3000 and sum(1 for x in body if x[1] == "vpmuludq") in (252, 292):
            cands.append((lo, addr, body))
def overlaps(a, b):
    return a is not b and a[0] <= b[1] and b[0] <= a[1]
loops = [c[2] for c in cands if not any(overlaps(c, d) for d in cands)]
if len(loops) != 1:
    sys.exit(f"expected one partial-round loop, found {len(loops)}")
body = loops[0]
mix = Counter(op for _, op, _ in body)
moves = ("vmovdqa", "vmovdqu")
stores = sum(1 for _, op, a in body if op in moves and re.search(r",.*\(", a))
loads = sum(1 for _, op, a in body if op in moves and re.match(r"[^,]*\(", a))
print(f"partial-round loop: {len(body)} instructions (eight hashes, one round)")
print("  " + ", ".join(f"{op} {n}" for op, n in mix.most_common(10)))
copies = sum(mix[m] for m in moves) - stores - loads
print(f"  vector moves: {stores} stores, {loads} loads, {copies} register copies")
with open(sys.argv[2], "w") as out:
    for _, op, args in body:
        out.write(f"{op}\t{args}\n")
EOF

llvm-mca -mcpu="$mcpu" -iterations=50 -resource-pressure=false -instruction-info=false \
    "$work/loop.s" 2>/dev/null | grep -E "Total Cycles|Iterations|IPC"
echo "busiest pipes (cycles per iteration):"
llvm-mca -mcpu="$mcpu" -iterations=1 "$work/loop.s" 2>/dev/null |
    python3 -c 'import sys
lines = sys.stdin.read().split("\n")
res = {}
for i, l in enumerate(lines):
    m = __import__("re").match(r"^\[([0-9.]+)\]\s+-\s+(\S+)", l)
    if m: res[m.group(1)] = m.group(2)
    if l.startswith("Resource pressure per iteration:"):
        hdr, val = lines[i + 1].split(), lines[i + 2].split()
        pairs = [(res.get(h.strip("[]"), "?") + " " + h, float(v)) for h, v in zip(hdr, val) if v != "-"]
        for name, v in sorted(pairs, key=lambda p: -p[1])[:6]:
            print(f"  {name:16} {v:8.1f}")
        break'
