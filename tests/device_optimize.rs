//! The device kernel's branch and bound (`kernels/search/objective.cuh`, the host side in
//! `src/engine/gpu/branch_bound.rs`) under `--engine=emu`, beside clingo: generated weighted
//! programs that take many improving models before the optimum (so new bounds reach searches
//! in the middle of their work), with two priorities, `#maximize` (negative weights) and sum
//! bodies; the optimum and every optimal model (`--opt-mode=optN -n 0`) must equal clingo's,
//! for both learning schemes and 1 and 16 searches. Also: the refusals, initial bounds, the
//! time limit and the `--stats` line.
//!
//! Knobs: `YASMIN_DEVOPT_COUNT` programs (default 12), `YASMIN_DEVOPT_SEED` base seed (1).
//! Needs gringo and clingo on PATH.

mod common;

use common::bin::{gringo, yasmin, ROOT};
use common::{answer_sets, env_u64, Rng};
use std::collections::BTreeSet;
use std::process::Command;

/// A weighted vertex cover (priority 2) on a random graph, with a `#maximize` over odd
/// vertices (priority 1), or items in bins under a `#sum` capacity, the bins used (priority
/// 2) and the items' placement costs (priority 1, some negative); a model always exists.
fn program(seed: u64) -> String {
    let mut r = Rng(seed);
    if seed.is_multiple_of(2) {
        let n = r.range(12, 20);
        let mut p = format!("v(1..{n}).\n{{ in(V) }} :- v(V).\n");
        for _ in 0..2 * n {
            let (x, y) = (r.range(1, n), r.range(1, n));
            if x != y {
                p += &format!("e({x},{y}).\n");
            }
        }
        for v in 1..=n {
            p += &format!("w({v},{}).\n", r.range(1, 9));
        }
        p += ":- e(X,Y), not in(X), not in(Y).\n\
              #minimize{ W@2,V : in(V), w(V,W) }.\n\
              #maximize{ 1@1,V : in(V), V \\ 2 = 1 }.\n\
              #show in/1.\n";
        p
    } else {
        let items = r.range(5, 8);
        let bins = r.range(2, 4);
        let mut p = format!("item(1..{items}). bin(1..{bins}).\n");
        let mut total = 0;
        for i in 1..=items {
            let size = r.range(1, 6);
            total += size;
            p += &format!("size({i},{size}).\n");
            for b in 1..=bins {
                p += &format!("cost({i},{b},{}).\n", r.range(-3, 5));
            }
        }
        p += &format!(
            "1 {{ at(I,B) : bin(B) }} 1 :- item(I).\n\
             :- bin(B), #sum{{ S,I : at(I,B), size(I,S) }} > {}.\n\
             used(B) :- at(_,B).\n\
             #minimize{{ 1@2,B : used(B) }}.\n\
             #minimize{{ C@1,I : at(I,B), cost(I,B,C) }}.\n\
             #show at/2.\n",
            // Room for first fit (so a model exists), not always for fewer bins.
            (total + bins - 1) / bins + 5 + r.range(0, 3)
        );
        p
    }
}

/// The optimum (the last `Optimization` line's costs) and the optimal answer sets, each once.
fn optimal(out: &str) -> (Option<String>, BTreeSet<Vec<String>>) {
    let mut models = Vec::new();
    let mut lines = out.lines().peekable();
    while let Some(l) = lines.next() {
        if l.starts_with("Answer:") {
            let atoms = common::sorted_atoms(lines.next());
            let c = lines
                .peek()
                .and_then(|c| c.strip_prefix("Optimization: "))
                .map(str::to_owned);
            models.push((atoms, c));
        }
    }
    let best = models.last().and_then(|m| m.1.clone());
    let sets = models
        .into_iter()
        .filter(|m| m.1 == best)
        .map(|m| m.0)
        .collect();
    (best, sets)
}

fn clingo_optn(text: &str, seed: u64) -> (Option<String>, BTreeSet<Vec<String>>) {
    let dir = std::env::temp_dir().join(format!("yasmin-device-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("p{seed}.lp"));
    std::fs::write(&file, text).unwrap();
    let out = Command::new("clingo")
        .args(["--opt-mode=optN", "-n", "0"])
        .arg(&file)
        .output()
        .expect("clingo must be installed");
    let _ = std::fs::remove_file(&file);
    assert_eq!(out.status.code(), Some(30), "clingo on\n{text}");
    optimal(&String::from_utf8_lossy(&out.stdout))
}

/// `--stats`' count of tighter bounds written to the device.
fn bounds_written(stdout: &str) -> u64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("  Bounds     : "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[test]
fn branch_and_bound_in_the_device_kernel_agrees_with_clingo() {
    let count = env_u64("YASMIN_DEVOPT_COUNT", 12);
    let base = env_u64("YASMIN_DEVOPT_SEED", 1);
    let (mut bad, mut runs, mut written) = (Vec::new(), 0u64, 0u64);
    for i in 0..count {
        let seed = base.wrapping_mul(1_000_003).wrapping_add(i);
        let text = program(seed);
        let want = clingo_optn(&text, seed);
        assert!(want.0.is_some() && !want.1.is_empty(), "{text}");
        let aspif = gringo(&text, &[]);
        for learning in ["--learning=res", "--learning=fwd"] {
            for searches in ["--gpu-searches=1", "--gpu-searches=16"] {
                let args = [
                    "--engine=emu",
                    "--opt-mode=optN",
                    "-n",
                    "0",
                    "--stats",
                    learning,
                    searches,
                ];
                let run = yasmin(&args, Some(&aspif));
                runs += 1;
                written += bounds_written(&run.stdout);
                if optimal(&run.stdout) != want || run.code != Some(30) {
                    eprintln!(
                        "MISMATCH seed {seed} {args:?} (exit {:?}):\n{text}\nclingo: {want:?}\n\
                         yasmin-rs: {:?}\n{}",
                        run.code,
                        optimal(&run.stdout),
                        run.stderr
                    );
                    bad.push(seed);
                }
            }
        }
    }
    eprintln!(
        "device optimisation: {count} programs, {runs} runs, {written} bounds written, {} mismatches",
        bad.len()
    );
    assert!(bad.is_empty(), "seeds {bad:?} disagree with clingo");
    // Improving models came one after another, each bound reaching the searches.
    assert!(written > 2 * runs, "{written} bounds in {runs} runs");
}

fn fixture() -> String {
    format!("{ROOT}/tests/cli/optimize.aspif")
}

#[test]
fn initial_bounds_enumeration_and_formats_on_the_device_kernel() {
    let f = fixture();
    for searches in ["--gpu-searches=1", "--gpu-searches=8"] {
        let emu = |args: &[&str]| {
            let mut all = vec![f.as_str(), "--engine=emu", searches];
            all.extend(args);
            yasmin(&all, None)
        };
        // The optimum of tests/cli/optimize.lp is (-1, 1), with two optimal models.
        let r = emu(&["--opt-mode=opt,-1,1"]);
        assert_eq!(r.code, Some(30), "{}", r.stdout);
        assert!(r.stdout.contains("Optimization: -1 1\nOPTIMUM FOUND"));
        assert_eq!(answer_sets(&r.stdout).len(), 1, "{}", r.stdout);
        let r = emu(&["--opt-mode=opt,-2"]);
        assert_eq!(r.code, Some(20), "{}", r.stdout);
        // enum within (0, 1): 7 of the 12 models, as clingo 5.8.
        let r = emu(&["--opt-mode=enum,0,1", "-n", "0"]);
        assert_eq!(r.code, Some(30), "{}", r.stdout);
        assert_eq!(answer_sets(&r.stdout).len(), 7, "{}", r.stdout);
        let r = emu(&["--outf=2", "--opt-mode=optN"]);
        assert_eq!(r.code, Some(30), "{}", r.stdout);
        assert!(
            r.stdout.contains("\"Optimal\": 2") && r.stdout.contains("\"Optimum\": \"yes\""),
            "{}",
            r.stdout
        );
    }
}

#[test]
fn refusals_and_the_time_limit() {
    // Three levels of 2^31 - 1 each do not fold into one 64-bit sum.
    let big = gringo(
        "{a;b;c}. #minimize{ 2147483647@3,x:a; 2147483647@2,y:b; 2147483647@1,z:c }.",
        &[],
    );
    let r = yasmin(&["--engine=emu"], Some(&big));
    assert_eq!(r.code, Some(66), "{}", r.stderr);
    assert!(
        r.stderr.contains("do not fit one 64-bit sum"),
        "{}",
        r.stderr
    );
    // Ignored, the objective does not count.
    let r = yasmin(&["--engine=emu", "--opt-mode=ignore"], Some(&big));
    assert_eq!(r.code, Some(10), "{}", r.stderr);
    // 16 pigeons, 15 holes, each collision costing 1: the best model so far at the limit.
    let pigeons = gringo(
        "p(1..16). h(1..15). 1 { in(P,H) : h(H) } 1 :- p(P).
         #minimize{ 1,P,Q : in(P,H), in(Q,H), P < Q }.",
        &[],
    );
    let r = yasmin(
        &["--engine=emu", "--time-limit=1", "-q", "--gpu-searches=4"],
        Some(&pigeons),
    );
    assert_eq!(r.code, Some(11), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("  Optimum    : unknown\nOptimization : "),
        "{}",
        r.stdout
    );
}
