//! The objective as the many-searches kernel bounds it (`kernels/search/objective.cuh`): every
//! priority level folded into one weighted sum over literals with positive weights, and a
//! bound ([`Bound`], lexicographic over the levels) turned into the largest folded cost it
//! admits.
//!
//! Normalisation (as clasp's and the host engine's, `engine/cpu/optimize.rs`): a negative
//! weight `w` on `l` is `−w` on `¬l` plus the constant `w`; so level `i`'s cost is
//! `constant_i + n_i` with `n_i` in `0..=T_i`, `T_i` the sum of its normalised weights.
//! Folding: with `M_last = 1` and `M_i = M_{i+1}·(T_{i+1} + 1)`, the folded cost
//! `Σ M_i·n_i` orders cost vectors exactly as the lexicographic order does (mixed radix).
//!
//! Invariant: the folded weights are positive, one per literal (a literal on several levels,
//! or twice on one, has the sum of its weights), and the largest folded cost `Σ M_i·T_i` is
//! below 2^62, so no sum of folded weights overflows an `i64` in the kernel. An objective
//! whose levels' ranges do not fit is refused ([`DeviceObjective::new`] fails): the kernel
//! has no lexicographic comparison of its own.

use crate::analyse::Objective;
use crate::engine::Bound;
use crate::lit::Lit;

/// The largest folded cost allowed (exclusive).
const LIMIT: i128 = 1 << 62;

#[derive(Clone, Debug)]
pub struct DeviceObjective {
    /// Per level: the normalisation constant, the range `T_i`, the multiplier `M_i`.
    constant: Vec<i64>,
    total: Vec<i64>,
    mult: Vec<i64>,
    /// Literals with their folded weights (> 0), merged by literal.
    pub lits: Vec<(Lit, i64)>,
    /// The largest folded cost: every literal true.
    pub max: i64,
}

impl DeviceObjective {
    pub fn new(obj: &Objective) -> Result<DeviceObjective, String> {
        let n = obj.levels.len();
        let too_big = || {
            "an objective whose priority levels do not fit one 64-bit sum on the GPU engine \
             (use --engine=cpu)"
                .to_string()
        };
        let mut constant = vec![0i64; n];
        let mut total = vec![0i64; n];
        let mut normal: Vec<Vec<(Lit, i64)>> = Vec::with_capacity(n);
        for (i, lv) in obj.levels.iter().enumerate() {
            let mut lits = Vec::with_capacity(lv.lits.len());
            for &(l, w) in &lv.lits {
                let (l, w) = if w < 0 {
                    constant[i] = constant[i].checked_add(w).ok_or_else(too_big)?;
                    (l.negate(), w.checked_neg().ok_or_else(too_big)?)
                } else {
                    (l, w)
                };
                total[i] = total[i].checked_add(w).ok_or_else(too_big)?;
                lits.push((l, w));
            }
            normal.push(lits);
        }
        let mut mult = vec![1i64; n];
        let mut max: i128 = 0;
        for i in (0..n).rev() {
            if i + 1 < n {
                let m = i128::from(mult[i + 1]) * (i128::from(total[i + 1]) + 1);
                if m >= LIMIT {
                    return Err(too_big());
                }
                mult[i] = m as i64;
            }
            max += i128::from(mult[i]) * i128::from(total[i]);
            if max >= LIMIT {
                return Err(too_big());
            }
        }
        // Fold: one weight per literal (each at most `max`, and their sum is `max`).
        let mut lits: Vec<(Lit, i64)> = normal
            .iter()
            .enumerate()
            .flat_map(|(i, lv)| {
                lv.iter()
                    .map(move |&(l, w)| (l, w))
                    .zip(std::iter::repeat(i))
            })
            .map(|((l, w), i)| (l, w * mult[i]))
            .collect();
        lits.sort_unstable_by_key(|&(l, _)| l.code());
        let mut merged: Vec<(Lit, i64)> = Vec::with_capacity(lits.len());
        for (l, w) in lits {
            match merged.last_mut() {
                Some((m, mw)) if *m == l => *mw += w,
                _ => merged.push((l, w)),
            }
        }
        Ok(DeviceObjective {
            constant,
            total,
            mult,
            lits: merged,
            max: max as i64,
        })
    }

    /// The folded cost of a cost vector (as the program computes it, constants included).
    pub fn fold(&self, costs: &[i64]) -> i64 {
        let f: i128 = costs
            .iter()
            .zip(&self.constant)
            .zip(&self.mult)
            .map(|((&c, &k), &m)| (i128::from(c) - i128::from(k)) * i128::from(m))
            .sum();
        f as i64
    }

    /// The largest folded cost `b` admits, in `-1..=max` (−1: none). A level past the end of
    /// `b.costs`, or `None`, is unbounded from there on; `strict` applies when every level is
    /// bounded and equal, as [`Bound`] says.
    pub fn max_admitted(&self, b: &Bound) -> i64 {
        let n = self.total.len();
        let rest = |from: usize| -> i128 {
            (from..n)
                .map(|j| i128::from(self.mult[j]) * i128::from(self.total[j]))
                .sum()
        };
        let mut acc: i128 = 0;
        for i in 0..n {
            let Some(bi) = b.costs.get(i).copied().flatten() else {
                return (acc + rest(i)) as i64;
            };
            let bi = i128::from(bi) - i128::from(self.constant[i]);
            let (m, t) = (i128::from(self.mult[i]), i128::from(self.total[i]));
            if bi > t {
                return (acc + m * t + rest(i + 1)) as i64;
            }
            if bi < 0 {
                // No cost with this prefix: the largest with a smaller one.
                return (acc - 1) as i64;
            }
            acc += m * bi;
        }
        if b.strict {
            (acc - 1) as i64
        } else {
            acc as i64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::objective::Level;

    fn objective(levels: &[&[(u32, bool, i64)]]) -> Objective {
        Objective {
            levels: levels
                .iter()
                .enumerate()
                .map(|(p, lv)| Level {
                    priority: -(p as i32),
                    lits: lv.iter().map(|&(a, s, w)| (Lit::new(a, s), w)).collect(),
                })
                .collect(),
        }
    }

    /// Every cost vector of the levels' literals (atoms 1..=n, all assignments).
    fn all_costs(o: &Objective, atoms: u32) -> Vec<Vec<i64>> {
        (0..1u32 << atoms)
            .map(|bits| o.costs(|l| (bits >> (l.var() - 1) & 1 == 1) == l.is_true()))
            .collect()
    }

    fn admits(costs: &[i64], b: &Bound) -> bool {
        for (i, &c) in costs.iter().enumerate() {
            match b.costs.get(i).copied().flatten() {
                None => return true,
                Some(x) if c < x => return true,
                Some(x) if c > x => return false,
                Some(_) => {}
            }
        }
        !b.strict
    }

    #[test]
    fn folding_orders_as_the_lexicographic_order_and_bounds_agree() {
        // Two levels, negative weights, a repeated literal, one literal on both levels.
        let o = objective(&[
            &[(1, true, 2), (2, false, -3), (1, true, 1)],
            &[(3, true, -1), (1, true, 4), (2, true, 2)],
        ]);
        let d = DeviceObjective::new(&o).unwrap();
        assert!(d.lits.iter().all(|&(_, w)| w > 0));
        let costs = all_costs(&o, 3);
        for a in &costs {
            for b in &costs {
                assert_eq!(a < b, d.fold(a) < d.fold(b), "{a:?} {b:?}");
            }
            // The fold is the weight of the true literals.
            assert!(d.fold(a) >= 0 && d.fold(a) <= d.max);
        }
        let values: Vec<Option<i64>> = (-6..=6).map(Some).chain([None]).collect();
        for &x in &values {
            for &y in &values {
                for strict in [false, true] {
                    for b in [vec![x, y], vec![x]] {
                        let b = Bound { costs: b, strict };
                        let m = d.max_admitted(&b);
                        for c in &costs {
                            assert_eq!(admits(c, &b), d.fold(c) <= m, "{c:?} {b:?} {m}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ranges_that_do_not_fit_are_refused() {
        let big = 1i64 << 40;
        let o = objective(&[&[(1, true, big)], &[(2, true, big)]]);
        assert!(DeviceObjective::new(&o).is_err());
        let o = objective(&[&[(1, true, i64::MAX)], &[(2, true, i64::MAX)]]);
        assert!(DeviceObjective::new(&o).is_err());
        let o = objective(&[&[(1, true, 1 << 20)], &[(2, true, 1 << 20)]]);
        assert!(DeviceObjective::new(&o).is_ok());
    }
}
