//! Projective enumeration (`--project`) against clingo: generated programs (tests/gen) with
//! `#project` directives over some of their atoms, `-n 0`: the projections of the models
//! yasmin-rs prints (each printed answer restricted to the projected atoms) are clingo's,
//! each exactly once, on both engines' code paths that run without a GPU (`cpu`; `emu`, which
//! takes no nogoods, so repeats are dropped on the host); with `--project=show` and `#show`
//! directives the printed answers themselves are clingo's. `-n 2` prints two distinct ones.
//!
//! Needs gringo and clingo on PATH; fails, not skips, without them.

mod common;
#[path = "gen/mod.rs"]
mod gen;

use common::bin::{gringo, yasmin};
use common::Rng;
use std::collections::BTreeMap;
use std::process::{Command, Stdio};

type Sets = BTreeMap<Vec<String>, usize>;

/// The answers of clingo-style text, each restricted to `keep` (all when `None`).
fn projections(text: &str, keep: Option<&[String]>) -> Sets {
    let mut out = Sets::new();
    for (set, n) in common::answer_sets(text) {
        let set: Vec<String> = set
            .into_iter()
            .filter(|a| keep.is_none_or(|k| k.contains(a)))
            .collect();
        *out.entry(set).or_insert(0) += n;
    }
    out
}

fn clingo(aspif: &[u8], args: &[&str]) -> String {
    let mut child = Command::new("clingo")
        .args(["--mode=clasp", "-n", "0"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("clingo must be installed");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(aspif).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

#[test]
fn projected_models_are_clingos_each_once() {
    let mut rng = Rng(0x9a0_1ec7);
    let (mut compared, mut collapsed) = (0, 0);
    for kind in [
        gen::Kind::Choice,
        gen::Kind::NonTight,
        gen::Kind::Disjunctive,
    ] {
        for i in 0..60 {
            let seed = gen::program_seed(11, kind, i);
            let mut text = gen::generate(kind, seed);
            let n = (1..=12)
                .filter(|k| text.contains(&format!("a{k}")))
                .max()
                .unwrap_or(1);
            let mut keep: Vec<String> = (1..=n)
                .filter(|_| rng.chance(40))
                .map(|k| format!("a{k}"))
                .collect();
            if keep.is_empty() {
                keep.push(format!("a{}", 1 + rng.below(n as u64)));
            }
            let show = i % 3 == 2;
            for a in &keep {
                text.push_str(&format!("#project {a}.\n"));
                if show {
                    text.push_str(&format!("#show {a}/0.\n"));
                }
            }
            let aspif = gringo(&text, &[]);
            // `auto` where gringo kept a `#project` statement (aspif `3`), else `project`.
            let kept = aspif.split(|&b| b == b'\n').any(|l| l.starts_with(b"3 "));
            let mode = match (show, kept && i % 3 == 0) {
                (true, _) => "--project=show",
                (false, true) => "--project",
                (false, false) => "--project=project",
            };
            let want = projections(&clingo(&aspif, &[mode]), Some(&keep));
            assert!(want.values().all(|&k| k == 1), "clingo repeats: {want:?}");
            let all = projections(&clingo(&aspif, &[]), None);
            collapsed += (all.len() > want.len()) as usize;
            for engine in ["cpu", "emu"] {
                let r = yasmin(&["-n", "0", mode, "--engine", engine], Some(&aspif));
                let got = projections(&r.stdout, Some(&keep));
                assert_eq!(
                    got, want,
                    "{kind:?} seed {seed} {mode} --engine={engine}\n{text}\n{}",
                    r.stderr
                );
                let exit = if want.is_empty() { 20 } else { 30 };
                assert_eq!(r.code, Some(exit), "{}", r.stderr);
            }
            if want.len() > 2 {
                let r = yasmin(&["-n", "2", mode], Some(&aspif));
                let got = projections(&r.stdout, Some(&keep));
                assert_eq!(got.len(), 2, "{}", r.stdout);
                assert!(got.keys().all(|k| want.contains_key(k)));
                assert_eq!(r.code, Some(10));
            }
            compared += 1;
        }
    }
    eprintln!("{compared} programs, {collapsed} where projection merged models");
    assert!(
        collapsed > 20,
        "the projections must merge models for this to test much"
    );
}

#[test]
fn without_the_option_project_directives_are_ignored() {
    let aspif = gringo("{a; b}. #project a.", &[]);
    let r = yasmin(&["-n", "0"], Some(&aspif));
    assert_eq!(projections(&r.stdout, None).len(), 4, "{}", r.stdout);
    let r = yasmin(&["-n", "0", "--project=project"], Some(&aspif));
    assert_eq!(projections(&r.stdout, None).len(), 2, "{}", r.stdout);
    let r = yasmin(&["-n", "0", "--project=no"], Some(&aspif));
    assert_eq!(projections(&r.stdout, None).len(), 4, "{}", r.stdout);
    // With an objective: not supported yet.
    let aspif = gringo("{a; b}. #project a. #minimize{1: b}.", &[]);
    let r = yasmin(&["--project"], Some(&aspif));
    assert_eq!(r.code, Some(66), "{}", r.stderr);
}
