#!/usr/bin/env bash
# Constant-time evidence for get_public_key, get_public_key_batch and sign (the ctgrind method;
# docs/constant-time.md).
#
# Builds tools/ctgrind (release, as users run it) and runs it under valgrind memcheck with the
# private key and nonce marked undefined. Passes when
#   1. the negative control (verify, variable time, on a marked input) IS reported, and
#   2. the real run reports nothing except at the documented public-output checks of sign
#      (the lines after "Public outputs from here on." in src/ecdsa/sign.rs: r, s and v are
#      published anyway).
# Each report is attributed with binutils' addr2line on the binary (its instruction addresses,
# less the load offset that the harness prints), not with valgrind's own file:line: valgrind
# 3.19 reads some inlined call sites of rustc's debug info wrongly (it put sign's `s == 0`
# check at core_arch/src/x86/avx2.rs:84), and addr2line resolves the same addresses correctly.
# Needs valgrind (apt-get install valgrind), binutils and python3. Exit code 0 = pass.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "ct-check: valgrind is not installed" >&2; exit 2; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/ctgrind}"
(cd "$root/tools/ctgrind" && cargo build --release --quiet)
bin="$CARGO_TARGET_DIR/release/starkbatch-ctgrind"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # $1 = xml output, rest = arguments
    local xml=$1
    shift
    valgrind --tool=memcheck --xml=yes --xml-file="$xml" --error-limit=no --track-origins=yes \
        --num-callers=40 --read-inline-info=yes --leak-check=no -q "$bin" "$@" | tee "$xml.out"
}

echo "ct-check: negative control (must be reported)"
run "$work/control.xml" --control
echo "ct-check: get_public_key, get_public_key_batch and sign with secret inputs (detected backend)"
run "$work/secret.xml"
# The table scan has one kernel per backend: check the portable one too.
echo "ct-check: get_public_key, get_public_key_batch and sign with secret inputs (STARKBATCH_BACKEND=portable)"
STARKBATCH_BACKEND=portable run "$work/secret-portable.xml"

marker=$(grep -n "Public outputs from here on." "$root/src/ecdsa/sign.rs" | cut -d: -f1)
for secret in "$work/secret.xml" "$work/secret-portable.xml"; do
echo "ct-check: reports of $(basename "$secret")"
python3 - "$work/control.xml" "$secret" "$marker" "$bin" <<'PY'
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

control, secret, marker, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

symbols = subprocess.run(["nm", "-C", binary], capture_output=True, text=True, check=True).stdout
main_in_file = [int(l.split()[0], 16) for l in symbols.splitlines()
                if l.endswith(" starkbatch_ctgrind::main")]

def load_offset(xml):
    """Where the harness's main ran (its output line), less main's address in the file."""
    printed = re.search(r"ctgrind: main at (0x[0-9a-f]+)", open(xml + ".out").read())
    if not printed or len(main_in_file) != 1:
        print(f"FAIL: no load offset for {xml} (the 'main at' line or nm's main is missing)")
        sys.exit(1)
    return int(printed.group(1), 16) - main_in_file[0]

def resolve(ips, offset):
    """addr2line's inline chains (innermost first) of each address: [[(fn, path, line)]]."""
    args = ["addr2line", "-e", binary, "-a", "-f", "-i", "-C"] + [hex(ip - offset) for ip in ips]
    lines = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()
    chains, i = [], 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            chains.append([])
            i += 1
            continue
        fn, loc = lines[i], lines[i + 1] if i + 1 < len(lines) else "??:0"
        path, _, ln = loc.partition(" ")[0].rpartition(":")
        chains[-1].append((fn, path, int(ln) if ln.isdigit() else 0))
        i += 2
    return chains

def errors(path):
    out = []
    offset = load_offset(path)
    for e in ET.parse(path).getroot().iter("error"):
        kind = e.findtext("kind")
        # Valgrind repeats an address once per inlined frame; the caller frames hold return
        # addresses, so their call instruction is found one byte before.
        ips = []
        for f in e.find("stack").iter("frame"):
            ip = int(f.findtext("ip"), 16)
            if not ips or ips[-1] != ip:
                ips.append(ip)
        ips = ips[:1] + [ip - 1 for ip in ips[1:]]
        frames = [fr for chain in resolve(ips, offset) for fr in chain]
        out.append((kind, frames))
    return out

def where(frames):
    return " <- ".join(f"{fn.split('::')[-1]} ({path}:{ln})" for fn, path, ln in frames[:6])

def allowed(frames):
    # The innermost frame of starkbatch outside the field arithmetic (src/field) and the
    # standard library must be sign() itself, after the marker line: a check on the public r,
    # s or v.
    for fn, path, ln in frames:
        if "/src/field/" in path or "/library/" in path or "/rustc/" in path:
            continue
        return path.endswith("src/ecdsa/sign.rs") and ln > marker
    return False

c = errors(control)
print(f"control: {len(c)} reports (uninitialised = secret-dependent)")
if not c:
    print("FAIL: the control was not reported; the secret marks have no effect")
    sys.exit(1)

s = errors(secret)
kinds = sorted({k for k, _ in c + s})
print(f"report kinds: {', '.join(kinds) or 'none'}")
bad = [(k, f) for k, f in s if not k.startswith("Uninit") or not allowed(f)]
ok = len(s) - len(bad)
print(f"secret run: {len(s)} reports, {ok} at sign's public-output checks (after line {marker})")
for k, f in bad[:20]:
    print(f"  {k}: {where(f)}")
if bad:
    print(f"FAIL: {len(bad)} secret-dependent branches or memory accesses")
    sys.exit(1)
print("PASS: no branch or memory access depends on the private key or k")
PY
done
