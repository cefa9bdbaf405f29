//! `starkbatch`: the command-line tool over the starkbatch library.
//!
//! This file only parses the arguments and maps errors to exit codes; each subcommand lives in
//! its own module in `src/bin/starkbatch/` (attached with `#[path]`, since a binary's root file
//! looks for modules beside itself):
//!
//! | module | what |
//! | --- | --- |
//! | `args` | the clap definitions (every flag and its help text) |
//! | `error` | [`CliError`](error::CliError) and the exit codes |
//! | `input` | the line-oriented felt reader (`FILE:LINE:` errors, comments, blank lines) |
//! | `output` | stdout or an atomically replaced output file (temporary file + rename) |
//! | `engine` | the library's batch entry points the subcommands call, in one place |
//! | `backend` | CPU features and the SIMD backend the library picks |
//! | `hash`, `merkle`, `state`, `class`, `info` | the subcommands (`state`: `state-root`, `class`: `class-hash`) |
//! | `store` | `commit`, `revert`, `roots`, `proof`, `import` on a state store |
//! | `bench`, `plot` | `starkbatch bench` and its SVG chart |
//!
//! Exit codes: 0 success; 2 bad usage or bad input (also a feature not available in this
//! build); 1 any other failure (an output file that cannot be written, an internal check).

#[path = "starkbatch/args.rs"]
mod args;
#[path = "starkbatch/backend.rs"]
mod backend;
#[path = "starkbatch/bench.rs"]
mod bench;
#[path = "starkbatch/class.rs"]
mod class;
#[path = "starkbatch/engine.rs"]
mod engine;
#[path = "starkbatch/error.rs"]
mod error;
#[path = "starkbatch/hash.rs"]
mod hash;
#[path = "starkbatch/info.rs"]
mod info;
#[path = "starkbatch/input.rs"]
mod input;
#[path = "starkbatch/merkle.rs"]
mod merkle;
#[path = "starkbatch/output.rs"]
mod output;
#[path = "starkbatch/plot.rs"]
mod plot;
#[path = "starkbatch/state.rs"]
mod state;
#[path = "starkbatch/store.rs"]
mod store;

use clap::Parser;

fn main() {
    let cli = args::Cli::parse();
    let result = match cli.command {
        args::Command::Bench(a) => bench::run(&a),
        args::Command::Hash(a) => hash::run(&a),
        args::Command::Merkle(a) => merkle::run(&a),
        args::Command::StateRoot(a) => state::run(&a),
        args::Command::ClassHash(a) => class::run(&a),
        args::Command::Commit(a) => store::commit(&a),
        args::Command::Revert(a) => store::revert(&a),
        args::Command::Roots(a) => store::roots(&a),
        args::Command::Proof(a) => store::proof(&a),
        args::Command::Import(a) => store::import(&a),
        args::Command::Info => info::run(),
    };
    if let Err(e) = result {
        if !e.message.is_empty() {
            eprintln!("starkbatch: {}", e.message);
        }
        std::process::exit(e.code);
    }
}
