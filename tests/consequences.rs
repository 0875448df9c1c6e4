//! `--enum-mode=brave|cautious` against clingo: on generated programs of every kind (tests/gen,
//! disjunctive ones with head cycles among them), the consequences yasmin-rs prints last (the
//! set after its last `Answer:`), the summary's `Consequences : N` and `Brave`/`Cautious`
//! lines, the result and the exit code equal clingo's, on both engines' code paths that run
//! without a GPU (`cpu`, which takes the refinement nogoods; `emu`, which enumerates every
//! answer set instead). The number of models may differ: it depends on the search order.
//!
//! Needs gringo and clingo on PATH; fails, not skips, without them.

mod common;
#[path = "gen/mod.rs"]
mod gen;

use common::bin::{gringo, yasmin};
use std::io::Write;
use std::process::{Command, Stdio};

/// What the comparison reads of a run: the last answer (sorted), the summary's consequence
/// lines, the result, the exit code.
#[derive(Debug, PartialEq, Eq)]
struct Cons {
    last: Option<Vec<String>>,
    summary: Vec<String>,
    result: Option<String>,
    code: Option<i32>,
}

fn parse(out: &str, code: Option<i32>) -> Cons {
    let mut last = None;
    let mut summary = Vec::new();
    let mut result = None;
    let mut lines = out.lines();
    while let Some(l) = lines.next() {
        if l.starts_with("Answer:") {
            let atoms = common::sorted_atoms(lines.next());
            last = Some(atoms);
        } else if l.starts_with("Consequences :")
            || l.starts_with("  Brave ")
            || l.starts_with("  Cautious ")
        {
            summary.push(l.split_whitespace().collect::<Vec<_>>().join(" "));
        } else if matches!(l, "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN") {
            result = Some(l.to_owned());
        }
    }
    Cons {
        last,
        summary,
        result,
        code,
    }
}

fn clingo(aspif: &[u8], mode: &str) -> Cons {
    let mut child = Command::new("clingo")
        .args(["--mode=clasp", mode])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("clingo must be installed");
    child.stdin.take().unwrap().write_all(aspif).unwrap();
    let out = child.wait_with_output().unwrap();
    parse(&String::from_utf8_lossy(&out.stdout), out.status.code())
}

#[test]
fn brave_and_cautious_consequences_are_clingos() {
    let (mut compared, mut nonempty) = (0, 0);
    for kind in gen::Kind::ALL {
        for i in 0..30 {
            let seed = gen::program_seed(5, kind, i);
            let text = gen::generate(kind, seed);
            let aspif = gringo(&text, &[]);
            for mode in ["--enum-mode=brave", "--enum-mode=cautious"] {
                let want = clingo(&aspif, mode);
                nonempty += want.last.as_ref().is_some_and(|l| !l.is_empty()) as usize;
                for engine in ["cpu", "emu"] {
                    let r = yasmin(&[mode, "--engine", engine], Some(&aspif));
                    let got = parse(&r.stdout, r.code);
                    assert_eq!(
                        got, want,
                        "{kind:?} seed {seed} {mode} --engine={engine}\n{text}\n{}\n{}",
                        r.stdout, r.stderr
                    );
                }
                compared += 1;
            }
        }
    }
    eprintln!("{compared} runs compared, {nonempty} with consequences");
    assert!(
        nonempty > compared / 3,
        "too few programs with consequences"
    );
}

#[test]
fn models_not_zero_is_warned_and_unknown() {
    let aspif = gringo("{a; b; c}. :- a, b. d :- not c.", &[]);
    let r = yasmin(&["--enum-mode=cautious", "-n", "1"], Some(&aspif));
    assert!(
        r.stderr.contains("last model may not cover consequences"),
        "{}",
        r.stderr
    );
    let got = parse(&r.stdout, r.code);
    assert_eq!(got.code, Some(10));
    assert!(
        got.summary.contains(&"Cautious : unknown".to_string()),
        "{}",
        r.stdout
    );
    // Unsatisfiable: no consequence lines, as clingo.
    let aspif = gringo("a. :- a.", &[]);
    let r = yasmin(&["--enum-mode=brave"], Some(&aspif));
    assert_eq!(
        parse(&r.stdout, r.code),
        clingo(&aspif, "--enum-mode=brave")
    );
    // With an objective: not supported yet.
    let aspif = gringo("{a}. #minimize{1: a}.", &[]);
    let r = yasmin(&["--enum-mode=brave"], Some(&aspif));
    assert_eq!(r.code, Some(66), "{}", r.stderr);
    // auto and record enumerate as before.
    let aspif = gringo("{a; b}.", &[]);
    for m in ["--enum-mode=auto", "--enum-mode=record"] {
        let r = yasmin(&[m, "-n", "0"], Some(&aspif));
        assert_eq!(common::answer_sets(&r.stdout).len(), 4, "{m}");
    }
}
