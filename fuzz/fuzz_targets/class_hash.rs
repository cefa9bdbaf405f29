//! Class JSON of any shape: every class hash function returns a value or an error, never
//! panics, and the functions agree with each other. Inputs that are not UTF-8 are used lossily.
#![no_main]

use libfuzzer_sys::fuzz_target;
use starkbatch::class_hash::{
    class_hash, class_hashes, compiled_class_hash, compiled_class_hash_v2, compiled_class_hashes,
    legacy_class_hash, sierra_class_hash, ClassHashes, ClassKind,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let all = class_hashes(&text);
    let one = class_hash(&text);
    match (&all, &one) {
        (Ok(ClassHashes::Sierra(a)), Ok((ClassKind::Sierra, b))) => {
            assert_eq!(a, b);
            assert_eq!(sierra_class_hash(&text).ok(), Some(*a));
        }
        (Ok(ClassHashes::Compiled(h)), Ok((ClassKind::Compiled, b))) => {
            assert_eq!(h.v1, *b);
            assert_eq!(compiled_class_hash(&text).ok(), Some(h.v1));
            assert_eq!(compiled_class_hash_v2(&text).ok(), Some(h.v2));
            assert_eq!(compiled_class_hashes(&text).ok(), Some(*h));
        }
        (Ok(ClassHashes::Legacy(a)), Ok((ClassKind::Legacy, b))) => {
            assert_eq!(a, b);
            assert_eq!(legacy_class_hash(&text).ok(), Some(*a));
        }
        (Err(_), Err(_)) => {
            let _ = legacy_class_hash(&text);
            let _ = compiled_class_hash_v2(&text);
            let _ = sierra_class_hash(&text);
        }
        _ => panic!("class_hash and class_hashes disagree: {one:?} / {all:?}"),
    }
});
