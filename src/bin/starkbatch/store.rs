//! The store subcommands over `starkbatch::store`: `commit`, `revert`, `roots`, `proof` and
//! `import` (their help texts in `args` give the formats).
//!
//! Bad input (a file that does not parse, an item the store rejects, a block number out of
//! sequence, a revert target out of range) exits 2 and writes nothing: every update is parsed
//! and checked before the first block is committed, and `import` removes the directory it
//! created when it fails. A root that differs under `commit --check` exits 1; the blocks before
//! it stay committed and the differing block is not (a differing `new_root` is reverted).

use crate::args::{CommitArgs, ImportArgs, ProofArgs, RevertArgs, RootsArgs};
use crate::error::{CliError, CliResult};
use crate::output::Output;
use indicatif::{ProgressBar, ProgressStyle};
use starkbatch::Felt;
use starkbatch::store::{
    ContractStorageKeys, DB_FILE, ProofRequest, StateUpdate, Store, StoreError, StoreOptions,
    parse_state_updates,
};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

/// A store error: exit 2 when it is the input's fault, else 1.
fn store_error(context: &str, e: StoreError) -> CliError {
    if e.is_input_error() {
        CliError::input(format!("{context}{e}"))
    } else {
        CliError::failure(format!("{context}{e}"))
    }
}

/// Opens the store in `dir`, which must already hold one (for the read and revert commands).
fn open_existing(dir: &Path) -> CliResult<Store> {
    if !dir.join(DB_FILE).is_file() {
        return Err(CliError::input(format!(
            "{}: no store here (no {DB_FILE}; `starkbatch commit` or `import` creates one)",
            dir.display()
        )));
    }
    Store::open(dir).map_err(|e| store_error(&format!("{}: ", dir.display()), e))
}

fn felt_arg(flag: &str, s: &str) -> CliResult<Felt> {
    s.parse::<Felt>()
        .map_err(|e| CliError::input(format!("{flag} {s}: {e}")))
}

/// One update to commit: where it came from and its block number.
struct Pending {
    file: String,
    block: u64,
    update: StateUpdate,
}

pub fn commit(a: &CommitArgs) -> CliResult {
    crate::backend::choose()?;
    // 1. Every file parsed before the store is touched.
    let mut parsed: Vec<(String, StateUpdate)> = Vec::new();
    for path in &a.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("cannot read {name}: {e}")))?;
        let updates = parse_state_updates(&text)
            .map_err(|e| CliError::input(format!("{name}:{}: update {}: {e}", e.line, e.index)))?;
        parsed.extend(updates.into_iter().map(|u| (name.clone(), u)));
    }
    // 2. Block numbers and diffs checked against the store's latest block.
    let created = !a.db.join(DB_FILE).exists();
    let options = StoreOptions {
        history: a.history,
        ..StoreOptions::default()
    };
    let store = Store::open_with(&a.db, options)
        .map_err(|e| store_error(&format!("{}: ", a.db.display()), e))?;
    let cleanup = |store: Store, e: CliError| -> CliError {
        if created {
            drop(store);
            let _ = std::fs::remove_dir_all(&a.db);
        }
        e
    };
    let latest = match store.latest() {
        Ok(l) => l,
        Err(e) => return Err(store_error(&format!("{}: ", a.db.display()), e)),
    };
    let mut next = latest.map(|l| l.block_number + 1);
    let mut pending = Vec::with_capacity(parsed.len());
    for (file, update) in parsed {
        let block = match (update.block_number, next) {
            (Some(b), Some(n)) if b != n => {
                let e = CliError::input(format!(
                    "{file}: block {b}: the store expects block {n} next"
                ));
                return Err(cleanup(store, e));
            }
            (Some(b), _) => b,
            (None, Some(n)) => n,
            (None, None) => 0,
        };
        if let Err(e) = update.state_diff.check() {
            return Err(cleanup(
                store,
                CliError::input(format!("{file}: block {block}: state_diff.{e}")),
            ));
        }
        next = Some(block + 1);
        pending.push(Pending {
            file,
            block,
            update,
        });
    }
    // 3. The commits.
    let rule = a.rule.rule();
    let bar = (pending.len() > 1 && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::new(pending.len() as u64);
        b.set_style(
            ProgressStyle::with_template("commit [{bar:30}] {pos}/{len} blocks ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b
    });
    let mut out = Output::create(None)?;
    let mut root = latest.map_or(Felt::ZERO, |l| l.roots.state_root);
    for p in &pending {
        let (file, block) = (&p.file, p.block);
        if a.check
            && let Some(old) = p.update.old_root
            && old != root
        {
            return Err(CliError::failure(format!(
                "{file}: block {block}: old_root {old} differs from the store's state root {root}; nothing written for this block"
            )));
        }
        let r = store
            .commit(block, &p.update.state_diff, rule)
            .map_err(|e| store_error(&format!("{file}: block {block}: "), e))?;
        if a.check
            && let Some(new) = p.update.new_root
            && new != r.roots.state_root
        {
            let undone = match block.checked_sub(1).map(|b| store.revert_to(b)) {
                Some(Ok(_)) => "the block was reverted",
                _ => "the block stays committed (it is the store's first)",
            };
            return Err(CliError::failure(format!(
                "{file}: block {block}: computed state root {} differs from new_root {new}; {undone}",
                r.roots.state_root
            )));
        }
        root = r.roots.state_root;
        match &bar {
            Some(b) => {
                b.suspend(|| out.line(format_args!("block {block} state_root {root}")))?;
                b.inc(1);
            }
            None => out.line(format_args!("block {block} state_root {root}"))?,
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    out.finish()
}

pub fn revert(a: &RevertArgs) -> CliResult {
    let store = open_existing(&a.db)?;
    let info = store
        .revert_to(a.to)
        .map_err(|e| store_error(&format!("{}: ", a.db.display()), e))?;
    let mut out = Output::create(None)?;
    out.line(format_args!(
        "block {} state_root {}",
        info.block_number, info.roots.state_root
    ))?;
    out.finish()
}

pub fn roots(a: &RootsArgs) -> CliResult {
    let contracts = a
        .contract
        .iter()
        .map(|c| felt_arg("--contract", c))
        .collect::<CliResult<Vec<Felt>>>()?;
    let store = open_existing(&a.db)?;
    let ctx = format!("{}: ", a.db.display());
    let view = store.view().map_err(|e| store_error(&ctx, e))?;
    let mut out = Output::create(None)?;
    match view.block() {
        None => {
            out.line("block none")?;
            for r in ["state_root", "contract_root", "class_root"] {
                out.line(format_args!("{r} 0x0"))?;
            }
        }
        Some(b) => {
            out.line(format_args!("block {}", b.block_number))?;
            out.line(format_args!("state_root {}", b.roots.state_root))?;
            out.line(format_args!("contract_root {}", b.roots.contract_root))?;
            out.line(format_args!("class_root {}", b.roots.class_root))?;
            let rule = match b.rule {
                starkbatch::state::StateRootRule::From0_14_0 => "from-0.14",
                starkbatch::state::StateRootRule::Before0_14_0 => "before-0.14",
            };
            out.line(format_args!("rule {rule}"))?;
            out.line(format_args!("oldest_revertible {}", b.oldest_revertible))?;
        }
    }
    for c in &contracts {
        let read = |r: Result<Felt, StoreError>| r.map_err(|e| store_error(&ctx, e));
        out.line(format_args!(
            "contract {c} storage_root {} class_hash {} nonce {}",
            read(view.storage_root(c))?,
            read(view.class_hash(c))?,
            read(view.nonce(c))?
        ))?;
    }
    out.finish()
}

pub fn proof(a: &ProofArgs) -> CliResult {
    let mut req = ProofRequest {
        class_hashes: a
            .class
            .iter()
            .map(|c| felt_arg("--class", c))
            .collect::<CliResult<_>>()?,
        ..ProofRequest::default()
    };
    if let Some(c) = &a.contract {
        let contract = felt_arg("--contract", c)?;
        req.contract_addresses.push(contract);
        req.contracts_storage_keys.push(ContractStorageKeys {
            contract_address: contract,
            storage_keys: a
                .key
                .iter()
                .map(|k| felt_arg("--key", k))
                .collect::<CliResult<_>>()?,
        });
    }
    let store = open_existing(&a.db)?;
    let ctx = format!("{}: ", a.db.display());
    let view = store.view().map_err(|e| store_error(&ctx, e))?;
    if view.block().is_none() {
        return Err(store_error(&ctx, StoreError::Empty));
    }
    let proof = view.storage_proof(&req).map_err(|e| {
        // The request's items are the flags.
        let msg = e.to_string();
        let msg = msg
            .replace("contracts_storage_keys[0].storage_keys", "--key")
            .replace("contracts_storage_keys[0].contract_address", "--contract")
            .replace("contract_addresses[0]", "--contract")
            .replace("class_hashes", "--class");
        if e.is_input_error() {
            CliError::input(format!("{ctx}{msg}"))
        } else {
            CliError::failure(format!("{ctx}{msg}"))
        }
    })?;
    let text = serde_json::to_string_pretty(&proof.to_json())
        .map_err(|e| CliError::failure(format!("cannot encode JSON: {e}")))?;
    let mut out = Output::create(None)?;
    out.line(text)?;
    out.finish()
}

pub fn import(a: &ImportArgs) -> CliResult {
    crate::backend::choose()?;
    if a.db.join(DB_FILE).exists() {
        return Err(CliError::input(format!(
            "{}: already holds a store (import fills a new one)",
            a.db.display()
        )));
    }
    let spinner = std::io::stderr().is_terminal().then(|| {
        let s = ProgressBar::new_spinner();
        s.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        s.enable_steady_tick(Duration::from_millis(120));
        s
    });
    let say = |m: &str| {
        if let Some(s) = &spinner {
            s.set_message(m.to_string());
        }
    };
    say("reading the state");
    let (name, contracts, classes) = crate::state::read_state(a.file.as_deref())?;
    let leaves = contracts.iter().map(|c| c.storage.len() + 1).sum::<usize>() + classes.len();
    say(&format!(
        "building and writing the tries of {leaves} leaves ({} contracts, {} classes)",
        contracts.len(),
        classes.len()
    ));
    let created = !a.db.exists();
    let fail = |e: CliError| -> CliError {
        // Nothing may be left behind: the directory if this command made it, else the files.
        if created {
            let _ = std::fs::remove_dir_all(&a.db);
        } else {
            let _ = std::fs::remove_file(a.db.join(DB_FILE));
            let _ = std::fs::remove_file(a.db.join(starkbatch::store::JOURNAL_FILE));
        }
        e
    };
    let result = Store::open(&a.db)
        .map_err(|e| store_error(&format!("{}: ", a.db.display()), e))
        .and_then(|store| {
            store
                .import(a.block, &contracts, &classes, a.rule.rule())
                .map_err(|e| store_error(&format!("{name}: "), e))
        });
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    let r = result.map_err(fail)?;
    let mut out = Output::create(None)?;
    out.line(format_args!(
        "block {} state_root {}",
        r.block_number, r.roots.state_root
    ))?;
    out.finish()
}
