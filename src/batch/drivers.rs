//! Batch drivers, generic over [`PackedFelt`]: chunk the input by the lane count, gather into
//! lanes, run the permutation, scatter the outputs; the tail (fewer than `LANES` elements) is
//! padded with zeros and only its real lanes are written back. Everything is
//! `#[inline(always)]` so that each backend's entry point compiles to straight-line code for
//! its instruction set. No heap allocation: buffers are small stack arrays.
//!
//! No closures here: a closure is a separate function that does not inherit the entry
//! point's `#[target_feature]`, so SIMD code inside one would call every intrinsic out of line.

use crate::field::{Felt, PackedFelt};
use crate::poseidon::constants::N_CONSTANTS;
use crate::poseidon::hades::{permute, permute_known};

use crate::backend::MAX_LANES;

/// Prepared constants a driver needs: the round constants and the first-round S-box outputs
/// of the cells that `hash1` and `hash2` fix (`HASH1_CUBES`, `HASH2_CUBES` of
/// `crate::poseidon::constants`).
pub(crate) struct Prepared<C: 'static> {
    pub(crate) rc: [C; N_CONSTANTS],
    pub(crate) hash1_cubes: [C; 2],
    pub(crate) hash2_cubes: [C; 1],
}

#[inline(always)]
fn lanes<P: PackedFelt>() -> usize {
    assert!(P::LANES <= MAX_LANES);
    P::LANES
}

/// The number of elements in the chunk starting at `i` (at most `l`).
#[inline(always)]
fn take(n: usize, i: usize, l: usize) -> usize {
    if n - i < l { n - i } else { l }
}

/// Stores lane values into `dst[..count]` (through a buffer when `count < LANES`).
#[inline(always)]
fn store_prefix<P: PackedFelt>(x: P, dst: &mut [Felt], count: usize) {
    let l = P::LANES;
    if count == l {
        x.store(&mut dst[..l]);
    } else {
        let mut tmp = [Felt::ZERO; MAX_LANES];
        x.store(&mut tmp[..l]);
        dst[..count].copy_from_slice(&tmp[..count]);
    }
}

/// Loads `src[..count]` into lanes, zero-padding when `count < LANES`.
#[inline(always)]
fn load_prefix<P: PackedFelt>(src: &[Felt], count: usize) -> P {
    let l = P::LANES;
    if count == l {
        P::load(&src[..l])
    } else {
        let mut tmp = [Felt::ZERO; MAX_LANES];
        tmp[..count].copy_from_slice(&src[..count]);
        P::load(&tmp[..l])
    }
}

/// `out[i] = permute([x_i, y_i, 2])[0]`.
#[inline(always)]
pub(crate) fn hash2<P: PackedFelt>(
    c: &Prepared<P::Constant>,
    inputs: &[[Felt; 2]],
    out: &mut [Felt],
) {
    let l = lanes::<P>();
    let n = inputs.len();
    let mut i = 0;
    while i < n {
        let take = take(n, i, l);
        let mut xs = [Felt::ZERO; MAX_LANES];
        let mut ys = [Felt::ZERO; MAX_LANES];
        for k in 0..take {
            xs[k] = inputs[i + k][0];
            ys[k] = inputs[i + k][1];
        }
        // Cell 2 holds 2: its first S-box output is prepared (`permute_known`).
        let mut s = [P::load(&xs[..l]), P::load(&ys[..l]), P::zero()];
        permute_known(&mut s, &c.rc, &c.hash2_cubes);
        store_prefix(s[0], &mut out[i..], take);
        i += take;
    }
}

/// Column form of [`hash2`]: `out[i] = permute([xs_i, ys_i, 2])[0]`.
#[inline(always)]
pub(crate) fn hash2_columns<P: PackedFelt>(
    c: &Prepared<P::Constant>,
    xs: &[Felt],
    ys: &[Felt],
    out: &mut [Felt],
) {
    let l = lanes::<P>();
    let n = xs.len();
    let mut i = 0;
    while i < n {
        let take = take(n, i, l);
        let mut s = [
            load_prefix::<P>(&xs[i..], take),
            load_prefix::<P>(&ys[i..], take),
            P::zero(),
        ];
        permute_known(&mut s, &c.rc, &c.hash2_cubes);
        store_prefix(s[0], &mut out[i..], take);
        i += take;
    }
}

/// `out[i] = permute([x_i, 0, 1])[0]`.
#[inline(always)]
pub(crate) fn hash1<P: PackedFelt>(c: &Prepared<P::Constant>, inputs: &[Felt], out: &mut [Felt]) {
    let l = lanes::<P>();
    let n = inputs.len();
    let mut i = 0;
    while i < n {
        let take = take(n, i, l);
        let mut s = [load_prefix::<P>(&inputs[i..], take), P::zero(), P::zero()];
        // Cells 1 and 2 hold 0 and 1: their first S-box outputs are prepared.
        permute_known(&mut s, &c.rc, &c.hash1_cubes);
        store_prefix(s[0], &mut out[i..], take);
        i += take;
    }
}

/// Permutes every state in place.
#[inline(always)]
pub(crate) fn permute_states<P: PackedFelt>(c: &Prepared<P::Constant>, states: &mut [[Felt; 3]]) {
    let l = lanes::<P>();
    let n = states.len();
    let mut i = 0;
    while i < n {
        let take = take(n, i, l);
        let mut cols = [[Felt::ZERO; MAX_LANES]; 3];
        for k in 0..take {
            for j in 0..3 {
                cols[j][k] = states[i + k][j];
            }
        }
        let mut s = [
            P::load(&cols[0][..l]),
            P::load(&cols[1][..l]),
            P::load(&cols[2][..l]),
        ];
        permute(&mut s, &c.rc);
        for j in 0..3 {
            s[j].store(&mut cols[j][..l]);
        }
        for k in 0..take {
            for j in 0..3 {
                states[i + k][j] = cols[j][k];
            }
        }
        i += take;
    }
}

/// Column form of [`permute_states`].
#[inline(always)]
pub(crate) fn permute_columns<P: PackedFelt>(
    c: &Prepared<P::Constant>,
    s0: &mut [Felt],
    s1: &mut [Felt],
    s2: &mut [Felt],
) {
    let l = lanes::<P>();
    let n = s0.len();
    let mut i = 0;
    while i < n {
        let take = take(n, i, l);
        let mut s = [
            load_prefix::<P>(&s0[i..], take),
            load_prefix::<P>(&s1[i..], take),
            load_prefix::<P>(&s2[i..], take),
        ];
        permute(&mut s, &c.rc);
        store_prefix(s[0], &mut s0[i..], take);
        store_prefix(s[1], &mut s1[i..], take);
        store_prefix(s[2], &mut s2[i..], take);
        i += take;
    }
}

/// Element `e` of message `m` after padding (`m ++ [1] ++ [0]?`).
#[inline(always)]
fn padded(m: &[Felt], e: usize) -> Felt {
    if e < m.len() {
        m[e]
    } else if e == m.len() {
        Felt::ONE
    } else {
        Felt::ZERO
    }
}

/// `out[i] = poseidon_hash_many(messages[i])`. Each lane runs one message's sponge; a lane
/// whose message is finished writes its output and takes the next message, so messages of
/// different lengths share the lanes. A message of length `n` takes `n/2 + 1` permutations.
#[inline(always)]
pub(crate) fn hash_many<P: PackedFelt>(
    c: &Prepared<P::Constant>,
    messages: &[&[Felt]],
    out: &mut [Felt],
) {
    const IDLE: usize = usize::MAX;
    let l = lanes::<P>();
    let n = messages.len();
    let mut msg = [IDLE; MAX_LANES];
    let mut block = [0usize; MAX_LANES];
    let mut st = [[Felt::ZERO; MAX_LANES]; 3];
    let mut next = 0;
    for m in msg.iter_mut().take(l) {
        if next < n {
            *m = next;
            next += 1;
        }
    }
    loop {
        let mut active = false;
        for &m in &msg[..l] {
            active |= m != IDLE;
        }
        if !active {
            break;
        }
        for k in 0..l {
            if msg[k] != IDLE {
                let m = messages[msg[k]];
                st[0][k] += padded(m, 2 * block[k]);
                st[1][k] += padded(m, 2 * block[k] + 1);
            }
        }
        let mut s = [
            P::load(&st[0][..l]),
            P::load(&st[1][..l]),
            P::load(&st[2][..l]),
        ];
        permute(&mut s, &c.rc);
        for j in 0..3 {
            s[j].store(&mut st[j][..l]);
        }
        for k in 0..l {
            if msg[k] == IDLE {
                continue;
            }
            block[k] += 1;
            if block[k] == messages[msg[k]].len() / 2 + 1 {
                out[msg[k]] = st[0][k];
                for col in st.iter_mut() {
                    col[k] = Felt::ZERO;
                }
                block[k] = 0;
                msg[k] = if next < n {
                    next += 1;
                    next - 1
                } else {
                    IDLE
                };
            }
        }
    }
}
