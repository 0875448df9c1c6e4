//! `analyse::analyse`: dependency components and tightness, body sharing, what is rejected.

mod nogoods_common;

use lparse::{Edge, Heuristic, HeuristicModifier, ProgramBuilder};
use nogoods_common::parse;
use yasmin_rs::analyse::{analyse, BodyDef, GroundProgram, Unsupported};
use yasmin_rs::nogoods::complete;

fn ground(text: &str) -> (GroundProgram, Vec<String>) {
    let m = parse(text);
    (analyse(&m.program).expect("supported"), m.names)
}

fn atom(names: &[String], n: &str) -> u32 {
    names.iter().position(|x| x == n).unwrap() as u32
}

#[test]
fn positive_loop_is_not_tight() {
    let (g, names) = ground("p :- q. q :- p. r :- p.");
    assert!(!g.tight);
    let (p, q, r) = (atom(&names, "p"), atom(&names, "q"), atom(&names, "r"));
    assert_eq!(g.scc[p as usize], g.scc[q as usize]);
    assert_ne!(g.scc[p as usize], g.scc[r as usize]);
    assert!(g.is_cyclic(p) && g.is_cyclic(q) && !g.is_cyclic(r));
}

#[test]
fn chain_and_negative_cycle_are_tight() {
    let (g, names) = ground("a :- b. b :- c. c :- not a. {d} :- c, not d.");
    assert!(g.tight);
    let ids: Vec<u32> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| g.scc[atom(&names, n) as usize])
        .collect();
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "every atom its own component: {ids:?}");
}

#[test]
fn self_loop_and_sum_bodies_are_cycles() {
    let (g, names) = ground("a :- a, b. {b}.");
    assert!(g.is_cyclic(atom(&names, "a")));
    assert!(!g.tight);
    // Through a sum body's positive literal; its negative literal is no dependency.
    let (g, names) = ground("{c}. x :- 1 {1:y; 1:c}. y :- x. z :- 1 {1:not z; 1:c}.");
    assert!(g.is_cyclic(atom(&names, "x")) && g.is_cyclic(atom(&names, "y")));
    assert!(!g.is_cyclic(atom(&names, "z")));
}

#[test]
fn equal_bodies_are_shared() {
    // Same literals in another order and with a repeat; a sum that is the same conjunction.
    let (g, _) = ground("{q; r}. a :- q, not r. b :- not r, q, q. c :- 2 {1:q; 1:not r}. d :- q.");
    // Bodies: {} (choice), {q, not r}, {q}.
    assert_eq!(g.bodies.len(), 3);
    let shared = g.rules[1].body;
    assert!(
        matches!(&g.bodies[shared as usize], BodyDef::Conj { pos, neg } if pos.len() == 1 && neg.len() == 1)
    );
    assert_eq!(g.rules[2].body, shared);
    assert_eq!(g.rules[3].body, shared);
    assert_ne!(g.rules[4].body, shared);
    let c = complete(&g);
    assert_eq!(c.body_var.len(), 3);
    assert_eq!(c.rules_of_body(shared as usize), &[1, 2, 3]);
    assert_eq!(c.body_of_var(c.body_var[2]), Some(2));
    // `{q}` is q (equivalence preprocessing): atom q's variable stands for it.
    assert_eq!(c.body_var[2], 1);
    let c = complete(&g.without_equivalences());
    assert_eq!(c.body_of_var(c.body_var[2]), Some(2));
    assert_eq!(c.body_of_var(1), None);
}

#[test]
fn trivial_sums() {
    // lower <= 0: always true (the empty conjunction); unreachable: the rule is dropped but its
    // head atom remains an atom (false: no rule).
    let (g, names) = ground("{q}. a :- 0 {1:q}. b :- 3 {1:q; 1:not q}.");
    assert_eq!(g.rules.len(), 2);
    assert_eq!(
        *g.bodies,
        vec![BodyDef::Conj {
            pos: vec![],
            neg: vec![]
        }]
    );
    let b = atom(&names, "b");
    assert!(g.rules_of(b).is_empty());
    assert_eq!(g.num_atoms, 3);
}

#[test]
fn head_map_lists_rules_per_atom() {
    let (g, names) = ground("{a; b}. a :- b. c :- a. :- c.");
    let a = atom(&names, "a");
    assert_eq!(g.rules_of(a), &[0, 1]);
    assert_eq!(g.rules_of(atom(&names, "c")), &[2]);
    assert_eq!(g.rules[3].head, Vec::<u32>::new());
}

#[test]
fn unsupported_input_is_rejected_and_head_cycles_are_described() {
    // Head-cycle-free disjunction is shifted.
    let (g, names) = ground("a. b; c :- a.");
    let (b, c) = (atom(&names, "b"), atom(&names, "c"));
    assert_eq!(g.rules_of(b).len(), 1);
    assert_eq!(g.rules_of(c).len(), 1);
    assert!(g.rules.iter().all(|r| r.head.len() <= 1));
    // b and c on one positive cycle: shifted too, and described for the minimality check.
    let m = parse("a. b; c :- a. b :- c. c :- b.");
    let g = analyse(&m.program).unwrap();
    let cycle = g.minimality.as_ref().expect("a head cycle");
    let (b, c) = (atom(&m.names, "b"), atom(&m.names, "c"));
    assert_eq!(cycle.components, vec![vec![b.min(c), b.max(c)]]);
    assert!(!g.is_cyclic(b) && !g.is_cyclic(c));

    let mut p = parse("a.").program;
    p.theory();
    assert!(analyse(&p).unwrap_err().to_string().contains("theory"));

    let mut p = parse("a.").program;
    p.edge(Edge {
        u: 1,
        v: 2,
        condition: vec![1],
    });
    assert!(matches!(analyse(&p), Err(Unsupported::Edge(1))));

    // Assumptions are constraints; `#project` is the run's (`--project`).
    let mut p = parse("{a}.").program;
    p.assume(vec![-1]);
    let g = analyse(&p).unwrap();
    assert!(g.rules.iter().any(|r| r.head.is_empty()), "`:- a.` added");

    let mut p = parse("a.").program;
    p.project(vec![1]);
    assert!(analyse(&p).is_ok());
}

#[test]
fn heuristics_are_kept_for_the_domain_heuristic() {
    let mut p = parse("{a}.").program;
    p.heuristic(Heuristic {
        modifier: HeuristicModifier::Sign,
        atom: 1,
        bias: 1,
        priority: 0,
        condition: vec![],
    });
    let g = analyse(&p).unwrap();
    assert!(g.warnings.is_empty());
    assert_eq!(g.heuristics.len(), 1);
}

#[test]
fn disjunction_of_one_repeated_atom_is_a_normal_rule() {
    let (g, _) = ground("a; a.");
    assert_eq!(g.rules.len(), 1);
    assert_eq!(g.rules[0].head, vec![1]);
    assert!(!g.rules[0].choice);
}
