//! The model loop against a scripted engine: a wrong model is never printed, limits and counts
//! end the loop as documented.

use super::enumerate::enumerate;
use super::Failure;
use crate::check::Checker;
use crate::config::{OptKind, OptMode};
use crate::engine::{Bound, Engine, EngineError, Limits, Model, Stats, Step};
use crate::output::{Format, Outcome, Printer, ShownTable};
use lparse::{Body, Head, HeadKind, Minimize, Output, Program, ProgramBuilder, Rule, WLit};
use std::sync::atomic::Ordering;

/// Replays a fixed list of steps, then `Exhausted`; reports `costs` for every model and
/// records the bounds it is given.
struct Scripted {
    steps: Vec<Step>,
    stats: Stats,
    costs: Option<Vec<i64>>,
    bounds: Vec<Bound>,
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
    fn costs(&self) -> Option<Vec<i64>> {
        self.costs.clone()
    }
    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        self.bounds.push(bound.clone());
        Ok(())
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
    let checker = Checker::new(p.clone());
    let shown = ShownTable::new(&p);
    let mut engine = Scripted {
        steps,
        stats: Stats::default(),
        costs: None,
        bounds: Vec::new(),
    };
    let mut printer = Printer::new(Vec::new(), Format::Text, Default::default(), "test");
    let r = enumerate(
        &mut engine,
        verify.then_some(&checker),
        &shown,
        max,
        None,
        true,
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
    assert_eq!(
        out,
        "Answer: 1 (Time: 0.000s)\na\nAnswer: 2 (Time: 0.000s)\nb\n"
    );
}

#[test]
fn stops_at_the_requested_count() {
    let (r, out) = go(vec![model(&[1]), model(&[2])], 1, true, &Limits::none());
    assert_eq!(r.unwrap(), (Outcome::Enough, 1));
    assert_eq!(out, "Answer: 1 (Time: 0.000s)\na\n");
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
    assert_eq!(out, "Answer: 1 (Time: 0.000s)\na\n");
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

/// With `#minimize{1:a}`: the engine claims cost `costs` for every model.
fn go_opt(
    steps: Vec<Step>,
    costs: i64,
    kind: OptKind,
) -> (anyhow::Result<(Outcome, u64)>, String, Vec<Bound>) {
    let mut p = program();
    p.minimize(Minimize {
        priority: 0,
        lits: vec![WLit { lit: 1, weight: 1 }],
    });
    let checker = Checker::new(p.clone());
    let shown = ShownTable::new(&p);
    let mut engine = Scripted {
        steps,
        stats: Stats::default(),
        costs: Some(vec![costs]),
        bounds: Vec::new(),
    };
    let mut printer = Printer::new(Vec::new(), Format::Text, Default::default(), "test");
    let mode = OptMode {
        kind,
        bound: Vec::new(),
    };
    let r = enumerate(
        &mut engine,
        Some(&checker),
        &shown,
        0,
        Some(&mode),
        true,
        &Limits::none(),
        &mut printer,
        || {},
    )
    .map(|f| (f.outcome, f.models));
    let out = String::from_utf8(printer.into_inner()).unwrap();
    (r, out, engine.bounds)
}

#[test]
fn a_model_with_wrong_costs_is_never_printed() {
    // {a} costs 1: an engine that says 0 is caught before the model is printed.
    let (r, out, _) = go_opt(vec![model(&[1])], 0, OptKind::Opt);
    let e = r.unwrap_err();
    let f = e.downcast_ref::<Failure>().expect("a Failure");
    assert_eq!(f.code, 70);
    assert!(f.message.contains("costs are [1]"), "{}", f.message);
    assert_eq!(out, "");
    // The right costs go through, and opt bounds the search strictly after the model.
    let (r, out, bounds) = go_opt(vec![model(&[1])], 1, OptKind::Opt);
    assert_eq!(r.unwrap(), (Outcome::Exhausted, 1));
    assert_eq!(out, "Answer: 1 (Time: 0.000s)\na\nOptimization: 1\n");
    assert_eq!(
        bounds,
        [Bound {
            costs: vec![Some(1)],
            strict: true
        }]
    );
}

#[test]
fn opt_n_asks_for_the_optimal_models_after_the_optimum() {
    // Phase 1 finds {a} (cost 1) and exhausts; phase 2 gets {a} again, then exhausts.
    let (r, out, bounds) = go_opt(
        vec![model(&[1]), Step::Exhausted, model(&[1])],
        1,
        OptKind::OptN,
    );
    assert_eq!(r.unwrap(), (Outcome::Exhausted, 2));
    assert_eq!(
        out,
        "Answer: 1 (Time: 0.000s)\na\nOptimization: 1\nAnswer: 1 (Time: 0.000s)\na\nOptimization: 1\n"
    );
    let strict: Vec<bool> = bounds.iter().map(|b| b.strict).collect();
    assert_eq!(strict, [true, false]);
}
