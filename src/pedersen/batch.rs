//! Batched Pedersen hashes in affine coordinates, one shared field inversion per step.
//!
//! This module holds the scalar steps (one `Felt` at a time: the portable backend's) and the
//! public functions; the SIMD backends run the same steps in their lanes (`lanes.rs`), chosen
//! by [`crate::Backend::pedersen_hash_batch`].
//!
//! # Method (batch-affine)
//! A chunk of up to [`CHUNK`] hashes runs in lock-step. Every hash starts from its affine start
//! point S + x_high·P1 + y_high·P3 (a table entry) and takes [`STEPS`] = 2·25 steps; at step `s`
//! it adds the affine table point of its `s`-th signed 10-bit digit (the P0 windows of x_low,
//! then the P2 windows of y_low, exactly as [`super::accumulate`] recodes them). Every addition
//! stays affine: for (x1, y1) + (x2, y2) with x1 ≠ x2,
//!
//! λ = (y2 − y1)/(x2 − x1),  x3 = λ² − x1 − x2,  y3 = λ·(x1 − x3) − y1.
//!
//! The denominators of one step are inverted together with Montgomery's trick: a forward pass
//! forms prefix products, one variable-time inversion, and a backward pass gives each
//! 1/(x2 − x1) from its prefix and the running inverse. Per addition that is 3M for the trick plus
//! 2M + 1S for the addition (about 6M), against 8M + 2S for the XYZZ mixed addition of the scalar
//! hash; the accumulator is affine at the end, so the hash is its x with no final inversion.
//!
//! The prefix products are [`CHAINS`] interleaved independent chains (element `i` belongs to
//! chain `i mod CHAINS`), so the forward and backward passes are not one serial dependency chain
//! of multiplications; the chain totals are inverted with one inversion (a small Montgomery's
//! trick of their own).
//!
//! At each step all hashes read the same 512-entry window of one table (32 KiB of 64-byte
//! entries): with chunks of 4096 hashes each cache line of the window serves about 8 hashes. The
//! whole table (1.57 MiB) does not stay in the L2 cache, so every step first loads its entries in
//! a loop of loads alone (many misses in flight), then runs the two passes on cached entries.
//!
//! # Exceptional cases
//! A zero digit adds nothing (the hash skips the step and does not take part in the product). If
//! x1 = x2 (doubling, or a sum that would be the point at infinity; unreachable without discrete
//! logarithms between the constant points), the hash drops out of the lock-step (its remaining
//! digits are cleared) and is recomputed at the end with the exact scalar
//! [`crate::pedersen_hash`]. So the results equal the scalar hash for every input.
//!
//! Batches shorter than [`AFFINE_MIN`] use the XYZZ accumulation of the scalar hash and share only
//! the final inversion ([`hash_chunk_xyzz`]): for so few hashes the per-step inversion would cost
//! more than the affine additions save.
//!
//! # Memory
//! One heap allocation per call (the chunk's scratch: affine x, y, prefix products, digit codes,
//! about 200 bytes per hash of the chunk, reused across chunks: at most 800 KiB).

use super::tables::{Entry, HALF, HIGH, WINDOWS, tables};
use super::{Acc, accumulate, window};
use crate::Felt;
use alloc::vec;
use alloc::vec::Vec;

/// Hashes processed in lock-step (one inversion per step per chunk). Large, because every chunk
/// reads each 32 KiB table window once per step from outside the L1/L2 caches (the whole table
/// does not fit): measured 10.3, 8.1, 7.0 and 6.4 µs of CPU per hash for chunks of 512, 1024,
/// 2048 and 4096 (one core of the shared build machine).
const CHUNK: usize = 4096;

/// Independent chains of prefix products in Montgomery's trick.
const CHAINS: usize = 4;

/// Additions per hash: the windows of x_low (table P0), then those of y_low (table P2).
pub(super) const STEPS: usize = 2 * WINDOWS;

/// Batches (or final chunks) shorter than this use the XYZZ accumulation.
pub(crate) const AFFINE_MIN: usize = 24;

/// Hashes per shared inversion in the XYZZ path.
const XYZZ_CHUNK: usize = 256;

/// Batches shorter than this run on the calling thread in [`pedersen_hash_batch_par`] (the same
/// value as `crate::hash::PAR_THRESHOLD`, kept here so this layer does not import the trees').
#[cfg(feature = "std")]
const PAR_THRESHOLD: usize = 64;

/// The scalar batch: `out[i] = pedersen_hash(inputs[i][0], inputs[i][1])` in scalar `Felt`
/// arithmetic (`inputs.len() == out.len()`, checked by the caller).
pub(crate) fn hash_batch_scalar(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    debug_assert_eq!(inputs.len(), out.len());
    let n = inputs.len();
    if n < AFFINE_MIN {
        return hash_chunk_xyzz(inputs, out);
    }
    let mut scratch = Scratch::new(n.min(CHUNK));
    for r in even_chunks(n, CHUNK) {
        scratch.hash(&inputs[r.clone()], &mut out[r]);
    }
}

/// `0..n` cut into `ceil(n / max)` consecutive ranges of at most `max` whose lengths differ by at
/// most 1 (so that no lock-step chunk is tiny).
pub(super) fn even_chunks(n: usize, max: usize) -> impl Iterator<Item = core::ops::Range<usize>> {
    let chunks = n.div_ceil(max);
    let mut start = 0;
    (0..chunks).map(move |c| {
        let end = start + (n - start) / (chunks - c);
        let r = start..end;
        start = end;
        r
    })
}

/// The pieces of [`pedersen_hash_batch_par`]: `None` for a batch hashed on the calling thread
/// (fewer than 64 pairs or one thread), else the piece length (two pieces per thread, so that
/// uneven progress on a shared machine balances out, but at least 1024 pairs: every piece
/// streams the whole table once per chunk, see [`CHUNK`]).
#[cfg(feature = "std")]
pub(crate) fn par_piece(n: usize) -> Option<usize> {
    let threads = rayon::current_num_threads();
    if n < PAR_THRESHOLD || threads < 2 {
        return None;
    }
    Some(n.div_ceil(2 * threads).max(CHUNK / 4))
}

/// Scratch of one lock-step chunk, structure of arrays, `cap` hashes rounded up to [`CHAINS`].
pub(crate) struct Scratch {
    /// Affine accumulators.
    x: Vec<Felt>,
    y: Vec<Felt>,
    /// Prefix products of Montgomery's trick (per chain).
    prefix: Vec<Felt>,
    /// Digit codes, step-major (`codes[s·cap + i]`): 0 = no addition, else
    /// `(table index + 1) | NEG·[digit < 0]`.
    codes: Vec<u16>,
    /// Hashes that met x1 = x2 and are recomputed with the scalar hash.
    fallback: Vec<usize>,
    cap: usize,
}

/// Sign bit of a digit code.
pub(super) const NEG: u16 = 1 << 15;

// The codes must hold every table index + 1 below the sign bit.
const _: () = assert!(WINDOWS * HALF < NEG as usize);

impl Scratch {
    fn new(n: usize) -> Scratch {
        let cap = n.div_ceil(CHAINS) * CHAINS;
        Scratch {
            x: vec![Felt::ZERO; cap],
            y: vec![Felt::ZERO; cap],
            prefix: vec![Felt::ZERO; cap],
            codes: vec![0; STEPS * cap],
            fallback: Vec::new(),
            cap,
        }
    }

    /// Hashes one chunk (`inputs.len() == out.len() <= self.cap`).
    fn hash(&mut self, inputs: &[[Felt; 2]], out: &mut [Felt]) {
        self.load(inputs);
        self.run();
        self.finish(inputs, out);
    }

    /// Start points and digit codes of a chunk (`inputs.len() <= self.cap`).
    fn load(&mut self, inputs: &[[Felt; 2]]) {
        let n = inputs.len();
        debug_assert!(n <= self.cap);
        let t = tables();
        let cap = self.cap;
        // Padding lanes (n..cap) never add anything.
        for s in 0..STEPS {
            self.codes[s * cap + n..(s + 1) * cap].fill(0);
        }
        self.fallback.clear();
        const LOW_MASK: u64 = (1u64 << 56) - 1;
        for (i, [a, b]) in inputs.iter().enumerate() {
            let al = a.to_raw_limbs();
            let bl = b.to_raw_limbs();
            // a, b < p < 2^251 + 2^248, so the high parts are at most 8.
            let s = &t.start[(al[3] >> 56) as usize * HIGH + (bl[3] >> 56) as usize];
            self.x[i] = s.x;
            self.y[i] = s.y;
            recode(
                &[al[0], al[1], al[2], al[3] & LOW_MASK],
                &mut self.codes,
                i,
                cap,
            );
            recode(
                &[bl[0], bl[1], bl[2], bl[3] & LOW_MASK],
                &mut self.codes[WINDOWS * cap..],
                i,
                cap,
            );
        }
    }

    /// All the steps, with the fastest scalar code this CPU runs ([`pedersen_steps`]:
    /// compiled with BMI2 where the CPU has it; the same results either way).
    fn run(&mut self) {
        pedersen_steps(self)
    }

    /// The body of [`Scratch::run`], inlined into each of its builds.
    #[inline(always)]
    pub(crate) fn run_inline(&mut self) {
        let t = tables();
        let table_of = |s: usize| if s < WINDOWS { &t.p0 } else { &t.p2 };
        for s in 0..STEPS {
            self.step(s, table_of(s));
        }
    }

    /// The hashes: the affine x of every accumulator, or the scalar hash for those that left
    /// the lock-step.
    fn finish(&self, inputs: &[[Felt; 2]], out: &mut [Felt]) {
        let n = inputs.len();
        debug_assert!(n == out.len() && n <= self.cap);
        out.copy_from_slice(&self.x[..n]);
        for &i in &self.fallback {
            out[i] = super::pedersen_hash(&inputs[i][0], &inputs[i][1]);
        }
    }

    /// One lock-step addition for every hash of the chunk: step `s` reads its digit codes and
    /// `table`.
    #[inline(always)]
    fn step(&mut self, s: usize, table: &[Entry]) {
        let cap = self.cap;
        let (codes, later) = self.codes[s * cap..].split_at_mut(cap);
        let fallback_before = self.fallback.len();
        // Bring this step's table entries into the cache first, in a loop of loads and
        // nothing else: its iterations are a few instructions long, so the out-of-order core
        // keeps many cache misses in flight (in the passes below each iteration is long and
        // a miss stalls it). The loaded words are folded into one value that is then dropped.
        let mut touched = 0u64;
        for &c in codes.iter() {
            if c != 0 {
                touched ^= table[(c & !NEG) as usize - 1].x.0[0];
            }
        }
        core::hint::black_box(touched);
        // Forward: prefix[i] = product of the earlier denominators of i's chain.
        let mut acc = [Felt::ONE; CHAINS];
        for (g, ((pre, code), x)) in self
            .prefix
            .chunks_exact_mut(CHAINS)
            .zip(codes.chunks_exact_mut(CHAINS))
            .zip(self.x.chunks_exact(CHAINS))
            .enumerate()
        {
            for k in 0..CHAINS {
                pre[k] = acc[k];
                if code[k] == 0 {
                    continue;
                }
                let e = &table[(code[k] & !NEG) as usize - 1];
                let d = e.x - x[k];
                if d.is_zero() {
                    // x1 = x2: leave the lock-step, recompute with the scalar hash.
                    self.fallback.push(g * CHAINS + k);
                    code[k] = 0;
                    continue;
                }
                acc[k] *= d;
            }
        }
        // Hashes that left the lock-step skip the remaining steps too.
        for &i in &self.fallback[fallback_before..] {
            for c in later.iter_mut().skip(i).step_by(cap) {
                *c = 0;
            }
        }
        // 1/acc[k] for every chain with one inversion (each total is a product of non-zero
        // elements, hence invertible).
        let mut inv = invert_chains(&acc);
        let last = s + 1 == STEPS;
        // Backward: inv[k] = 1/(product of chain k's denominators up to element i).
        for (((pre, code), x), y) in self
            .prefix
            .chunks_exact(CHAINS)
            .zip(codes.chunks_exact(CHAINS))
            .zip(self.x.chunks_exact_mut(CHAINS))
            .zip(self.y.chunks_exact_mut(CHAINS))
            .rev()
        {
            for k in 0..CHAINS {
                if code[k] == 0 {
                    continue;
                }
                let e = &table[(code[k] & !NEG) as usize - 1];
                let (x1, y1) = (x[k], y[k]);
                let d = e.x - x1;
                let dinv = inv[k] * pre[k];
                inv[k] *= d;
                let y2 = if code[k] & NEG != 0 { -e.y } else { e.y };
                let lambda = (y2 - y1) * dinv;
                let x3 = lambda.square() - x1 - e.x;
                if !last {
                    // The hash is x alone: the last step skips y.
                    y[k] = lambda * (x1 - x3) - y1;
                }
                x[k] = x3;
            }
        }
    }
}

/// The inverses of the [`CHAINS`] non-zero chain totals, with one inversion.
#[inline(always)]
fn invert_chains(t: &[Felt; CHAINS]) -> [Felt; CHAINS] {
    let mut pre = [Felt::ONE; CHAINS];
    let mut p = Felt::ONE;
    for k in 0..CHAINS {
        pre[k] = p;
        p *= t[k];
    }
    let mut inv = p.inverse_vartime().unwrap_or(Felt::ZERO);
    let mut out = [Felt::ZERO; CHAINS];
    for k in (0..CHAINS).rev() {
        out[k] = inv * pre[k];
        inv *= t[k];
    }
    out
}

/// Writes the signed 10-bit digit codes of a 248-bit value (limbs with bits 248.. clear) for hash
/// `i`: `codes[w·cap + i]` for window `w`, with the recoding of [`super::accumulate`].
#[inline(always)]
pub(super) fn recode(low: &[u64; 4], codes: &mut [u16], i: usize, cap: usize) {
    let mut carry = 0u64;
    for w in 0..WINDOWS {
        let v = window(low, w * super::tables::W) + carry;
        let (mag, neg) = if v > HALF as u64 {
            carry = 1;
            ((1u64 << super::tables::W) - v, true)
        } else {
            carry = 0;
            (v, false)
        };
        codes[w * cap + i] = if mag == 0 {
            0
        } else {
            (w * HALF + mag as usize) as u16 | if neg { NEG } else { 0 }
        };
    }
    // W·WINDOWS >= 249: the top window has a spare bit, so there is no carry out of it.
    debug_assert_eq!(carry, 0);
}

/// The XYZZ path for short batches: accumulate each hash as the scalar hash does, then one
/// shared inversion of the ZZ values per [`XYZZ_CHUNK`] hashes (Montgomery's trick; a zero ZZ,
/// the point at infinity, gives x = 0 as in [`crate::pedersen_hash`]).
fn hash_chunk_xyzz(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    for (inp, o) in inputs.chunks(XYZZ_CHUNK).zip(out.chunks_mut(XYZZ_CHUNK)) {
        let n = inp.len();
        let mut xs = [Felt::ZERO; XYZZ_CHUNK];
        let mut zzs = [Felt::ZERO; XYZZ_CHUNK];
        // Forward: accumulate each hash; o[i] = product of the non-zero ZZ before i.
        let mut prod = Felt::ONE;
        for (i, [a, b]) in inp.iter().enumerate() {
            let Acc { x, zz, .. } = accumulate(a, b);
            xs[i] = x;
            zzs[i] = zz;
            o[i] = prod;
            if !zz.is_zero() {
                prod *= zz;
            }
        }
        let mut inv = prod.inverse_vartime().unwrap_or(Felt::ZERO);
        for i in (0..n).rev() {
            let zz = zzs[i];
            if zz.is_zero() {
                o[i] = Felt::ZERO;
                continue;
            }
            o[i] = xs[i] * (inv * o[i]);
            inv *= zz;
        }
    }
}

/// The lock-step steps of `pedersen_hash_batch` (batch-affine additions in scalar `Felt`
/// arithmetic) compiled with BMI2.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(crate) unsafe fn pedersen_steps_bmi2(s: &mut Scratch) {
    s.run_inline()
}

/// The plain build of the same steps.
#[inline(never)]
pub(crate) fn pedersen_steps_plain(s: &mut Scratch) {
    s.run_inline()
}

/// Runs every step of a `pedersen_hash_batch` chunk with the fastest scalar code this CPU runs.
#[inline]
pub(crate) fn pedersen_steps(s: &mut Scratch) {
    #[cfg(target_arch = "x86_64")]
    if crate::backend::cpu::has_bmi2() {
        // SAFETY: BMI2 is present (run-time test above, or the build targets it).
        unsafe { pedersen_steps_bmi2(s) };
        return;
    }
    pedersen_steps_plain(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{AffinePoint, ProjectivePoint};

    fn pairs(n: usize) -> Vec<[Felt; 2]> {
        (0..n as u64)
            .map(|i| {
                let a = Felt::from(i * 0x9e37_79b9_7f4a_7c15 + 1).pow(3);
                [a, a.square() + Felt::from(i)]
            })
            .collect()
    }

    /// The BMI2 build of the lock-step steps equals the plain build (which is what runs under
    /// qemu Nehalem), on random pairs and edge inputs (0, 1, p − 1, high parts 0 and 8, low
    /// parts with zero digits), including the exceptional-case bookkeeping.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn bmi2_steps_equal_plain_steps() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        let mut inputs = pairs(61);
        let edges = [
            Felt::ZERO,
            Felt::ONE,
            Felt::MAX,
            Felt::TWO.pow(248),
            Felt::TWO.pow(248) - Felt::ONE,
            Felt::from(1u64 << 10),
        ];
        for a in edges {
            for b in edges {
                inputs.push([a, b]);
            }
        }
        let run = |bmi2: bool| {
            let mut s = Scratch::new(inputs.len());
            s.load(&inputs);
            if bmi2 {
                // SAFETY: BMI2 was detected at the top of the test.
                unsafe { pedersen_steps_bmi2(&mut s) };
            } else {
                pedersen_steps_plain(&mut s);
            }
            (s.x, s.y, s.fallback)
        };
        assert_eq!(run(false), run(true));
    }

    /// The exceptional additions (x1 = x2: a doubling and a sum at infinity) leave the
    /// lock-step, skip the later steps, and are recomputed exactly; the other hashes of the
    /// chunk are unaffected. Real inputs never reach this (it needs discrete logarithms), so the
    /// accumulators are overwritten by hand after loading.
    #[test]
    fn equal_x_falls_back_to_the_scalar_hash() {
        let inputs = pairs(9);
        let mut sc = Scratch::new(inputs.len());
        sc.load(&inputs);
        let t = tables();
        // Lanes 0 and 1: the accumulator becomes ± the entry that step 0 adds.
        for (lane, negate) in [(0usize, false), (1, true)] {
            let code = sc.codes[lane];
            assert_ne!(code, 0);
            let e = &t.p0[(code & !NEG) as usize - 1];
            let y = if code & NEG != 0 { -e.y } else { e.y };
            sc.x[lane] = e.x;
            sc.y[lane] = if negate { -y } else { y };
        }
        // Lane 2: an ordinary point, checked against the projective arithmetic.
        let code2 = sc.codes[2];
        let e2 = &t.p0[(code2 & !NEG) as usize - 1];
        let y2 = if code2 & NEG != 0 { -e2.y } else { e2.y };
        let start2 = AffinePoint::new_unchecked(sc.x[2], sc.y[2]);
        let expected2 = ProjectivePoint::from_affine(&start2)
            .add_affine(&AffinePoint::new_unchecked(e2.x, y2))
            .to_affine();
        sc.step(0, &t.p0);
        assert_eq!(sc.fallback, vec![0, 1]);
        for s in 0..STEPS {
            assert_eq!(sc.codes[s * sc.cap], 0, "lane 0, step {s}");
            assert_eq!(sc.codes[s * sc.cap + 1], 0, "lane 1, step {s}");
        }
        assert_eq!(AffinePoint::new_unchecked(sc.x[2], sc.y[2]), expected2);
        // The remaining steps, then the results: all equal to the scalar hash.
        let t = tables();
        for s in 1..STEPS {
            let table_of = |s: usize| if s < WINDOWS { &t.p0 } else { &t.p2 };
            sc.step(s, table_of(s));
        }
        let mut out = vec![Felt::ZERO; inputs.len()];
        sc.finish(&inputs, &mut out);
        for (i, ([a, b], h)) in inputs.iter().zip(&out).enumerate() {
            assert_eq!(*h, super::super::pedersen_hash(a, b), "hash {i}");
        }
    }

    /// A scratch reused across chunks of different lengths (stale lanes and codes of a longer
    /// chunk must not leak into a shorter one).
    #[test]
    fn scratch_reuse_across_chunk_lengths() {
        let mut sc = Scratch::new(40);
        for n in [40, 3, 0, 25, 40, 1] {
            let inputs = pairs(n);
            let mut out = vec![Felt::MAX; n];
            sc.hash(&inputs, &mut out);
            for ([a, b], h) in inputs.iter().zip(&out) {
                assert_eq!(*h, super::super::pedersen_hash(a, b), "n = {n}");
            }
        }
    }

    #[test]
    fn even_chunks_cover_evenly() {
        for n in [0, 1, 23, 4095, 4096, 4097, 9000, 3 * 4096, 3 * 4096 + 1] {
            let r: Vec<_> = even_chunks(n, CHUNK).collect();
            assert_eq!(r.len(), n.div_ceil(CHUNK));
            let mut next = 0;
            for c in &r {
                assert_eq!(c.start, next);
                assert!(
                    c.len() <= CHUNK && c.len() + 1 >= r[0].len(),
                    "n = {n}: {r:?}"
                );
                next = c.end;
            }
            assert_eq!(next, n);
        }
    }

    #[test]
    fn chain_inverses() {
        let t = [
            Felt::from(3u64),
            Felt::from(5u64),
            Felt::MAX,
            Felt::from(1u64 << 40),
        ];
        let inv = invert_chains(&t);
        for (a, b) in t.iter().zip(&inv) {
            assert_eq!(*a * *b, Felt::ONE);
        }
    }
}
