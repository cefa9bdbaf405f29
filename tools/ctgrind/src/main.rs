//! The ctgrind harness: calls [`get_public_key`], [`sign`] and
//! [`get_public_key_batch`](starkbatch::get_public_key_batch) with the private keys and
//! the nonce marked *undefined* for valgrind's memcheck. Memcheck then reports every conditional
//! branch ("Conditional jump or move depends on uninitialised value(s)") and every memory address
//! ("Use of uninitialised value of size 8") computed from them. `scripts/ct-check.sh` runs this
//! under valgrind and accepts only the reports that sit at the documented public-output checks of
//! `sign`; see docs/constant-time.md for the method and its limits.
//!
//! Run outside valgrind it refuses to run (the marks would do nothing).

use starkbatch::{get_public_key, sign, verify, Felt};

/// Valgrind's client-request mechanism for amd64 (valgrind.h, `VALGRIND_DO_CLIENT_REQUEST`):
/// a no-op instruction sequence (`rol rdi` by 3+13+61+51 = 128 bits, then `xchg rbx, rbx`)
/// that valgrind's JIT recognises, with `rax` pointing at `[request, arg1..arg5]` and the
/// result in `rdx` (left at `default` when not running under valgrind).
#[cfg(target_arch = "x86_64")]
fn client_request(default: usize, request: usize, a1: usize, a2: usize) -> usize {
    let args: [usize; 6] = [request, a1, a2, 0, 0, 0];
    let result;
    // SAFETY: the sequence leaves every register unchanged (rdi is rotated by a multiple of
    // 64 bits, rbx is exchanged with itself) except the flags and rdx, declared below; it reads
    // `args`, which lives across the block. Under valgrind the request only changes memcheck's
    // shadow state of the memory range named by the caller.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") default => result,
            options(nostack),
        );
    }
    result
}

const RUNNING_ON_VALGRIND: usize = 0x1001;
/// `VG_USERREQ_TOOL_BASE('M', 'C')` (memcheck.h) + 1 and + 2.
const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
const MAKE_MEM_DEFINED: usize = 0x4d43_0002;

/// Marks the bytes of `f` as secret: memcheck treats them as uninitialised. `&mut` because the
/// request stands for a write (the compiler must not reuse a value it loaded before).
fn classify(f: &mut Felt) {
    client_request(
        0,
        MAKE_MEM_UNDEFINED,
        f as *mut Felt as usize,
        core::mem::size_of::<Felt>(),
    );
}

/// Marks the bytes of `f` as public again (a deliberate declassification of an output).
fn declassify<T>(f: &mut T) {
    client_request(
        0,
        MAKE_MEM_DEFINED,
        f as *mut T as usize,
        core::mem::size_of::<T>(),
    );
}

fn felt(s: &str) -> Felt {
    Felt::from_hex(s).expect("valid test constant")
}

fn main() {
    if client_request(0, RUNNING_ON_VALGRIND, 0, 0) == 0 {
        eprintln!("ctgrind: not running under valgrind; use scripts/ct-check.sh");
        std::process::exit(2);
    }
    // Where this `main` was loaded: scripts/ct-check.sh subtracts the symbol's address in the
    // file to resolve each reported instruction with binutils' addr2line.
    println!("ctgrind: main at {:#x}", main as fn() as usize);
    if std::env::args().nth(1).as_deref() == Some("--control") {
        // Negative control: a function that is documented variable time (verification, with
        // its width-5 NAF and table lookups) run on a marked value must be reported; if it is
        // not, the marks have no effect and a clean run proves nothing.
        let mut x = felt("0x1ef15c18599971b7beced415a40f0c7deacfd9b0d1819e03d723d8bc943cfca");
        classify(&mut x);
        let message = felt("0x2");
        let mut ok = verify(&x, &message, &Felt::ONE, &Felt::ONE);
        declassify(&mut ok);
        println!("ctgrind control: ran verify with a marked public key ({ok:?})");
        return;
    }
    // The scan kernel of the fixed-base multiplication follows STARKBATCH_BACKEND
    // (scripts/ct-check.sh runs the default and the portable one).
    println!(
        "ctgrind: backend {}",
        starkbatch::Backend::from_env()
            .map_or("detected (invalid STARKBATCH_BACKEND)", |b| b.name())
    );
    // Keys and nonces of different shapes: small, with high bits set, n - 1, and random-looking
    // values (n = the curve order). Timing must not depend on any of them.
    let keys = [
        "0x1",
        "0x3",
        "0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2e", // n - 1
        "0x7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "0x2dccce1da22003777062ee0870e9881b460a8b7eca276870f57c601f182136c",
        "0x4c1e5d4f9a4d7e1e39eac3a5e3c1b5e2b5fd0a0c4cd5a8b6b0b6ec2d6b7b2ea",
    ];
    let message = felt("0x5d0d1b4e3e2d7c3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f9012");
    let mut checked = 0;
    for (i, key) in keys.iter().enumerate() {
        let d = felt(key);
        let k = felt(keys[(i + 3) % keys.len()]);

        // `&mut`: the compiler must reload the values from the marked memory.
        let mut secret_d = d;
        classify(&mut secret_d);
        let mut pk = get_public_key(&secret_d);
        declassify(&mut pk);

        let mut secret_d = d;
        let mut secret_k = k;
        classify(&mut secret_d);
        classify(&mut secret_k);
        let mut sig = sign(&secret_d, &message, &secret_k);
        declassify(&mut sig);

        // Public from here: the results must be right (with the marks they are still computed
        // from the same values).
        assert_eq!(pk, get_public_key(&d), "key {i}");
        let sig = sig.expect("these nonces give valid signatures");
        assert_eq!(verify(&pk, &message, &sig.r, &sig.s), Ok(true), "key {i}");
        checked += 1;
    }
    println!("ctgrind: {checked} keys: get_public_key and sign ran with secret inputs");

    // The batch derivation (the comb in SIMD lanes, then one shared inversion): every key
    // marked, 11 keys = two full groups of 4 lanes and a tail (one group of 8 and a tail on
    // 8-lane backends), with 0, n and 2^252 − n (the special cases of the comb's last rows).
    let mut batch: Vec<Felt> = keys.iter().map(|k| felt(k)).collect();
    batch.extend([
        Felt::ZERO,
        felt("0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f"), // n
        felt("0x7ffffffffffffef0000000000000000487eed9235184dcde1995dbe5239b2d1"), // 2^252 − n
        felt("0x7ffffffffffffef0000000000000000487eed9235184dcde1995dbe5239b2d2"),
        felt("0x6a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0fedcba98765432"),
    ]);
    let mut secret = batch.clone();
    for k in secret.iter_mut() {
        classify(k);
    }
    let mut out = vec![Felt::ZERO; secret.len()];
    starkbatch::get_public_key_batch(&secret, &mut out);
    for o in out.iter_mut() {
        declassify(o);
    }
    for (k, o) in batch.iter().zip(&out) {
        assert_eq!(*o, get_public_key(k), "batch key {k}");
    }
    println!(
        "ctgrind: {} keys: get_public_key_batch ran with secret inputs",
        batch.len()
    );
}
