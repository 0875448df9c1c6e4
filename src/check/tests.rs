//! Known answer sets and known non-answer sets, small enough to verify by hand.

use super::*;
use lparse::{Edge, External, Output, ProgramBuilder, Rule};

fn normal(head: &[u32], body: &[i32]) -> Rule {
    Rule::normal(head, body)
}

fn choice(head: &[u32], body: &[i32]) -> Rule {
    Rule::choice(head, body)
}

fn sum(head: &[u32], lower: i64, lits: &[(i32, i64)]) -> Rule {
    Rule::sum(head, lower, lits)
}

fn program(rules: Vec<Rule>, names: &[&str]) -> Program {
    let mut p = Program::default();
    for r in rules {
        p.rule(r);
    }
    for (i, n) in names.iter().enumerate() {
        p.output(Output {
            name: n.to_string(),
            condition: vec![i as i32 + 1],
        });
    }
    p
}

/// All subsets of atoms 1..=n that the checker accepts, each as a sorted list.
fn accepted(p: &Program) -> Vec<Vec<u32>> {
    let c = Checker::new(p.clone());
    let n = p.max_atom;
    let mut out = Vec::new();
    for bits in 0u32..(1 << n) {
        let set: Vec<u32> = (1..=n).filter(|a| bits & (1 << (a - 1)) != 0).collect();
        if c.check(&set).is_ok() {
            out.push(set);
        }
    }
    out.sort();
    out
}

#[test]
fn positive_loop_is_unfounded() {
    // p :- q. q :- p.   The only answer set is {}.
    let p = program(vec![normal(&[1], &[2]), normal(&[2], &[1])], &["p", "q"]);
    assert_eq!(check(&p, &[]), Ok(Verdict::default()));
    assert_eq!(check(&p, &[1, 2]), Err(Violation::Unfounded("p".into())));
    assert_eq!(accepted(&p), vec![Vec::<u32>::new()]);
}

#[test]
fn loop_with_constraint_has_no_answer_set() {
    // p :- q. q :- p. :- not p.   Supported model {p, q}, but no answer set.
    let p = program(
        vec![normal(&[1], &[2]), normal(&[2], &[1]), normal(&[], &[-1])],
        &["p", "q"],
    );
    assert!(matches!(
        check(&p, &[]),
        Err(Violation::Rule { index: 2, .. })
    ));
    assert!(matches!(check(&p, &[1, 2]), Err(Violation::Unfounded(_))));
    assert!(accepted(&p).is_empty());
}

#[test]
fn even_negative_loop() {
    // a :- not b. b :- not a.
    let p = program(vec![normal(&[1], &[-2]), normal(&[2], &[-1])], &["a", "b"]);
    assert_eq!(accepted(&p), vec![vec![1], vec![2]]);
    assert!(matches!(check(&p, &[1, 2]), Err(Violation::Unfounded(_))));
}

#[test]
fn odd_negative_loop_has_none() {
    // a :- not a.
    let p = program(vec![normal(&[1], &[-1])], &["a"]);
    assert!(accepted(&p).is_empty());
}

#[test]
fn choice_and_constraint() {
    // {a; b}. :- a, b. c :- a.
    let p = program(
        vec![
            choice(&[1, 2], &[]),
            normal(&[], &[1, 2]),
            normal(&[3], &[1]),
        ],
        &["a", "b", "c"],
    );
    assert_eq!(accepted(&p), vec![vec![], vec![1, 3], vec![2]]);
    // A rule violated by the model names the rule.
    assert_eq!(
        check(&p, &[1]),
        Err(Violation::Rule {
            index: 2,
            rule: "c :- a.".into()
        })
    );
}

#[test]
fn choice_in_a_positive_loop_needs_external_support() {
    // {a} :- b. b :- a.   {a, b} is unfounded: a's only rule needs b, b needs a.
    let p = program(vec![choice(&[1], &[2]), normal(&[2], &[1])], &["a", "b"]);
    assert_eq!(accepted(&p), vec![Vec::<u32>::new()]);
}

#[test]
fn sum_bodies_positive_part_is_monotone() {
    // {b; c; d}.  a :- 2 <= #sum{1:b; 1:c; 1:not d}.
    let p = program(
        vec![
            choice(&[2, 3, 4], &[]),
            sum(&[1], 2, &[(2, 1), (3, 1), (-4, 1)]),
        ],
        &["a", "b", "c", "d"],
    );
    let got = accepted(&p);
    // Every subset of {b,c,d} gives exactly one answer set; a is in it iff the count is >= 2.
    assert_eq!(got.len(), 8);
    for s in &got {
        let count = s.contains(&2) as i32 + s.contains(&3) as i32 + !s.contains(&4) as i32;
        assert_eq!(s.contains(&1), count >= 2, "{s:?}");
    }
    // A loop through sum bodies is unfounded.
    let q = program(
        vec![sum(&[1], 1, &[(2, 1)]), sum(&[2], 1, &[(1, 1)])],
        &["a", "b"],
    );
    assert_eq!(accepted(&q), vec![Vec::<u32>::new()]);
}

#[test]
fn negative_weights_move_to_the_complement() {
    // {b}.  a :- 0 <= #sum{-1:b}.   a holds iff b is false.
    let p = program(
        vec![choice(&[2], &[]), sum(&[1], 0, &[(2, -1)])],
        &["a", "b"],
    );
    assert_eq!(accepted(&p), vec![vec![1], vec![2]]);
}

#[test]
fn externals_follow_clingo() {
    let with = |value, rules: Vec<Rule>| {
        let mut p = program(rules, &["a"]);
        p.external(External { atom: 1, value });
        p
    };
    // No rule: free = either, true = must be true, false/release = false.
    assert_eq!(
        accepted(&with(ExternalValue::Free, vec![])),
        vec![vec![], vec![1]]
    );
    assert_eq!(accepted(&with(ExternalValue::True, vec![])), vec![vec![1]]);
    assert_eq!(
        check(&with(ExternalValue::True, vec![]), &[]),
        Err(Violation::ExternalTrue("a".into()))
    );
    assert_eq!(
        accepted(&with(ExternalValue::False, vec![])),
        vec![Vec::<u32>::new()]
    );
    assert_eq!(
        accepted(&with(ExternalValue::Release, vec![])),
        vec![Vec::<u32>::new()]
    );
    // With a rule the declaration is dropped, whatever the value.
    for v in [
        ExternalValue::Free,
        ExternalValue::True,
        ExternalValue::False,
    ] {
        assert_eq!(accepted(&with(v, vec![normal(&[1], &[])])), vec![vec![1]]);
        assert_eq!(
            accepted(&with(v, vec![choice(&[1], &[])])),
            vec![vec![], vec![1]]
        );
    }
}

#[test]
fn head_cycle_free_disjunction_is_minimal() {
    // a; b.   Answer sets {a} and {b}; {a, b} is a model but not minimal.
    let p = program(vec![normal(&[1, 2], &[])], &["a", "b"]);
    assert_eq!(accepted(&p), vec![vec![1], vec![2]]);
    assert!(Checker::new(p.clone()).check(&[1]).unwrap().complete());
}

#[test]
fn head_cycle_disjunction_is_checked_for_minimality() {
    // a; b.  a :- b.  b :- a.   The one answer set is {a, b}.
    let p = program(
        vec![normal(&[1, 2], &[]), normal(&[1], &[2]), normal(&[2], &[1])],
        &["a", "b"],
    );
    assert_eq!(check(&p, &[1, 2]), Ok(Verdict::default()));
    assert!(matches!(check(&p, &[1]), Err(Violation::Rule { .. })));
    // a; b :- c.  c :- a.  c :- b.  a; b.  a :- c.  {a, b, c} is a supported model, but
    // {a, c} is a model of its reduct: only {a, c} is an answer set.
    let p = program(
        vec![
            normal(&[1, 2], &[3]),
            normal(&[3], &[1]),
            normal(&[3], &[2]),
            normal(&[1, 2], &[]),
            normal(&[1], &[3]),
        ],
        &["a", "b", "c"],
    );
    assert_eq!(check(&p, &[1, 3]), Ok(Verdict::default()));
    assert_eq!(
        check(&p, &[1, 2, 3]),
        Err(Violation::NotMinimal("{a, c}".into()))
    );
}

#[test]
fn assumptions_edges_and_range() {
    let mut p = program(vec![choice(&[1, 2], &[])], &["a", "b"]);
    p.assume(vec![-1]);
    assert_eq!(check(&p, &[1]), Err(Violation::Assumption("not a".into())));
    assert!(check(&p, &[2]).is_ok());
    p.edge(Edge {
        u: 1,
        v: 2,
        condition: vec![2],
    });
    p.edge(Edge {
        u: 2,
        v: 1,
        condition: vec![],
    });
    assert_eq!(check(&p, &[2]), Err(Violation::EdgeCycle(1)));
    assert!(check(&p, &[]).is_ok());
    assert_eq!(
        check(&p, &[3]),
        Err(Violation::OutOfRange { atom: 3, max: 2 })
    );
    assert_eq!(
        check(&p, &[0]),
        Err(Violation::OutOfRange { atom: 0, max: 2 })
    );
}

#[test]
fn describe_rules() {
    let mut p = program(
        vec![
            normal(&[1, 2], &[3, -4]),
            choice(&[1], &[]),
            normal(&[], &[1]),
            sum(&[3], 2, &[(1, 2), (-2, 1)]),
        ],
        &["a", "b"],
    );
    p.note_atom(5);
    let c = Checker::new(p.clone());
    assert_eq!(c.describe_rule(0), "a; b :- _3, not _4.");
    assert_eq!(c.describe_rule(1), "{a}.");
    assert_eq!(c.describe_rule(2), ":- a.");
    assert_eq!(c.describe_rule(3), "_3 :- 2 <= #sum{2:a; 1:not b}.");
}

#[test]
fn the_incremental_check_rejects_a_wrong_model_after_right_ones() {
    // {a}. {b}. c :- a. d :- c. d :- b. x :- x. #external t. [true]
    let mut p = program(
        vec![
            choice(&[1], &[]),
            choice(&[2], &[]),
            normal(&[3], &[1]),
            normal(&[4], &[3]),
            normal(&[4], &[2]),
            normal(&[5], &[5]),
        ],
        &["a", "b", "c", "d", "x", "t"],
    );
    p.external(External {
        atom: 6,
        value: ExternalValue::True,
    });
    let c = Checker::new(p.clone());
    let mut inc = c.incremental();
    let (a, b, cc, d, x, t) = (1, 2, 3, 4, 5, 6);
    assert!(inc.check(&[t]).is_ok());
    let right = [a, cc, d, t];
    let wrong: [(&[u32], Violation); 5] = [
        // c :- a is violated.
        (&[a, d, t], c.violated(2)),
        // c lost its support a.
        (&[cc, d, t], Violation::Unfounded("c".into())),
        // d's support was d :- c; c went with a, and b does not hold.
        (&[d, t], Violation::Unfounded("d".into())),
        // x only supports itself.
        (&[a, cc, d, x, t], Violation::Unfounded("x".into())),
        // The external t must hold.
        (&[a, cc, d], Violation::ExternalTrue("t".into())),
    ];
    for (m, why) in wrong {
        assert!(inc.check(&right).is_ok());
        let before = inc.counts;
        assert_eq!(inc.check(m), Err(why.clone()), "{m:?}");
        assert_eq!(
            inc.counts.incremental,
            before.incremental + 1,
            "{m:?}: incremental"
        );
        assert!(c.check(m).is_err(), "{m:?}: the whole check agrees");
    }
    // After a rejection the next check is a whole one. Then d changes its support from c to
    // b, c goes (d stays, through b), and all go.
    assert!(inc.check(&right).is_ok());
    for m in [&[a, b, cc, d, t][..], &[b, d, t], &[t]] {
        let before = inc.counts;
        assert!(inc.check(m).is_ok(), "{m:?}");
        assert_eq!(inc.counts.whole, before.whole, "{m:?}: incremental");
    }
    // Unsorted, with duplicates: the same verdicts.
    assert!(inc.check(&[d, b, t, b]).is_ok());
    assert_eq!(inc.check(&[d, t, d]), Err(Violation::Unfounded("d".into())));
    assert_eq!(
        inc.check(&[9]),
        Err(Violation::OutOfRange { atom: 9, max: 6 })
    );
}
