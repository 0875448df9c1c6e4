//! Rule bodies of the input → canonical [`BodyDef`]s.
//!
//! Invariant: `normalise_*` returns a body that is true under exactly the same interpretations as
//! the input body (`None` = true under none). A returned `Conj` is sorted and duplicate-free with
//! `pos ∩ neg = ∅`; a returned `Sum` has `lower > 0`, every weight in `1..=lower`, literals
//! sorted with at most one literal per atom, weights summing to at least `lower`, and is not
//! equivalent to a plain conjunction of its literals (that case comes back as a `Conj`).

use super::BodyDef;
use lparse::{Lit, WLit};

/// A conjunction of literals; `None` when it holds both `a` and `not a`.
pub fn normalise_conj(lits: &[Lit]) -> Option<BodyDef> {
    let mut pos: Vec<u32> = lits.iter().filter(|&&l| l > 0).map(|&l| l as u32).collect();
    let mut neg: Vec<u32> = lits
        .iter()
        .filter(|&&l| l < 0)
        .map(|&l| l.unsigned_abs())
        .collect();
    pos.sort_unstable();
    pos.dedup();
    neg.sort_unstable();
    neg.dedup();
    // Both sorted: a linear merge finds a complementary pair.
    let (mut i, mut j) = (0, 0);
    while i < pos.len() && j < neg.len() {
        match pos[i].cmp(&neg[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return None,
        }
    }
    Some(BodyDef::Conj { pos, neg })
}

/// `lower <= Σ weight·[lit]`. `None` when no interpretation reaches `lower`.
pub fn normalise_sum(lower: i64, lits: &[WLit]) -> Option<BodyDef> {
    // i128 throughout: sums of many i64 weights must not wrap.
    let mut lower = lower as i128;
    // w·[l] with w < 0 equals w + (-w)·[¬l]: flip the literal and move w into the bound.
    let mut by_lit: Vec<(i32, i128)> = Vec::with_capacity(lits.len());
    for w in lits {
        let weight = w.weight as i128;
        if weight > 0 {
            by_lit.push((w.lit, weight));
        } else if weight < 0 {
            by_lit.push((-w.lit, -weight));
            lower -= weight;
        }
    }
    // Duplicates add up: sort by atom, then sign, and merge.
    by_lit.sort_unstable_by_key(|&(l, _)| (l.unsigned_abs(), l < 0));
    let mut merged: Vec<(i32, i128)> = Vec::with_capacity(by_lit.len());
    for (l, w) in by_lit {
        match merged.last_mut() {
            Some(last) if last.0 == l => last.1 += w,
            _ => merged.push((l, w)),
        }
    }
    // p·[a] + n·[¬a] = min(p,n) + (p−min)·[a] + (n−min)·[¬a]: one of the two vanishes.
    let mut lits: Vec<(i32, i128)> = Vec::with_capacity(merged.len());
    let mut k = 0;
    while k < merged.len() {
        let (l, w) = merged[k];
        if k + 1 < merged.len() && merged[k + 1].0 == -l {
            let (l2, w2) = merged[k + 1];
            let m = w.min(w2);
            lower -= m;
            if w > m {
                lits.push((l, w - m));
            }
            if w2 > m {
                lits.push((l2, w2 - m));
            }
            k += 2;
        } else {
            lits.push((l, w));
            k += 1;
        }
    }
    if lower <= 0 {
        return Some(BodyDef::Conj {
            pos: vec![],
            neg: vec![],
        });
    }
    // A weight above the bound reaches it alone: it acts like `lower`.
    for (_, w) in lits.iter_mut() {
        *w = (*w).min(lower);
    }
    let total: i128 = lits.iter().map(|&(_, w)| w).sum();
    if total < lower {
        return None;
    }
    // Σ wᵢ·xᵢ ≥ L  ⇔  Σ (wᵢ/g)·xᵢ ≥ ⌈L/g⌉ for g = gcd of the weights: smaller counters.
    let g = lits.iter().fold(0i128, |g, &(_, w)| gcd(g, w));
    if g > 1 {
        for (_, w) in lits.iter_mut() {
            *w /= g;
        }
        lower = (lower + g - 1) / g;
    }
    let total: i128 = lits.iter().map(|&(_, w)| w).sum();
    let min_w = lits.iter().map(|&(_, w)| w).min().unwrap_or(0);
    // If leaving out any one literal already misses the bound, every literal is needed.
    if total - min_w < lower {
        let plain: Vec<Lit> = lits.iter().map(|&(l, _)| l).collect();
        return normalise_conj(&plain);
    }
    lits.sort_unstable_by_key(|&(l, _)| l);
    Some(BodyDef::Sum {
        lower: lower as i64,
        lits: lits.into_iter().map(|(l, w)| (l, w as i64)).collect(),
    })
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(lit: Lit, weight: i64) -> WLit {
        WLit { lit, weight }
    }
    fn conj(pos: &[u32], neg: &[u32]) -> Option<BodyDef> {
        Some(BodyDef::Conj {
            pos: pos.to_vec(),
            neg: neg.to_vec(),
        })
    }

    #[test]
    fn conj_sorted_deduplicated_and_contradictions_dropped() {
        assert_eq!(normalise_conj(&[3, -2, 1, 3, -2]), conj(&[1, 3], &[2]));
        assert_eq!(normalise_conj(&[1, 2, -2]), None);
        assert_eq!(normalise_conj(&[]), conj(&[], &[]));
    }

    #[test]
    fn negative_weights_flip() {
        // 1 <= 2·a − 1·b  ⇔  2 <= 2·a + 1·¬b (b does not matter; the diagram drops it)
        assert_eq!(
            normalise_sum(1, &[w(1, 2), w(2, -1)]),
            Some(BodyDef::Sum {
                lower: 2,
                lits: vec![(-2, 1), (1, 2)]
            })
        );
        // 2 <= 1·a − 1·b + 1·c  ⇔  3 <= a + ¬b + c: all three needed
        assert_eq!(
            normalise_sum(2, &[w(1, 1), w(2, -1), w(3, 1)]),
            conj(&[1, 3], &[2])
        );
        // 0 <= 1·a − 2·b  ⇔  2 <= 1·a + 2·¬b
        assert_eq!(
            normalise_sum(0, &[w(1, 1), w(2, -2)]),
            Some(BodyDef::Sum {
                lower: 2,
                lits: vec![(-2, 2), (1, 1)]
            })
        );
    }

    #[test]
    fn zero_weights_dropped_duplicates_merged() {
        // 2 <= 1·a + 1·a + 0·b + 1·c  ⇔  2 <= 2·a + 1·c
        assert_eq!(
            normalise_sum(2, &[w(1, 1), w(1, 1), w(2, 0), w(3, 1)]),
            Some(BodyDef::Sum {
                lower: 2,
                lits: vec![(1, 2), (3, 1)]
            })
        );
        // complementary pair: 2 <= 2·a + 1·¬a + 1·c ⇔ 1 <= 1·a + 1·c
        assert_eq!(
            normalise_sum(2, &[w(1, 2), w(-1, 1), w(3, 1)]),
            Some(BodyDef::Sum {
                lower: 1,
                lits: vec![(1, 1), (3, 1)]
            })
        );
    }

    #[test]
    fn trivial_bounds() {
        assert_eq!(normalise_sum(0, &[w(1, 1)]), conj(&[], &[]));
        assert_eq!(normalise_sum(-3, &[]), conj(&[], &[]));
        assert_eq!(normalise_sum(3, &[w(1, 1), w(2, 1)]), None);
        assert_eq!(normalise_sum(1, &[]), None);
    }

    #[test]
    fn weights_capped_and_divided() {
        // 3 <= 5·a + 3·b + 1·c: the 5 acts like 3.
        assert_eq!(
            normalise_sum(3, &[w(1, 5), w(2, 3), w(3, 1)]),
            Some(BodyDef::Sum {
                lower: 3,
                lits: vec![(1, 3), (2, 3), (3, 1)]
            })
        );
        // 4 <= 2·a + 2·b + 2·c → 2 <= a + b + c
        assert_eq!(
            normalise_sum(4, &[w(1, 2), w(2, 2), w(3, 2)]),
            Some(BodyDef::Sum {
                lower: 2,
                lits: vec![(1, 1), (2, 1), (3, 1)]
            })
        );
        // all-ones with lower = count is a conjunction
        assert_eq!(normalise_sum(2, &[w(4, 1), w(-5, 1)]), conj(&[4], &[5]));
    }
}
