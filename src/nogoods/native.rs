//! Sum bodies kept as native constraints for the engines' counter propagators
//! (`engine/cpu/sums.rs`, `kernels/search/sums.cuh`) instead of being translated to nogoods.
//!
//! A [`NativeSum`] groups every body `bⱼ ↔ Σ wᵢ·[lᵢ] ≥ kⱼ` over one list of weighted literals
//! (gringo writes `#sum{…} = Q` and `#sum{…} >= P` for many `P` as one body per bound over the
//! same literals; incsched has one sum of ~3,000 literals with ~650 bounds). The nogood
//! database then holds, for these bodies, only the *chain* `b_{j+1} → bⱼ` (bounds ascending;
//! equal bounds both ways) and units for bounds that are constant; the counting itself is the
//! propagator's. The chain is implied by the sums, so it adds no solutions; it lets the
//! propagator act on the extreme bounds only (the largest bound the true weight reaches, the
//! smallest one the possible weight misses) and leave the others to unit propagation.
//!
//! Invariant: a total assignment satisfies the stored nogoods and every [`NativeSum`] (each
//! `bⱼ` true iff the weight of its true literals reaches `kⱼ`) iff it satisfies the translation
//! of [`super::aggregate`]; `bounds` is sorted by bound, every bound is in `1..=total` and
//! every weight is positive.

use super::db::{NogoodDbBuilder, Origin};
use crate::lit::{holds, Lit, Var};
use std::collections::HashMap;

/// One list of weighted literals and the body variables of its bounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NativeSum {
    /// Solver literal "the program literal holds", with its weight (> 0).
    pub lits: Vec<(Lit, i64)>,
    /// `(kⱼ, bⱼ)`: `bⱼ ↔ Σ ≥ kⱼ`, ascending in `kⱼ`, `1 ≤ kⱼ ≤ Σ wᵢ`.
    pub bounds: Vec<(i64, Var)>,
}

/// Collects sum bodies by their weighted literals.
#[derive(Debug, Default)]
pub struct NativeSums {
    index: HashMap<Vec<(i32, i64)>, usize>,
    sums: Vec<NativeSum>,
}

impl NativeSums {
    /// Record `b ↔ Σ w·[l] ≥ lower` (weights > 0). Constant bodies become units at once.
    pub fn add(&mut self, nb: &mut NogoodDbBuilder, b: Var, lower: i64, lits: &[(i32, i64)]) {
        let total: i64 = lits.iter().map(|&(_, w)| w).sum();
        if lower <= 0 {
            nb.add(&[Lit::f(b)], Origin::Aggregate); // the sum always reaches it: b
            return;
        }
        if lower > total {
            nb.add(&[Lit::t(b)], Origin::Aggregate); // it never does: not b
            return;
        }
        let k = *self.index.entry(lits.to_vec()).or_insert_with(|| {
            self.sums.push(NativeSum {
                lits: lits.iter().map(|&(l, w)| (nb.map(holds(l)), w)).collect(),
                bounds: Vec::new(),
            });
            self.sums.len() - 1
        });
        self.sums[k].bounds.push((lower, b));
    }

    /// Sort the bounds, add the chain nogoods, and hand the sums over.
    pub fn finish(mut self, nb: &mut NogoodDbBuilder) -> Vec<NativeSum> {
        for s in &mut self.sums {
            s.bounds.sort_unstable();
            for pair in s.bounds.windows(2) {
                let ((k0, b0), (k1, b1)) = (pair[0], pair[1]);
                // Σ ≥ k1 → Σ ≥ k0 (k0 ≤ k1): {T b1, F b0}
                nb.add(&[Lit::t(b1), Lit::f(b0)], Origin::Aggregate);
                if k0 == k1 {
                    nb.add(&[Lit::t(b0), Lit::f(b1)], Origin::Aggregate);
                }
            }
        }
        std::mem::take(&mut self.sums)
    }
}
