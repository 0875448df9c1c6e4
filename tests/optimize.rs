//! Optimisation end to end (`#minimize`, `--opt-mode`): results, exit codes, the summary lines
//! and the formats, as clingo 5.8 prints them for the same program
//! (`tests/cli/optimize.lp`: two priorities, a negative weight, two optimal models), and the
//! time limit on an optimisation whose optimum is too hard to prove.
//!
//! Needs gringo and clingo on PATH (Debian package `gringo`); the tests fail, not skip, without.

mod common;

use common::answer_sets;
use common::bin::{clingo, gringo, yasmin, Run, ROOT};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    format!("{ROOT}/tests/cli/{name}")
}

/// `tests/cli/optimize.aspif` with `args`, on the host engine.
fn run(args: &[&str]) -> Run {
    let file = fixture("optimize.aspif");
    let mut all = vec![file.as_str(), "--engine=cpu"];
    all.extend(args);
    yasmin(&all, None)
}

/// The `Optimization:` lines after the models, in order.
fn costs(stdout: &str) -> Vec<Vec<i64>> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Optimization: "))
        .map(|c| c.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect()
}

fn result_line(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| {
            matches!(
                *l,
                "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN" | "OPTIMUM FOUND"
            )
        })
        .unwrap_or("")
}

fn sets(list: &[&[&str]]) -> BTreeMap<Vec<String>, usize> {
    list.iter()
        .map(|s| (s.iter().map(|a| a.to_string()).collect(), 1))
        .collect()
}

#[test]
fn opt_prints_better_models_until_the_optimum() {
    let r = run(&[]);
    assert_eq!(r.code, Some(30), "{}\n{}", r.stdout, r.stderr);
    assert_eq!(result_line(&r.stdout), "OPTIMUM FOUND");
    let c = costs(&r.stdout);
    assert!(!c.is_empty() && c.windows(2).all(|w| w[1] < w[0]), "{c:?}");
    assert_eq!(c.last().unwrap(), &[-1, 1]);
    assert!(
        r.stdout
            .contains("  Optimum    : yes\nOptimization : -1 1\nCalls        : 1\n"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("Optimal "), "{}", r.stdout);
}

#[test]
fn opt_with_a_model_limit_is_not_proved() {
    let r = run(&["-n", "1"]);
    assert_eq!(r.code, Some(10), "{}", r.stdout);
    assert_eq!(result_line(&r.stdout), "SATISFIABLE");
    assert!(r
        .stdout
        .contains("Models       : 1+\n  Optimum    : unknown\n"));
    assert!(
        r.stderr
            .contains("#models not 0: optimality of last model not guaranteed"),
        "{}",
        r.stderr
    );
}

#[test]
fn opt_n_enumerates_the_optimal_models() {
    let r = run(&["--opt-mode=optN"]);
    assert_eq!(r.code, Some(30), "{}", r.stdout);
    assert_eq!(result_line(&r.stdout), "OPTIMUM FOUND");
    assert!(r
        .stdout
        .contains("  Optimum    : yes\n  Optimal    : 2\nOptimization : -1 1\n"));
    // The optimal models are numbered from 1 again, after the improving ones.
    let restart = r.stdout.rfind("Answer: 1 (").unwrap();
    let optimal = answer_sets(&r.stdout[restart..]);
    assert_eq!(optimal, sets(&[&["a", "d"], &["b", "d"]]));
    let (want, _) = clingo(&fixture("optimize.lp"), &["--opt-mode=optN", "-n", "0"]);
    assert!(want.contains_key(&vec!["a".to_string(), "d".to_string()]));
    // -n counts the optimal models: proved, but more may exist.
    let r = run(&["--opt-mode=optN", "-n", "1"]);
    assert_eq!(r.code, Some(10), "{}", r.stdout);
    assert_eq!(result_line(&r.stdout), "OPTIMUM FOUND");
    let restart = r.stdout.rfind("Answer: 1 (").unwrap();
    assert_eq!(answer_sets(&r.stdout[restart..]).len(), 1);
}

#[test]
fn enum_within_a_bound_and_ignore() {
    // Models costing at most (0, 1) lexicographically: 7 of the 12 (clingo 5.8 says so too).
    let r = run(&["--opt-mode=enum,0,1", "-n", "0"]);
    assert_eq!(r.code, Some(30), "{}", r.stdout);
    assert_eq!(answer_sets(&r.stdout).len(), 7);
    assert!(costs(&r.stdout).iter().all(|c| c <= &vec![0, 1]));
    // enum proves nothing optimal but, exhausted, says OPTIMUM FOUND as clasp does; no
    // Optimization line in the summary.
    assert_eq!(result_line(&r.stdout), "OPTIMUM FOUND");
    assert!(!r.stdout.contains("Optimization :"), "{}", r.stdout);
    let r = run(&["--opt-mode=enum", "-n", "0"]);
    assert_eq!(answer_sets(&r.stdout).len(), 12);
    assert!(r.stderr.contains("No bound given"), "{}", r.stderr);
    // ignore: one model (the default -n), no costs.
    let r = run(&["--opt-mode=ignore"]);
    assert_eq!(r.code, Some(10), "{}", r.stdout);
    assert_eq!(result_line(&r.stdout), "SATISFIABLE");
    assert!(!r.stdout.contains("Optimi"), "{}", r.stdout);
}

#[test]
fn an_initial_bound_is_inclusive() {
    // On one thread and on several optimising together: a thread that searched before the
    // bound reached it once reported a model above the bound (regression).
    for t in ["1", "4"] {
        for _ in 0..5 {
            let r = run(&["--opt-mode=opt,-1,1", "-t", t]);
            assert_eq!(r.code, Some(30), "{}", r.stdout);
            assert_eq!(costs(&r.stdout), [[-1, 1]]);
            let r = run(&["--opt-mode=opt,-2", "-t", t]);
            assert_eq!(r.code, Some(20), "{}", r.stdout);
            assert_eq!(result_line(&r.stdout), "UNSATISFIABLE");
            assert!(!r.stdout.contains("Optimum"), "{}", r.stdout);
        }
    }
}

#[test]
fn competition_and_json_formats() {
    let r = run(&["--outf=1"]);
    assert_eq!(r.code, Some(30));
    // Only the best model, at the end, with its costs.
    assert_eq!(r.stdout.matches("ANSWER").count(), 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("\nCOST -1 1\nOPTIMUM\n% \n"),
        "{}",
        r.stdout
    );
    assert!(r
        .stdout
        .contains("%   Optimum      : yes\n% Optimization   : -1 1\n"));
    let r = run(&["--outf=1", "--opt-mode=optN"]);
    assert_eq!(r.stdout.matches("ANSWER").count(), 2, "{}", r.stdout);
    assert_eq!(r.stdout.matches("OPTIMUM\n").count(), 1, "{}", r.stdout);
    let r = run(&["--outf=2", "--opt-mode=optN"]);
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect(&r.stdout);
    assert_eq!(j["Result"], "OPTIMUM FOUND");
    assert_eq!(j["Models"]["Optimum"], "yes");
    assert_eq!(j["Models"]["Optimal"], 2);
    assert_eq!(j["Models"]["Costs"], serde_json::json!([-1, 1]));
    let w = j["Call"][0]["Witnesses"].as_array().unwrap();
    assert_eq!(w.len() as u64, j["Models"]["Number"].as_u64().unwrap());
    assert!(w.iter().all(|m| m["Costs"].as_array().unwrap().len() == 2));
}

#[test]
fn unsatisfiable_with_an_objective() {
    let r = yasmin(
        &["--engine=cpu"],
        Some(b"asp 1 0 0\n1 0 1 1 0 0\n1 0 0 0 1 1\n2 0 1 1 1\n0\n"),
    );
    assert_eq!(r.code, Some(20), "{}\n{}", r.stdout, r.stderr);
    assert_eq!(result_line(&r.stdout), "UNSATISFIABLE");
}

#[test]
fn the_gpu_engine_optimises() {
    // (Its kernel's branch and bound is tested on the host in tests/device_optimize.rs.)
    let file = fixture("optimize.aspif");
    let r = yasmin(&[&file, "--engine=gpu"], None);
    // Exit 69 without a GPU; never refused as unsupported.
    assert!(matches!(r.code, Some(30) | Some(69)), "{}", r.stderr);
    let r = yasmin(&[&file, "--engine=emu", "--opt-mode=optN"], None);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    let restart = r.stdout.rfind("Answer: 1 (").unwrap();
    assert_eq!(
        answer_sets(&r.stdout[restart..]),
        sets(&[&["a", "d"], &["b", "d"]])
    );
    // auto searches on the host engine.
    let r = yasmin(&[&file], None);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
}

/// 16 pigeons in 15 holes, each collision costing 1: models are easy, but proving that no
/// model costs 0 is the pigeonhole principle, far too hard for a second.
#[test]
fn time_limit_prints_the_best_model_found() {
    let ground = gringo(
        "p(1..16). h(1..15). 1 { in(P,H) : h(H) } 1 :- p(P).
         #minimize{ 1,P,Q : in(P,H), in(Q,H), P < Q }.",
        &[],
    );
    let start = Instant::now();
    let r = yasmin(&["--time-limit=1", "--engine=cpu", "-q"], Some(&ground));
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(r.code, Some(11), "{}\n{}", r.stdout, r.stderr);
    assert_eq!(result_line(&r.stdout), "SATISFIABLE");
    assert!(
        r.stdout.contains("TIME LIMIT   : 1\n")
            && r.stdout.contains("  Optimum    : unknown\nOptimization : "),
        "{}",
        r.stdout
    );
}

/// clingo's optimum (its last `Optimization:` line, empty if none) and exit code on `aspif`.
fn clingo_optimum(aspif: &str) -> (Vec<i64>, Option<i32>) {
    let out = std::process::Command::new("clingo")
        .args(["--mode=clasp", aspif])
        .output()
        .expect("clingo must be installed (apt-get install gringo)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    (costs(&stdout).pop().unwrap_or_default(), out.status.code())
}

/// `--opt-strategy=usc` (core-guided, `run/usc.rs`; on the host engine and on the GPU engine's
/// searches) proves clingo's optimum: on the fixture (two
/// priorities, a negative weight) and on each `tests/regress/usc-*.lp` (an unsatisfiable
/// program whose first priority level has no literal: the search without assumptions found no
/// core; a head cycle: branch and bound instead; aliased atoms).
#[test]
fn usc_proves_clingos_optimum() {
    let mut files = vec![fixture("optimize.aspif")];
    let dir = std::path::Path::new(ROOT).join("tests/regress");
    let tmp = std::env::temp_dir().join(format!("yasmin-usc-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut regress: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("usc-"))
        })
        .collect();
    regress.sort();
    assert!(regress.len() >= 4, "the usc regression inputs are missing");
    for p in regress {
        let aspif = tmp.join(p.file_stem().unwrap()).with_extension("aspif");
        std::fs::write(&aspif, gringo(&std::fs::read_to_string(&p).unwrap(), &[])).unwrap();
        files.push(aspif.display().to_string());
    }
    // The host engine, the GPU kernel's searches under assumptions (emulated), and the GPU
    // engine's race of branch and bound and OLL (`--engine=emu` alone, `run/engines.rs`).
    let engines: [&[&str]; 3] = [
        &["--engine=cpu", "--opt-strategy=usc"],
        &["--engine=emu", "--opt-strategy=usc"],
        &["--engine=emu"],
    ];
    for f in &files {
        let (want, want_code) = clingo_optimum(f);
        for engine in engines {
            let got = yasmin(&[&[f.as_str()], engine].concat(), None);
            assert_eq!(
                got.code, want_code,
                "{f} {engine:?}: exit code\n{}",
                got.stderr
            );
            assert_eq!(
                costs(&got.stdout).pop().unwrap_or_default(),
                want,
                "{f} {engine:?}: optimum\n{}",
                got.stdout
            );
            if want_code == Some(30) {
                assert_eq!(result_line(&got.stdout), "OPTIMUM FOUND", "{f} {engine:?}");
            }
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
}

/// `--opt-strategy=usc` refuses what it does not do, with exit code 66, before any model; a
/// tactic clasp does not have is a usage error.
#[test]
fn usc_refuses_other_modes() {
    for mode in ["--opt-mode=enum,3", "--opt-mode=opt,5", "--opt-mode=optN,5"] {
        let r = run(&["--opt-strategy=usc", mode]);
        assert_eq!(r.code, Some(66), "{mode}: {}", r.stderr);
        assert!(r.stderr.contains("--opt-strategy=usc"), "{}", r.stderr);
        assert!(!r.stdout.contains("Answer:"), "{}", r.stdout);
    }
    // clingo's tactics: the one each strategy has here is taken; clasp's others run it, named
    // in a warning (config/spellings.rs); a tactic clasp does not have either is a usage error.
    let r = run(&["--opt-strategy=usc,oll"]);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    let r = run(&["--opt-strategy=usc,k"]);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    assert!(
        r.stderr.contains("*** Warn") && r.stderr.contains("usc,oll"),
        "{}",
        r.stderr
    );
    let r = run(&["--opt-strategy=usc,foo"]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("usc,oll"), "{}", r.stderr);
}

/// The optimal models `--opt-mode=optN` prints: those after the last improving one whose
/// costs are the summary's optimum, each once.
fn optimal_models(stdout: &str) -> BTreeMap<Vec<String>, usize> {
    let optimum = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Optimization : "))
        .unwrap_or("")
        .to_owned();
    let mut sets = BTreeMap::new();
    let mut lines = stdout.lines().peekable();
    while let Some(l) = lines.next() {
        if l.starts_with("Answer:") {
            let atoms = common::sorted_atoms(lines.next());
            if lines
                .next_if(|c| c.strip_prefix("Optimization: ") == Some(&optimum))
                .is_some()
            {
                sets.insert(atoms, 1);
            }
        }
    }
    sets
}

/// Issue 48: `--opt-mode=optN` on a disjunctive program with a head cycle left out an optimal
/// model (`tests/cli/optn-minimality.lp`): a candidate that failed the minimality check under
/// the strict bound was blocked by a nogood that left out its level-0 literals, which the bound
/// had implied, and the nogood outlived the bound. On every engine, as source and as aspif,
/// the optimal models and the optimum are clingo 5.8's (`--eq=0`, its text output).
/// (`tests/cli/optn-minimality-2.lp`: the same fault, found by the mode matrix.)
#[test]
fn opt_n_keeps_every_optimal_model_after_failed_minimality_checks() {
    // The program of the issue, and one the mode matrix found on the binary before the fix.
    for name in ["optn-minimality.lp", "optn-minimality-2.lp"] {
        opt_n_on_every_engine_as_clingo(&fixture(name));
    }
}

fn opt_n_on_every_engine_as_clingo(lp: &str) {
    let stem = std::path::Path::new(lp)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let aspif = std::env::temp_dir().join(format!("yasmin-{stem}-{}.aspif", std::process::id()));
    std::fs::write(&aspif, gringo(&std::fs::read_to_string(lp).unwrap(), &[])).unwrap();
    let aspif = aspif.display().to_string();
    let want = std::process::Command::new("python3")
        .args(["-m", "clingo", "--eq=0", "--opt-mode=optN", "-n", "0", lp])
        .output()
        .expect("python3 -m clingo (PyPI's clingo 5.8, scripts/setup.sh)");
    let want = String::from_utf8_lossy(&want.stdout).into_owned();
    let want_sets = optimal_models(&want);
    assert!(want_sets.len() >= 2, "clingo's optimal models: {want}");
    let engines: [&[&str]; 5] = [
        &["--engine=cpu", "-t", "1"],
        &["--engine=cpu", "-t", "4"],
        &["--engine=emu"],
        &["--engine=auto"],
        &["--engine=cpu", "-t", "1", "--opt-strategy=usc"],
    ];
    for input in [lp, aspif.as_str()] {
        for engine in engines {
            let mut args = vec![input, "--opt-mode=optN", "-n", "0"];
            args.extend(engine);
            let r = yasmin(&args, None);
            assert_eq!(r.code, Some(30), "{args:?}\n{}\n{}", r.stdout, r.stderr);
            assert_eq!(result_line(&r.stdout), "OPTIMUM FOUND", "{args:?}");
            assert_eq!(
                optimal_models(&r.stdout),
                want_sets,
                "{args:?}\n{}",
                r.stdout
            );
            let n = format!("  Optimal    : {}\n", want_sets.len());
            assert!(r.stdout.contains(&n), "{args:?}\n{}", r.stdout);
        }
    }
    std::fs::remove_file(&aspif).ok();
}
