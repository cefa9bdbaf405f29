//! [`get_public_key`]: the public key x(d·G) of a private key d.

use crate::Felt;
use crate::curve::{inverse_ct, mul_generator_ct};

/// Computes the public key of a Stark private key: the x-coordinate of `private_key·G`
/// (the key's integer value is used as is, which is the same as using it modulo n).
///
/// Constant time in the private key: the fixed-base multiplication reduces the key modulo n,
/// recodes it with masks, scans a whole table row for every window and selects with masks
/// ([`mul_generator_ct`]), and the conversion to affine inverts Z with the constant-time safegcd.
///
/// A private key that is a multiple of n (0 or n) gives the point at infinity, for which this
/// returns 0 (starknet-crypto 0.8 panics there).
pub fn get_public_key(private_key: &Felt) -> Felt {
    let p = mul_generator_ct(&private_key.to_raw_limbs());
    // Z = 0 only for the point at infinity; its "inverse" is then 0, giving x = 0.
    let zinv = inverse_ct(&p.z);
    p.x * zinv.square()
}
