//! End-to-end tests of the host engine through `analyse::analyse` and `nogoods::complete`, and
//! tests of its parts on hand-built nogoods.

mod assume;
mod brute;
mod learning;
mod ufs;
// (agg) the native sum propagator against brute force
mod sums;

use super::input::simplified;
use super::*;
use crate::engine::Heuristic;
use crate::nogoods::{NogoodDbBuilder, Origin};
use lparse::{Program, ProgramBuilder, Rule};

/// `opts` with `--decide=vars`.
pub fn opts_vars(learning: Learning, heuristic: Heuristic, seed: u64) -> HostOptions {
    HostOptions {
        decide: crate::engine::Decide::Vars,
        ..opts(learning, heuristic, seed)
    }
}

pub fn opts(learning: Learning, heuristic: Heuristic, seed: u64) -> HostOptions {
    HostOptions {
        learning,
        heuristic,
        seed,
        sums: crate::engine::Sums::Translate,
        decide: crate::engine::Decide::Rules,
        decide_turn: super::decide_turns::TURN,
        save_progress: None,
        phase_switch: None,
        fwd_cut: crate::engine::FwdCut::Decisions,
        restarts: crate::engine::RestartPolicy::Luby,
        limit: crate::engine::SolveLimit::NONE,
    }
}

pub fn prog(rules: Vec<Rule>) -> Program {
    let mut p = Program::default();
    for r in rules {
        p.rule(r);
    }
    p
}

/// `h :- body.` (`h = 0`: the constraint `:- body.`)
fn normal(h: u32, body: &[i32]) -> Rule {
    Rule::normal(&head(h), body)
}

/// `h` as a head: none for `h = 0`.
fn head(h: u32) -> Vec<u32> {
    (h != 0).then_some(h).into_iter().collect()
}

fn choice(hs: &[u32], body: &[i32]) -> Rule {
    Rule::choice(hs, body)
}

fn sum(h: u32, lower: i64, lits: &[(i32, i64)]) -> Rule {
    Rule::sum(&head(h), lower, lits)
}

pub fn engine_for(p: &Program, o: HostOptions) -> CpuEngine {
    let g = crate::analyse::analyse(p).expect("supported program");
    let c = crate::nogoods::complete(&g);
    CpuEngine::new(&g, &c, o)
}

/// Every model until `Exhausted`, in the order found (duplicates kept, so tests see them).
pub fn all_models(e: &mut CpuEngine) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    loop {
        match e
            .next_model(&Limits::none())
            .expect("host engine has no device errors")
        {
            Step::Model(m) => out.push(m.atoms),
            Step::Exhausted => return out,
            Step::Stopped | Step::Limit => panic!("stopped without a limit"),
        }
        assert!(out.len() <= 1 << 16, "enumeration does not terminate");
    }
}

const ALL: [(Learning, Heuristic); 6] = [
    (Learning::Res, Heuristic::Occ),
    (Learning::Res, Heuristic::Jw),
    (Learning::Res, Heuristic::Activity),
    (Learning::Fwd, Heuristic::Occ),
    (Learning::Fwd, Heuristic::Jw),
    (Learning::Fwd, Heuristic::Activity),
];

fn models_all_configs(p: &Program) -> Vec<Vec<u32>> {
    let mut first: Option<Vec<Vec<u32>>> = None;
    for (l, h) in ALL {
        let saving = HostOptions {
            save_progress: Some(0),
            ..opts_vars(l, h, 7)
        };
        for o in [opts(l, h, 7), opts_vars(l, h, 7), saving] {
            // Blocking nogoods, and enumeration by backtracking (`enum_bt`; resolution only).
            for bt in [false, true] {
                let mut e = engine_for(p, o);
                if bt {
                    assert_eq!(e.enumerate_by_backtracking(), l == Learning::Res);
                }
                let mut got = all_models(&mut e);
                got.sort();
                let n = got.len();
                got.dedup();
                assert_eq!(
                    got.len(),
                    n,
                    "{l:?}/{h:?}/{:?} bt {bt}: duplicates",
                    o.decide
                );
                match &first {
                    None => first = Some(got),
                    Some(f) => {
                        assert_eq!(&got, f, "{l:?}/{h:?}/{:?} bt {bt} disagrees", o.decide)
                    }
                }
            }
        }
    }
    first.expect("thirty-six configurations")
}

#[test]
fn supported_but_unfounded_loop_is_unsat() {
    // p :- q. q :- p. :- not p.   {p, q} is supported, not stable.
    let p = prog(vec![normal(1, &[2]), normal(2, &[1]), normal(0, &[-1])]);
    assert!(!crate::analyse::analyse(&p).unwrap().tight);
    assert_eq!(models_all_configs(&p), Vec::<Vec<u32>>::new());
}

#[test]
fn loop_with_external_support_has_two_answer_sets() {
    // p :- q. q :- p. p :- not r. r :- not p.
    let p = prog(vec![
        normal(1, &[2]),
        normal(2, &[1]),
        normal(1, &[-3]),
        normal(3, &[-1]),
    ]);
    assert_eq!(models_all_configs(&p), vec![vec![1, 2], vec![3]]);
}

#[test]
fn choices_enumerate_without_duplicates() {
    let p = prog(vec![choice(&[1, 2, 3], &[]), normal(4, &[1, -2])]);
    let m = models_all_configs(&p);
    assert_eq!(m.len(), 8);
    assert_eq!(brute::answer_sets(&p), m);
}

#[test]
fn facts_and_contradiction() {
    let p = prog(vec![normal(1, &[]), normal(0, &[1])]);
    assert_eq!(models_all_configs(&p), Vec::<Vec<u32>>::new());
    // One model fixed at level 0: the blocking nogood is empty, enumeration still ends.
    let p = prog(vec![normal(1, &[]), normal(2, &[1, -3])]);
    assert_eq!(models_all_configs(&p), vec![vec![1, 2]]);
}

#[test]
fn sum_body_in_a_positive_loop() {
    // {r}. p :- 1 {q; r}. q :- p.   {p, q} alone is unfounded: answer sets {} and {p, q, r}.
    let p = prog(vec![
        choice(&[3], &[]),
        sum(1, 1, &[(2, 1), (3, 1)]),
        normal(2, &[1]),
    ]);
    assert!(!crate::analyse::analyse(&p).unwrap().tight);
    let m = models_all_configs(&p);
    assert_eq!(m, vec![vec![], vec![1, 2, 3]]);
    assert_eq!(brute::answer_sets(&p), m);
}

#[test]
fn sum_body_true_only_through_the_loop() {
    // p :- 2 {q = 1; not s = 1}. q :- p.  {s}.  With s false, not s gives 1 < 2: {p,q} unfounded.
    let p = prog(vec![
        choice(&[3], &[]),
        sum(1, 2, &[(2, 1), (-3, 1)]),
        normal(2, &[1]),
    ]);
    let m = models_all_configs(&p);
    assert_eq!(brute::answer_sets(&p), m);
    assert_eq!(m, vec![vec![], vec![3]]);
}

/// Pigeons `1..=np` into holes `1..=nh`: atom `base + (i-1)*nh + j`.
fn pigeons(rules: &mut Vec<Rule>, base: u32, np: u32, nh: u32, cond: &dyn Fn(u32) -> Option<i32>) {
    let x = |i: u32, j: u32| base + (i - 1) * nh + j;
    for i in 1..=np {
        let hs: Vec<u32> = (1..=nh).map(|j| x(i, j)).collect();
        rules.push(choice(&hs, &[]));
        let mut body: Vec<i32> = hs.iter().map(|&a| -(a as i32)).collect();
        body.extend(cond(i));
        rules.push(normal(0, &body));
        for k in i + 1..=np {
            for j in 1..=nh {
                rules.push(normal(0, &[x(i, j) as i32, x(k, j) as i32]));
            }
        }
    }
}

#[test]
fn pigeonhole_is_unsat_and_stop_is_honoured() {
    let mut rules = Vec::new();
    pigeons(&mut rules, 0, 6, 5, &|_| None);
    let p = prog(rules);
    for (l, h) in ALL {
        assert_eq!(
            all_models(&mut engine_for(&p, opts(l, h, 3))),
            Vec::<Vec<u32>>::new(),
            "{l:?}/{h:?}"
        );
    }
    let mut rules = Vec::new();
    pigeons(&mut rules, 0, 10, 9, &|_| None);
    let mut e = engine_for(&prog(rules), opts(Learning::Res, Heuristic::Occ, 1));
    let limits = Limits::none();
    limits
        .interrupt
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(e.next_model(&limits).unwrap(), Step::Stopped);
    // The first look comes at the first event (`Looks` starts with a stride of 1).
    assert!(e.stats().conflicts + e.stats().decisions <= 1);
}

#[test]
fn the_solve_limit_stops_the_search_at_its_conflicts_or_restarts() {
    use crate::engine::SolveLimit;
    let mut rules = Vec::new();
    pigeons(&mut rules, 0, 10, 9, &|_| None);
    let p = prog(rules);
    let limited = |conflicts, restarts| HostOptions {
        limit: SolveLimit {
            conflicts,
            restarts,
        },
        ..opts(Learning::Res, Heuristic::Activity, 1)
    };
    for n in [0, 1, 37, 500] {
        let mut e = engine_for(&p, limited(Some(n), None));
        assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Limit);
        assert_eq!(e.stats().conflicts, n, "the limit is {n} conflicts");
        // Reached once, it holds for every later search.
        assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Limit);
        assert_eq!(e.stats().conflicts, n);
    }
    let mut e = engine_for(&p, limited(None, Some(2)));
    assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Limit);
    assert_eq!(e.stats().restarts, 2);
    // A program without a model is still proved so when propagation alone shows it (the
    // empty body of `:- .` here), whatever the limit.
    let mut e = engine_for(&prog(vec![normal(0, &[])]), limited(Some(0), Some(0)));
    assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Exhausted);
    // Models before the limit are reported; the limit then ends the enumeration.
    let free = prog((1..=12).map(|a| choice(&[a], &[])).collect());
    let mut e = engine_for(&free, limited(Some(3), None));
    let mut models = 0;
    while let Step::Model(_) = e.next_model(&Limits::none()).unwrap() {
        models += 1;
    }
    assert!(models > 0 && models < 1 << 12, "{models} models");
    assert_eq!(e.stats().conflicts, 3);
}
