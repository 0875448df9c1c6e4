//! The checker against clingo, with no solver involved: for random ground programs (tests/gen,
//! grounded by gringo) small enough to try every set of atoms, the sets the checker accepts are
//! exactly clingo's answer sets (compared as multisets of shown atoms, so two answer sets that
//! differ only in hidden atoms count twice on both sides), disjunctive programs with head
//! cycles included (their minimality is the checker's own search).
//!
//! Needs gringo and clingo on PATH (Debian package `gringo`); fails, not skips, without them.

mod common;
#[path = "gen/mod.rs"]
mod gen;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use yasmin_rs::check::Checker;
use yasmin_rs::output::ShownTable;

/// Subsets of up to this many atoms are enumerated (2^16 checks per program at most).
const MAX_ATOMS: u32 = 16;

fn piped(cmd: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(cmd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd}: {e} (apt-get install gringo)"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap().stdout
}

type Sets = BTreeMap<Vec<String>, usize>;

fn clingo_sets(aspif: &[u8]) -> Sets {
    let out = String::from_utf8(piped("clingo", &["--mode=clasp", "-n", "0"], aspif)).unwrap();
    common::answer_sets(&out)
}

/// One generated program: its kind, seed and text, gringo's aspif of it, the program parsed.
struct Generated {
    kind: gen::Kind,
    seed: u64,
    text: String,
    aspif: Vec<u8>,
    program: lparse::Program,
}

/// The generated programs both tests read: 40 of each kind from seed 7.
fn generated() -> impl Iterator<Item = Generated> {
    gen::Kind::ALL.into_iter().flat_map(|kind| {
        (0..40).map(move |i| {
            let seed = gen::program_seed(7, kind, i);
            let text = gen::generate(kind, seed);
            let aspif = piped("gringo", &[], text.as_bytes());
            let program = lparse::read(&aspif, "gringo").expect("gringo's output parses");
            Generated {
                kind,
                seed,
                text,
                aspif,
                program,
            }
        })
    })
}

#[test]
fn checker_accepts_exactly_clingos_answer_sets() {
    let (mut compared, mut too_big) = (0, 0);
    for Generated {
        kind,
        seed,
        text,
        aspif,
        program,
    } in generated()
    {
        if program.max_atom > MAX_ATOMS {
            too_big += 1;
            continue;
        }
        let checker = Checker::new(program.clone());
        let shown = ShownTable::new(&program);
        let mut ours = Sets::new();
        let mut complete = true;
        for bits in 0u32..(1 << program.max_atom) {
            let set: Vec<u32> = (1..=program.max_atom)
                .filter(|a| bits & (1 << (a - 1)) != 0)
                .collect();
            if let Ok(verdict) = checker.check(&set) {
                complete &= verdict.complete();
                let mut names: Vec<String> =
                    shown.shown(&set).into_iter().map(String::from).collect();
                names.sort();
                *ours.entry(names).or_insert(0) += 1;
            }
        }
        // Every disjunctive program, head-cycle-free or not, is checked in full.
        assert!(complete, "{kind:?} seed {seed}: a caveat\n{text}");
        assert_eq!(
            ours,
            clingo_sets(&aspif),
            "{kind:?} seed {seed}: checker vs clingo\n{text}"
        );
        compared += 1;
    }
    println!("{compared} programs compared, {too_big} too big");
    assert!(
        compared >= 80,
        "only {compared} programs were small enough to compare"
    );
}

/// The incremental checker (`check::Incremental`, which checks each candidate against the last
/// one it accepted) against the whole check: on the same generated programs, after each
/// answer set the whole check accepts, every candidate one or two atoms away from it, and
/// every other answer set, get the same verdict from both.
#[test]
fn incremental_checks_agree_with_the_whole_check() {
    // Candidates rejected (accepted) by an incremental check.
    let (mut programs, mut rejected, mut passed) = (0, 0, 0);
    for Generated {
        kind,
        seed,
        text,
        program,
        ..
    } in generated()
    {
        let n = program.max_atom;
        if n > MAX_ATOMS {
            continue;
        }
        let whole = Checker::new(program.clone());
        let set =
            |bits: u32| -> Vec<u32> { (1..=n).filter(|a| bits & (1 << (a - 1)) != 0).collect() };
        let accepted: Vec<u32> = (0u32..(1 << n))
            .filter(|&b| whole.check(&set(b)).is_ok())
            .collect();
        let mut inc = whole.incremental();
        for &a in &accepted {
            let mut near: Vec<u32> = (0..n).map(|i| a ^ (1 << i)).collect();
            near.extend((0..n).flat_map(|i| (i + 1..n).map(move |j| a ^ (1 << i) ^ (1 << j))));
            near.extend(accepted.iter().copied());
            for b in near {
                // From `a` (accepted: the next check is incremental) to `b`.
                assert!(inc.check(&set(a)).is_ok(), "{kind:?} seed {seed}\n{text}");
                let before = inc.counts.incremental;
                let (want, got) = (whole.check(&set(b)), inc.check(&set(b)));
                assert_eq!(
                    got.is_ok(),
                    want.is_ok(),
                    "{kind:?} seed {seed}: {:?} after {:?}: incremental {got:?}, whole \
                     {want:?}\n{text}",
                    set(b),
                    set(a)
                );
                if inc.counts.incremental > before {
                    rejected += want.is_err() as u64;
                    passed += want.is_ok() as u64;
                }
            }
        }
        programs += 1;
    }
    println!(
        "{programs} programs; incrementally {rejected} candidates rejected, {passed} accepted"
    );
    assert!(programs >= 80, "only {programs} programs were small enough");
    assert!(
        rejected > 10_000 && passed > 1_000,
        "the incremental path was hardly taken: {rejected} rejected, {passed} accepted"
    );
}
