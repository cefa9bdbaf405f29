//! Crash safety of a store on disk: a child process commits blocks and is killed with SIGKILL
//! at random moments (while opening and replaying its journal, hashing, writing the journal,
//! writing redb, checkpointing), at least 50 times. After every kill the store must open at a
//! block no earlier than the last one whose `commit` had returned (nothing committed is lost)
//! and no later than the one in flight, with that block's roots and reads as an uninterrupted
//! run has them; committing the following blocks again must give the uninterrupted run's roots.
//!
//! The child is this test binary run again with `STARKBATCH_CRASH_CHILD` naming the store
//! directory (`crash_child` below); it prints `opened B ROOT` after opening and `committed B
//! ROOT` after each commit.

use starkbatch::Felt;
use starkbatch::state::StateRootRule;
use starkbatch::store::workload::Workload;
use starkbatch::store::{StateDiff, Store, StoreOptions};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "STARKBATCH_CRASH_CHILD";
const RULE: StateRootRule = StateRootRule::From0_14_0;
const BLOCKS: u64 = 3_000;

/// A small state whose blocks take a few milliseconds each.
const WORKLOAD: Workload = Workload {
    fee_token_keys: 3_000,
    contracts: 40,
    keys_per_contract: 40,
    classes: 20,
    writes: 150,
    contracts_per_block: 20,
};

/// Frequent checkpoints, so that kills land in them too.
fn options() -> StoreOptions {
    StoreOptions {
        checkpoint_every: 3,
        ..StoreOptions::default()
    }
}

/// Block 0 is the pre-state; block `b > 0` is the workload's block `b`.
fn diff(b: u64) -> StateDiff {
    if b == 0 {
        WORKLOAD.pre_state_diff()
    } else {
        WORKLOAD.block(b)
    }
}

/// The child: open, then commit blocks until killed (or all are done).
#[test]
fn crash_child() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        return;
    };
    let store = Store::open_with(&dir, options()).unwrap();
    let next = match store.latest().unwrap() {
        Some(l) => {
            println!("opened {} {:#x}", l.block_number, l.roots.state_root);
            l.block_number + 1
        }
        None => {
            println!("opened none");
            0
        }
    };
    for b in next..BLOCKS {
        let r = store.commit(b, &diff(b), RULE).unwrap();
        println!("committed {b} {:#x}", r.roots.state_root);
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The uninterrupted run, in memory, advanced block by block as the crashed one gets ahead.
struct Reference {
    store: Store<starkbatch::store::MemoryStore>,
    roots: Vec<Felt>,
}

impl Reference {
    fn root(&mut self, b: u64) -> Felt {
        while self.roots.len() as u64 <= b {
            let n = self.roots.len() as u64;
            let r = self.store.commit(n, &diff(n), RULE).unwrap();
            self.roots.push(r.roots.state_root);
        }
        self.roots[b as usize]
    }

    /// The reference store at block `b` (the crashed run never falls behind it).
    fn at(&mut self, b: u64) -> &Store<starkbatch::store::MemoryStore> {
        self.root(b);
        let latest = self.store.latest().unwrap().map(|l| l.block_number);
        assert_eq!(latest, Some(b), "the reference is past block {b}");
        &self.store
    }
}

/// Every read the blocks `b - 1` and `b` touched, equal in the reopened and the reference store.
fn same_reads(store: &Store, reference: &Store<starkbatch::store::MemoryStore>, b: u64) {
    let (v, r) = (store.view().unwrap(), reference.view().unwrap());
    for n in b.saturating_sub(1)..=b {
        let d = diff(n);
        for s in &d.storage_diffs {
            for e in &s.storage_entries {
                assert_eq!(
                    v.storage(&s.address, &e.key).unwrap(),
                    r.storage(&s.address, &e.key).unwrap(),
                    "block {b}: storage of {:#x} at {:#x}",
                    s.address,
                    e.key
                );
            }
            assert_eq!(
                v.storage_root(&s.address).unwrap(),
                r.storage_root(&s.address).unwrap()
            );
            assert_eq!(v.nonce(&s.address).unwrap(), r.nonce(&s.address).unwrap());
            assert_eq!(
                v.class_hash(&s.address).unwrap(),
                r.class_hash(&s.address).unwrap()
            );
        }
        for c in &d.declared_classes {
            assert_eq!(
                v.compiled_class_hash(&c.class_hash).unwrap(),
                r.compiled_class_hash(&c.class_hash).unwrap()
            );
        }
    }
}

#[test]
fn killed_commits_lose_nothing_and_tear_nothing() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    const KILLS: usize = 60;
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut reference = Reference {
        store: Store::in_memory(),
        roots: Vec::new(),
    };
    let mut rng = Rng(0x5eed_c0de);
    // The last block whose commit returned, by the children's output.
    let mut committed: Option<u64> = None;
    let (mut kills, mut runs, mut replays_checked) = (0, 0, 0);
    while kills < KILLS {
        runs += 1;
        assert!(runs < 10 * KILLS, "the children do not get killed mid-run");
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "store_crash::crash_child",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(CHILD_ENV, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let pump = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // Kill after a random delay: most kills land in a commit, some while opening.
        let delay = Duration::from_micros(rng.next() % 300_000);
        let t = Instant::now();
        let mut lines = Vec::new();
        while t.elapsed() < delay {
            if let Ok(l) = rx.recv_timeout(delay.saturating_sub(t.elapsed())) {
                lines.push(l);
            }
        }
        let alive = child.try_wait().unwrap().is_none();
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        pump.join().unwrap();
        lines.extend(rx.try_iter());
        if alive {
            kills += 1;
        }
        // What the child reported: its opening block, then each committed block's root.
        for l in &lines {
            // The harness prints `test store_crash::crash_child ... ` before the child's first line.
            let at = ["opened ", "committed "]
                .iter()
                .filter_map(|p| l.find(p))
                .min();
            let Some(at) = at else { continue };
            let w: Vec<&str> = l[at..].split_whitespace().collect();
            match w.as_slice() {
                ["opened", "none"] => assert_eq!(committed, None, "block {committed:?} lost"),
                ["opened", b, root] | ["committed", b, root] => {
                    let b: u64 = b.parse().unwrap();
                    let root = Felt::from_hex(root).unwrap();
                    if w[0] == "opened" {
                        assert!(Some(b) >= committed, "opened at {b} after {committed:?}");
                        replays_checked += 1;
                    }
                    assert_eq!(root, reference.root(b), "child's root of block {b}");
                    committed = Some(b);
                }
                _ => {}
            }
        }
        // Every other run, the parent opens the store itself (the next child then finds a
        // clean one); otherwise the next child opens what this one left.
        if runs % 2 == 0 {
            let store = Store::open_with(dir.path(), options()).unwrap();
            let latest = store.latest().unwrap();
            let at = latest.as_ref().map(|l| l.block_number);
            assert!(
                at >= committed,
                "block {committed:?} lost: opened at {at:?}"
            );
            assert!(
                at <= Some(committed.map_or(0, |c| c + 1)),
                "opened at {at:?}, past the block in flight after {committed:?}"
            );
            if let Some(l) = latest {
                assert_eq!(l.roots.state_root, reference.root(l.block_number));
                same_reads(&store, reference.at(l.block_number), l.block_number);
                committed = Some(l.block_number);
            }
        }
    }
    assert!(replays_checked > 0);
    eprintln!("{kills} kills over {runs} runs; the store reached block {committed:?}");
}
