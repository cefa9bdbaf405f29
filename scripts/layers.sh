#!/usr/bin/env bash
# Prints every import edge between the library's top-level modules, and between files within a
# module, then checks the layer rule (tests/suite/layers.rs: no import points up a layer, no two files
# import each other). `cargo test` runs the same checks; CI fails on a violation.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --quiet --profile fast --test suite -- --include-ignored --nocapture layers::print_edges
cargo test --quiet --profile fast --test suite -- layers::
