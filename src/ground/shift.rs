//! Disjunctive rules → normal rules by shifting, for head-cycle-free programs.
//!
//! Invariant: [`head_cycles`] names every strongly connected component of the positive
//! dependency graph (disjunctive heads included) with two head atoms of one disjunctive rule;
//! when there is none, the program in which every disjunctive rule `a₁;…;aₖ :- B` is replaced by
//! the `k` rules of [`shifted_body`] (`aᵢ :- B, not a₁, …` without `not aᵢ`) has exactly the
//! answer sets of the original (Ben-Eliyahu & Dechter 1994) and the same positive dependency
//! graph, so the atom numbering and the tightness of the program are unchanged. No atom is added:
//! a sum body takes the negated head atoms as extra weighted literals instead of an auxiliary atom,
//! so the engines' models never hold an atom the input does not have.

use super::normalise::{normalise_conj, normalise_sum};
use super::BodyDef;
use lparse::WLit;

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
