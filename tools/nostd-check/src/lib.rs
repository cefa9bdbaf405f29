//! Compiled, never run: a `#![no_std]` static library that calls the starkbatch core built
//! with `default-features = false`. It defines its own `#[panic_handler]`, so if any crate in
//! the dependency graph links `std` (which brings its own), the build fails with
//! "found duplicate lang item `panic_impl`". `scripts/nostd-check.sh` builds it in CI.

#![no_std]

extern crate alloc;

use alloc::vec;
use alloc::vec::Vec;
use core::alloc::{GlobalAlloc, Layout};
use starkbatch::hash::Poseidon;
use starkbatch::{
    get_public_key, merkle, pedersen_hash, pedersen_hash_batch, poseidon_hash,
    poseidon_hash_batch, poseidon_hash_many, rfc6979_generate_k, sign, verify, Backend, Felt,
};

/// An allocator that always fails: enough to link `alloc`'s users into the library. A real
/// no_std program supplies its own (a heap on an embedded target, the host's on wasm).
struct NoHeap;

// SAFETY: `alloc` returns null, which GlobalAlloc allows (allocation failure); `dealloc` is
// never called with a pointer this allocator returned, since it returns none.
unsafe impl GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _layout: Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
}

#[global_allocator]
static ALLOCATOR: NoHeap = NoHeap;

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Low 64 bits of a felt (big-endian bytes 24..32).
fn low64(f: &Felt) -> u64 {
    let b = f.to_bytes_be();
    u64::from_be_bytes([b[24], b[25], b[26], b[27], b[28], b[29], b[30], b[31]])
}

/// Exercises the scalar and batch API (parsing, Poseidon, Pedersen, keys, RFC 6979, signing,
/// verification, a Merkle root) and folds the results into one number.
#[no_mangle]
pub extern "C" fn starkbatch_nostd_check(seed: u64) -> u64 {
    let Ok(a) = Felt::from_hex("0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cb")
    else {
        return 1;
    };
    let Ok(b) = "208".parse::<Felt>() else {
        return 2;
    };
    let x = Felt::from(seed);
    let h = poseidon_hash(a, x);
    let m = poseidon_hash_many(&[a, b, x]);
    let p = pedersen_hash(&h, &b);

    let pairs: Vec<[Felt; 2]> = (0..9u64).map(|i| [Felt::from(i), x]).collect();
    let mut out = vec![Felt::ZERO; pairs.len()];
    poseidon_hash_batch(&pairs, &mut out);
    let mut ped = vec![Felt::ZERO; pairs.len()];
    pedersen_hash_batch(&pairs, &mut ped);
    let root = merkle::root::<Poseidon>(&out);

    let private_key = a;
    let public_key = get_public_key(&private_key);
    let k = rfc6979_generate_k(&p, &private_key, None);
    let Ok(sig) = sign(&private_key, &p, &k) else {
        return 3;
    };
    let ok = matches!(verify(&public_key, &p, &sig.r, &sig.s), Ok(true));

    let backend = Backend::detect().lanes() as u64;
    low64(&m) ^ low64(&ped[8]) ^ low64(&root) ^ low64(&sig.v) ^ u64::from(ok) ^ backend
}
