//! Brute-force semantics of the completion: for random small programs, the total assignments
//! that satisfy every nogood, projected to the atoms, are exactly the supported models computed
//! directly from the input rules — and each supported model extends in exactly one way to the
//! body and aggregate variables (so enumeration never yields a model twice).
//!
//! The oracle reads the `lparse::Program` as given (raw weights, negative ones included,
//! duplicate and complementary literals, externals), sharing no code with `ground` or `nogoods`.

mod common;

use common::Rng;
use lparse::{Body, External, ExternalValue, Head, HeadKind, Program, ProgramBuilder, Rule, WLit};
use yasmin_rs::analyse::analyse;
use yasmin_rs::nogoods::aggregate::Aggregates;
use yasmin_rs::nogoods::{complete_with, NogoodDb};

/// Diagram budgets the tests run with: the default, none at all (every sum through the adder),
/// and a tiny one (diagrams abandoned half-built, then the adder).
const BUDGETS: [Option<(usize, usize)>; 3] = [None, Some((0, 0)), Some((3, 1))];

fn sums(budget: Option<(usize, usize)>) -> Aggregates {
    budget.map_or_else(Aggregates::default, |(b, p)| Aggregates::with_budget(b, p))
}

/// Size knobs: `max_sum` literals per sum body, weights in `weights`.
struct Shape {
    max_atoms: u64,
    max_rules: u64,
    max_sum: u64,
    weights: (i64, i64),
    lower: (i64, i64),
}

fn random_program(rng: &mut Rng, s: &Shape) -> Program {
    let n = 1 + rng.below(s.max_atoms) as u32;
    let mut p = Program::default();
    p.note_atom(n);
    let lit = |rng: &mut Rng| {
        let a = 1 + rng.below(n as u64) as i32;
        if rng.chance(35) {
            -a
        } else {
            a
        }
    };
    let mut bodies: Vec<Body> = Vec::new();
    for _ in 0..1 + rng.below(s.max_rules) {
        let earlier_sum = bodies
            .iter()
            .filter(|b| matches!(b, Body::Sum { .. }))
            .last()
            .cloned();
        let body = if let (Some(Body::Sum { lits, .. }), true) = (&earlier_sum, rng.chance(25)) {
            // The same weighted literals with another bound: shares the sum's diagram.
            Body::Sum {
                lower: rng.range(s.lower.0, s.lower.1),
                lits: lits.clone(),
            }
        } else if !bodies.is_empty() && rng.chance(20) {
            bodies[rng.below(bodies.len() as u64) as usize].clone() // shared body
        } else if rng.chance(55) {
            Body::Normal((0..rng.below(5)).map(|_| lit(rng)).collect())
        } else {
            let lits = (0..rng.below(s.max_sum + 1))
                .map(|_| WLit {
                    lit: lit(rng),
                    weight: rng.range(s.weights.0, s.weights.1),
                })
                .collect();
            Body::Sum {
                lower: rng.range(s.lower.0, s.lower.1),
                lits,
            }
        };
        bodies.push(body.clone());
        let atom = |rng: &mut Rng| 1 + rng.below(n as u64) as u32;
        let head = match rng.below(20) {
            0..=9 => Head {
                kind: HeadKind::Disjunctive,
                atoms: vec![atom(rng)],
            },
            10..=14 => {
                let atoms = (0..rng.below(4)).map(|_| atom(rng)).collect();
                Head {
                    kind: HeadKind::Choice,
                    atoms,
                }
            }
            15..=17 => Head {
                kind: HeadKind::Disjunctive,
                atoms: vec![],
            },
            // `a;a` is a normal rule once its head is deduplicated.
            _ => {
                let a = atom(rng);
                Head {
                    kind: HeadKind::Disjunctive,
                    atoms: vec![a, a],
                }
            }
        };
        p.rule(Rule { head, body });
    }
    if rng.chance(30) {
        for _ in 0..1 + rng.below(3) {
            let value = [
                ExternalValue::Free,
                ExternalValue::True,
                ExternalValue::False,
                ExternalValue::Release,
            ][rng.below(4) as usize];
            p.external(External {
                atom: 1 + rng.below(n as u64) as u32,
                value,
            });
        }
    }
    p
}

fn body_holds(body: &Body, x: &[bool]) -> bool {
    let lit = |l: i32| x[l.unsigned_abs() as usize] == (l > 0);
    match body {
        Body::Normal(lits) => lits.iter().all(|&l| lit(l)),
        Body::Sum { lower, lits } => {
            lits.iter()
                .filter(|w| lit(w.lit))
                .map(|w| w.weight)
                .sum::<i64>()
                >= *lower
        }
    }
}

/// Supported-model test straight from the input: every rule holds, every true atom has support
/// (a rule with a true body and it in the head, or a free/true external that heads no rule).
fn supported(p: &Program, x: &[bool]) -> bool {
    let n = p.max_atom as usize;
    let mut support = vec![false; n + 1];
    let mut heads = vec![false; n + 1];
    for r in &p.rules {
        r.head.atoms.iter().for_each(|&a| heads[a as usize] = true);
        if !body_holds(&r.body, x) {
            continue;
        }
        match r.head.kind {
            HeadKind::Disjunctive if !r.head.atoms.iter().any(|&a| x[a as usize]) => return false,
            _ => r
                .head
                .atoms
                .iter()
                .for_each(|&a| support[a as usize] = true),
        }
    }
    let mut ext = vec![None; n + 1];
    for e in &p.externals {
        ext[e.atom as usize] = Some(e.value);
    }
    for a in 1..=n {
        if heads[a] {
            continue;
        }
        match ext[a] {
            Some(ExternalValue::Free) => support[a] = true,
            Some(ExternalValue::True) if !x[a] => return false,
            Some(ExternalValue::True) => support[a] = true,
            _ => {}
        }
    }
    (1..=n).all(|a| !x[a] || support[a])
}

/// Number of total assignments extending `fixed` (vars with `Some`) that violate no nogood.
/// Exhaustive: branches on every unassigned variable; unit propagation only prunes.
fn count_extensions(db: &NogoodDb, value: &mut Vec<Option<bool>>) -> u64 {
    let mut trail = Vec::new();
    let result = 'search: loop {
        let mut changed = false;
        for i in 0..db.len() {
            let mut open = None;
            let mut n_open = 0;
            for &l in db.nogood(i) {
                let (v, t) = ((l >> 1) as usize, l & 1 == 0);
                match value[v] {
                    Some(b) if b == t => {}
                    Some(_) => {
                        n_open = usize::MAX;
                        break;
                    }
                    None => {
                        n_open += 1;
                        open = Some((v, t));
                    }
                }
            }
            if n_open == 0 {
                break 'search 0; // violated
            }
            if n_open == 1 {
                let (v, t) = open.unwrap();
                value[v] = Some(!t);
                trail.push(v);
                changed = true;
            }
        }
        if !changed {
            let free = (1..value.len()).find(|&v| value[v].is_none());
            break match free {
                None => 1,
                Some(v) => {
                    let mut total = 0;
                    for b in [true, false] {
                        value[v] = Some(b);
                        total += count_extensions(db, value);
                    }
                    value[v] = None;
                    total
                }
            };
        }
    };
    for v in trail {
        value[v] = None;
    }
    result
}

fn check_program(p: &Program) {
    for budget in BUDGETS {
        check_program_with(p, budget);
    }
}

fn check_program_with(p: &Program, budget: Option<(usize, usize)>) {
    let g = match analyse(p) {
        Ok(g) => g,
        Err(e) => panic!("generator made an unsupported program: {e}\n{p:?}"),
    };
    let c = complete_with(&g, sums(budget));
    let n = p.max_atom as usize;
    assert_eq!(g.num_atoms as usize, n);
    for bits in 0u32..(1 << n) {
        let x: Vec<bool> = (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect();
        let mut value: Vec<Option<bool>> = vec![None; c.db.num_vars as usize];
        for a in 1..=n {
            value[a] = Some(x[a]);
        }
        let count = if c.db.has_empty {
            0
        } else {
            count_extensions(&c.db, &mut value)
        };
        let expected = supported(p, &x) as u64;
        assert_eq!(
            count,
            expected,
            "budget {budget:?}, atoms {:?}: {count} extension(s), oracle says supported = {}\nprogram: {p:#?}\n{}",
            (1..=n).filter(|&a| x[a]).collect::<Vec<_>>(),
            expected == 1,
            yasmin_rs::nogoods::render::render(&g, &c, &|_| None)
        );
    }
}

#[test]
fn random_programs_match_supported_models() {
    let shape = Shape {
        max_atoms: 8,
        max_rules: 10,
        max_sum: 5,
        weights: (-3, 4),
        lower: (-2, 8),
    };
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..600 {
        check_program(&random_program(&mut rng, &shape));
    }
}

#[test]
fn random_wide_sums_match_supported_models() {
    // Fewer rules, longer sums with larger weights: exercises the decision diagram's sharing
    // and reduction, and bounds far from both ends.
    let shape = Shape {
        max_atoms: 8,
        max_rules: 4,
        max_sum: 10,
        weights: (-6, 9),
        lower: (-5, 25),
    };
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..400 {
        check_program(&random_program(&mut rng, &shape));
    }
}

/// One sum, every bound from 1 to its total (in random order), each the body of its own rule:
/// the bodies share one decision diagram. For every assignment of the sum's atoms, the rest of
/// the variables must have exactly one consistent value, with each body true iff its bound is
/// reached.
#[test]
fn all_bounds_of_one_sum_share_a_diagram_exactly() {
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..150 {
        let n = 1 + rng.below(7) as i32;
        let lits: Vec<WLit> = (1..=n)
            .map(|a| WLit {
                lit: if rng.chance(30) { -a } else { a },
                weight: rng.range(1, 6),
            })
            .collect();
        let total: i64 = lits.iter().map(|w| w.weight).sum();
        let mut bounds: Vec<i64> = (1..=total).collect();
        for i in (1..bounds.len()).rev() {
            bounds.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut p = Program::default();
        p.rule(Rule {
            head: Head {
                kind: HeadKind::Choice,
                atoms: (1..=n as u32).collect(),
            },
            body: Body::Normal(vec![]),
        });
        for (k, &lower) in bounds.iter().enumerate() {
            let h = n as u32 + 1 + k as u32;
            p.rule(Rule {
                head: Head {
                    kind: HeadKind::Disjunctive,
                    atoms: vec![h],
                },
                body: Body::Sum {
                    lower,
                    lits: lits.clone(),
                },
            });
        }
        let g = analyse(&p).unwrap();
        for budget in BUDGETS {
            let c = complete_with(&g, sums(budget));
            for bits in 0u32..(1 << n) {
                let x = |a: u32| bits >> (a - 1) & 1 == 1;
                let sum: i64 = lits
                    .iter()
                    .filter(|w| x(w.lit.unsigned_abs()) == (w.lit > 0))
                    .map(|w| w.weight)
                    .sum();
                for (k, &lower) in bounds.iter().enumerate() {
                    let h = n as u32 + 1 + k as u32;
                    for claim in [true, false] {
                        let mut value: Vec<Option<bool>> = vec![None; c.db.num_vars as usize];
                        for a in 1..=n as u32 {
                            value[a as usize] = Some(x(a));
                        }
                        value[h as usize] = Some(claim);
                        let expected = (claim == (sum >= lower)) as u64;
                        assert_eq!(
                        count_extensions(&c.db, &mut value),
                        expected,
                        "budget {budget:?}, lits {lits:?}, bound {lower}, sum {sum}, head claimed {claim}"
                    );
                    }
                }
            }
        }
    }
}
