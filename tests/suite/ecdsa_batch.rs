//! `verify_batch` / `verify_batch_par` against the scalar `verify`, item by item: valid
//! signatures mixed with every kind of invalid item (a public key off the curve, r or s zero or
//! out of range, s whose inverse is out of range, a message >= 2^251, a wrong message), at
//! every position and across the 256-item chunk boundary.

use starkbatch::{Felt, Scalar, VerifyError, get_public_key, sign, verify};
use starkbatch::{VerifyItem, verify_batch, verify_batch_par};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A value below 2^251.
    fn small(&mut self) -> Felt {
        Felt::from_raw_limbs([self.next(), self.next(), self.next(), self.next() >> 5]).unwrap()
    }
}

fn bound() -> Felt {
    Felt::TWO.pow(251)
}

/// A valid item.
fn valid(rng: &mut Rng) -> VerifyItem {
    loop {
        let d = rng.small();
        let m = rng.small();
        let k = rng.small();
        if let Ok(sig) = sign(&d, &m, &k) {
            return VerifyItem {
                public_key: get_public_key(&d),
                message: m,
                r: sig.r,
                s: sig.s,
            };
        }
    }
}

/// An s < 2^251 whose inverse mod n is >= 2^251 (verify rejects it after the inversion).
fn s_with_large_inverse(rng: &mut Rng) -> Felt {
    loop {
        let w = Scalar::from_felt(&(bound() + rng.small())).unwrap();
        let s = w.inverse().to_felt();
        if s < bound() && !s.is_zero() {
            return s;
        }
    }
}

/// Every kind of item, derived from a valid one.
fn variants(rng: &mut Rng) -> Vec<VerifyItem> {
    let v = valid(rng);
    let mut off_curve = v;
    // Find an x with no point: x^3 + x + beta not a square.
    off_curve.public_key = (1u64..)
        .map(|x| v.public_key + Felt::from(x))
        .find(|x| starkbatch::curve::AffinePoint::from_x(*x).is_err())
        .unwrap();
    let with = |f: &dyn Fn(&mut VerifyItem)| {
        let mut i = v;
        f(&mut i);
        i
    };
    let large_inv = s_with_large_inverse(rng);
    vec![
        v,
        off_curve,
        with(&|i| i.message += Felt::ONE),
        with(&|i| i.message = bound()),
        with(&|i| i.message = Felt::MAX),
        with(&|i| i.r = Felt::ZERO),
        with(&|i| i.r = bound()),
        with(&|i| i.s = Felt::ZERO),
        with(&|i| i.s = bound() + Felt::ONE),
        with(&|i| i.s = large_inv),
        // Several errors at once: the first in verify's order wins.
        with(&|i| {
            i.r = Felt::ZERO;
            i.s = Felt::ZERO;
            i.public_key = off_curve.public_key;
        }),
        with(&|i| i.s = -i.s),
    ]
}

fn check(items: &[VerifyItem]) {
    let mut out = vec![Err(VerifyError::InvalidR); items.len()];
    verify_batch(items, &mut out);
    let mut outp = vec![Err(VerifyError::InvalidR); items.len()];
    verify_batch_par(items, &mut outp);
    for (i, item) in items.iter().enumerate() {
        let want = verify(&item.public_key, &item.message, &item.r, &item.s);
        assert_eq!(out[i], want, "item {i}: {item:?}");
        assert_eq!(outp[i], want, "par, item {i}");
    }
}

#[test]
fn mixed_valid_and_invalid_items() {
    let mut rng = Rng(0xdead_beef_1234_5678);
    let kinds = variants(&mut rng);
    // Each kind at each position of a short batch of valid items.
    for n in [1usize, 5, 9] {
        let base: Vec<VerifyItem> = (0..n).map(|_| valid(&mut rng)).collect();
        for k in 0..n {
            for v in &kinds {
                let mut items = base.clone();
                items[k] = *v;
                check(&items);
            }
        }
    }
    check(&kinds);
    check(&[]);
}

/// Items whose u2 = r·s⁻¹ mod n is crafted (1, 2, 3, 4, n − 1, n − 2): the odd, even and
/// exceptional paths of the lane multiplication u2·Q (the result must still equal `verify`).
fn crafted(rng: &mut Rng) -> Vec<VerifyItem> {
    let v = valid(rng);
    let sc = |f: &Felt| Scalar::from_felt(f).unwrap();
    let r = v.r;
    let mut out = Vec::new();
    for u2 in [1i64, 2, 3, 4, -1, -2] {
        let u = if u2 > 0 {
            sc(&Felt::from(u2 as u64))
        } else {
            -sc(&Felt::from((-u2) as u64))
        };
        let s = (sc(&r) * u.inverse()).to_felt();
        if s < bound() && !s.is_zero() {
            out.push(VerifyItem { s, ..v });
            // The same u2 with the public key of the generator (Q = G).
            out.push(VerifyItem {
                s,
                public_key: get_public_key(&Felt::ONE),
                ..v
            });
        }
    }
    assert!(out.len() >= 8, "too few crafted items");
    out
}

#[test]
fn needles_at_every_lane_position_and_tail_length() {
    let mut rng = Rng(0x5eed_0bad_cafe_f00d);
    let mut kinds = variants(&mut rng);
    kinds.extend(crafted(&mut rng));
    check(&kinds);
    let base: Vec<VerifyItem> = (0..17).map(|_| valid(&mut rng)).collect();
    // Tail lengths 1..=17 cover every lane count (1, 4, 8) with full groups and tails; one
    // needle per batch at every position.
    for len in 1..=17usize {
        for k in 0..len {
            let mut items = base[..len].to_vec();
            items[k] = kinds[(3 * k + len) % kinds.len()];
            check(&items);
        }
    }
    // Every kind at every position of a group of 8 plus a tail of 1.
    for k in 0..9 {
        for v in &kinds {
            let mut items = base[..9].to_vec();
            items[k] = *v;
            check(&items);
        }
    }
}

#[test]
fn long_batches_cross_chunk_boundaries() {
    let mut rng = Rng(99);
    let kinds = variants(&mut rng);
    let items: Vec<VerifyItem> = (0..600)
        .map(|i| {
            if i % 7 == 3 {
                kinds[i % kinds.len()]
            } else {
                valid(&mut rng)
            }
        })
        .collect();
    check(&items);
    // All invalid, and all valid.
    check(&vec![kinds[1]; 300]);
    let v = valid(&mut rng);
    check(&vec![v; 257]);
}

#[test]
#[should_panic(expected = "differ in length")]
fn length_mismatch_panics() {
    let mut out = [Ok(true); 2];
    verify_batch(&[VerifyItem::default(); 3], &mut out);
}

#[test]
fn public_keys_match_scalar() {
    use starkbatch::{get_public_key_batch, get_public_key_batch_par};
    let mut rng = Rng(5);
    let n_minus_1 = Felt::from_raw_limbs([
        0x1e66_a241_adc6_4d2e,
        0xb781_126d_cae7_b232,
        0xffff_ffff_ffff_ffff,
        0x0800_0000_0000_0010,
    ])
    .unwrap();
    let specials = [
        Felt::ZERO,
        Felt::ONE,
        Felt::MAX,
        n_minus_1,
        n_minus_1 + Felt::ONE, // n: infinity, key 0
        n_minus_1 + Felt::TWO,
    ];
    for len in [0usize, 1, 2, 7, 255, 256, 257, 600] {
        let mut keys: Vec<Felt> = (0..len).map(|_| rng.small()).collect();
        for (i, s) in specials.iter().enumerate() {
            if len > 0 {
                keys[(i * 37) % len] = *s;
            }
        }
        let mut out = vec![Felt::MAX; len];
        get_public_key_batch(&keys, &mut out);
        let mut outp = vec![Felt::MAX; len];
        get_public_key_batch_par(&keys, &mut outp);
        for i in 0..len {
            let want = get_public_key(&keys[i]);
            assert_eq!(out[i], want, "len {len}, i {i}");
            assert_eq!(outp[i], want, "par, len {len}, i {i}");
        }
    }
}

/// The keys that meet the comb's special cases (module docs of `curve::fixed_base`): 0, 1,
/// n − 1, n, n + 1, keys ≥ n, and 2^252 − n (equal points in the last rows) with neighbours.
fn special_keys() -> Vec<Felt> {
    let n = Felt::from_raw_limbs([
        0x1e66_a241_adc6_4d2e,
        0xb781_126d_cae7_b232,
        0xffff_ffff_ffff_ffff,
        0x0800_0000_0000_0010,
    ])
    .unwrap();
    // 2^252 − n (published with the comb's tests in src/curve/fixed_base.rs).
    let t = Felt::from_hex("0x7ffffffffffffef0000000000000000487eed9235184dcde1995dbe5239b2d1")
        .unwrap();
    vec![
        Felt::ZERO,
        Felt::ONE,
        Felt::TWO,
        n - Felt::ONE,
        n,
        n + Felt::ONE,
        n + n,
        n + t,
        Felt::MAX,
        Felt::MAX - Felt::ONE,
        t,
        t - Felt::ONE,
        t + Felt::ONE,
        -t,
        Felt::TWO.pow(251),
    ]
}

#[test]
fn public_keys_every_backend_lane_and_tail() {
    let mut rng = Rng(17);
    let specials = special_keys();
    let want_special: Vec<Felt> = specials.iter().map(get_public_key).collect();
    // Tails 0..=3·LANES + 1 for every lane count (at most 8), random keys and specials mixed.
    let pool: Vec<Felt> = (0..25).map(|_| rng.small()).collect();
    let want_pool: Vec<Felt> = pool.iter().map(get_public_key).collect();
    for backend in starkbatch::Backend::available() {
        for len in 0..=3 * 8 + 1 {
            let mut keys = pool[..len].to_vec();
            let mut want = want_pool[..len].to_vec();
            for i in (0..len).step_by(3) {
                keys[i] = specials[(i + len) % specials.len()];
                want[i] = want_special[(i + len) % specials.len()];
            }
            let mut out = vec![Felt::MAX; len];
            backend.get_public_key_batch(&keys, &mut out);
            assert_eq!(out, want, "{} len {len}", backend.name());
        }
        // Every special key (a needle) at every lane position of 17 random keys.
        for (s, ws) in specials.iter().zip(&want_special) {
            for pos in 0..17 {
                let mut keys = pool[..17].to_vec();
                let mut want = want_pool[..17].to_vec();
                keys[pos] = *s;
                want[pos] = *ws;
                let mut out = vec![Felt::MAX; 17];
                backend.get_public_key_batch(&keys, &mut out);
                assert_eq!(out, want, "{} key {s} at {pos}", backend.name());
            }
        }
        // A whole batch of one special key (every lane hits the case at once).
        for (s, ws) in specials.iter().zip(&want_special) {
            let keys = vec![*s; 9];
            let mut out = vec![Felt::MAX; 9];
            backend.get_public_key_batch(&keys, &mut out);
            assert!(out.iter().all(|o| o == ws), "{} all {s}", backend.name());
        }
    }
}
