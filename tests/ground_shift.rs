//! Brute-force check of disjunctive shifting in `analyse::analyse`: for random small programs with
//! disjunctive, choice and normal heads over normal and (positive-weight) sum bodies,
//! - `analyse` describes the program as not head-cycle-free (`minimality`) exactly when two
//!   atoms of one disjunctive head reach each other in the positive dependency graph
//!   (transitive closure, computed here by Floyd–Warshall, no SCC code shared), and then marks
//!   those atoms acyclic (their unfounded sets are the minimality check's);
//! - otherwise the answer sets of the analysed (shifted, normal) program, restricted to the
//!   input's atoms, equal those of the input one for one (the auxiliary atoms of head sets with
//!   several bodies are a function of the input's atoms), both computed from the definition (X
//!   is a model of P and no proper subset of X is a model of the reduct P^X), by one oracle that
//!   shares no code with `ground`; a program with a head cycle gets no auxiliary atom.

mod common;

use common::Rng;
use lparse::{Body, Head, HeadKind, Program, ProgramBuilder, Rule, WLit};
use yasmin_rs::analyse::{analyse, BodyDef};

/// The oracle's view of a rule: signed literals, sums with positive weights.
#[derive(Clone, Debug)]
enum OBody {
    Conj(Vec<i32>),
    Sum(i64, Vec<(i32, i64)>),
}
#[derive(Clone, Debug)]
struct ORule {
    head: Vec<u32>,
    choice: bool,
    body: OBody,
}

fn lit_true(l: i32, x: u32) -> bool {
    (x >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0)
}

/// The body under interpretation `y` for positive literals and `x` for negative ones (`y == x`:
/// plain truth; `y ⊆ x`: truth in the reduct P^x, the bodies being monotone in their positive
/// literals).
fn body_holds(b: &OBody, y: u32, x: u32) -> bool {
    let t = |l: i32| {
        if l > 0 {
            lit_true(l, y)
        } else {
            lit_true(l, x)
        }
    };
    match b {
        OBody::Conj(lits) => lits.iter().all(|&l| t(l)),
        OBody::Sum(lower, lits) => {
            lits.iter()
                .filter(|&&(l, _)| t(l))
                .map(|&(_, w)| w)
                .sum::<i64>()
                >= *lower
        }
    }
}

/// `y` is a model of the reduct P^x (for `y == x`: of P).
fn model_of_reduct(rules: &[ORule], y: u32, x: u32) -> bool {
    rules.iter().all(|r| {
        if !body_holds(&r.body, y, x) {
            return true;
        }
        let inn = |a: &u32| y >> (a - 1) & 1 == 1;
        if r.choice {
            // `{h} :- B` reduces to `h :- B` for the h in x, and to nothing for the others.
            r.head.iter().all(|a| x >> (a - 1) & 1 == 0 || inn(a))
        } else {
            r.head.iter().any(inn)
        }
    })
}

fn answer_sets(rules: &[ORule], n: u32) -> Vec<u32> {
    (0u32..1 << n)
        .filter(|&x| {
            model_of_reduct(rules, x, x)
                && !(0..x)
                    .filter(|&y| y & x == y) // proper subsets of x
                    .any(|y| model_of_reduct(rules, y, x))
        })
        .collect()
}

fn from_input(p: &Program) -> Vec<ORule> {
    p.rules
        .iter()
        .map(|r| ORule {
            head: r.head.atoms.clone(),
            choice: r.head.kind == HeadKind::Choice,
            body: match &r.body {
                Body::Normal(l) => OBody::Conj(l.clone()),
                Body::Sum { lower, lits } => {
                    OBody::Sum(*lower, lits.iter().map(|w| (w.lit, w.weight)).collect())
                }
            },
        })
        .collect()
}

fn from_ground(g: &yasmin_rs::analyse::GroundProgram) -> Vec<ORule> {
    g.rules
        .iter()
        .map(|r| {
            assert!(r.choice || r.head.len() <= 1, "a disjunctive head is left");
            ORule {
                head: r.head.clone(),
                choice: r.choice,
                body: match &g.bodies[r.body as usize] {
                    BodyDef::Conj { pos, neg } => OBody::Conj(
                        pos.iter()
                            .map(|&a| a as i32)
                            .chain(neg.iter().map(|&a| -(a as i32)))
                            .collect(),
                    ),
                    BodyDef::Sum { lower, lits } => OBody::Sum(*lower, lits.clone()),
                },
            }
        })
        .collect()
}

/// Some disjunctive head has two atoms that reach each other through positive body atoms. Rules
/// whose body holds under no interpretation, or under all, have no edges: `analyse` drops the
/// first and reads the second as an empty body (both keep the answer sets), so its graph is that
/// of the simplified program.
fn has_head_cycle(p: &Program, n: usize) -> bool {
    let mut reach = vec![vec![false; n + 1]; n + 1];
    let oracle = from_input(p);
    let holds: Vec<usize> = oracle
        .iter()
        .map(|o| {
            (0u32..1 << n)
                .filter(|&x| body_holds(&o.body, x, x))
                .count()
        })
        .collect();
    for (r, &holds) in p.rules.iter().zip(&holds) {
        if holds == 0 || holds == 1 << n {
            continue;
        }
        let pos: Vec<usize> = match &r.body {
            Body::Normal(l) => l.iter().filter(|&&l| l > 0).map(|&l| l as usize).collect(),
            Body::Sum { lits, .. } => lits
                .iter()
                .filter(|w| w.lit > 0)
                .map(|w| w.lit as usize)
                .collect(),
        };
        for &h in &r.head.atoms {
            for &b in &pos {
                reach[h as usize][b] = true;
            }
        }
    }
    for k in 1..=n {
        for i in 1..=n {
            for j in 1..=n {
                reach[i][j] |= reach[i][k] && reach[k][j];
            }
        }
    }
    p.rules.iter().zip(&holds).any(|(r, &holds)| {
        let h = &r.head.atoms;
        r.head.kind == HeadKind::Disjunctive
            && holds > 0
            && h.iter().any(|&a| {
                h.iter().any(|&b| {
                    a != b && reach[a as usize][b as usize] && reach[b as usize][a as usize]
                })
            })
    })
}

fn random_program(rng: &mut Rng) -> (Program, u32) {
    let n = 2 + rng.below(5) as u32;
    let mut p = Program::default();
    p.note_atom(n);
    let atom = |rng: &mut Rng| 1 + rng.below(n as u64) as u32;
    let lit = |rng: &mut Rng| {
        let a = atom(rng) as i32;
        if rng.chance(40) {
            -a
        } else {
            a
        }
    };
    // Disjunctive heads so far: some rules repeat one (its atoms in another order), so that head
    // sets with several bodies, which the analysis shifts over an auxiliary atom, are common.
    let mut heads: Vec<Vec<u32>> = Vec::new();
    for _ in 0..1 + rng.below(6) {
        let body = if rng.chance(75) {
            Body::Normal((0..rng.below(3)).map(|_| lit(rng)).collect())
        } else {
            // One literal per atom: `analyse` merges `a` and `not a` of one sum, which can drop
            // a positive atom (and its edge) that the syntactic graph here would keep.
            let mut lits: Vec<WLit> = (0..1 + rng.below(4))
                .map(|_| WLit {
                    lit: lit(rng),
                    weight: 1 + rng.below(3) as i64,
                })
                .collect();
            lits.sort_by_key(|w| w.lit.unsigned_abs());
            lits.dedup_by_key(|w| w.lit.unsigned_abs());
            Body::Sum {
                lower: 1 + rng.below(5) as i64,
                lits,
            }
        };
        let kind = match rng.below(10) {
            0..=1 => HeadKind::Choice,
            _ => HeadKind::Disjunctive,
        };
        let k = match kind {
            HeadKind::Choice => 1 + rng.below(2),
            _ if rng.chance(10) => 0,
            _ => 1 + rng.below(3),
        };
        let atoms: Vec<u32> =
            if kind == HeadKind::Disjunctive && !heads.is_empty() && rng.chance(40) {
                let mut h = heads[rng.below(heads.len() as u64) as usize].clone();
                h.rotate_left(1);
                h
            } else {
                (0..k).map(|_| atom(rng)).collect()
            };
        if kind == HeadKind::Disjunctive && atoms.len() > 1 {
            heads.push(atoms.clone());
        }
        p.rule(Rule {
            head: Head { kind, atoms },
            body,
        });
    }
    (p, n)
}

#[test]
fn shifting_keeps_answer_sets_and_head_cycles_are_described() {
    let mut rng = Rng(0x5eed_d15c);
    let (mut shifted, mut described, mut with_sets, mut with_aux) = (0, 0, 0, 0);
    for _ in 0..3000 {
        let (p, n) = random_program(&mut rng);
        let cyclic = has_head_cycle(&p, n as usize);
        let g = analyse(&p).unwrap_or_else(|e| panic!("unexpected error {e} on {p:#?}"));
        assert_eq!(g.input_atoms(), n, "the input's atoms keep their numbers");
        match &g.minimality {
            Some(m) => {
                assert_eq!(g.aux_atoms, 0, "a head cycle, yet auxiliary atoms: {p:#?}");
                assert!(cyclic, "a head cycle in a head-cycle-free program: {p:#?}");
                for &a in m.components.iter().flatten() {
                    assert!(!g.is_cyclic(a), "atom {a} of a head cycle is marked cyclic");
                }
                described += 1;
            }
            None => {
                assert!(!cyclic, "no head cycle described in {p:#?}");
                let want = answer_sets(&from_input(&p), n);
                let input = (1u32 << n) - 1;
                let mut got: Vec<u32> = answer_sets(&from_ground(&g), g.num_atoms)
                    .into_iter()
                    .map(|x| x & input)
                    .collect();
                got.sort_unstable();
                // Sorted with repeats kept: two answer sets equal on the input's atoms would
                // show up twice (an auxiliary atom that is no function of the others).
                assert_eq!(
                    got, want,
                    "answer sets differ after shifting: {p:#?}\n{g:#?}"
                );
                shifted += 1;
                with_aux += (g.aux_atoms > 0) as usize;
                with_sets += !want.is_empty() as usize;
            }
        }
    }
    eprintln!(
        "{shifted} programs shifted ({with_sets} with answer sets, {with_aux} with auxiliary \
         atoms), {described} with head cycles"
    );
    // The generator must exercise every outcome, or this test proves little.
    assert!(shifted > 1000 && described > 100 && with_sets > 500 && with_aux > 200);
}

/// `head₁ ; … :- body.`
fn disjunctive(head: Vec<u32>, body: Vec<i32>) -> Rule {
    Rule {
        head: Head {
            kind: HeadKind::Disjunctive,
            atoms: head,
        },
        body: Body::Normal(body),
    }
}

#[test]
fn head_cycle_component_holds_the_cycle_and_its_rules() {
    // a ; b :- c.  c :- a.  c :- b.  d :- not a.  — a, b and c form the one head cycle.
    let mut p = Program::default();
    p.rule(disjunctive(vec![1, 2], vec![3]));
    p.rule(disjunctive(vec![3], vec![1]));
    p.rule(disjunctive(vec![3], vec![2]));
    p.rule(disjunctive(vec![4], vec![-1]));
    let g = analyse(&p).unwrap();
    let m = g.minimality.expect("a head cycle");
    assert_eq!(m.components, vec![vec![1, 2, 3]]);
    assert_eq!(m.rules.len(), 3, "the rule of d is outside the cycle");
    assert!(
        m.rules.iter().any(|r| r.head == [1, 2]),
        "the disjunction unshifted"
    );
    assert!(g.tight, "the only cycle is the minimality check's");
}

#[test]
fn a_head_set_with_several_bodies_is_shifted_once_over_an_auxiliary_atom() {
    // a ; b :- c.  b ; a :- not c.  a ; b :- c.  b ; e :- c.  {c}.
    let mut p = Program::default();
    p.rule(disjunctive(vec![1, 2], vec![3]));
    p.rule(disjunctive(vec![2, 1], vec![-3]));
    p.rule(disjunctive(vec![1, 2], vec![3]));
    p.rule(disjunctive(vec![2, 4], vec![3]));
    p.rule(Rule {
        head: Head {
            kind: HeadKind::Choice,
            atoms: vec![3],
        },
        body: Body::Normal(vec![]),
    });
    let g = analyse(&p).unwrap();
    assert_eq!((g.num_atoms, g.aux_atoms, g.input_atoms()), (5, 1, 4));
    let conj = |pos: &[u32], neg: &[u32]| BodyDef::Conj {
        pos: pos.to_vec(),
        neg: neg.to_vec(),
    };
    let rules: Vec<(Vec<u32>, BodyDef)> = g
        .rules
        .iter()
        .map(|r| (r.head.clone(), g.bodies[r.body as usize].clone()))
        .collect();
    let d = 5;
    for want in [
        (vec![d], conj(&[3], &[])),
        (vec![d], conj(&[], &[3])),
        (vec![1], conj(&[d], &[2])),
        (vec![2], conj(&[d], &[1])),
        // `b ; e :- c` has one body: shifted on its own, as before.
        (vec![2], conj(&[3], &[4])),
        (vec![4], conj(&[3], &[2])),
    ] {
        assert!(rules.contains(&want), "{want:?} missing from {rules:?}");
    }
    assert_eq!(rules.len(), 7, "the repeated rule adds nothing: {rules:?}");
    assert!(g.tight && g.minimality.is_none());
}
