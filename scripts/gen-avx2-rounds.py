#!/usr/bin/env python3
"""Generates src/poseidon/avx2_rounds.rs: the 82 middle partial rounds and the two times four
full rounds of the Poseidon permutation for two sets of four AVX2 lanes (eight hashes), as
hand-allocated inline assembly.

Run: python3 scripts/gen-avx2-rounds.py > src/poseidon/avx2_rounds.rs
(the output is already rustfmt-clean; a test checks that the file matches the generator's
output when python3 is available).

What the code computes is `partial_round_wide` of src/poseidon/hades.rs on the 9x28-bit limbs
of `Packed<Avx2Lane>` (src/backend/packed.rs), with the same limb arithmetic, so the limbs that
come out are bit-identical to the generic code's (a unit test compares them):

    d  = 2c                                  (lane-wise)
    q  = c^2 / 2^280 mod p                   (Montgomery square, cross products c_i * d_j)
    z  = q * d / 2^280 mod p                 (Montgomery product; = 2c^3)
    s' = normalize(2A + z + F)
    A' = 2s + s'                             (lazy)
    c' = s + (k + K1) - z                    (lazy; k + K1 is precomputed per round)

and `full_round`: per cell x = normalize(x + (k + F)), y = x^2 / 2^280 * x / 2^280 (written
back in place, one cell of both sets per iteration of an inner loop), then the lazy MDS layer
(t + 2y0, (t + K) - 2y1, (s + K) - 2y2) with s = y0 + y1, t = s + y2.

The products use product scanning with the reduction folded in, exactly as `mont_mul` /
`mont_square` (reduction columns 0..9 hold an offset of 2^28 - 1, added as 2^56 - 1 to the
even columns only, so that m_k = ~col & (2^28 - 1) and the carry is col >> 28; m_k * p adds
m_k * 17 * 2^24 to column k+6 and m_k << 27 to column k+8; `Ir.montgomery` says why these
give the digits of the textbook columns). Every value's upper bound is tracked from the kernels'
input weights, and the generator fails if a column could reach 2^64 or a product operand
2^32.

How: the round is built as straight-line code over SSA values, once per set; each set's code is
register-allocated on its own (Belady: on a shortage, spill the value whose next use is
furthest away; a spilled value is read back as a memory operand where the instruction allows
one), with 2^28 - 1 pinned in ymm15; the two sets' code follows each other in the loop body and
the out-of-order core overlaps them. Measured against the LLVM-compiled loop (docs/poseidon-kernels.md): a third fewer memory
operands per round (404 against 630).

AVX2 has no `vpsllq ymm, m256, imm` (an assembler picks the AVX-512 encoding): shifts always
take a register source here.
"""
import sys
from collections import defaultdict

ROUNDS = 82
SPILL_SLOTS = 128          # per set, 32 bytes each
PINNED_M28 = "ymm15"
REGS = [f"ymm{i}" for i in range(15)]
CONSTS = ["M28", "M27"] + [f"F{i}" for i in range(9)] + [f"K{i}" for i in range(9)] + ["C17", "M56"]
# The values of the constants whose size the column bounds below depend on.
CONST_VALUES = {"M28": (1 << 28) - 1, "M27": (1 << 27) - 1, "C17": 17 << 24, "M56": (1 << 56) - 1}
# `LIMB_BOUND` of packed.rs: a limb of weight w is below w * B.
B = (1 << 28) + 16


class Val:
    """An SSA value: `kind` is "tmp" (computed), "mem" (state, in memory at `home`), "const"
    (a 32-byte constant at `home`) or "bcast" (a 64-bit constant at `home`, broadcast on use).
    `hi` is an upper bound of every lane (inclusive), or None where none is tracked."""
    __slots__ = ("kind", "home", "slot", "hi")

    def __init__(self, kind, home=None, hi=None):
        self.kind, self.home, self.slot, self.hi = kind, home, None, hi


def bound(name, srcs, imm):
    """An upper bound of an operation's result from those of its operands (None: unknown).
    Subtractions are bounded by the minuend: that none underflows is the generic code's
    bounds analysis (the same limb arithmetic)."""
    a = srcs[0].hi
    b = srcs[1].hi if len(srcs) > 1 else None
    if name in ("and", "andn"):
        return min(x for x in (a if name == "and" else None, b) if x is not None)
    if name == "sub":
        return a
    if name == "shr":
        return None if a is None else a >> imm
    if a is None or (len(srcs) > 1 and b is None):
        return None
    if name == "add":
        return a + b
    if name == "shl":
        return a << imm
    # vpmuludq multiplies the low 32 bits: the operands must fit in them.
    assert name == "mul" and a < 1 << 32 and b < 1 << 32, (a, b)
    return a * b


class Round:
    """The IR of one set's round: ops (name, dst, srcs, imm); `out` stores a value."""

    def __init__(self):
        self.ops = []

    def op(self, name, a, b=None, imm=None):
        srcs = [a] if b is None else [a, b]
        d = Val("tmp", hi=bound(name, srcs, imm))
        assert d.hi is None or d.hi < 1 << 64, (name, d.hi)
        self.ops.append((name, d, srcs, imm))
        return d

    def out(self, addr, v):
        self.ops.append(("out", None, [v], addr))


class Ir(Round):
    """Round plus the two limb-level building blocks, on the constant table at rcx."""

    def __init__(self):
        super().__init__()
        self.const = {n: Val("const", f"[rcx + {i * 32}]", CONST_VALUES.get(n))
                      for i, n in enumerate(CONSTS)}
        self.m28 = self.const["M28"]

    def montgomery(self, columns):
        """columns[k]: the products (x, y) of column k, k = 0..16. Returns the nine limbs.

        Two rewritings of the textbook columns (2^28 - 1 in every reduction column; m_k << 24,
        m_k, m_k << 27 in columns k+6, k+7, k+8) leave every m_k, every carry and so every
        output limb unchanged, because what reaches a column only moves by whole units of 2^28
        between neighbouring columns (packed.rs's `mont_mul` / `mont_square` make the same):
        - `m_k * p` adds `m_k * 17 * 2^24` to column k+6 as one product (instead of
          `m_k << 24` there and `m_k` in column k+7: `m_k * 2^28` in column k+6 raises its
          carry by exactly `m_k`, so column k+7 receives the same sum); and `m_k << 27` to
          column k+8.
        - Columns 0, 2, 4, 6, 8 add `2^56 - 1` instead of `2^28 - 1`: its `(2^28 - 1) * 2^28`
          raises that column's carry by exactly `2^28 - 1`, which is the offset the odd
          column k+1 needs; half the offset additions.
        Every column stays below 2^64 (checked with the bounds of the inputs)."""
        m28, m56, c17 = self.m28, self.const["M56"], self.const["C17"]
        ms, res, carry = [], [], None
        for k in range(18):
            # The column's terms are summed as a binary tree built as they come (a counter of
            # partial sums: two sums of the same size are added at once), which keeps few
            # values live and shortens the chain of additions: 0.5-0.8 % faster than one
            # running sum on the Intel Xeon host (2026-12-05).
            sums = []

            def push(v):
                size = 0
                while sums and sums[-1][0] == size:
                    v = self.op("add", sums.pop()[1], v)
                    size += 1
                sums.append((size, v))

            for x, y in (columns[k] if k < 17 else []):
                push(self.op("mul", x, y))
            if k <= 9 and k % 2 == 0:
                push(m56)
            if 0 <= k - 6 <= 9:
                push(self.op("mul", ms[k - 6], c17))
            if 0 <= k - 8 <= 9:
                push(self.op("shl", ms[k - 8], imm=27))
            acc = None
            while sums:
                v = sums.pop()[1]
                acc = v if acc is None else self.op("add", v, acc)
            if carry is not None:
                acc = self.op("add", acc, carry)
            assert acc.hi is not None and acc.hi < 1 << 64, (k, acc.hi)
            if k <= 9:
                ms.append(self.op("andn", acc, m28))
            else:
                res.append(self.op("and", acc, m28))
            carry = self.op("shr", acc, imm=28)
        return res + [carry]

    def square(self, x, d):
        """x^2 / 2^280 from the limbs x and d = 2x (cross products x_i * d_j)."""
        cols = [[] for _ in range(17)]
        for i in range(9):
            cols[2 * i].append((x[i], x[i]))
            for j in range(i + 1, 9):
                cols[i + j].append((x[i], d[j]))
        return self.montgomery(cols)

    def mul(self, x, y):
        """x * y / 2^280."""
        cols = [[] for _ in range(17)]
        for i in range(9):
            for j in range(9):
                cols[i + j].append((x[i], y[j]))
        return self.montgomery(cols)

    def normalize(self, s):
        """`normalize` of packed.rs (the caller has added F or a constant plus F)."""
        r, m28 = self, self.m28
        s = list(s)
        h = r.op("shr", s[8], imm=27)
        s[8] = r.op("and", s[8], self.const["M27"])
        s[0] = r.op("sub", s[0], h)
        s[6] = r.op("sub", s[6], r.op("shl", h, imm=24))
        s[7] = r.op("sub", s[7], h)
        c = [r.op("shr", s[i], imm=28) for i in range(8)]
        m = [r.op("and", s[i], m28) for i in range(8)] + [s[8]]
        out = [m[0]] + [r.op("add", m[i + 1], c[i]) for i in range(8)]
        for v in out:
            # The output satisfies the invariant `I` (packed.rs: `normalize`).
            v.hi = B - 1
        return out


def limb_addr(base, sid, v, i):
    """The address of limb i of value v (0, 1, 2) of set sid in a `TwinLimbs` at `base`."""
    offset = ((sid * 3 + v) * 9 + i) * 32
    # r10 points at value 0, 1 or 2 of set 0 and is used with v = 0 only.
    assert offset + 32 <= 6 * 9 * 32 - (2 * 9 * 32 if base == "r10" else 0)
    return f"[{base} + {offset}]"


def build_partial(sid):
    """One partial round (`partial_round_wide`) of set sid, from the state at rdi to rsi."""
    r = Ir()
    # The weights of `partial_round_wide`'s input: A below 3B, s below B, c below 4B.
    A, S, C = ([Val("mem", limb_addr("rdi", sid, v, i), w * B - 1) for i in range(9)]
               for v, w in enumerate((3, 1, 4)))
    d = [r.op("add", C[i], C[i]) for i in range(9)]
    z = r.mul(r.square(C, d), d)
    t = [r.op("add", r.op("add", r.op("add", A[i], A[i]), z[i]), r.const[f"F{i}"])
         for i in range(9)]
    sn = r.normalize(t)
    for i in range(9):
        r.out(limb_addr("rsi", sid, 1, i), sn[i])
    for i in range(9):
        r.out(limb_addr("rsi", sid, 0, i), r.op("add", r.op("add", S[i], S[i]), sn[i]))
    kk = [Val("bcast", f"[r8 + {8 * i}]") for i in range(9)]
    for i in range(9):
        r.out(limb_addr("rsi", sid, 2, i), r.op("sub", r.op("add", S[i], kk[i]), z[i]))
    return r


def build_sbox(sid):
    """One S-box of a full round for set sid, in place: the cell at r10 (a value of a
    `TwinLimbs` whose set 0 starts at r10) becomes `cube(add_constant(x, k))`, with the
    `PackedConstant` k at r8 (its limbs of k + F, `plus_f`, at byte offset 72)."""
    r = Ir()
    X = [Val("mem", limb_addr("r10", sid, 0, i), 7 * B - 1) for i in range(9)]
    kf = [Val("bcast", f"[r8 + {72 + 8 * i}]") for i in range(9)]
    x = r.normalize([r.op("add", X[i], kf[i]) for i in range(9)])
    d = [r.op("add", x[i], x[i]) for i in range(9)]
    y = r.mul(r.square(x, d), x)
    for i in range(9):
        r.out(limb_addr("r10", sid, 0, i), y[i])
    return r


def build_mix(sid):
    """The lazy MDS layer (`mix`) of set sid, in place at rdi: from the cubes (y0, y1, y2),
    `(t + 2 y0, (t + K) - 2 y1, (s + K) - 2 y2)` with `s = y0 + y1`, `t = s + y2`."""
    r = Ir()
    for i in range(9):
        y = [Val("mem", limb_addr("rdi", sid, v, i)) for v in range(3)]
        k = r.const[f"K{i}"]
        s = r.op("add", y[0], y[1])
        t = r.op("add", s, y[2])
        o = [r.op("add", t, r.op("add", y[0], y[0])),
             r.op("sub", r.op("add", t, k), r.op("add", y[1], y[1])),
             r.op("sub", r.op("add", s, k), r.op("add", y[2], y[2]))]
        for v in range(3):
            r.out(limb_addr("rdi", sid, v, i), o[v])
    return r


NAMES = {"add": "vpaddq", "sub": "vpsubq", "and": "vpand", "andn": "vpandn",
         "mul": "vpmuludq", "shl": "vpsllq", "shr": "vpsrlq"}
COMMUTATIVE = {"add", "and", "mul"}
NEVER = 1 << 60


def allocate(rnd, pinned, scratch_base):
    """Straight-line register allocation of one round onto REGS; returns the instructions and
    the number of spill slots used."""
    ops = rnd.ops
    uses = defaultdict(list)
    for idx, (_, _, srcs, _) in enumerate(ops):
        for s in srcs:
            uses[s].append(idx)
    cursor = defaultdict(int)

    def next_use(v, idx):
        u = uses[v]
        while cursor[v] < len(u) and u[cursor[v]] < idx:
            cursor[v] += 1
        return u[cursor[v]] if cursor[v] < len(u) else NEVER

    reg_of = {pinned: PINNED_M28}
    held = {r: None for r in REGS}
    dirty = set()
    slots = [0]
    asm = []

    def mem(v):
        if v.kind in ("mem", "const"):
            return v.home
        return f"[rdx + {scratch_base + v.slot * 32}]"

    def memref(v):
        if v.kind in ("mem", "const") or v.slot is not None:
            return "ymmword ptr " + mem(v)
        return None

    def release_dead(idx):
        for r, v in held.items():
            if v is not None and next_use(v, idx) == NEVER:
                held[r] = None
                del reg_of[v]
                dirty.discard(v)

    def free_reg(idx, keep):
        for r in REGS:
            if held[r] is None:
                return r
        victim, best = None, -1
        for r in REGS:
            v = held[r]
            if v in keep:
                continue
            key = next_use(v, idx) * 2 + (v not in dirty)
            if key > best:
                victim, best = r, key
        v = held[victim]
        if v in dirty:
            if v.slot is None:
                v.slot = slots[0]
                slots[0] += 1
            asm.append(f"vmovdqu ymmword ptr {mem(v)}, {victim}")
            dirty.discard(v)
        held[victim] = None
        del reg_of[v]
        return victim

    def in_reg(v, idx, keep):
        if v in reg_of:
            return reg_of[v]
        r = free_reg(idx, keep)
        if v.kind == "bcast":
            asm.append(f"vpbroadcastq {r}, qword ptr {v.home}")
        else:
            asm.append(f"vmovdqu {r}, ymmword ptr {mem(v)}")
        held[r] = v
        reg_of[v] = r
        return r

    for idx, (name, dst, srcs, imm) in enumerate(ops):
        if name == "out":
            asm.append(f"vmovdqu ymmword ptr {imm}, {in_reg(srcs[0], idx, set())}")
            release_dead(idx + 1)
            continue
        keep = set(srcs)
        if name in ("shl", "shr"):
            operands = [in_reg(srcs[0], idx, keep), str(imm)]
        else:
            a, b = srcs
            if a is b:
                ra = in_reg(a, idx, keep)
                operands = [ra, ra]
            else:
                if name in COMMUTATIVE and a not in reg_of:
                    # The register operand goes first; with neither in a register, load the
                    # one that cannot be a memory operand, else the one needed again sooner.
                    if b in reg_of or memref(b) is None or (
                            memref(a) is not None and next_use(b, idx + 1) < next_use(a, idx + 1)):
                        a, b = b, a
                ra = in_reg(a, idx, keep)
                rb = reg_of.get(b) or memref(b) or in_reg(b, idx, keep)
                operands = [ra, rb]
        release_dead(idx + 1)
        rd = free_reg(idx + 1, set())
        held[rd] = dst
        reg_of[dst] = rd
        dirty.add(dst)
        asm.append(f"{NAMES[name]} {rd}, {', '.join(operands)}")
        release_dead(idx + 1)
    assert slots[0] <= SPILL_SLOTS, slots[0]
    return asm


def code(builders):
    """The instructions of the given (build function, set) pairs, each allocated on its own."""
    body = []
    for build, sid in builders:
        rnd = build(sid)
        body += allocate(rnd, rnd.m28, sid * SPILL_SLOTS * 32)
    for l in body:
        assert "{evex}" not in l
    return body


HEADER = '''// @generated by scripts/gen-avx2-rounds.py; do not edit. Regenerate with
//     python3 scripts/gen-avx2-rounds.py > src/poseidon/avx2_rounds.rs
// (tests/suite/generated.rs checks that the two agree).

//! The rounds of the Poseidon permutation on two sets of four AVX2 lanes (eight hashes), as
//! hand-allocated inline assembly: the 82 middle partial rounds ([`partial_rounds`]) and the
//! four full rounds on either side of them ([`full_rounds`]). **Generated** by
//! `scripts/gen-avx2-rounds.py`; edit the generator, not this file.
//!
//! The assembly computes exactly `partial_round_wide` and `full_round` of
//! `crate::poseidon::hades` on the 9×28-bit limbs of `Packed<Avx2Lane>`, with the same limb arithmetic (the same Montgomery
//! digits and carries, the same normalisation, the same lazy sums), so its output limbs are
//! bit-identical to the generic code's; the tests of `super::avx2_twin` compare them on random
//! states and on states whose limbs sit at the largest values the weights allow. What differs
//! is register allocation and order: each set's round (or S-box, or MDS layer) is allocated on
//! its own over fifteen `ymm`
//! registers (`2^28 − 1` stays in `ymm15`), spilling the value needed furthest in the future,
//! and the two sets' code follows each other in the loop body, which the out-of-order core
//! overlaps. LLVM's code for the same round keeps both sets' values live at once and has half
//! as many memory operands again (630 against 404 per round; docs/poseidon-kernels.md).
//!
//! # Safety
//! Both kernels require AVX2 (the caller's invariant, `avx2.rs` module docs). Their assembly
//! reads and writes only these buffers: the state (`6·9·32` bytes) and, for
//! [`partial_rounds`], a second state buffer of the same size (swapped after every round, so
//! after the even number of rounds the result is back in the caller's), a spill area of
//! `2·SPILL_SLOTS·32` bytes, the constant table (`22·32` bytes) and the per-round constants
//! (`ROUNDS·9·8` bytes, or for [`full_rounds`] the caller's twelve `PackedConstant`s),
//! all Rust-owned arrays of those sizes; every access is an offset below those sizes from the
//! buffer's start (the full rounds' cell pointer `r10` steps through the three values of set
//! 0, and the offsets from it stay inside the state; the generator checks the offsets and the
//! spill slots). It does not touch the stack,
//! declares every vector register and every general register it changes, and uses only
//! unaligned-safe instructions.

#![allow(clippy::too_many_lines)]

use super::constants::COMPRESSED_ROUND_CONSTANTS;
use crate::backend::avx2::Avx2Lane;
use crate::backend::packed::{C17, F, K, K1, M27, M28, M56, PackedConstant, prepare_const};
use core::arch::asm;
use core::mem::MaybeUninit;

/// How many partial rounds the kernel runs: rounds 1..=82 of the 83 (the first constant is
/// added on entry, the last round leaves the `(A, s, c)` coordinates).
pub(crate) const ROUNDS: usize = 82;
/// Spill slots per set (32 bytes each).
const SPILL_SLOTS: usize = @SPILL_SLOTS@;

/// The limb vectors of two states: set 0's `A`, `s`, `c`, then set 1's.
pub(crate) type TwinLimbs = [[Avx2Lane; 9]; 6];

#[repr(C, align(32))]
struct Aligned<T>(T);

/// `2^28 − 1`, `2^27 − 1`, the limbs of `F` and those of `K`, `17·2^24` and `2^56 − 1`, each
/// in four lanes.
static CONSTANTS: Aligned<[[u64; 4]; 22]> = Aligned([
    [M28; 4], [M27; 4], [F[0]; 4], [F[1]; 4], [F[2]; 4], [F[3]; 4], [F[4]; 4], [F[5]; 4],
    [F[6]; 4], [F[7]; 4], [F[8]; 4], [K[0]; 4], [K[1]; 4], [K[2]; 4], [K[3]; 4], [K[4]; 4],
    [K[5]; 4], [K[6]; 4], [K[7]; 4], [K[8]; 4], [C17; 4], [M56; 4],
]);

/// Per round, the limbs of the round constant `k` plus `K1` (what `c' = s + k − z` adds).
static ROUND_CONSTANTS: [[u64; 9]; ROUNDS] = {
    let mut t = [[0u64; 9]; ROUNDS];
    let mut r = 0;
    while r < ROUNDS {
        // Round r of the kernel adds the constant of partial round r + 1 (schedule index 13 + r).
        let k = prepare_const(COMPRESSED_ROUND_CONSTANTS[13 + r]).limbs;
        let mut i = 0;
        while i < 9 {
            t[r][i] = k[i] + K1[i];
            i += 1;
        }
        r += 1;
    }
    t
};

/// How many full rounds [`full_rounds`] runs: the four before or the four after the partial
/// rounds.
pub(crate) const FULL_ROUNDS: usize = 4;

// `full_rounds` reads the `plus_f` limbs of each `PackedConstant` (`#[repr(C)]`) at byte
// offset 72 of a 144-byte entry.
const _: () = {
    assert!(core::mem::offset_of!(PackedConstant, plus_f) == 72);
    assert!(core::mem::size_of::<PackedConstant>() == 144);
};

/// Runs partial rounds 1..=82 of the Poseidon permutation (`hades::partial_round_wide`) on two
/// sets of four lanes, in place.
///
/// # Safety
/// The CPU must have AVX2. The limbs must satisfy the weights of `partial_round_wide` (every
/// limb of `A` below `3·B`, of `s` below `B`, of `c` below `4·B`, `B = 2^28 + 16`); the
/// output satisfies them again.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn partial_rounds(state: &mut TwinLimbs) {
    const { assert!(ROUNDS.is_multiple_of(2)) };
    // Written by the assembly before it reads them (every round writes the whole next state;
    // a spill slot is stored before it is loaded), so neither needs initialising.
    let mut other = MaybeUninit::<TwinLimbs>::uninit();
    let mut spill = MaybeUninit::<Aligned<[[u64; 4]; 2 * SPILL_SLOTS]>>::uninit();
    let a = state.as_mut_ptr();
    let b = other.as_mut_ptr();
    let scratch = spill.as_mut_ptr();
    let constants = CONSTANTS.0.as_ptr();
    let round_constants = ROUND_CONSTANTS.as_ptr();
    // SAFETY: AVX2 is present (the caller's guarantee); the assembly accesses only the
    // buffers above, within their sizes (module docs), and declares every register it
    // changes. The round count is even, so the result ends in `state`.
    unsafe {
        asm!(
            "vmovdqu ymm15, ymmword ptr [rcx]",
            "2:",
@PARTIAL@
            "add r8, 72",
            "xchg rdi, rsi",
            "dec r9",
            "jnz 2b",
            inout("rdi") a => _,
            inout("rsi") b => _,
            in("rdx") scratch,
            in("rcx") constants,
            inout("r8") round_constants => _,
            inout("r9") ROUNDS => _,
@CLOBBERS@
            options(nostack),
        );
    }
}

/// Runs four full rounds of the Poseidon permutation with the prepared round constants `k`
/// (three per round) on two sets of four lanes, in place: `hades::full_round`, with the same
/// limb arithmetic. The first round cubes cells `0..first_sboxes` only; the other cells must
/// already hold their S-box output (`hades::permute_known`).
///
/// # Panics
/// If `first_sboxes` is not 1, 2 or 3.
///
/// # Safety
/// The CPU must have AVX2. Every limb must be below `7·B` (`B = 2^28 + 16`), the largest
/// weight `add_constant` accepts; the output limbs are those of `mix` (weights 5, 7, 6).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn full_rounds(
    state: &mut TwinLimbs,
    k: &[PackedConstant; 3 * FULL_ROUNDS],
    first_sboxes: usize,
) {
    // The S-box loop counts down from `first_sboxes` to zero: it must start at 1..=3.
    assert!((1..=3).contains(&first_sboxes), "1 to 3 S-boxes per round");
    let mut spill = MaybeUninit::<Aligned<[[u64; 4]; 2 * SPILL_SLOTS]>>::uninit();
    let a = state.as_mut_ptr();
    let scratch = spill.as_mut_ptr();
    let constants = CONSTANTS.0.as_ptr();
    let round_constants = k.as_ptr();
    // SAFETY: AVX2 is present (the caller's guarantee); the assembly accesses only the
    // buffers above, within their sizes (module docs: `r12` steps over the rounds' constants,
    // `r8` over one round's, at most three of them), and declares every register it changes.
    unsafe {
        asm!(
            "vmovdqu ymm15, ymmword ptr [rcx]",
            "3:",
            "mov r10, rdi",
            "mov r8, r12",
            "mov r11, rax",
            "4:",
@SBOX@
            "add r10, 288",
            "add r8, 144",
            "dec r11",
            "jnz 4b",
@MIX@
            "add r12, 432",
            "mov eax, 3",
            "dec r9",
            "jnz 3b",
            in("rdi") a,
            in("rdx") scratch,
            in("rcx") constants,
            inout("rax") first_sboxes => _,
            inout("r12") round_constants => _,
            inout("r9") FULL_ROUNDS => _,
            out("r8") _,
            out("r10") _,
            out("r11") _,
@CLOBBERS@
            options(nostack),
        );
    }
}
'''


def main():
    def lines(body):
        return "\n".join(f'            "{l}",' for l in body)

    clobbers = "\n".join(f'            out("ymm{i}") _,' for i in range(16))
    text = (HEADER.replace("@SPILL_SLOTS@", str(SPILL_SLOTS))
            .replace("@PARTIAL@", lines(code([(build_partial, 0), (build_partial, 1)])))
            .replace("@SBOX@", lines(code([(build_sbox, 0), (build_sbox, 1)])))
            .replace("@MIX@", lines(code([(build_mix, 0), (build_mix, 1)])))
            .replace("@CLOBBERS@", clobbers))
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
