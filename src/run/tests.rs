//! The model loop against a scripted engine: a wrong model is never printed, limits and counts
//! end the loop as documented.

use super::enumerate::enumerate;
use super::Failure;
use crate::check::Checker;
use crate::engine::{Engine, EngineError, Limits, Model, Stats, Step};
use crate::output::{Format, Outcome, Printer, ShownTable};
use lparse::{Body, Head, HeadKind, Output, Program, ProgramBuilder, Rule};
use std::sync::atomic::Ordering;

/// Replays a fixed list of steps, then `Exhausted`.
struct Scripted {
    steps: Vec<Step>,
    stats: Stats,
}

impl Engine for Scripted {
    fn next_model(&mut self, _: &Limits) -> Result<Step, EngineError> {
        Ok(if self.steps.is_empty() {
            Step::Exhausted
        } else {
            self.steps.remove(0)
        })
    }
    fn stats(&self) -> &Stats {
        &self.stats
    }
}

fn model(atoms: &[u32]) -> Step {
    Step::Model(Model {
        atoms: atoms.to_vec(),
    })
}

/// `a :- not b. b :- not a.` with both shown: answer sets {a} and {b}.
fn program() -> Program {
    let mut p = Program::default();
    for (h, b) in [(1, -2), (2, -1)] {
        p.rule(Rule {
            head: Head {
                kind: HeadKind::Disjunctive,
                atoms: vec![h],
            },
            body: Body::Normal(vec![b]),
        });
    }
    for (n, a) in [("a", 1), ("b", 2)] {
        p.output(Output {
            name: n.into(),
            condition: vec![a],
        });
    }
    p
}

fn go(
    steps: Vec<Step>,
    max: u64,
    verify: bool,
    limits: &Limits,
) -> (anyhow::Result<(Outcome, u64)>, String) {
    let p = program();
    let checker = Checker::new(&p);
    let shown = ShownTable::new(&p);
    let mut engine = Scripted {
        steps,
        stats: Stats::default(),
    };
    let mut printer = Printer::new(Vec::new(), Format::Text, false, "test");
    let r = enumerate(
        &mut engine,
        verify.then_some(&checker),
        &shown,
        max,
        limits,
        &mut printer,
        || {},
    )
    .map(|f| (f.outcome, f.models));
    (r, String::from_utf8(printer.into_inner()).unwrap())
}

#[test]
fn all_models_then_exhausted() {
    let (r, out) = go(vec![model(&[1]), model(&[2])], 0, true, &Limits::none());
    assert_eq!(r.unwrap(), (Outcome::Exhausted, 2));
    assert_eq!(out, "Answer: 1\na\nAnswer: 2\nb\n");
}

#[test]
fn stops_at_the_requested_count() {
    let (r, out) = go(vec![model(&[1]), model(&[2])], 1, true, &Limits::none());
    assert_eq!(r.unwrap(), (Outcome::Enough, 1));
    assert_eq!(out, "Answer: 1\na\n");
}

#[test]
fn a_wrong_model_is_never_printed() {
    // {a, b} is not an answer set (each rule's body is false): exit 70, nothing of it printed.
    let (r, out) = go(vec![model(&[1]), model(&[1, 2])], 0, true, &Limits::none());
    let e = r.unwrap_err();
    let f = e.downcast_ref::<Failure>().expect("a Failure");
    assert_eq!(f.code, 70);
    assert!(
        f.message.contains("model 2") && f.message.contains("unfounded"),
        "{}",
        f.message
    );
    assert_eq!(out, "Answer: 1\na\n");
    // With --verify=false the same model goes through (the user asked for it).
    let (r, _) = go(vec![model(&[1, 2])], 0, false, &Limits::none());
    assert_eq!(r.unwrap(), (Outcome::Exhausted, 1));
    // Out-of-range atoms are caught too.
    let (r, _) = go(vec![model(&[7])], 0, true, &Limits::none());
    assert!(r.is_err());
}

#[test]
fn stopped_is_time_limit_or_interrupt() {
    let limits = Limits::none();
    let (r, _) = go(vec![model(&[1]), Step::Stopped], 0, true, &limits);
    assert_eq!(r.unwrap(), (Outcome::TimeLimit, 1));
    limits.interrupt.store(true, Ordering::Relaxed);
    let (r, _) = go(vec![Step::Stopped], 0, true, &limits);
    assert_eq!(r.unwrap(), (Outcome::Interrupted, 0));
}
