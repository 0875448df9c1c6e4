//! The device kernel's native sums (`kernels/search/sums.cuh`) against clingo on generated
//! programs made for them: several bounds over one list of weighted elements (`>=`, `>`, `=`,
//! `<=`, so gringo writes one body per bound and the completion groups them into one native sum
//! with a chain of bounds), negative weights, negated and derived literals, and sums over the
//! heads of other sums (positive loops through sums, so the unfounded-set check meets native
//! sum bodies). Every sum is native (`--sums=all-native`); each program runs with both learning
//! schemes and 1 and 3 searches under `--engine=emu`, and its answer sets must equal clingo's.
//!
//! Knobs: `YASMIN_SUMS_COUNT` programs (default 200), `YASMIN_SUMS_SEED` base seed (default 1).

mod common;

use common::bin::{gringo, yasmin};
use common::{env_u64, Rng};
use std::collections::BTreeMap;
use std::process::Command;

/// A program of `a(1..n)` choices and 1-3 families `hS(K) :- #sum{…} op K`.
fn program(seed: u64) -> String {
    let mut r = Rng(seed);
    let n = r.range(4, 9);
    let mut p = format!("{{ a(1..{n}) }}.\n");
    for i in 0..r.range(0, 3) {
        p += &format!(
            "c({i}) :- a({}), not a({}).\n",
            r.range(1, n),
            r.range(1, n)
        );
    }
    let sums = r.range(1, 3);
    for s in 0..sums {
        let mut elems = Vec::new();
        for k in 0..r.range(2, 8) {
            let w = r.range(1, 6) * if r.chance(85) { 1 } else { -1 };
            let x = r.range(1, n);
            let lit = match r.below(10) {
                0 | 1 => format!("c({})", r.range(0, 2)),
                2 => format!("h{}({})", (s + 1) % sums, r.range(0, 12)),
                3 | 4 => format!("not a({x})"),
                _ => format!("a({x})"),
            };
            elems.push(format!("{w},{k}:{lit}"));
        }
        let body = format!("#sum{{{}}}", elems.join("; "));
        for _ in 0..r.range(1, 6) {
            let k = r.range(-2, 14);
            let op = [">=", ">=", ">=", "=", "<=", ">"][r.below(6) as usize];
            p += &format!("h{s}({k}) :- {body} {op} {k}.\n");
        }
    }
    for _ in 0..r.range(0, 3) {
        let neg = if r.chance(50) { "not " } else { "" };
        let also = if r.chance(50) {
            format!(", a({})", r.range(1, n))
        } else {
            String::new()
        };
        p += &format!(
            ":- {neg}h{}({}){also}.\n",
            r.range(0, sums - 1),
            r.range(-2, 14)
        );
    }
    p += "#show a/1.\n";
    for s in 0..sums {
        p += &format!("#show h{s}/1.\n");
    }
    p
}

fn clingo_sets(text: &str) -> BTreeMap<Vec<String>, usize> {
    let dir = std::env::temp_dir().join(format!("yasmin-device-sums-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.lp");
    std::fs::write(&file, text).unwrap();
    let out = Command::new("clingo")
        .args(["-n", "0"])
        .arg(&file)
        .output()
        .expect("clingo must be installed");
    assert!(matches!(out.status.code(), Some(20 | 30)), "clingo failed");
    common::answer_sets(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn native_sums_in_the_device_kernel_agree_with_clingo() {
    let count = env_u64("YASMIN_SUMS_COUNT", 200);
    let base = env_u64("YASMIN_SUMS_SEED", 1);
    let (mut sets, mut bad) = (0, Vec::new());
    for i in 0..count {
        let seed = base.wrapping_mul(1_000_003).wrapping_add(i);
        let text = program(seed);
        let want = clingo_sets(&text);
        sets += want.len();
        let aspif = gringo(&text, &[]);
        for learning in ["--learning=res", "--learning=fwd"] {
            for searches in ["--gpu-searches=1", "--gpu-searches=3"] {
                let run = yasmin(
                    &[
                        "--engine=emu",
                        "--sums=all-native",
                        "-n",
                        "0",
                        learning,
                        searches,
                    ],
                    Some(&aspif),
                );
                let expected = if want.is_empty() { 20 } else { 30 };
                if common::answer_sets(&run.stdout) != want || run.code != Some(expected) {
                    eprintln!(
                        "MISMATCH seed {seed} {learning} {searches}:\n{text}\n{}",
                        run.stderr
                    );
                    bad.push(seed);
                }
            }
        }
    }
    eprintln!(
        "device sums: {count} programs, {sets} answer sets, {} mismatches",
        bad.len()
    );
    assert!(bad.is_empty(), "seeds {bad:?} disagree with clingo");
    assert!(
        sets > count as usize,
        "the programs have answer sets to compare"
    );
}
