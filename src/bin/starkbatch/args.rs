//! Command-line arguments (clap derive). The help texts here are the command's documentation.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// SIMD-accelerated batch hashing for Starknet's field: Poseidon, Pedersen, Merkle and state
/// roots, class hashes, and a throughput benchmark.
#[derive(Parser, Debug)]
#[command(name = "starkbatch", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Benchmark a built-in deterministic workload on every backend and thread count.
    Bench(BenchArgs),
    /// Hash field elements read one item per line (file or stdin); one result per line.
    Hash(HashArgs),
    /// The binary Merkle root (and optionally a proof) of leaves read one per line.
    Merkle(MerkleArgs),
    /// Every root of a full state (storage, contract, class and state roots) from JSON.
    StateRoot(StateRootArgs),
    /// The class hash of a Sierra contract class or the compiled class hash of a CASM class.
    ClassHash(ClassHashArgs),
    /// Apply state updates (JSON-RPC or feeder-gateway form) to a store, one block each.
    Commit(CommitArgs),
    /// Restore one of the last blocks of a store (a reorg).
    Revert(RevertArgs),
    /// The latest block of a store and its roots.
    Roots(RootsArgs),
    /// A storage proof from a store's latest block, as starknet_getStorageProof (JSON).
    Proof(ProofArgs),
    /// Fill a new store with a whole state (the JSON that state-root reads).
    Import(ImportArgs),
    /// CPU features, available SIMD backends and the one chosen (STARKBATCH_BACKEND respected).
    Info,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A short run (a few seconds in total; used in CI).
    #[arg(long, conflicts_with = "duration")]
    pub quick: bool,
    /// Approximate total measuring time in seconds (default 12; --quick: about 2).
    #[arg(long, value_name = "SECS")]
    pub duration: Option<f64>,
    /// Write the results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Draw throughput per backend and thread count as an SVG chart to FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Largest thread count to measure (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub max_threads: Option<usize>,
}

/// What `starkbatch hash` computes for each input line.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashKind {
    /// poseidon_hash(x, y): two felts per line.
    Poseidon,
    /// poseidon_hash_single(x): one felt per line.
    PoseidonSingle,
    /// poseidon_hash_many([x0, x1, ...]): any number of felts per line.
    PoseidonMany,
    /// pedersen_hash(x, y): two felts per line.
    Pedersen,
    /// pedersen_hash_array([x0, x1, ...]): any number of felts per line.
    PedersenArray,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Input: one item per line; felts are 0x-prefixed hex or decimal, separated by spaces or tabs.
`#` starts a comment that runs to the end of the line; blank and comment-only lines are skipped
and produce no output line. For poseidon-many and pedersen-array a line holding only `-` is the
empty message. Output: one result per input item, in order, as 0x-prefixed minimal hex.
Errors name the file and line (`input.txt:7: ...`) and exit with code 2; with -o the output file
is only created when every line was hashed.")]
pub struct HashArgs {
    /// Which hash to compute.
    #[arg(value_enum)]
    pub kind: HashKind,
    /// Input file (default, or `-`: standard input).
    pub file: Option<PathBuf>,
    /// Write the results to OUT (atomically: a temporary file renamed when complete).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// The node hash of a Merkle tree.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeHash {
    /// poseidon_hash(left, right).
    Poseidon,
    /// pedersen_hash(left, right).
    Pedersen,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Leaves: one felt per line (same syntax as `starkbatch hash`). A level with an odd number of nodes
carries its last node up unchanged; the root of one leaf is that leaf and the root of no leaves
is 0x0. Output: `root 0x...`; with --proof also `leaf_count N`, `index I`, `leaf 0x...` and one
`sibling 0x...` line per level that has a sibling, bottom up.")]
pub struct MerkleArgs {
    /// The node hash.
    #[arg(long, value_enum, default_value = "poseidon")]
    pub hash: TreeHash,
    /// Leaves file (default, or `-`: standard input).
    pub file: Option<PathBuf>,
    /// Also print the inclusion proof of leaf INDEX (0-based).
    #[arg(long, value_name = "INDEX")]
    pub proof: Option<usize>,
}

#[derive(Args, Debug)]
#[command(after_help = "\
A document with `sierra_program` is a Sierra class and one with `program` a Cairo 0 class
(both print `class_hash 0x...`); one with
`bytecode` is a compiled CASM class (prints `compiled_class_hash_v1 0x...`, Poseidon, and
`compiled_class_hash_v2 0x...`, Blake2s, the class trie's leaf from Starknet 0.14.1; or the one
--hash-version names). With several files or a directory (every *.json and *.casm file in it,
recursively, in name order) the classes are hashed in parallel and each line starts with the
file's path; a malformed class is reported on stderr (file and JSON path) while the others are
still hashed, and the exit code is then 2.")]
pub struct ClassHashArgs {
    /// Class JSON files or directories (default, or `-`: standard input).
    pub files: Vec<PathBuf>,
    /// Print only this compiled class hash version for CASM classes.
    #[arg(long, value_enum)]
    pub hash_version: Option<HashVersion>,
}

/// A compiled class hash version.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashVersion {
    /// Poseidon (declared before Starknet 0.14.1).
    V1,
    /// Blake2s (Starknet 0.14.1 and later).
    V2,
}

/// How the contract-trie and class-trie roots combine into the state root.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateRule {
    /// Starknet 0.14.0 and later: Poseidon("STARKNET_STATE_V0", contract_root, class_root)
    /// unless both are 0.
    #[value(name = "from-0.14")]
    From0_14,
    /// Before 0.14.0: the contract root alone when the class trie is empty.
    #[value(name = "before-0.14")]
    Before0_14,
}

#[derive(Args, Debug)]
#[command(after_help = r#"STATE.json:
  {"contracts": [{"address": "0x1", "class_hash": "0x2", "nonce": "0x0",
                  "storage": {"0x5": "0x64"}}],
   "declared_classes": [{"class_hash": "0x3", "compiled_class_hash": "0x4"}]}
Felts are strings (0x hex or decimal) or JSON integers; `nonce` defaults to 0, `storage` to {},
either list may be absent. The state is complete, not a diff. Output: `state_root`,
`contract_root`, `class_root`, then `storage_root ADDRESS ROOT` per contract in input order;
an empty state has every root 0x0."#)]
pub struct StateRootArgs {
    /// The state JSON (default, or `-`: standard input).
    pub file: Option<PathBuf>,
    /// The state-root rule.
    #[arg(long, value_enum, default_value = "from-0.14")]
    pub rule: StateRule,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Each FILE holds one state update, a JSON array of updates, or JSON lines (one update per line),
as starknet_getStateUpdate returns it or in the feeder gateway's form. Every file is read and
every update checked before the first block is written; a block without `block_number` is the
next one. Output: `block N state_root 0x...` per block. Exit codes: 2 bad input (the file, the
block and the item are named; nothing is written), 1 a root differs under --check (blocks
before it stay committed, the differing block is not).")]
pub struct CommitArgs {
    /// The store directory (created if needed).
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// State-update files, applied in order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Compare the store's state root before each block with the update's `old_root`, and the
    /// computed root with its `new_root`; stop at the first difference (exit 1).
    #[arg(long)]
    pub check: bool,
    /// The state-root rule (updates do not say their Starknet version).
    #[arg(long, value_enum, default_value = "from-0.14")]
    pub rule: StateRule,
    /// Blocks kept for `revert` (older history is pruned).
    #[arg(long, value_name = "N", default_value_t = starkbatch::store::DEFAULT_HISTORY)]
    pub history: u64,
}

#[derive(Args, Debug)]
pub struct RevertArgs {
    /// The store directory.
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The block to restore.
    #[arg(long, value_name = "N")]
    pub to: u64,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Output: `block N` (or `block none` for an empty store), `state_root`, `contract_root`,
`class_root`, `rule`, `oldest_revertible`; with --contract, `storage_root`, `class_hash` and
`nonce` of each contract.")]
pub struct RootsArgs {
    /// The store directory.
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// Also print this contract's storage root, class hash and nonce (repeatable).
    #[arg(long, value_name = "ADDRESS")]
    pub contract: Vec<String>,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Prints the JSON-RPC starknet_getStorageProof result shape: classes_proof, contracts_proof
(nodes and contract_leaves_data), contracts_storage_proofs, global_roots; binary nodes
{left, right}, edge nodes {path, length, child}, each with its node_hash.")]
pub struct ProofArgs {
    /// The store directory.
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The contract whose storage keys to prove (also proven in the contract trie).
    #[arg(long, value_name = "ADDRESS")]
    pub contract: Option<String>,
    /// Storage keys of --contract to prove (repeatable).
    #[arg(long, value_name = "KEY", requires = "contract")]
    pub key: Vec<String>,
    /// Class hashes to prove in the class trie (repeatable).
    #[arg(long, value_name = "CLASS_HASH")]
    pub class: Vec<String>,
}

#[derive(Args, Debug)]
#[command(after_help = "\
STATE.json is the document `state-root` reads (see `starkbatch state-root --help`). The store
directory must not hold a store; on any error nothing is left behind (a directory the command
created is removed). Output: `block N state_root 0x...`.")]
pub struct ImportArgs {
    /// The store directory (new, or empty).
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The state JSON (default, or `-`: standard input).
    pub file: Option<PathBuf>,
    /// The block number the state is the state after.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub block: u64,
    /// The state-root rule.
    #[arg(long, value_enum, default_value = "from-0.14")]
    pub rule: StateRule,
}
