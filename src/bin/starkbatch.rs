//! The starkbatch command (being built).
fn main() {
    println!("starkbatch {}", env!("CARGO_PKG_VERSION"));
}
