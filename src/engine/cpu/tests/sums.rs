//! The native sum propagator (`sums.rs`) against brute force: random programs whose sums share
//! one literal list under many bounds (as gringo writes `#sum{…} = Q`), with heads, choices and
//! constraints on the bodies, solved with `nogoods::complete_native`, must give exactly the
//! brute-force answer sets under every learning scheme and heuristic.

use super::brute::{answer_sets, to_clingo};
use super::{all_models, opts, opts_vars, prog};
use crate::engine::cpu::CpuEngine;
use crate::engine::HostOptions;
use crate::engine::{Heuristic, Learning};
use lparse::{Program, Rule};

/// xorshift, seeded.
fn rng(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move |n| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    }
}

fn random_program(seed: u64) -> Program {
    let mut r = rng(seed);
    let n = 4 + r(7) as u32; // 4..=10 atoms
    let mut rules = vec![Rule::choice(&(1..=n / 2 + 1).collect::<Vec<_>>(), &[])];
    for _ in 0..1 + r(2) {
        let k = 2 + r(5) as usize;
        let lits: Vec<(i32, i64)> = (0..k)
            .map(|i| {
                let a = 1 + ((r(n as u64) as usize + i) % n as usize) as i32;
                (if r(4) == 0 { -a } else { a }, 1 + r(4) as i64)
            })
            .collect();
        let mut lits = lits;
        lits.sort_by_key(|&(l, _)| l.unsigned_abs());
        lits.dedup_by_key(|&mut (l, _)| l.unsigned_abs());
        let total: i64 = lits.iter().map(|&(_, w)| w).sum();
        for _ in 0..1 + r(5) {
            let lower = r(total as u64 + 2) as i64; // 0 and total + 1 included
            let head = match r(3) {
                0 => vec![],
                _ => vec![1 + r(n as u64) as u32],
            };
            rules.push(Rule::sum(&head, lower, &lits));
        }
    }
    for _ in 0..r(4) {
        let h = 1 + r(n as u64) as u32;
        let b = 1 + r(n as u64) as i32;
        rules.push(Rule::normal(&[h], &[if r(2) == 0 { b } else { -b }]));
    }
    let mut p = prog(rules);
    p.note_atom(n);
    p
}

#[test]
fn native_sums_give_exactly_the_brute_force_answer_sets() {
    let mut total = 0;
    // `--fwd-cut=lits` conflicts through a sum's implied literal (an unknown set): the
    // fallback nogood must be exercised too.
    let mut lits_fallbacks = 0;
    for seed in 0..600u64 {
        let p = random_program(seed);
        let expected = answer_sets(&p);
        total += expected.len();
        let g = crate::analyse::analyse(&p).expect("supported program");
        let c = crate::nogoods::complete_all_native(&g);
        use crate::engine::FwdCut::{Decisions, Lits, Uip};
        for (learning, heuristic, vars, fwd_cut) in [
            (Learning::Res, Heuristic::Activity, false, Decisions),
            (Learning::Res, Heuristic::Occ, false, Decisions),
            (Learning::Fwd, Heuristic::Activity, false, Decisions),
            (Learning::Fwd, Heuristic::Jw, false, Decisions),
            (Learning::Res, Heuristic::Activity, true, Decisions),
            (Learning::Fwd, Heuristic::Activity, true, Decisions),
            (Learning::Fwd, Heuristic::Activity, false, Uip),
            (Learning::Fwd, Heuristic::Activity, false, Lits),
            (Learning::Fwd, Heuristic::Activity, true, Lits),
        ] {
            let o = if vars { opts_vars } else { opts };
            let o = HostOptions {
                fwd_cut,
                ..o(learning, heuristic, seed)
            };
            let mut e = CpuEngine::new(&g, &c, o);
            let mut got = all_models(&mut e);
            if fwd_cut == Lits {
                lits_fallbacks += e.stats.fwd_lits_unknown;
            }
            got.sort();
            assert_eq!(
                got,
                expected,
                "seed {seed}, {learning:?}/{heuristic:?}/{fwd_cut:?}, vars {vars}:\n{}",
                to_clingo(&p)
            );
        }
    }
    assert!(total >= 500, "only {total} answer sets in all");
    assert!(
        lits_fallbacks >= 100,
        "only {lits_fallbacks} lits fallbacks"
    );
}

/// The completion keeps the sums native: no auxiliary variables, one `NativeSum` per literal
/// list, bounds ascending.
#[test]
fn native_completion_groups_bounds() {
    // Weights at most the smallest bound: normalisation clips them at each bound.
    let lits = [(1, 2), (2, 1), (3, 2)];
    let mut rules = vec![Rule::choice(&[1, 2, 3], &[])];
    for (h, k) in [(4, 4), (5, 2), (6, 5)] {
        rules.push(Rule::sum(&[h], k, &lits));
    }
    let g = crate::analyse::analyse(&prog(rules)).expect("supported");
    let c = crate::nogoods::complete_all_native(&g);
    assert_eq!(c.native_sums.len(), 1);
    let ks: Vec<i64> = c.native_sums[0].bounds.iter().map(|&(k, _)| k).collect();
    // Bound 5 needs every literal: normalisation makes it a conjunction.
    assert_eq!(ks, vec![2, 4]);
    assert_eq!(c.db.num_vars, c.first_aux, "no auxiliary variables");
    assert!(c.aux_body.is_empty());
}

/// Each rule of the propagator fires on a partial assignment, with a reason whose other
/// literals hold: `h :- #sum{1:a; 2:b; 2:c} >= 4`.
#[test]
fn native_propagation_rules_fire_with_reasons() {
    use crate::lit::Lit;
    let (a, b, c, h) = (1u32, 2u32, 3u32, 4u32);
    let rules = vec![
        Rule::choice(&[a, b, c], &[]),
        Rule::sum(&[h], 4, &[(1, 1), (2, 2), (3, 2)]),
    ];
    let g = crate::analyse::analyse(&prog(rules)).expect("supported");
    let comp = crate::nogoods::complete_all_native(&g);
    assert_eq!(comp.native_sums.len(), 1);
    let body = comp.native_sums[0].bounds[0].1;
    // (decisions, literal that must then hold)
    let cases = [
        (vec![Lit::f(c)], Lit::f(body)),            // hi = 3 < 4
        (vec![Lit::t(b), Lit::t(c)], Lit::t(body)), // lo = 4
        (vec![Lit::t(body)], Lit::t(b)),            // b is needed: hi − 2 < 4
        (vec![Lit::t(body)], Lit::t(c)),
        (vec![Lit::f(body), Lit::t(b)], Lit::f(c)), // lo + 2 ≥ 4
    ];
    for (decisions, expect) in cases {
        let mut e = CpuEngine::new(&g, &comp, opts(Learning::Res, Heuristic::Occ, 1));
        for d in &decisions {
            e.a.lim.push(e.a.trail.len() as u32);
            e.assign(*d, super::NO_REASON);
            assert!(e.propagate_all().is_none(), "{decisions:?}: no conflict");
        }
        assert!(e.a.holds(expect), "{decisions:?} must give {expect}");
        let r = e.reason_of(expect.var()); // (built now: resolution reasons are lazy)
        assert_ne!(r, super::NO_REASON, "{expect} is propagated");
        let ng = e.store.lits(r);
        assert!(ng.contains(&expect.negate()), "the reason names {expect}");
        for &l in ng.iter().filter(|&&l| l != expect.negate()) {
            assert!(e.a.holds(l), "reason literal {l} holds");
        }
    }
}
