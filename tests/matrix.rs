//! The mode matrix (`scripts/lib/matrix.py`): every solving mode (`-n 0`, `optN`, `opt`,
//! `enum`, `enum,B`, `opt,B`, brave, cautious, `--project` with `#project` and with `#show`) ×
//! every kind of generated program (tight, non-tight, choice, aggregates, `#minimize` with
//! several priorities and negative weights, head-cycle-free and other disjunction, mixes) ×
//! the engines `--engine=cpu -t 1`, `-t 4` and `--engine=emu` (the GPU kernel on the host, its
//! searches deciding by activity, the default, and by `--gpu-decide=vmtf`),
//! and core-guided optimisation (`--opt-strategy=usc`) on one host thread and on the emulated
//! GPU engine in its modes (opt, optN), each run against clingo 5.8 (in-process, `--eq=0`, its text output).
//!
//! Two runs: one from a fixed seed (the same programs every time) and one from a fresh seed,
//! printed, so that every CI run also tries programs no run tried before; a failure prints the
//! command that reproduces it (`scripts/bench matrix run --seed S --count N`).
//!
//! Knobs: `YASMIN_MATRIX_COUNT` programs per run (default 210), `YASMIN_MATRIX_SEED` the fresh
//! run's seed (default: from the clock). Needs python3, gringo, rustc and PyPI's clingo
//! (scripts/setup.sh): without them the test fails rather than passing vacuously.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

const BIN: &str = env!("CARGO_BIN_EXE_yasmin-rs");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn matrix(seed: u64, count: u64) {
    let out = Command::new("python3")
        .arg(format!("{ROOT}/scripts/bench"))
        .args([
            "matrix",
            "run",
            "--engines",
            "cpu1,cpu4,emu,emu-vmtf,cpu1-usc,emu-usc",
            "--bin",
            BIN,
        ])
        .args(["--seed", &seed.to_string(), "--count", &count.to_string()])
        .output()
        .expect("python3 runs scripts/bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "the mode matrix from seed {seed} ({count} programs) disagrees with clingo or did not run \
         (exit {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
    assert!(
        stdout.contains(&format!("mode matrix: {count} programs,"))
            && stdout.contains(" 0 mismatches"),
        "no summary of {count} programs:\n{stdout}\n{stderr}"
    );
}

fn count() -> u64 {
    std::env::var("YASMIN_MATRIX_COUNT").map_or(210, |v| v.parse().expect("a number"))
}

#[test]
fn mode_matrix_from_a_fixed_seed() {
    matrix(1, count());
}

#[test]
fn mode_matrix_from_a_fresh_seed() {
    let seed = std::env::var("YASMIN_MATRIX_SEED").map_or_else(
        |_| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_secs()
                % 1_000_000_007
        },
        |v| v.parse().expect("a number"),
    );
    // Past the test harness's capture (which takes `eprintln!`), so that every CI log names it.
    let line =
        format!("mode matrix: fresh seed {seed} (YASMIN_MATRIX_SEED={seed} reproduces it)\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    matrix(seed, count());
}
