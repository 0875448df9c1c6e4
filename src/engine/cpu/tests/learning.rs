//! The engine's mechanisms one at a time: forward learning past 64 levels and its fallback,
//! propagation on hand-built nogoods, what each learning scheme bumps and cuts, the
//! integration of a new nogood (the backjump it needs) and the input nogoods read under the
//! input's units.

use super::*;

/// 230 free atoms decided first (their scores are raised), then pigeons whose placement is
/// required only when certain free atoms (levels spread over four 64-bit words) are true:
/// conflicts depend on decisions above level 200.
fn deep_engine(learning: Learning, conditional: bool) -> (Program, CpuEngine) {
    const FREE: u32 = 230;
    let mut rules: Vec<Rule> = (1..=FREE).map(|a| choice(&[a], &[])).collect();
    let cond = |i: u32| conditional.then_some((40 * i + 3) as i32);
    pigeons(&mut rules, FREE, 5, 4, &cond);
    let p = prog(rules);
    let mut e = engine_for(&p, opts(learning, Heuristic::Occ, 1));
    let mut all = Vec::new();
    while let Some(v) = e.scores.pop() {
        all.push(v);
    }
    for v in all {
        if v <= FREE {
            e.scores.score[v as usize] = 1e12 - v as f64;
        }
        e.scores.insert(v);
    }
    (p, e)
}

#[test]
fn forward_learning_is_exact_beyond_200_levels() {
    for learning in [Learning::Fwd, Learning::Res] {
        let (_, mut e) = deep_engine(learning, false);
        assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Exhausted);
        assert!(e.max_level > 200, "reached only level {}", e.max_level);
        assert!(e.stats().conflicts > 10);

        let (p, mut e) = deep_engine(learning, true);
        let Step::Model(m) = e.next_model(&Limits::none()).unwrap() else {
            panic!("satisfiable")
        };
        assert!(e.max_level > 200);
        let mut x = vec![false; p.max_atom as usize + 1];
        m.atoms.iter().for_each(|&a| x[a as usize] = true);
        assert!(
            brute::is_answer_set(&p, &x),
            "{learning:?} model is not an answer set"
        );
        // Enumerate a bit further: models stay distinct answer sets.
        let mut seen = vec![m.atoms];
        for _ in 0..50 {
            let Step::Model(m) = e.next_model(&Limits::none()).unwrap() else {
                panic!("many models")
            };
            let mut x = vec![false; p.max_atom as usize + 1];
            m.atoms.iter().for_each(|&a| x[a as usize] = true);
            assert!(brute::is_answer_set(&p, &x));
            assert!(!seen.contains(&m.atoms), "duplicate model");
            seen.push(m.atoms);
        }
    }
}

#[test]
fn forward_learning_falls_back_to_resolution_when_the_budget_is_spent() {
    let (_, mut e) = deep_engine(Learning::Fwd, false);
    e.deps.set_budget(64); // far too small for 230 levels
    assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Exhausted);
}

/// An engine over hand-made nogoods only (no rules): every decision is complete-assignment's.
fn nogood_engine(num_vars: u32, ngs: &[&[Lit]]) -> CpuEngine {
    nogood_engine_with(num_vars, ngs, opts(Learning::Res, Heuristic::Occ, 1))
}

fn nogood_engine_with(num_vars: u32, ngs: &[&[Lit]], o: HostOptions) -> CpuEngine {
    let mut b = NogoodDbBuilder::new();
    b.reserve_vars(num_vars);
    for ng in ngs {
        b.add(ng, Origin::Constraint);
    }
    let g = crate::analyse::GroundProgram {
        scc: vec![0],
        tight: true,
        ..Default::default()
    };
    let c = crate::nogoods::Completion {
        db: b.build(),
        ..Default::default()
    };
    CpuEngine::new(&g, &c, o)
}

#[test]
fn propagation_fires_units_and_detects_conflicts() {
    let (t, f) = (Lit::t, Lit::f);
    let mut e = nogood_engine(
        4,
        &[
            &[f(1)],
            &[t(1), t(2)],
            &[f(2), t(3), t(4)],
            &[t(1), f(3), t(4)],
        ],
    );
    assert!(e.propagate().is_none());
    assert!(e.a.holds(t(1)) && e.a.holds(f(2)));
    assert!(e.a.is_unassigned(3) && e.a.is_unassigned(4));
    // Deciding T4 makes both ternaries unit in opposite directions: a conflict.
    e.a.lim.push(e.a.trail.len() as u32);
    e.assign(t(4), NO_REASON);
    let confl = e.propagate().expect("conflict");
    assert!(e.store.lits(confl).iter().all(|&l| e.a.holds(l)));
    let jump = e.analyse_res(confl).expect("depends on a decision");
    assert_eq!(jump, 0);
    assert_eq!(e.learnt, vec![t(4)]);
}

#[test]
fn forward_learning_bumps_the_violated_nogood() {
    let (t, f) = (Lit::t, Lit::f);
    let ngs: &[&[Lit]] = &[
        &[f(1)],
        &[t(1), t(2)],
        &[f(2), t(3), t(4)],
        &[t(1), f(3), t(4)],
    ];
    let mut e = nogood_engine_with(4, ngs, opts(Learning::Fwd, Heuristic::Activity, 1));
    assert!(e.propagate().is_none());
    e.a.lim.push(e.a.trail.len() as u32);
    e.assign(t(4), NO_REASON);
    let confl = e.propagate().expect("conflict");
    // Variable 3 is in both ternaries (so in the violated one) and is no decision: only the
    // bump of the violated nogood's variables reaches it.
    let before = e.scores.score[3];
    assert!(e.resolve(confl));
    assert_eq!(e.learnt, vec![t(4)]);
    assert!(
        e.scores.score[3] > before,
        "{} -> {}",
        before,
        e.scores.score[3]
    );
}

/// Propagate, then make each variable of `decisions` true at a new level and propagate; every
/// level but the last is conflict-free, and the last ends in the conflict returned.
fn decide_into_conflict(e: &mut CpuEngine, decisions: &[u32]) -> NgRef {
    assert!(e.propagate().is_none());
    for (k, &d) in decisions.iter().enumerate() {
        e.a.lim.push(e.a.trail.len() as u32);
        e.assign(Lit::t(d), NO_REASON);
        if k + 1 < decisions.len() {
            assert!(e.propagate().is_none());
        }
    }
    e.propagate().expect("conflict")
}

#[test]
fn forward_cuts_uip_and_lits_replace_decisions_by_implied_literals() {
    let (t, f) = (Lit::t, Lit::f);
    // Level 1: T1, which implies T7. Level 2: T2, which implies T8. Level 3: T6 implies T3
    // (the UIP), and T3 implies T5 and, with T8, T4. The conflict {T4, T5, T7} depends on
    // decisions 1, 2, 3.
    let ngs: &[&[Lit]] = &[
        &[t(1), f(7)],
        &[t(2), f(8)],
        &[t(6), f(3)],
        &[t(3), t(8), f(4)],
        &[t(3), f(5)],
        &[t(4), t(5), t(7)],
    ];
    let learn_capped = |learning, cut, cap| {
        let o = HostOptions {
            fwd_cut: cut,
            ..opts(learning, Heuristic::Occ, 1)
        };
        let mut e = nogood_engine_with(8, ngs, o);
        e.deps.set_lits_cap(cap);
        let confl = decide_into_conflict(&mut e, &[1, 2, 6]);
        assert!(e.resolve(confl));
        let asserted = e.a.holds(e.learnt[0].negate());
        (
            e.learnt.clone(),
            e.a.level(),
            asserted,
            e.stats.fwd_lits_unknown,
        )
    };
    let learn_with = |learning, cut| learn_capped(learning, cut, usize::MAX);
    let learn = |cut| learn_with(Learning::Fwd, cut);
    // The paper's cut: the three decisions; backjump to level 2, where F6 is asserted.
    let (learnt, level, asserted, _) = learn(crate::engine::FwdCut::Decisions);
    assert_eq!(learnt, vec![t(6), t(2), t(1)]);
    assert_eq!(level, 2);
    assert!(asserted);
    // The UIP cut: T3 for T6; T7 kept (its set {1} is not within {2, 3}) instead of T1.
    let (learnt, level, asserted, _) = learn(crate::engine::FwdCut::Uip);
    assert_eq!(learnt, vec![t(3), t(2), t(7)]);
    assert_eq!(level, 2);
    assert!(asserted);
    // The lits cut: T3, T4's lower-level set {T8} instead of T2, and T7; resolution's nogood.
    let (learnt, level, asserted, unknown) = learn(crate::engine::FwdCut::Lits);
    assert_eq!(learnt, vec![t(3), t(8), t(7)]);
    assert_eq!(level, 2);
    assert!(asserted);
    assert_eq!(unknown, 0);
    let (mut res, _, _, _) = learn_with(Learning::Res, crate::engine::FwdCut::Decisions);
    res[1..].sort();
    let mut lits = learnt;
    lits[1..].sort();
    assert_eq!(res, lits);
    // With no room for a literal, T4's set {T8} is unknown: the UIP and every lower decision.
    let (learnt, level, asserted, unknown) =
        learn_capped(Learning::Fwd, crate::engine::FwdCut::Lits, 0);
    assert_eq!(learnt, vec![t(3), t(2), t(1)]);
    assert_eq!(level, 2);
    assert!(asserted);
    assert_eq!(unknown, 1);
}

#[test]
fn lits_bumps_the_variables_resolution_bumps() {
    let (t, f) = (Lit::t, Lit::f);
    // Level 1: T1 implies T7. Level 2: T2 implies T8. Level 3: T6 implies T3 (the UIP),
    // which implies T5, T10 and, with T7, T9; T5 and T9 imply T12, which implies T11, which
    // with T9 and T8 is a conflict. Resolution meets 11, 9, 12, 5, 3 of level 3 (not the
    // decision 6, nor 10, which leads nowhere) and 7, 8 below it. The dominator chains
    // (T11, T12 and T9, up to T3) miss T5: only T12's between set names it.
    let ngs: &[&[Lit]] = &[
        &[t(1), f(7)],
        &[t(2), f(8)],
        &[t(6), f(3)],
        &[t(3), f(5)],
        &[t(3), f(10)],
        &[t(3), t(7), f(9)],
        &[t(5), t(9), f(12)],
        &[t(12), f(11)],
        &[t(9), t(8), t(11)],
    ];
    let bumped = |learning, between_cap| {
        let o = HostOptions {
            fwd_cut: crate::engine::FwdCut::Lits,
            ..opts_vars(learning, Heuristic::Activity, 1)
        };
        let mut e = nogood_engine_with(12, ngs, o);
        e.deps.set_between_cap(between_cap);
        let confl = decide_into_conflict(&mut e, &[1, 2, 6]);
        let before = e.scores.score.clone();
        let jump = match learning {
            Learning::Res => e.analyse_res(confl),
            Learning::Fwd => e.analyse_fwd(confl),
        };
        assert_eq!(jump, Some(2));
        let mut learnt = e.learnt.clone();
        learnt[1..].sort();
        let vars: Vec<u32> = (1..=12)
            .filter(|&v| e.scores.score[v as usize] != before[v as usize])
            .collect();
        (learnt, vars, e.stats.fwd_lits_unknown)
    };
    let cap = super::learn_fwd::BETWEEN_CAP;
    let (res_learnt, res_vars, _) = bumped(Learning::Res, cap);
    assert_eq!(res_learnt, vec![t(3), t(7), t(8)]);
    assert_eq!(res_vars, vec![3, 5, 7, 8, 9, 11, 12]);
    let (lits_learnt, lits_vars, unknown) = bumped(Learning::Fwd, cap);
    assert_eq!(unknown, 0);
    assert_eq!(lits_learnt, res_learnt);
    assert_eq!(lits_vars, res_vars);
    // With no room for between sets, only the nogood's variables are bumped (same nogood).
    let (lits_learnt, lits_vars, _) = bumped(Learning::Fwd, 0);
    assert_eq!(lits_learnt, res_learnt);
    assert_eq!(lits_vars, vec![3, 7, 8]);
}

#[test]
fn integrate_backjumps_for_unit_and_violated_nogoods() {
    let (t, f) = (Lit::t, Lit::f);
    let mut e = nogood_engine(5, &[]);
    for v in 1..=4 {
        e.a.lim.push(e.a.trail.len() as u32);
        e.assign(t(v), NO_REASON);
    }
    // Violated, with one literal at the top level: becomes unit at level 2.
    assert!(matches!(
        e.integrate(&[t(1), t(2), t(4)], Kind::Permanent, 0),
        Added::Ok
    ));
    assert_eq!(e.a.level(), 2);
    assert!(e.a.holds(f(4)));
    assert_eq!(e.a.level_of(4), 2);
    // Violated with two literals at the top level: a conflict there.
    e.a.lim.push(e.a.trail.len() as u32);
    e.assign(t(3), NO_REASON);
    e.assign(t(5), NO_REASON);
    assert!(matches!(
        e.integrate(&[t(3), t(5), t(1)], Kind::Permanent, 0),
        Added::Conflict(_)
    ));
    assert_eq!(e.a.level(), 3);
    // Violated at level 0: no model.
    let mut e = nogood_engine(2, &[&[f(1)]]);
    assert!(e.propagate().is_none());
    assert!(matches!(
        e.integrate(&[t(1)], Kind::Permanent, 0),
        Added::Unsat
    ));
}

#[test]
fn an_input_nogood_is_read_under_the_input_units() {
    let mut a = Assignment::new(5);
    a.set(Lit::t(1), NO_REASON); // from a unit nogood {F1}
    a.set(Lit::f(2), NO_REASON); // from a unit nogood {T2}
    let mut buf = Vec::new();
    let lits = |ls: &[Lit]| ls.to_vec();
    assert_eq!(
        simplified(&a, &[Lit::t(1), Lit::t(3), Lit::f(4)], &mut buf).map(lits),
        Some(vec![Lit::t(3), Lit::f(4)]),
        "a literal that holds at level 0 is left out"
    );
    assert_eq!(
        simplified(&a, &[Lit::t(2), Lit::t(3)], &mut buf),
        None,
        "a false literal: never violated"
    );
    assert_eq!(
        simplified(&a, &[Lit::t(1), Lit::f(2)], &mut buf).map(lits),
        Some(vec![]),
        "every literal holds: violated at level 0"
    );
}

#[test]
fn input_nogoods_shortened_by_facts_to_a_unit_and_to_nothing() {
    // a. b :- a, not c. c :- a, not b. :- a, b.   the constraint under the fact a is {T b}: one
    // answer set {a, c}; with `:- a.` beside it, none.
    let base = vec![
        normal(1, &[]),
        normal(2, &[1, -3]),
        normal(3, &[1, -2]),
        normal(0, &[1, 2]),
    ];
    assert_eq!(models_all_configs(&prog(base.clone())), vec![vec![1, 3]]);
    let mut none = base;
    none.push(normal(0, &[1]));
    assert_eq!(models_all_configs(&prog(none)), Vec::<Vec<u32>>::new());
}
