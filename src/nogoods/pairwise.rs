//! A sum body known false with bound 2 — `Σ wᵢ·[lᵢ] < 2`, the classic at-most-one of
//! `:- 2 { ... }.` — as nogoods over its literals alone, no diagram (`aggregate.rs` asks for
//! it when an integrity constraint fixes the body false).
//!
//! Invariant: the nogoods added are violated by exactly the assignments whose sum reaches 2.

use super::db::{NogoodDbBuilder, Origin};
use crate::lit::holds;

/// At most this many literals of weight 1 get the pairwise form of [`below_two`] (45 binary
/// nogoods; a diagram of the same sum has about one auxiliary variable and three or four
/// nogoods, mostly ternary, per literal).
const PAIRWISE_MAX: usize = 10;

/// `Σ wᵢ·[lᵢ] < 2` with positive weights as nogoods over the literals alone: `{T lᵢ}` for each
/// literal whose weight reaches 2 by itself, and `{T lᵢ, T lⱼ}` for each pair of the others
/// (the classic at-most-one, `:- 2 { ... }.`). Unit propagation on them is exact, and no
/// auxiliary variable is left for the heuristic to decide on. The body variable keeps no
/// definition: the caller knows it false in every answer set (its unit nogood says so), and
/// then `b ↔ Σ ≥ 2` is exactly this. False (nothing added) when a variable occurs twice or
/// there are more than [`PAIRWISE_MAX`] literals of weight 1.
pub fn below_two(nb: &mut NogoodDbBuilder, lits: &[(i32, i64)]) -> bool {
    let ones = lits.iter().filter(|&&(_, w)| w == 1).count();
    if ones > PAIRWISE_MAX || lits.iter().any(|&(_, w)| w < 1) {
        return false;
    }
    let mut vars: Vec<u32> = lits.iter().map(|&(l, _)| l.unsigned_abs()).collect();
    vars.sort_unstable();
    if vars.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    for (i, &(l, w)) in lits.iter().enumerate() {
        if w >= 2 {
            nb.add(&[holds(l)], Origin::Aggregate);
            continue;
        }
        for &(m, v) in &lits[i + 1..] {
            if v == 1 {
                nb.add(&[holds(l), holds(m)], Origin::Aggregate);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nogoods::aggregate::tests::sum_and_ok;

    /// The pairwise form says exactly `Σ < 2`: over every assignment of the atoms, no nogood
    /// is violated iff the sum stays below 2; a sum it cannot take adds nothing.
    #[test]
    fn below_two_is_the_sums_negation() {
        // (lits, taken): taken when the pairwise form applies.
        let cases: [(&[(i32, i64)], bool); 6] = [
            (&[(1, 1), (-2, 1), (3, 1), (-4, 1)], true), // at most one of a, not b, c, not d
            (&[(1, 1), (2, 3), (-3, 1)], true),          // b alone reaches 2: a unit
            (&[(1, 2), (-2, 2)], true),                  // units only
            (&[(1, 1), (-1, 1), (2, 1)], false),         // a variable twice
            (&[(1, 1), (2, 0)], false),                  // a weight below 1
            (&[(1, 1); 11], false),                      // past PAIRWISE_MAX (and repeats)
        ];
        for (lits, taken) in cases {
            let mut nb = NogoodDbBuilder::new();
            nb.reserve_vars(4);
            assert_eq!(below_two(&mut nb, lits), taken, "{lits:?}");
            let db = nb.build();
            if !taken {
                assert_eq!(db.len(), 0, "{lits:?}: nothing added when not taken");
                continue;
            }
            for bits in 0..16u32 {
                let (sum, ok) = sum_and_ok(&db, lits, bits);
                assert_eq!(ok, sum < 2, "{lits:?}, bits {bits:04b}");
            }
        }
    }
}
