//! Field arithmetic benchmarks: starkbatch's `Felt` beside pathfinder-crypto's `MontFelt` (same
//! Montgomery representation, R = 2^256) and, where cheap, starknet-types-core's `Felt`, in the
//! same criterion group so that ratios come from one run.
//!
//! Run: `cargo bench --bench field -- --warm-up-time 1 --measurement-time 3`

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pathfinder_crypto::MontFelt;
use starkbatch::Felt;
use starknet_types_core::felt::Felt as TcFelt;
use std::hint::black_box;

/// Steps per iteration for the chain and throughput groups. The state carries over from one
/// iteration to the next, so the operand sequence never repeats (a repeated sequence would let
/// the branch predictor learn the data-dependent branches of the reference implementations).
const N: usize = 64;

fn sample(i: u64) -> Felt {
    // A deterministic spread of full-size values: 0x…1234^(i+5) style powers.
    Felt::from_hex_unchecked("0x05a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0fedcba98765432")
        .pow(i as u128 + 7)
}

fn pf(a: Felt) -> MontFelt {
    MontFelt::from_raw(a.to_montgomery_limbs())
}

fn tc(a: Felt) -> TcFelt {
    TcFelt::from_bytes_be(&a.to_bytes_be())
}

/// The operations the chain and throughput groups time, for every implementation.
trait Elem: Copy {
    fn mul(self, y: Self) -> Self;
    fn square(self) -> Self;
    fn add(self, y: Self) -> Self;
    fn double(self) -> Self;
}

/// Implements [`Elem`] with each type's own inherent methods (`$sq`, `$dbl`: how to call them).
macro_rules! elem {
    ($t:ty, |$x:ident| $sq:expr, |$y:ident| $dbl:expr) => {
        impl Elem for $t {
            #[inline(always)]
            fn mul(self, y: Self) -> Self {
                self * y
            }
            #[inline(always)]
            fn square(self) -> Self {
                let $x = self;
                $sq
            }
            #[inline(always)]
            fn add(self, y: Self) -> Self {
                self + y
            }
            #[inline(always)]
            fn double(self) -> Self {
                let $y = self;
                $dbl
            }
        }
    };
}
elem!(Felt, |x| Felt::square(&x), |x| Felt::double(&x));
elem!(MontFelt, |x| MontFelt::square(&x), |x| MontFelt::double(x));
elem!(TcFelt, |x| TcFelt::square(&x), |x| TcFelt::double(&x));

/// One timed operation `x ← f(x, y)` (the unary ones ignore `y`).
trait Op {
    fn apply<E: Elem>(x: E, y: E) -> E;
}
struct MulOp;
struct SquareOp;
struct AddOp;
struct DoubleOp;
impl Op for MulOp {
    #[inline(always)]
    fn apply<E: Elem>(x: E, y: E) -> E {
        x.mul(y)
    }
}
impl Op for SquareOp {
    #[inline(always)]
    fn apply<E: Elem>(x: E, _: E) -> E {
        x.square()
    }
}
impl Op for AddOp {
    #[inline(always)]
    fn apply<E: Elem>(x: E, y: E) -> E {
        x.add(y)
    }
}
impl Op for DoubleOp {
    #[inline(always)]
    fn apply<E: Elem>(x: E, _: E) -> E {
        x.double()
    }
}

/// `N` dependent steps `x ← op(x, y)` per iteration (latency).
fn bench_chain<O: Op, E: Elem>(bn: &mut criterion::Bencher, x0: E, y: E) {
    let mut x = x0;
    bn.iter(|| {
        let y = black_box(y);
        for _ in 0..N {
            x = O::apply(x, y);
        }
        black_box(x)
    })
}

/// `N` rounds of 8 independent steps `x_i ← op(x_i, y)` per iteration (throughput).
fn bench_throughput<O: Op, E: Elem>(bn: &mut criterion::Bencher, xs0: [E; 8], y: E) {
    let mut xs = xs0;
    bn.iter(|| {
        let y = black_box(y);
        for _ in 0..N {
            for x in xs.iter_mut() {
                *x = O::apply(*x, y);
            }
        }
        black_box(xs)
    })
}

/// `x ← x + x` through the general addition: the same function as a doubling, so that the
/// `double` group compares like with like (in the `add` group the addend `y` is loop-invariant,
/// which lets the compiler hoist the half of our addition that depends on `y` alone, `y − p`,
/// out of the chain).
struct AddSelfOp;
impl Op for AddSelfOp {
    #[inline(always)]
    fn apply<E: Elem>(x: E, _: E) -> E {
        x.add(x)
    }
}

/// One group `name`: starkbatch beside pathfinder-crypto (and types-core in the chain
/// groups), as a dependent chain or as 8 independent lanes.
fn op_group<O: Op>(c: &mut Criterion, name: &str, throughput: bool) {
    let (a, b) = (sample(1), sample(2));
    let lanes: [Felt; 8] = core::array::from_fn(|i| sample(i as u64 + 3));
    let mut g = c.benchmark_group(name);
    if throughput {
        g.throughput(Throughput::Elements(N as u64 * 8));
        g.bench_function("starkbatch", |bn| bench_throughput::<O, _>(bn, lanes, b));
        g.bench_function("pathfinder", |bn| {
            bench_throughput::<O, _>(bn, lanes.map(pf), pf(b))
        });
    } else {
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("starkbatch", |bn| bench_chain::<O, _>(bn, a, b));
        g.bench_function("pathfinder", |bn| bench_chain::<O, _>(bn, pf(a), pf(b)));
        g.bench_function("types-core", |bn| bench_chain::<O, _>(bn, tc(a), tc(b)));
        if name == "double" {
            g.bench_function("starkbatch_add_self", |bn| {
                bench_chain::<AddSelfOp, _>(bn, a, b)
            });
        }
    }
    g.finish();
}

fn chain_and_throughput(c: &mut Criterion) {
    op_group::<MulOp>(c, "mul_chain", false);
    op_group::<MulOp>(c, "mul_throughput", true);
    op_group::<SquareOp>(c, "square_chain", false);
    op_group::<SquareOp>(c, "square_throughput", true);
    op_group::<AddOp>(c, "add", false);
    op_group::<DoubleOp>(c, "double", false);
}

fn inversion(c: &mut Criterion) {
    // Several inputs per iteration: pathfinder's and types-core's inversions are variable-time,
    // so a single input could be unrepresentative.
    let ins: Vec<Felt> = (0..16).map(|i| sample(i + 11)).collect();
    let pins: Vec<MontFelt> = ins.iter().map(|&v| pf(v)).collect();
    let tins: Vec<TcFelt> = ins.iter().map(|&v| tc(v)).collect();
    let mut g = c.benchmark_group("inverse");
    g.throughput(Throughput::Elements(ins.len() as u64));
    g.bench_function("starkbatch", |bn| {
        bn.iter(|| {
            for v in ins.iter() {
                black_box(black_box(v).inverse());
            }
        })
    });
    g.bench_function("starkbatch_vartime", |bn| {
        bn.iter(|| {
            for v in ins.iter() {
                black_box(black_box(v).inverse_vartime());
            }
        })
    });
    g.bench_function("pathfinder", |bn| {
        bn.iter(|| {
            for v in pins.iter() {
                black_box(black_box(v).inverse());
            }
        })
    });
    g.bench_function("types-core", |bn| {
        bn.iter(|| {
            for v in tins.iter() {
                black_box(black_box(v).inverse());
            }
        })
    });
    g.finish();

    // Batch inversion of 1024 elements, beside 1024 independent multiplications (ours and
    // pathfinder's) to read the cost in multiplications per element.
    let vals: Vec<Felt> = (0..1024).map(|i| sample(i + 100)).collect();
    let y = sample(3);
    let mut g = c.benchmark_group("batch_inverse_1024");
    g.throughput(Throughput::Elements(1024));
    g.bench_function("starkbatch", |bn| {
        bn.iter_batched_ref(
            || vals.clone(),
            |v| Felt::batch_inverse(v),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("starkbatch_1024_mul", |bn| {
        bn.iter_batched_ref(
            || vals.clone(),
            |v| {
                let y = black_box(y);
                for x in v.iter_mut() {
                    *x *= y;
                }
            },
            BatchSize::SmallInput,
        )
    });
    let pvals: Vec<MontFelt> = vals.iter().map(|&v| pf(v)).collect();
    g.bench_function("pathfinder_1024_mul", |bn| {
        bn.iter_batched_ref(
            || pvals.clone(),
            |v| {
                let y = black_box(pf(y));
                for x in v.iter_mut() {
                    *x *= y;
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn square_root(c: &mut Criterion) {
    // Four squares per iteration (the reference Tonelli–Shanks loops vary with the input).
    let sq: Vec<Felt> = (0..4).map(|i| sample(i + 21).square()).collect();
    let psq: Vec<MontFelt> = sq.iter().map(|&v| pf(v)).collect();
    let tsq: Vec<TcFelt> = sq.iter().map(|&v| tc(v)).collect();
    // Non-squares: 3·r² (3 is a non-residue).
    let ns: Vec<Felt> = sq.iter().map(|&v| v * Felt::THREE).collect();
    let pns: Vec<MontFelt> = ns.iter().map(|&v| pf(v)).collect();
    let mut g = c.benchmark_group("sqrt");
    g.throughput(Throughput::Elements(4));
    g.bench_function("starkbatch", |bn| {
        bn.iter(|| {
            for v in sq.iter() {
                black_box(black_box(v).sqrt());
            }
        })
    });
    g.bench_function("pathfinder", |bn| {
        bn.iter(|| {
            for v in psq.iter() {
                black_box(black_box(v).sqrt());
            }
        })
    });
    g.bench_function("types-core", |bn| {
        bn.iter(|| {
            for v in tsq.iter() {
                black_box(black_box(v).sqrt());
            }
        })
    });
    g.bench_function("starkbatch_nonsquare", |bn| {
        bn.iter(|| {
            for v in ns.iter() {
                black_box(black_box(v).sqrt());
            }
        })
    });
    g.bench_function("pathfinder_nonsquare", |bn| {
        bn.iter(|| {
            for v in pns.iter() {
                black_box(black_box(v).sqrt());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, chain_and_throughput, inversion, square_root);
criterion_main!(benches);
