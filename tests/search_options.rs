//! The host engine's search options end to end: `--configuration`, `--decide=vars`,
//! `--save-progress`, `--phase-switch`, `--fwd-cut` and `--restarts`, which the device engine
//! cannot honour (usage errors with `--engine=gpu`, the host engine with `--engine=auto`) or
//! which need another option (usage errors without it); where accepted, the answer sets are
//! clingo's. `run/plan.rs` tests how each combination resolves.
//!
//! Needs clingo on PATH (Debian package `gringo`).

mod common;

use common::answer_sets;
use common::bin::{clingo, example, yasmin};
use std::collections::BTreeMap;

/// A usage error (exit 64) saying `why`, before anything is read or printed.
fn usage_error(args: &[&str], why: &str) {
    let r = yasmin(args, None);
    assert_eq!(r.code, Some(64), "{args:?}: {}", r.stderr);
    assert!(r.stderr.contains(why), "{args:?}: {}", r.stderr);
    assert!(!r.stdout.contains("Solving"), "{args:?}: {}", r.stdout);
}

/// The queens example as ground input, and clingo's answer sets of its source.
fn queens() -> (String, BTreeMap<Vec<String>, usize>) {
    let (want, _) = clingo(&example("queens.lp"), &["-n", "0"]);
    (example("queens.aspif"), want)
}

/// All answer sets (the args end with `-n 0`), exit 30, and exactly `want` (clingo's).
fn same_answer_sets(args: &[&str], want: &BTreeMap<Vec<String>, usize>) {
    let r = yasmin(args, None);
    assert_eq!(r.code, Some(30), "{args:?}: {}", r.stderr);
    assert_eq!(&answer_sets(&r.stdout), want, "{args:?}");
}

#[test]
fn decide_vars_is_host_only() {
    let (q, want) = queens();
    // The device engine cannot honour it: a usage error before anything is read or printed,
    // with or without a GPU.
    usage_error(
        &[&q, "--engine=gpu", "--decide=vars"],
        "--decide=vars is not supported by the GPU engine",
    );
    // `auto` takes the host engine for it, whatever the machine has; same answer sets as the
    // default mode.
    for engine in ["--engine=auto", "--engine=cpu"] {
        same_answer_sets(&[&q, engine, "--decide=vars", "-n", "0"], &want);
    }
    same_answer_sets(
        &[&q, "--decide=vars", "--save-progress=0", "-n", "0"],
        &want,
    );
    // Signs of rule decisions are fixed: saving them would silently do nothing.
    usage_error(
        &[&q, "--decide=rules", "--save-progress=3"],
        "--save-progress needs --decide=vars",
    );
    // Alternating saved and fixed signs needs saved signs.
    usage_error(
        &[&q, "--save-progress=off", "--phase-switch=5"],
        "--phase-switch needs --save-progress",
    );
    same_answer_sets(
        &[
            &q,
            "--decide=vars",
            "--save-progress=0",
            "--phase-switch=1",
            "-n",
            "0",
        ],
        &want,
    );
}

#[test]
fn fwd_cuts_uip_and_lits_are_host_only_and_need_fwd() {
    let (q, want) = queens();
    for cut in ["uip", "lits"] {
        let flag = format!("--fwd-cut={cut}");
        let why = format!("{flag} is not supported by the GPU engine");
        usage_error(&[&q, "--engine=gpu", "--learning=fwd", &flag], &why);
        // Without fwd learning it would do nothing.
        let r = yasmin(&[&q, &flag], None);
        assert_eq!(r.code, Some(64), "{}", r.stderr);
        assert!(r.stderr.contains(&format!("{flag} needs --learning=fwd")));
        // `auto` takes the host engine for it; same answer sets as clingo.
        for engine in ["--engine=auto", "--engine=cpu"] {
            same_answer_sets(&[&q, engine, "--learning=fwd", &flag, "-n", "0"], &want);
        }
    }
}

#[test]
fn configurations_and_dynamic_restarts() {
    let (q, want) = queens();
    for flag in [
        "--configuration=tuned",
        "--restarts=dynamic",
        "--restarts=local",
    ] {
        let why = format!("{flag} is not supported by the GPU engine");
        usage_error(&[&q, "--engine=gpu", flag], &why);
    }
    // The device's algorithm on the host engine, the tuned one, and the default (tuned on the
    // host engine): clingo's answer sets with both learning schemes.
    for learning in ["--learning=res", "--learning=fwd"] {
        for extra in [
            &["--configuration=paper"][..],
            &["--configuration=tuned"],
            &["--engine=cpu"],
            &["--configuration=paper", "--restarts=dynamic"],
            &["--restarts=local"],
            &[
                "--configuration=tuned",
                "--restarts=luby",
                "--save-progress=off",
            ],
        ] {
            let mut args = vec![q.as_str(), learning, "-n", "0"];
            args.extend_from_slice(extra);
            same_answer_sets(&args, &want);
        }
    }
}

/// Regression: `--engine=auto` on a machine without a GPU built the device's completion (every
/// sum translated to nogoods, 38 times as many here) and then searched on the host with it.
/// It must prepare for the host engine from the start, as `--engine=cpu` does.
#[test]
fn auto_without_gpu_prepares_for_the_host_engine() {
    let file = format!("{}/tests/cli/sum60.aspif", common::bin::ROOT); // {a(1..60)}. :- #sum{X,a(X):a(X)} > 900.
    let complete = |engine: &str| {
        // (Not `-q`: the note on which engine runs is printed only when every model is.)
        let r = yasmin(&[&file, engine, "--stats"], None);
        assert_eq!(r.code, Some(10), "{}", r.stderr);
        let line = r.stderr.lines().find(|l| l.contains("Complete :"));
        let counts = line.and_then(|l| l.split(')').nth(2)).map(str::trim);
        (counts.expect("a Complete line").to_string(), r.stderr)
    };
    let (auto, stderr) = complete("--engine=auto");
    if !stderr.contains("using the host engine") {
        return; // a GPU is here: auto prepares for it
    }
    let (cpu, _) = complete("--engine=cpu");
    assert_eq!(auto, cpu);
    // The sum native: its bound's chain and units only, each once (with `--eq=0` 65: each
    // choice atom's support nogood too, which equivalence preprocessing drops since `{a(X)}.`
    // has the empty body, always true).
    assert!(cpu.starts_with("2 nogoods"), "{cpu}");
}
