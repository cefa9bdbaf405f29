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
# Needs valgrind (apt-get install valgrind) and python3. Exit code 0 = pass.
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
        --num-callers=40 --read-inline-info=yes --leak-check=no -q "$bin" "$@"
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
python3 - "$work/control.xml" "$secret" "$marker" <<'PY'
import sys
import xml.etree.ElementTree as ET

control, secret, marker = sys.argv[1], sys.argv[2], int(sys.argv[3])

def errors(path):
    out = []
    for e in ET.parse(path).getroot().iter("error"):
        kind = e.findtext("kind")
        frames = [(f.findtext("fn") or "?", f.findtext("dir") or "", f.findtext("file") or "?",
                   int(f.findtext("line") or 0)) for f in e.find("stack").iter("frame")]
        out.append((kind, frames))
    return out

def where(frames):
    return " <- ".join(f"{fn.split('::')[-1]} ({fi}:{ln})" for fn, _, fi, ln in frames[:6])

def allowed(frames):
    # The innermost frame of starkbatch outside the field arithmetic (src/field) must be
    # sign() itself, after the marker line: a check on the public r, s or v.
    for fn, d, fi, ln in frames:
        path = f"{d}/{fi}"
        if "/src/field" in path or "/library/core/" in path or "/rustc/" in path:
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
