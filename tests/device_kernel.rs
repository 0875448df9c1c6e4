//! The device engine's search kernel compiled for the host (`--engine=emu`) under pressure: a
//! learned store so small that deletion runs at almost every restart, 32 searches sharing
//! nogoods, on an unsatisfiable program that needs thousands of conflicts (regression: a store
//! filled by imported binary nogoods, or by conflicts in a row, ended the search with internal
//! error 2); and the same proof split into cubes. A program whose weight body is too large to
//! translate: the kernel's native sums (`kernels/search/sums.cuh`) give clingo's answer sets.

mod common;

use common::bin::{clingo, gringo, yasmin, ROOT};
use std::process::Command;

/// Seven pigeons: with almost nothing learned kept, eight pigeons took the emulated searches
/// 78k conflicts while `1 { at(P,H) }` was a chain of diagram nodes, and past 1.3M (minutes)
/// since it is one clause (the nodes' extra variables gave short lemmas); seven take ~5k either
/// way, which still makes deletion run at almost every restart.
#[test]
fn a_tiny_learned_store_still_proves_unsatisfiability() {
    let out = Command::new(env!("CARGO_BIN_EXE_yasmin-rs"))
        .args([
            "--engine=emu",
            "--gpu-searches=32",
            "--gpu-arena-words=1",
            "--stats",
            "-q",
        ])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/device/pigeons7.lp"
        ))
        .output()
        .expect("run yasmin-rs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(20), "{stdout}\n{stderr}");
    assert!(stdout.contains("UNSATISFIABLE"), "{stdout}");
    // Deletion and sharing really ran.
    let deleted: u64 = stdout
        .lines()
        .find(|l| l.starts_with("Lemmas"))
        .and_then(|l| l.split("Deleted: ").nth(1))
        .and_then(|d| d.trim_end_matches(')').trim().parse().ok())
        .expect("a Lemmas line with Deleted");
    assert!(deleted > 100, "{stdout}");
    assert!(stdout.contains("imported"), "{stdout}");
}

/// Eight pigeons (no answer set) on 8 emulated searches with `args`: the `--stats` output,
/// after checking the exit code says unsatisfiable.
fn pigeons_unsat(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_yasmin-rs"))
        .args(["--engine=emu", "--gpu-searches=8", "--stats", "-q"])
        .args(args)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/device/pigeons.lp"
        ))
        .output()
        .expect("run yasmin-rs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(20), "{stdout}\n{stderr}");
    stdout
}

#[test]
fn splitting_into_cubes_proves_unsatisfiability() {
    let stdout = pigeons_unsat(&["--gpu-cubes=6"]);
    // Cubes were handed out and refuted (all 64, unless a search proved it for all first).
    let (refuted, base, _) = cubes_line(&stdout);
    assert_eq!(base, 64, "{stdout}");
    assert!(refuted > 0, "{stdout}");
}

/// The `Cubes` line of `--stats`: refuted, base cubes, split off.
fn cubes_line(stdout: &str) -> (u64, u64, u64) {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("Cubes"))
        .expect("a Cubes line");
    let n: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|d| d.parse().ok())
        .collect();
    assert_eq!(n.len(), 3, "{line}");
    (n[0], n[1], n[2])
}

/// Cubes split after every conflict spent on them: the split-off halves are taken and refuted
/// by searches without a cube, and the proof that no model exists still holds.
#[test]
fn cubes_split_while_they_run_and_the_proof_holds() {
    for cubes in ["--gpu-cubes=2", "--gpu-cubes=4"] {
        let stdout = pigeons_unsat(&[cubes, "--gpu-split=1"]);
        let (refuted, base, splits) = cubes_line(&stdout);
        assert!(splits > 0, "{stdout}");
        // Every cube is refuted once, unless a search proved it for all first.
        assert!(refuted <= base + splits, "{stdout}");
    }
    // Regression: a split every 2^31 conflicts or more wrapped around (the due count was
    // compared as a signed difference) and split at every decision.
    for every in ["--gpu-split=2147483649", "--gpu-split=4294967295"] {
        let stdout = pigeons_unsat(&["--gpu-cubes=4", every]);
        assert_eq!(cubes_line(&stdout).2, 0, "{stdout}");
    }
}

#[test]
fn a_native_sum_gives_clingos_answer_sets() {
    let lp = format!("{ROOT}/tests/device/bigsum.lp");
    let text = std::fs::read_to_string(&lp).unwrap();
    let (want, code) = clingo(&lp, &["-n", "0"]);
    assert_eq!(code, Some(30));
    assert!(want.len() > 100, "the program has many answer sets");
    let aspif = gringo(&text, &[]);
    for learning in ["res", "fwd"] {
        for sums in ["native", "translate"] {
            let run = yasmin(
                &[
                    "--engine=emu",
                    "--gpu-searches=3",
                    "-n",
                    "0",
                    "--stats",
                    &format!("--learning={learning}"),
                    &format!("--sums={sums}"),
                ],
                Some(&aspif),
            );
            assert_eq!(run.code, Some(30), "{}", run.stderr);
            assert_eq!(common::answer_sets(&run.stdout), want, "{learning} {sums}");
            // Sums are native by default (this one and, past the diagram budget, smaller
            // ones), translated on request.
            let native: u64 = run
                .stdout
                .split(" native sums")
                .next()
                .and_then(|s| s.rsplit(", ").next())
                .and_then(|n| n.trim().parse().ok())
                .expect("a Memory line with N native sums");
            assert_eq!(native > 0, sums == "native", "{}", run.stdout);
        }
    }
}
