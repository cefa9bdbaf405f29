//! ECDSA on arbitrary inputs: `verify` and `recover` never panic and agree with each other,
//! and `sign` with arbitrary keys, nonces and messages produces signatures that verify and
//! recover to `get_public_key`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use starkbatch::{get_public_key, recover, sign, verify, Felt, Scalar, VerifyError};
use starkbatch_fuzz::Bytes;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let mode = b.u8();
    let (x, m, r, s, v) = (b.felt(), b.felt(), b.felt(), b.felt(), b.felt());
    if mode & 1 == 0 {
        // Arbitrary public key / signature.
        let verified = verify(&x, &m, &r, &s);
        let recovered = recover(&m, &r, &s, &v);
        if verified == Ok(true) {
            // Some parity of R recovers a point with x-coordinate x.
            let any = [Felt::ZERO, Felt::ONE]
                .iter()
                .any(|v| recover(&m, &r, &s, v) == Ok(x));
            assert!(any, "verified but no v recovers the key");
        }
        if let Ok(q) = recovered {
            // recover accepts s < n, verify only s < 2^251 and s⁻¹ < 2^251.
            let again = verify(&q, &m, &r, &s);
            assert!(
                again == Ok(true) || again == Err(VerifyError::InvalidS),
                "recovered key does not verify: {again:?}"
            );
        }
    } else {
        // Signing with an arbitrary key (x), message (m) and nonce (r).
        let (d, k) = (x, r);
        let pk = get_public_key(&d);
        if Scalar::from_felt_reduced(&d).is_zero() {
            assert_eq!(pk, Felt::ZERO);
            return;
        }
        assert_eq!(pk, get_public_key(&Scalar::from_felt_reduced(&d).to_felt()));
        if let Ok(sig) = sign(&d, &m, &k) {
            assert_eq!(verify(&pk, &m, &sig.r, &sig.s), Ok(true));
            assert_eq!(recover(&m, &sig.r, &sig.s, &sig.v), Ok(pk));
            // A different message does not verify.
            let m2 = m + Felt::ONE;
            if m2.bits() < 251 {
                assert_ne!(verify(&pk, &m2, &sig.r, &sig.s), Ok(true));
            }
        }
    }
});
