//! Brute-force answer sets of small programs, independent of the engine: an answer set is a
//! model of every rule that equals the least model of its reduct (sum bodies count their
//! negative literals by the candidate and their positive ones by the fixpoint; a choice rule
//! yields its head atoms that the candidate holds). Plus a seeded random program generator and
//! the differential test against the engine.

use super::{all_models, engine_for, opts, prog};
use crate::engine::{Decide, FwdCut, Heuristic, Learning, RestartPolicy};
use crate::engine::{Engine, HostOptions};
use lparse::{Body, Head, HeadKind, Program, Rule, WLit};

/// The value of program literal `l` when positive atoms are read in `pos` and negated ones in
/// `neg` (the candidate).
fn lit_holds(l: i32, pos: &[bool], neg: &[bool]) -> bool {
    if l > 0 {
        pos[l as usize]
    } else {
        !neg[l.unsigned_abs() as usize]
    }
}

fn body_holds(b: &Body, pos: &[bool], neg: &[bool]) -> bool {
    match b {
        Body::Normal(lits) => lits.iter().all(|&l| lit_holds(l, pos, neg)),
        Body::Sum { lower, lits } => {
            let s: i64 = lits
                .iter()
                .filter(|w| lit_holds(w.lit, pos, neg))
                .map(|w| w.weight)
                .sum();
            s >= *lower
        }
    }
}

/// `x[a]` for atoms `1..=p.max_atom`.
pub fn is_answer_set(p: &Program, x: &[bool]) -> bool {
    for r in &p.rules {
        if !body_holds(&r.body, x, x) {
            continue;
        }
        match r.head.kind {
            HeadKind::Choice => {}
            HeadKind::Disjunctive => {
                if !r.head.atoms.iter().any(|&h| x[h as usize]) {
                    return false;
                }
            }
        }
    }
    let mut d = vec![false; x.len()];
    loop {
        let mut changed = false;
        for r in &p.rules {
            if !body_holds(&r.body, &d, x) {
                continue;
            }
            for &h in &r.head.atoms {
                let add = match r.head.kind {
                    HeadKind::Choice => x[h as usize],
                    HeadKind::Disjunctive => true, // normal rules only here (one head atom)
                };
                if add && !d[h as usize] {
                    d[h as usize] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    d == x
}

/// All answer sets, as sorted atom lists, in lexicographic order.
pub fn answer_sets(p: &Program) -> Vec<Vec<u32>> {
    let n = p.max_atom as usize;
    assert!(n <= 16, "brute force is for small programs");
    let mut out = Vec::new();
    for bits in 0u32..(1 << n) {
        let x: Vec<bool> = (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect();
        if is_answer_set(p, &x) {
            out.push((1..=n as u32).filter(|&a| x[a as usize]).collect());
        }
    }
    out.sort();
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random program over atoms `1..=n`: normal rules (often in positive cycles), choices,
/// constraints and sum bodies.
pub fn random_program(seed: u64) -> Program {
    let mut g = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
    let n = 2 + g.below(9) as i32; // 2..=10 atoms
    let mut rules = Vec::new();
    let lit = |g: &mut Rng, neg_pct: u64| {
        let a = 1 + g.below(n as u64) as i32;
        if g.below(100) < neg_pct {
            -a
        } else {
            a
        }
    };
    for _ in 0..1 + g.below(2 * n as u64 + 2) {
        let kind = g.below(100);
        let body = if g.below(100) < 20 {
            let k = 1 + g.below(4);
            let mut lits: Vec<WLit> = Vec::new();
            for _ in 0..k {
                let mut l = lit(&mut g, 30);
                // `a` and `not a` in one sum make it non-monotone, where the semantics of
                // solvers differ (clingo merges them); keep the sign of the first occurrence.
                if let Some(w) = lits.iter().find(|w| w.lit == -l) {
                    l = w.lit;
                }
                lits.push(WLit {
                    lit: l,
                    weight: 1 + g.below(3) as i64,
                });
            }
            let total: i64 = lits.iter().map(|w| w.weight).sum();
            Body::Sum {
                lower: 1 + g.below(total as u64) as i64,
                lits,
            }
        } else {
            let k = g.below(4);
            Body::Normal((0..k).map(|_| lit(&mut g, 35)).collect())
        };
        let head = if kind < 55 {
            Head {
                kind: HeadKind::Disjunctive,
                atoms: vec![1 + g.below(n as u64) as u32],
            }
        } else if kind < 80 {
            let k = 1 + g.below(2);
            Head {
                kind: HeadKind::Choice,
                atoms: (0..k).map(|_| 1 + g.below(n as u64) as u32).collect(),
            }
        } else {
            Head {
                kind: HeadKind::Disjunctive,
                atoms: vec![],
            }
        };
        rules.push(Rule { head, body });
    }
    let mut p = prog(rules);
    // Every atom exists even if no rule mentions it (brute force and engine agree on 1..=n).
    lparse::ProgramBuilder::rule(
        &mut p,
        Rule {
            head: Head {
                kind: HeadKind::Choice,
                atoms: vec![],
            },
            body: Body::Normal(vec![-(n)]),
        },
    );
    p.note_atom(n as u32);
    p
}

/// The program in clingo's syntax (atom `k` is `a{k}`), for failure messages.
pub fn to_clingo(p: &Program) -> String {
    let lit = |l: i32| {
        if l > 0 {
            format!("a{l}")
        } else {
            format!("not a{}", -l)
        }
    };
    let mut out = String::new();
    for r in &p.rules {
        let atoms: Vec<String> = r.head.atoms.iter().map(|a| format!("a{a}")).collect();
        let head = match r.head.kind {
            HeadKind::Choice => format!("{{{}}}", atoms.join(";")),
            HeadKind::Disjunctive => atoms.join(";"),
        };
        let body = match &r.body {
            Body::Normal(ls) => ls.iter().map(|&l| lit(l)).collect::<Vec<_>>().join(", "),
            Body::Sum { lower, lits } => {
                let el: Vec<String> = lits
                    .iter()
                    .enumerate()
                    .map(|(i, w)| format!("{},{}: {}", w.weight, i, lit(w.lit)))
                    .collect();
                format!("{lower} <= #sum{{{}}}", el.join("; "))
            }
        };
        out += &format!("{head} :- {body}.\n");
    }
    out += &format!(
        "{{{}}} :- #false.\n",
        (1..=p.max_atom)
            .map(|a| format!("a{a}"))
            .collect::<Vec<_>>()
            .join(";")
    );
    out
}

/// Learning, heuristic, decisions, `--save-progress`, `--fwd-cut`, `--phase-switch`,
/// `--restarts`.
type Row = (
    Learning,
    Heuristic,
    Decide,
    Option<u32>,
    FwdCut,
    Option<u64>,
    RestartPolicy,
);

#[rustfmt::skip]
const CONFIGS: [Row; 20] = [
    (Learning::Res, Heuristic::Occ, Decide::Rules, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Res, Heuristic::Jw, Decide::Rules, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Res, Heuristic::Activity, Decide::Rules, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Occ, Decide::Rules, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Jw, Decide::Rules, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Activity, Decide::Rules, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Res, Heuristic::Activity, Decide::Vars, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Res, Heuristic::Jw, Decide::Vars, Some(0), FwdCut::Decisions, Some(2), RestartPolicy::Dynamic),
    (Learning::Fwd, Heuristic::Activity, Decide::Vars, None, FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Occ, Decide::Vars, Some(1), FwdCut::Decisions, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Occ, Decide::Rules, None, FwdCut::Uip, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Activity, Decide::Rules, None, FwdCut::Uip, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Activity, Decide::Vars, Some(0), FwdCut::Uip, None, RestartPolicy::Dynamic),
    (Learning::Fwd, Heuristic::Occ, Decide::Rules, None, FwdCut::Lits, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Activity, Decide::Rules, None, FwdCut::Lits, None, RestartPolicy::Luby),
    (Learning::Fwd, Heuristic::Activity, Decide::Vars, Some(0), FwdCut::Lits, Some(1), RestartPolicy::Dynamic),
    // Decisions on variables and rules switching after every conflict (`decide_turns.rs`).
    (Learning::Res, Heuristic::Activity, Decide::Alternate, Some(0), FwdCut::Decisions, Some(1), RestartPolicy::Dynamic),
    (Learning::Fwd, Heuristic::Jw, Decide::Alternate, None, FwdCut::Lits, None, RestartPolicy::Luby),
    // clasp's local restarts (`restart::Local`).
    (Learning::Res, Heuristic::Activity, Decide::Vars, Some(0), FwdCut::Decisions, Some(1), RestartPolicy::Local),
    (Learning::Fwd, Heuristic::Activity, Decide::Vars, None, FwdCut::Lits, None, RestartPolicy::Local),
];

/// The host engine's options of one row of [`CONFIGS`] (one decision turn each).
fn row_options(row: Row, seed: u64) -> HostOptions {
    let (learning, heuristic, decide, save_progress, fwd_cut, phase_switch, restarts) = row;
    HostOptions {
        decide,
        decide_turn: 1,
        save_progress,
        fwd_cut,
        phase_switch,
        restarts,
        ..opts(learning, heuristic, seed)
    }
}

#[test]
fn engine_enumerates_exactly_the_brute_force_answer_sets() {
    let mut nontight = 0;
    let mut total_models = 0;
    for seed in 0..1500u64 {
        let p = random_program(seed);
        let expected = answer_sets(&p);
        total_models += expected.len();
        let g = crate::analyse::analyse(&p).expect("generator makes no unsupported input");
        nontight += !g.tight as usize;
        for row in CONFIGS {
            let (learning, heuristic, decide, save_progress, fwd_cut, phase_switch, restarts) = row;
            let o = row_options(row, seed);
            // Blocking nogoods, then (resolution only) enumeration by backtracking (`enum_bt`).
            for bt in [false, learning == Learning::Res] {
                let mut e = engine_for(&p, o);
                if bt {
                    assert!(e.enumerate_by_backtracking());
                }
                let mut got = all_models(&mut e);
                // Model atoms beyond the program's are never true; compare over 1..=max_atom.
                got.sort();
                assert_eq!(
                got,
                expected,
                "seed {seed}, bt {bt}, {learning:?}/{heuristic:?}/{decide:?}/{save_progress:?}/{fwd_cut:?}/{phase_switch:?}/{restarts:?}, program (clingo syntax):\n{}",
                to_clingo(&p)
            );
            }
        }
    }
    // The generator must exercise what the test claims to cover.
    assert!(nontight >= 150, "only {nontight} non-tight programs");
    assert!(
        total_models >= 1000,
        "only {total_models} answer sets in all"
    );
}

/// The atoms of `m` among `proj`.
fn projection(m: &[u32], proj: &[u32]) -> Vec<u32> {
    m.iter().copied().filter(|a| proj.contains(a)).collect()
}

#[test]
fn projective_backtracking_reports_each_brute_force_projection_once() {
    use crate::engine::{Limits, Step};
    use crate::lit::Lit;
    let mut classes = 0;
    for seed in 0..1500u64 {
        let p = random_program(seed);
        let sets = answer_sets(&p);
        // A different subset of the atoms each time (none and all of them among them).
        let bits = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (seed >> 3);
        let proj: Vec<u32> = match seed % 10 {
            0 => Vec::new(),
            1 => (1..=p.max_atom).collect(),
            _ => (1..=p.max_atom)
                .filter(|a| bits >> (a % 61) & 1 == 1)
                .collect(),
        };
        let mut expected: Vec<Vec<u32>> = sets.iter().map(|m| projection(m, &proj)).collect();
        expected.sort();
        expected.dedup();
        classes += expected.len();
        for row in CONFIGS {
            let (learning, heuristic, decide, save_progress, fwd_cut, phase_switch, restarts) = row;
            if learning != Learning::Res {
                continue; // backtracking needs resolution learning
            }
            let o = row_options(row, seed);
            // From the start, and after a first model whose class is blocked by its nogood
            // (how `wrap::projective` switches).
            for after_first in [false, true] {
                let mut e = engine_for(&p, o);
                let mut got = Vec::new();
                if after_first {
                    if let Step::Model(m) = e.next_model(&Limits::none()).unwrap() {
                        let ng: Vec<Lit> = proj
                            .iter()
                            .map(|&a| Lit::new(a, m.atoms.contains(&a)))
                            .collect();
                        got.push(m.atoms);
                        assert!(e.add_nogood(&ng));
                    }
                }
                assert!(e.enumerate_projected(&proj));
                got.extend(all_models(&mut e));
                assert!(
                    got.iter().all(|m| sets.contains(m)),
                    "seed {seed}: not an answer set"
                );
                let mut got: Vec<Vec<u32>> = got.iter().map(|m| projection(m, &proj)).collect();
                let n = got.len();
                got.sort();
                got.dedup();
                let what = format!(
                    "seed {seed}, after a first model {after_first}, projection {proj:?}, \
                     {heuristic:?}/{decide:?}/{save_progress:?}/{fwd_cut:?}/{phase_switch:?}/{restarts:?}, program:\n{}",
                    to_clingo(&p)
                );
                assert_eq!(got.len(), n, "{what}: a class twice");
                assert_eq!(got, expected, "{what}");
            }
        }
    }
    assert!(classes >= 1000, "only {classes} classes in all");
}

/// Engines over one shared rule graph (`Shared`, as a race's threads build theirs) and the
/// engine that owns its program (`from_owned`, one thread) are the engine `new` builds: the
/// same models in the same order, each with counters of its own while the graph is one.
#[test]
fn shared_and_owned_engines_find_what_the_engine_of_its_own_finds() {
    for seed in 0..300u64 {
        let p = random_program(seed);
        let g = crate::analyse::analyse(&p).expect("generator makes no unsupported input");
        let c = crate::nogoods::complete(&g);
        let row = CONFIGS[seed as usize % CONFIGS.len()];
        let o = row_options(row, seed);
        let expected = all_models(&mut super::CpuEngine::new(&g, &c, o));
        let shared = super::Shared::new(&g, &c);
        let mut first = super::CpuEngine::with_shared(&g, &c, o, &shared);
        let mut second = super::CpuEngine::with_shared(&g, &c, o, &shared);
        let own = super::CpuEngine::new(&g, &c, o);
        assert!(first.shares_rules_with(&second), "seed {seed}: one graph");
        assert!(
            !first.shares_rules_with(&own),
            "seed {seed}: new builds its own"
        );
        // The first searches to the end before the second starts: the second's counters are
        // still its own.
        assert_eq!(
            all_models(&mut first),
            expected,
            "seed {seed}: shared, first"
        );
        assert_eq!(
            all_models(&mut second),
            expected,
            "seed {seed}: shared, second"
        );
        let mut owned = super::CpuEngine::from_owned(g, c, o);
        assert_eq!(all_models(&mut owned), expected, "seed {seed}: from_owned");
    }
}
