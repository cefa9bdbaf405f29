//! Batched Pedersen hashes with the batch-affine method of `batch.rs`, run in the lanes of a
//! packed field type (`P: PackedSelect`) instead of one scalar `Felt` at a time.
//!
//! # Method
//! The chunk's hashes are cut into groups of `P::LANES` consecutive hashes; lane `k` of group
//! `g` is hash `g·LANES + k`. The step structure is the scalar one (`batch.rs` module docs):
//! at step `s` every hash adds the affine table point of its `s`-th digit, and all the slopes'
//! denominators `d = x2 − x1` of the step are inverted together with Montgomery's trick. Here
//! every lane carries its own prefix-product chain, and the groups are dealt round-robin to
//! [`CHAINS`] vector chains (group `g` to chain `g mod CHAINS`) so that consecutive
//! multiplications of a pass are independent. After the forward pass the `CHAINS·LANES` chain
//! totals are stored, inverted with one scalar inversion (Montgomery's trick again) and loaded
//! back; the backward pass yields every `1/d` and the affine sum.
//!
//! Per step and group: two loads of gathered table coordinates (`x2` in the forward pass, kept
//! for the backward one, and `±y2`), 3 lane products for the trick, 2M + 1S for the addition
//! (the last step skips `y3`).
//!
//! # Lanes that do not add
//! A zero digit (or a padding lane past the end of the chunk) adds nothing: its denominator is
//! replaced by 1 with a mask (`select`), so it leaves the chain products unchanged, and its
//! accumulator is kept by a second `select`. If `x1 = x2` in an active lane (a doubling or a sum
//! at infinity; unreachable without discrete logarithms between the constant points, as in
//! `batch.rs`), the forward pass sees it with [`PackedSelect::zero_mask`] (one branch per group
//! on whether any lane hit it), clears that hash's remaining digit codes and records it; it is
//! recomputed at the end with the exact scalar [`crate::pedersen_hash`].
//!
//! # Memory
//! One allocation per call: per hash of a chunk, the affine `x`, `y`, the step's `x2` and the
//! prefix product as packed values, plus the digit codes.

use super::batch::{NEG, STEPS, even_chunks, recode};
use super::tables::{Entry, HIGH, WINDOWS, tables, windows_prescaled};
use crate::Felt;
use crate::backend::MAX_LANES;
use crate::backend::select::PackedSelect;
use alloc::vec;
use alloc::vec::Vec;

/// Hashes per lock-step chunk (each chunk streams the whole table once, see `batch.rs`).
const CHUNK: usize = 4096;

/// Interleaved vector chains of prefix products.
const CHAINS: usize = 4;

/// `out[i] = pedersen_hash(inputs[i][0], inputs[i][1])` in the lanes of `P`
/// (`inputs.len() == out.len()`, checked by the caller).
#[inline(always)]
pub(crate) fn hash_batch<P: PackedSelect>(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    debug_assert_eq!(inputs.len(), out.len());
    assert!(P::LANES <= MAX_LANES);
    let n = inputs.len();
    if n == 0 {
        return;
    }
    let mut scratch = Scratch::<P>::new(n.min(CHUNK));
    for r in even_chunks(n, CHUNK) {
        scratch.hash(&inputs[r.clone()], &mut out[r]);
    }
}

/// Scratch of one chunk: `groups` groups of `P::LANES` hashes.
struct Scratch<P: PackedSelect> {
    /// Affine accumulators.
    x: Vec<P>,
    y: Vec<P>,
    /// The step's table x-coordinates (forward pass to backward pass).
    x2: Vec<P>,
    /// Prefix products of the lane chains.
    prefix: Vec<P>,
    /// Digit codes, step-major (`codes[s·cap + i]`), as in `batch.rs`.
    codes: Vec<u16>,
    /// Hashes that met x1 = x2 and are recomputed with the scalar hash.
    fallback: Vec<usize>,
    groups: usize,
    /// `groups · P::LANES`.
    cap: usize,
}

impl<P: PackedSelect> Scratch<P> {
    #[inline(always)]
    fn new(n: usize) -> Self {
        let groups = n.div_ceil(P::LANES);
        let cap = groups * P::LANES;
        let z = P::zero();
        Scratch {
            x: vec![z; groups],
            y: vec![z; groups],
            x2: vec![z; groups],
            prefix: vec![z; groups],
            codes: vec![0; STEPS * cap],
            fallback: Vec::new(),
            groups,
            cap,
        }
    }

    /// Hashes one chunk (`inputs.len() == out.len() <= self.cap`).
    #[inline(always)]
    fn hash(&mut self, inputs: &[[Felt; 2]], out: &mut [Felt]) {
        self.load(inputs);
        // The windows as this lane type loads them without a conversion product.
        let (p0, p2) = windows_prescaled(P::LOAD_SHIFT);
        for s in 0..STEPS {
            let table = if s < WINDOWS { p0 } else { p2 };
            self.step(s, table);
        }
        self.finish(inputs, out);
    }

    /// Start points and digit codes; groups past the chunk's end are padding (no digits).
    #[inline(always)]
    fn load(&mut self, inputs: &[[Felt; 2]]) {
        let n = inputs.len();
        let l = P::LANES;
        let t = tables();
        let cap = self.cap;
        self.groups = n.div_ceil(l);
        for s in 0..STEPS {
            self.codes[s * cap..(s + 1) * cap].fill(0);
        }
        self.fallback.clear();
        const LOW_MASK: u64 = (1u64 << 56) - 1;
        let mut xs = [Felt::ZERO; MAX_LANES];
        let mut ys = [Felt::ZERO; MAX_LANES];
        for g in 0..self.groups {
            for k in 0..l {
                let i = g * l + k;
                let (sx, sy) = match inputs.get(i) {
                    Some([a, b]) => {
                        let al = a.to_raw_limbs();
                        let bl = b.to_raw_limbs();
                        // a, b < p < 2^251 + 2^248, so the high parts are at most 8.
                        let e = &t.start[(al[3] >> 56) as usize * HIGH + (bl[3] >> 56) as usize];
                        let low = |v: [u64; 4]| [v[0], v[1], v[2], v[3] & LOW_MASK];
                        recode(&low(al), &mut self.codes, i, cap);
                        recode(&low(bl), &mut self.codes[WINDOWS * cap..], i, cap);
                        (e.x, e.y)
                    }
                    None => (Felt::ZERO, Felt::ZERO),
                };
                xs[k] = sx;
                ys[k] = sy;
            }
            self.x[g] = P::load(&xs[..l]);
            self.y[g] = P::load(&ys[..l]);
        }
    }

    /// One lock-step addition for every hash of the chunk (step `s`, reading `table`, whose
    /// coordinates are pre-multiplied by `2^P::LOAD_SHIFT`).
    #[inline(always)]
    fn step(&mut self, s: usize, table: &[Entry]) {
        let l = P::LANES;
        let cap = self.cap;
        let groups = self.groups;
        let base = s * cap;
        // Bring the step's entries into the cache in a loop of bare loads (see `batch.rs`).
        let mut touched = 0u64;
        for &c in &self.codes[base..base + groups * l] {
            if c != 0 {
                touched ^= table[(c & !NEG) as usize - 1].x.to_raw_limbs()[0];
            }
        }
        core::hint::black_box(touched);

        let one = P::constant(&P::prepare(Felt::ONE));
        // The table as field elements: entry e's x at 2e, its y at 2e + 1.
        let felts: &[Felt] = bytemuck::cast_slice(table);
        let mut idx = [0u32; MAX_LANES];
        let mut active = [0u64; MAX_LANES];
        let mut neg = [0u64; MAX_LANES];
        // Forward: prefix[g] = product of the earlier denominators of g's chain, per lane.
        let mut acc = [one; CHAINS];
        for g in 0..groups {
            let codes = &self.codes[base + g * l..base + (g + 1) * l];
            lookups(codes, 0, &mut idx, &mut active, &mut neg);
            let x2 = P::gather_prescaled(felts, &idx[..l]);
            let x1 = self.x[g];
            let d = x2.sub(x1);
            let mut on = P::word_load(&active[..l]);
            if P::any(P::word_and(d.zero_mask(), on)) {
                on = self.leave(s, g, d);
            }
            let d = P::select(on, one, d);
            self.x2[g] = x2;
            let c = g % CHAINS;
            self.prefix[g] = acc[c];
            acc[c] = acc[c].mul_inline(d);
        }
        // 1/acc for every lane of every chain, with one scalar inversion.
        let mut inv = invert_totals(&acc);
        let last = s + 1 == STEPS;
        let zero = P::zero();
        // Backward: inv[c] = 1/(product of chain c's denominators up to group g), per lane.
        for g in (0..groups).rev() {
            let codes = &self.codes[base + g * l..base + (g + 1) * l];
            lookups(codes, 1, &mut idx, &mut active, &mut neg);
            let on = P::word_load(&active[..l]);
            let (x1, y1, x2) = (self.x[g], self.y[g], self.x2[g]);
            let d = P::select(on, one, x2.sub(x1));
            let c = g % CHAINS;
            let dinv = inv[c].mul_inline(self.prefix[g]);
            inv[c] = inv[c].mul_inline(d);
            let y2 = P::gather_prescaled(felts, &idx[..l]);
            let y2 = P::select(P::word_load(&neg[..l]), y2, zero.sub(y2));
            let lambda = y2.sub(y1).mul_inline(dinv);
            let x3 = lambda.square_inline().sub(x1.add_lazy(x2));
            self.x[g] = P::select(on, x1, x3);
            if !last {
                // The hash is x alone: the last step skips y.
                let y3 = lambda.mul_inline(x1.sub(x3)).sub(y1);
                self.y[g] = P::select(on, y1, y3);
            }
        }
    }

    /// The cold path of the forward pass: the active lanes of group `g` whose denominator `d`
    /// is zero (x1 = x2) leave the lock-step at step `s`: their codes from `s` on are cleared
    /// and they are recorded for the scalar hash. Returns the group's new active mask.
    #[cold]
    #[inline(never)]
    fn leave(&mut self, s: usize, g: usize, d: P) -> P::Word {
        let l = P::LANES;
        let cap = self.cap;
        let mut ds = [Felt::ZERO; MAX_LANES];
        d.store(&mut ds[..l]);
        let mut mask = [0u64; MAX_LANES];
        for k in 0..l {
            let i = g * l + k;
            if self.codes[s * cap + i] == 0 {
                continue;
            }
            if ds[k].is_zero() {
                self.fallback.push(i);
                for c in self.codes[s * cap + i..].iter_mut().step_by(cap) {
                    *c = 0;
                }
            } else {
                mask[k] = u64::MAX;
            }
        }
        P::word_load(&mask[..l])
    }

    /// The hashes: the affine x of every accumulator, or the scalar hash for those that left
    /// the lock-step.
    #[inline(always)]
    fn finish(&self, inputs: &[[Felt; 2]], out: &mut [Felt]) {
        let l = P::LANES;
        let mut xs = [Felt::ZERO; MAX_LANES];
        for (g, o) in out.chunks_mut(l).enumerate() {
            self.x[g].store(&mut xs[..l]);
            o.copy_from_slice(&xs[..o.len()]);
        }
        for &i in &self.fallback {
            out[i] = super::pedersen_hash(&inputs[i][0], &inputs[i][1]);
        }
    }
}

/// A group's table lookups: `idx[k]` = the position of coordinate `coord` (0 for x, 1 for y)
/// of lane `k`'s entry among the table's field elements (0 where the lane adds nothing), the
/// active-lane mask (all-ones where the code is non-zero) and the negative-digit mask.
#[inline(always)]
fn lookups(codes: &[u16], coord: u32, idx: &mut [u32], active: &mut [u64], neg: &mut [u64]) {
    for (k, &c) in codes.iter().enumerate() {
        let entry = (c & !NEG) as u32;
        // Entry e (code e + 1) holds x and y at 2e and 2e + 1; code 0 reads entry 0.
        idx[k] = (2 * entry.saturating_sub(1)) + coord;
        active[k] = if c == 0 { 0 } else { u64::MAX };
        neg[k] = if c & NEG != 0 { u64::MAX } else { 0 };
    }
}

/// The lane-wise inverses of the chain totals (every lane a product of non-zero elements, or
/// 1), with one scalar inversion.
#[inline(always)]
fn invert_totals<P: PackedSelect>(acc: &[P; CHAINS]) -> [P; CHAINS] {
    let l = P::LANES;
    let mut t = [Felt::ZERO; CHAINS * MAX_LANES];
    for (c, a) in acc.iter().enumerate() {
        a.store(&mut t[c * l..(c + 1) * l]);
    }
    let t = &mut t[..CHAINS * l];
    // Montgomery's trick on the stack (every total is non-zero) with a variable-time inversion:
    // the data is public.
    let mut pre = [Felt::ZERO; CHAINS * MAX_LANES];
    let mut p = Felt::ONE;
    for (q, v) in pre.iter_mut().zip(t.iter()) {
        *q = p;
        p *= *v;
    }
    let mut inv = p.inverse_vartime().unwrap_or(Felt::ZERO);
    for (v, q) in t.iter_mut().zip(&pre[..CHAINS * l]).rev() {
        let vi = inv * *q;
        inv *= *v;
        *v = vi;
    }
    let mut out = *acc;
    for (c, o) in out.iter_mut().enumerate() {
        *o = P::load(&t[c * l..(c + 1) * l]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::felt4::X4;
    use crate::backend::packed::Packed;
    use crate::backend::portable::PortableLane;
    use crate::pedersen_hash;

    fn pairs(n: usize, seed: u64) -> Vec<[Felt; 2]> {
        (0..n as u64)
            .map(|i| {
                let a = Felt::from((i + seed) * 0x9e37_79b9_7f4a_7c15 + 1).pow(3);
                [a, a.square() + Felt::from(i)]
            })
            .collect()
    }

    /// Edge inputs: 0, 1, p − 1, high parts 0 and 8, low parts with zero digits, limb edges.
    fn edges() -> Vec<[Felt; 2]> {
        let e = [
            Felt::ZERO,
            Felt::ONE,
            Felt::MAX,
            Felt::TWO.pow(248),
            Felt::TWO.pow(248) - Felt::ONE,
            Felt::TWO.pow(251) - Felt::ONE,
            Felt::TWO.pow(64) - Felt::ONE,
            Felt::TWO.pow(192),
            Felt::from(1u64 << 10),
        ];
        let mut v = Vec::new();
        for a in e {
            for b in e {
                v.push([a, b]);
            }
        }
        v
    }

    fn check<P: PackedSelect>(name: &str) {
        let mut lens: Vec<usize> = (0..=25).collect();
        lens.extend([40, 61, 97]);
        for n in lens {
            let inputs = pairs(n, n as u64);
            let mut out = vec![Felt::MAX; n];
            hash_batch::<P>(&inputs, &mut out);
            for (i, ([a, b], h)) in inputs.iter().zip(&out).enumerate() {
                assert_eq!(*h, pedersen_hash(a, b), "{name}: n = {n}, hash {i}");
            }
        }
        let inputs = edges();
        let mut out = vec![Felt::ZERO; inputs.len()];
        hash_batch::<P>(&inputs, &mut out);
        for ([a, b], h) in inputs.iter().zip(&out) {
            assert_eq!(*h, pedersen_hash(a, b), "{name}: edge ({a}, {b})");
        }
    }

    /// Every lane type against the scalar hash, at every tail length, on edge inputs.
    #[test]
    fn lane_types_match_scalar() {
        check::<Felt>("Felt");
        check::<X4<Felt>>("X4<Felt>");
        check::<Packed<PortableLane>>("Packed<PortableLane>");
    }

    /// A chunk boundary: more than one chunk, unevenly split.
    #[test]
    fn several_chunks() {
        let inputs = pairs(CHUNK + 5, 7);
        let mut out = vec![Felt::ZERO; inputs.len()];
        hash_batch::<Packed<PortableLane>>(&inputs, &mut out);
        for (i, ([a, b], h)) in inputs.iter().zip(&out).enumerate().step_by(97) {
            assert_eq!(*h, pedersen_hash(a, b), "hash {i}");
        }
        assert_eq!(
            out[CHUNK + 4],
            pedersen_hash(&inputs[CHUNK + 4][0], &inputs[CHUNK + 4][1])
        );
    }

    /// The exceptional additions (x1 = x2: a doubling and a sum at infinity) leave the
    /// lock-step in their lane only; forced by overwriting accumulators after loading (real
    /// inputs never reach this).
    fn forced_fallback<P: PackedSelect>() {
        let l = P::LANES;
        let inputs = pairs(3 * l + 1, 3);
        let mut sc = Scratch::<P>::new(inputs.len());
        sc.load(&inputs);
        let t = tables();
        let cap = sc.cap;
        // Lanes 1 (group 0) and l + 2 (group 1): ± the entry that step 0 adds.
        let lanes = [(1usize, false), (l + 2, true)];
        for (i, negate) in lanes {
            let (g, k) = (i / l, i % l);
            let code = sc.codes[i];
            assert_ne!(code, 0);
            let e = &t.p0[(code & !NEG) as usize - 1];
            let y = if code & NEG != 0 { -e.y } else { e.y };
            let mut xs = [Felt::ZERO; MAX_LANES];
            let mut ys = [Felt::ZERO; MAX_LANES];
            sc.x[g].store(&mut xs[..l]);
            sc.y[g].store(&mut ys[..l]);
            xs[k] = e.x;
            ys[k] = if negate { -y } else { y };
            sc.x[g] = P::load(&xs[..l]);
            sc.y[g] = P::load(&ys[..l]);
        }
        for s in 0..STEPS {
            let (p0, p2) = windows_prescaled(P::LOAD_SHIFT);
            let table = if s < WINDOWS { p0 } else { p2 };
            sc.step(s, table);
            if s == 0 {
                assert_eq!(sc.fallback, vec![1, l + 2]);
                for (i, _) in lanes {
                    for s2 in 0..STEPS {
                        assert_eq!(sc.codes[s2 * cap + i], 0, "hash {i}, step {s2}");
                    }
                }
            }
        }
        let mut out = vec![Felt::ZERO; inputs.len()];
        sc.finish(&inputs, &mut out);
        for (i, ([a, b], h)) in inputs.iter().zip(&out).enumerate() {
            assert_eq!(*h, pedersen_hash(a, b), "hash {i}");
        }
    }

    #[test]
    fn equal_x_falls_back_to_the_scalar_hash() {
        forced_fallback::<Felt>();
        forced_fallback::<Packed<PortableLane>>();
    }

    /// NEON lanes (always present on aarch64; the cross-test script runs this under qemu).
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn neon_lanes_match_scalar() {
        check::<Packed<crate::backend::neon::NeonLane>>("neon");
        forced_fallback::<Packed<crate::backend::neon::NeonLane>>();
    }

    /// The SIMD lane types (run only on CPUs that have them; the backend tests also run the
    /// dispatched entry points).
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn simd_lane_types_match_scalar() {
        if std::arch::is_x86_feature_detected!("avx2") {
            // Sound: the CPU has AVX2, all Avx2Lane's methods require.
            check::<Packed<crate::backend::avx2::Avx2Lane>>("avx2");
            forced_fallback::<Packed<crate::backend::avx2::Avx2Lane>>();
        }
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma")
        {
            // Sound: the CPU has AVX-512F and IFMA, all Ifma's methods require.
            check::<crate::backend::ifma::Ifma>("avx512ifma");
            forced_fallback::<crate::backend::ifma::Ifma>();
        }
    }
}
