//! Batch curve arithmetic (`double_batch`, `add_batch`, `to_affine_batch` and `_par`) against
//! the scalar `ProjectivePoint` methods, on every backend this CPU has: random points in random
//! Jacobian scalings, infinity, P + P, P + (−P), a distinct input in every lane position
//! (needles) and every tail length up to 3·lanes + 1. The batch functions run the same formulas,
//! so the triples must be identical, not only the points.

use starkbatch::curve::{AffinePoint, GENERATOR, ProjectivePoint};
use starkbatch::{Backend, Felt};

/// xorshift64*, enough for test inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn felt(&mut self) -> Felt {
        let mut b = [0u8; 32];
        for c in b.chunks_mut(8) {
            c.copy_from_slice(&self.next().to_le_bytes());
        }
        Felt::from_bytes_le_reduced(&b)
    }
    /// k·G for a random k, in a random Jacobian scaling (X·λ², Y·λ³, Z·λ).
    fn point(&mut self) -> ProjectivePoint {
        let k = [self.next(), self.next(), self.next(), self.next() >> 4];
        let p = GENERATOR.mul_vartime(&k).to_affine();
        scaled(&p, self.felt())
    }
}

fn scaled(p: &AffinePoint, l: Felt) -> ProjectivePoint {
    if p.infinity || l.is_zero() {
        return ProjectivePoint::INFINITY;
    }
    let l2 = l.square();
    ProjectivePoint {
        x: p.x * l2,
        y: p.y * l2 * l,
        z: l,
    }
}

fn same(a: &ProjectivePoint, b: &ProjectivePoint) -> bool {
    a.x == b.x && a.y == b.y && a.z == b.z
}

/// Inputs for lane position tests: every pair kind (random, infinity on either side, equal,
/// opposite, equal in another scaling).
fn pair_cases(rng: &mut Rng) -> Vec<(ProjectivePoint, ProjectivePoint)> {
    let p = rng.point();
    let q = rng.point();
    let pa = p.to_affine();
    vec![
        (p, q),
        (ProjectivePoint::INFINITY, q),
        (p, ProjectivePoint::INFINITY),
        (ProjectivePoint::INFINITY, ProjectivePoint::INFINITY),
        (p, p),
        (p, scaled(&pa, rng.felt())),
        (p, p.neg()),
        (p, scaled(&pa.neg(), rng.felt())),
    ]
}

fn check_all(backend: Backend, a: &[ProjectivePoint], b: &[ProjectivePoint]) {
    let n = a.len();
    // double
    let mut d = a.to_vec();
    backend.double_batch(&mut d);
    let mut dp = a.to_vec();
    backend.double_batch_par(&mut dp);
    for i in 0..n {
        let want = a[i].double();
        assert!(same(&d[i], &want), "{backend} double, n = {n}, i = {i}");
        assert!(
            same(&dp[i], &want),
            "{backend} double_par, n = {n}, i = {i}"
        );
    }
    // add
    let mut s = a.to_vec();
    backend.add_batch(&mut s, b);
    let mut sp = a.to_vec();
    backend.add_batch_par(&mut sp, b);
    for i in 0..n {
        let want = a[i].add(&b[i]);
        assert!(same(&s[i], &want), "{backend} add, n = {n}, i = {i}");
        assert!(same(&sp[i], &want), "{backend} add_par, n = {n}, i = {i}");
    }
    // to_affine
    let mut out = vec![AffinePoint::new_unchecked(Felt::ONE, Felt::ONE); n];
    backend.to_affine_batch(a, &mut out);
    let mut outp = vec![AffinePoint::new_unchecked(Felt::ONE, Felt::ONE); n];
    backend.to_affine_batch_par(a, &mut outp);
    for i in 0..n {
        assert_eq!(
            out[i],
            a[i].to_affine(),
            "{backend} to_affine, n = {n}, i = {i}"
        );
        assert_eq!(outp[i], out[i], "{backend} to_affine_par, n = {n}, i = {i}");
    }
}

#[test]
fn random_points_every_tail_length() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for backend in Backend::available() {
        for n in 0..=(3 * backend.lanes() + 1) {
            let a: Vec<ProjectivePoint> = (0..n).map(|_| rng.point()).collect();
            let b: Vec<ProjectivePoint> = (0..n).map(|_| rng.point()).collect();
            check_all(backend, &a, &b);
        }
        // A long batch (several rayon pieces).
        let a: Vec<ProjectivePoint> = (0..1001).map(|_| rng.point()).collect();
        let b: Vec<ProjectivePoint> = (0..1001).map(|_| rng.point()).collect();
        check_all(backend, &a, &b);
    }
}

#[test]
fn needles_every_special_case_in_every_lane() {
    let mut rng = Rng(42);
    for backend in Backend::available() {
        let l = backend.lanes();
        for n in [l, 2 * l + 1, 3 * l + 1] {
            for k in 0..n {
                for (x, y) in pair_cases(&mut rng) {
                    // Ordinary random pairs everywhere but position k.
                    let mut a: Vec<ProjectivePoint> = (0..n).map(|_| rng.point()).collect();
                    let mut b: Vec<ProjectivePoint> = (0..n).map(|_| rng.point()).collect();
                    a[k] = x;
                    b[k] = y;
                    check_all(backend, &a, &b);
                }
            }
        }
        // Whole batches of one kind.
        for (x, y) in pair_cases(&mut rng) {
            let a = vec![x; 2 * l + 3];
            let b = vec![y; 2 * l + 3];
            check_all(backend, &a, &b);
        }
    }
}

#[test]
fn results_are_the_right_points() {
    // Independent of the formulas: compare with multiples of G.
    let g = ProjectivePoint::from_affine(&GENERATOR);
    let multiples: Vec<ProjectivePoint> = (1..=9u64)
        .map(|k| GENERATOR.mul_vartime(&[k, 0, 0, 0]))
        .collect();
    for backend in Backend::available() {
        let mut pts = multiples.clone();
        backend.double_batch(&mut pts);
        for (k, p) in pts.iter().enumerate() {
            assert_eq!(*p, GENERATOR.mul_vartime(&[2 * (k as u64 + 1), 0, 0, 0]));
        }
        let mut pts = multiples.clone();
        backend.add_batch(&mut pts, &vec![g; multiples.len()]);
        for (k, p) in pts.iter().enumerate() {
            assert_eq!(*p, GENERATOR.mul_vartime(&[k as u64 + 2, 0, 0, 0]));
        }
        let mut out = vec![AffinePoint::INFINITY; 9];
        backend.to_affine_batch(&multiples, &mut out);
        for (a, p) in out.iter().zip(&multiples) {
            assert!(a.is_on_curve() && !a.infinity);
            assert_eq!(ProjectivePoint::from_affine(a), *p);
        }
    }
}

#[test]
fn free_functions_use_the_current_backend() {
    let mut rng = Rng(7);
    let a: Vec<ProjectivePoint> = (0..13).map(|_| rng.point()).collect();
    let b: Vec<ProjectivePoint> = (0..13).map(|_| rng.point()).collect();
    let mut d = a.clone();
    starkbatch::double_batch(&mut d);
    let mut s = a.clone();
    starkbatch::add_batch(&mut s, &b);
    let mut out = vec![AffinePoint::INFINITY; 13];
    starkbatch::to_affine_batch(&a, &mut out);
    for i in 0..13 {
        assert!(same(&d[i], &a[i].double()));
        assert!(same(&s[i], &a[i].add(&b[i])));
        assert_eq!(out[i], a[i].to_affine());
    }
}

#[test]
#[should_panic(expected = "differ in length")]
fn add_batch_length_mismatch_panics() {
    let mut a = vec![ProjectivePoint::INFINITY; 3];
    starkbatch::add_batch(&mut a, &[ProjectivePoint::INFINITY; 2]);
}

#[test]
#[should_panic(expected = "differ in length")]
fn to_affine_batch_length_mismatch_panics() {
    let a = vec![ProjectivePoint::INFINITY; 3];
    let mut out = vec![AffinePoint::INFINITY; 4];
    starkbatch::to_affine_batch(&a, &mut out);
}
