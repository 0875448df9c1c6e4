//! Disjunctive rules → normal rules by shifting, for head-cycle-free programs.
//!
//! Invariant: [`head_cycles`] names every strongly connected component of the positive
//! dependency graph (disjunctive heads included) with two head atoms of one disjunctive rule;
//! when there is none, the program in which every disjunctive rule `a₁;…;aₖ :- B` is replaced by
//! the `k` rules of [`shifted_body`] (`aᵢ :- B, not a₁, …` without `not aᵢ`) has exactly the
//! answer sets of the original (Ben-Eliyahu & Dechter 1994). A sum body takes the negated head
//! atoms as extra weighted literals instead of an auxiliary atom.
//!
//! A head set `H = {a₁,…,aₖ}` with several bodies `B₁,…,Bₘ` ([`share_heads`]) is shifted once,
//! as clasp shifts its one disjunction node per head: an auxiliary atom `d` (numbered after the
//! input's atoms) with the rules `d :- Bⱼ` and the `k` rules `aᵢ :- d, not aⱼ (j ≠ i)`. This is
//! the shifted program folded back (the reverse of unfolding `d`, which keeps answer sets), so
//! the answer sets are the shifted program's with `d` added exactly when some `Bⱼ` holds: `d` is
//! a function of the other atoms, and the answer sets over the input's atoms are unchanged, one
//! for one. The positive dependency graph has `aᵢ → d → Bⱼ⁺` for the input's `aᵢ → Bⱼ⁺`, so the
//! components restricted to the input's atoms and the program's tightness are those of the
//! shifted program; `d` lies on a cycle only with one head atom (two would be a head cycle).
//! Auxiliary atoms are the analysis's own: the engines' models leave them out
//! ([`super::GroundProgram::input_atoms`]).

use super::normalise::{normalise_conj, normalise_sum};
use super::BodyDef;
use lparse::WLit;
use std::collections::{HashMap, HashSet};

/// The body of the `i`-th shifted rule of `head :- body`: `body ∧ ¬a` for every head atom `a`
/// other than `head[i]`. `None` when it can never hold (a head atom is also a positive body
/// literal), `Err` when the sum's weights overflow `i64`.
///
/// A sum `L ≤ Σ wⱼ·[lⱼ]` (normalised: `wⱼ > 0`, total `T ≥ L`) becomes
/// `L + M·(k−1) ≤ Σ wⱼ·[lⱼ] + Σ_{a ≠ head[i]} M·[¬a]` with `M = T − L + 1`: with every `¬a` true
/// it is the old sum; with one of them false, at most `M·(k−2) + T < L + M·(k−1)` is reached.
/// Both forms hold under the same interpretations, and the reduct of each is the same (the added
/// literals are negative), so the answer sets are those of the conjunction.
pub fn shifted_body(body: &BodyDef, head: &[u32], i: usize) -> Result<Option<BodyDef>, Overflow> {
    let others = head
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, &a)| a);
    match body {
        BodyDef::Conj { pos, neg } => {
            let lits: Vec<i32> = pos
                .iter()
                .map(|&a| a as i32)
                .chain(neg.iter().map(|&a| -(a as i32)))
                .chain(others.map(|a| -(a as i32)))
                .collect();
            Ok(normalise_conj(&lits))
        }
        BodyDef::Sum { lower, lits } => {
            let total = lits
                .iter()
                .try_fold(0i64, |t, &(_, w)| t.checked_add(w))
                .ok_or(Overflow)?;
            let m = total - lower + 1; // total >= lower > 0 after normalisation
            let extra = (head.len() as i64 - 1).checked_mul(m).ok_or(Overflow)?;
            let lower = lower.checked_add(extra).ok_or(Overflow)?;
            let wlits: Vec<WLit> = lits
                .iter()
                .map(|&(lit, weight)| WLit { lit, weight })
                .chain(others.map(|a| WLit {
                    lit: -(a as i32),
                    weight: m,
                }))
                .collect();
            Ok(normalise_sum(lower, &wlits))
        }
    }
}

/// What [`share_heads`] decides for one disjunctive rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    /// Shifted on its own: the `k` rules of [`shifted_body`].
    Alone,
    /// `d :- B` for the auxiliary atom `d` of its head set, the `index`-th (from 0, in the order
    /// of the head sets' first rules); the head set is shifted once, over `d`.
    Shared(u32),
    /// Head set and body of an earlier `Shared` rule: it adds nothing.
    Repeat,
}

/// A head set gets an auxiliary atom when it has at least this many distinct bodies.
///
/// Why two: a head set of `k` atoms with `m` distinct conjunctive bodies of `n` literals in all
/// is, shifted rule by rule, `k·m` bodies of `nⱼ + k − 1` literals each: `k·(n + m·k + m)`
/// nogoods in the completion (a body `b ↔ ∧lits` is `|lits| + 1` nogoods, a rule one more) and
/// `k·m` entries in the head atoms' support nogoods. Over the auxiliary atom it is the `m`
/// bodies themselves and `k` bodies of `k` literals: `n + 2m + 1 + k² + 2k` nogoods (less when a
/// body is another rule's too), and `k` support entries. The difference,
/// `(k−1)·n + k²·(m−1) + k·(m−2) − 2m − 1`, is positive for every `k ≥ 2, m ≥ 2` with `n ≥ 2`
/// (`k = m = 2`, one literal per body: 16 against 15), and grows with `k·m`: on the QSR class
/// (`k` = 3 to 13, `m` up to 336) the completion has about a fourth of the nogoods. With one
/// body the auxiliary atom would only rename it, at a greater cost when `n ≤ (k+3)/(k−1)`;
/// leaving it out keeps such programs exactly as they were.
pub const SHARE_MIN_BODIES: usize = 2;

/// For each disjunctive rule (`head` sorted and distinct, `body` normalised), in input order,
/// how it is shifted, and the number of auxiliary atoms: a head set with at least
/// [`SHARE_MIN_BODIES`] distinct bodies is `Shared` (its repeated bodies `Repeat`); every rule
/// of any other head set is shifted `Alone`, as before, duplicates included.
pub fn share_heads<'a>(
    rules: impl IntoIterator<Item = (&'a [u32], &'a BodyDef)>,
) -> (Vec<Shift>, u32) {
    let rules: Vec<(&[u32], &BodyDef)> = rules.into_iter().collect();
    // Head set → its index, in the order of first appearance.
    let mut index: HashMap<&[u32], u32> = HashMap::new();
    let group: Vec<u32> = rules
        .iter()
        .map(|&(head, _)| {
            let next = index.len() as u32;
            *index.entry(head).or_insert(next)
        })
        .collect();
    let mut bodies = vec![0usize; index.len()];
    drop(index);
    let mut seen: HashSet<(u32, &BodyDef)> = HashSet::with_capacity(rules.len());
    let first: Vec<bool> = rules
        .iter()
        .zip(&group)
        .map(|(&(_, body), &g)| {
            let new = seen.insert((g, body));
            bodies[g as usize] += usize::from(new);
            new
        })
        .collect();
    drop(seen);
    const NONE: u32 = u32::MAX;
    let mut aux = vec![NONE; bodies.len()];
    let mut count = 0u32;
    let plan = group
        .iter()
        .zip(first)
        .map(|(&g, first)| {
            let g = g as usize;
            if bodies[g] < SHARE_MIN_BODIES {
                Shift::Alone
            } else if !first {
                Shift::Repeat
            } else {
                if aux[g] == NONE {
                    aux[g] = count;
                    count += 1;
                }
                Shift::Shared(aux[g])
            }
        })
        .collect();
    (plan, count)
}

/// Shifting a sum body would need weights beyond `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// The components (sorted, distinct) holding two atoms of one of the disjunctive `heads`.
/// `scc[a]` is atom `a`'s component in the positive dependency graph built with every
/// disjunctive head atom depending on its body's positive atoms; two distinct atoms share a
/// component only when they lie on a common cycle.
pub fn head_cycles<'a>(heads: impl IntoIterator<Item = &'a [u32]>, scc: &[u32]) -> Vec<u32> {
    let mut seen: Vec<(u32, u32)> = Vec::new();
    let mut found = Vec::new();
    for head in heads {
        seen.clear();
        seen.extend(head.iter().map(|&a| (scc[a as usize], a)));
        seen.sort_unstable();
        found.extend(seen.windows(2).filter(|w| w[0].0 == w[1].0).map(|w| w[0].0));
    }
    found.sort_unstable();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conj(pos: &[u32], neg: &[u32]) -> BodyDef {
        BodyDef::Conj {
            pos: pos.to_vec(),
            neg: neg.to_vec(),
        }
    }

    #[test]
    fn conjunction_takes_the_other_head_atoms_negated() {
        let b = conj(&[1], &[2]);
        assert_eq!(
            shifted_body(&b, &[5, 3, 4], 0),
            Ok(Some(conj(&[1], &[2, 3, 4])))
        );
        assert_eq!(
            shifted_body(&b, &[5, 3, 4], 1),
            Ok(Some(conj(&[1], &[2, 4, 5])))
        );
        // `a ; b :- b.`: the rule for `a` needs `b` and `not b`; it can never fire.
        assert_eq!(shifted_body(&conj(&[2], &[]), &[1, 2], 0), Ok(None));
        assert_eq!(
            shifted_body(&conj(&[2], &[]), &[1, 2], 1),
            Ok(Some(conj(&[2], &[1])))
        );
    }

    /// Every interpretation of atoms 1..=5: the shifted sum holds exactly when the sum holds and
    /// every other head atom is false.
    #[test]
    fn sum_with_big_weights_is_the_conjunction() {
        let sums = [
            BodyDef::Sum {
                lower: 3,
                lits: vec![(1, 2), (-2, 1), (3, 2)],
            },
            BodyDef::Sum {
                lower: 2,
                lits: vec![(1, 1), (2, 1), (-4, 1)],
            },
        ];
        let heads: [&[u32]; 3] = [&[4, 5], &[3, 4, 5], &[1, 5]];
        let holds = |b: &BodyDef, x: u32| {
            let t = |l: i32| (x >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0);
            match b {
                BodyDef::Conj { pos, neg } => {
                    pos.iter().all(|&a| t(a as i32)) && neg.iter().all(|&a| t(-(a as i32)))
                }
                BodyDef::Sum { lower, lits } => {
                    lits.iter()
                        .filter(|&&(l, _)| t(l))
                        .map(|&(_, w)| w)
                        .sum::<i64>()
                        >= *lower
                }
            }
        };
        for s in &sums {
            for head in heads {
                for i in 0..head.len() {
                    let shifted = shifted_body(s, head, i).unwrap();
                    for x in 0u32..32 {
                        let want = holds(s, x)
                            && head
                                .iter()
                                .enumerate()
                                .all(|(j, &a)| j == i || x >> (a - 1) & 1 == 0);
                        let got = shifted.as_ref().is_some_and(|b| holds(b, x));
                        assert_eq!(got, want, "{s:?} head {head:?} i {i} x {x:05b}");
                    }
                }
            }
        }
    }

    #[test]
    fn overflowing_weights_are_reported() {
        let s = BodyDef::Sum {
            lower: i64::MAX / 2,
            lits: vec![(1, i64::MAX / 2), (2, i64::MAX / 2)],
        };
        assert_eq!(shifted_body(&s, &[3, 4, 5], 0), Err(Overflow));
    }

    #[test]
    fn head_sets_with_two_distinct_bodies_are_shared() {
        use Shift::*;
        let (b1, b2, b3) = (conj(&[1], &[]), conj(&[2], &[]), conj(&[], &[3]));
        let h: &[u32] = &[4, 5];
        let g: &[u32] = &[4, 5, 6];
        // `h` has bodies b1, b2 (b1 twice); `g` only b3 (twice): shifted alone, repeat included.
        let rules = [(h, &b1), (g, &b3), (h, &b2), (h, &b1), (g, &b3)];
        assert_eq!(
            share_heads(rules),
            (vec![Shared(0), Alone, Shared(0), Repeat, Alone], 1)
        );
        // Auxiliary atoms numbered in the order of the head sets' first rules; a sum body counts
        // like any other.
        let s = BodyDef::Sum {
            lower: 2,
            lits: vec![(1, 1), (2, 1), (3, 1)],
        };
        let rules = [(g, &b3), (h, &b1), (g, &s), (h, &b2), (h, &b3)];
        assert_eq!(
            share_heads(rules),
            (
                vec![Shared(0), Shared(1), Shared(0), Shared(1), Shared(1)],
                2
            )
        );
        // One body per head set: everything as before.
        let rules = [(h, &b1), (g, &b1), (h, &b1)];
        assert_eq!(share_heads(rules), (vec![Alone, Alone, Alone], 0));
        assert_eq!(share_heads([]), (vec![], 0));
    }

    #[test]
    fn head_cycle_needs_two_atoms_of_one_head_in_one_component() {
        // Components: atoms 1, 2 share component 7, atoms 4, 5 component 2; atom 3 is alone.
        let scc = [0, 7, 7, 3, 2, 2];
        let a: &[u32] = &[1, 3];
        let b: &[u32] = &[3, 2, 1];
        let c: &[u32] = &[5, 4];
        assert_eq!(head_cycles([a], &scc), Vec::<u32>::new());
        assert_eq!(head_cycles([a, b], &scc), vec![7]);
        assert_eq!(head_cycles([c, a, b, c], &scc), vec![2, 7]);
    }
}
