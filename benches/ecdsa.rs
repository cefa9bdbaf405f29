//! ECDSA benchmarks (filled in below).
fn main() {}
