//! Branch and bound on the many-searches engine, the host's side: the bound the searches keep
//! (`kernels/search/objective.cuh`) as the global words the host writes, and which models may
//! still be reported.
//!
//! A bound (`engine::Bound`) becomes `admitted`, the largest folded cost it allows
//! (`folded_objective.rs`), and the kernel's `k = admitted + 1`. A tighter bound is written to
//! device memory between slices, with a new epoch: every search reads it at the start of its
//! next slice and goes on from where it is (a search already past it gets the conflict there).
//! A looser one (optN's second phase) cannot keep what the searches learned under the tighter
//! one, so the engine starts them all afresh ([`Change::Looser`]).
//!
//! Invariant: a model is reported only if its costs (recomputed from its atoms, never read
//! from the device) are within the current bound — a search may hold a model found under an
//! older bound when the host takes it, and that model is then dropped.

use super::folded_objective::DeviceObjective;
use crate::analyse::Objective;
use crate::engine::Bound;

/// What a new bound asks of the searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The same folded bound: nothing.
    Same,
    /// Fewer costs admitted: write the new words.
    Tighter,
    /// Costs admitted that an earlier bound excluded: start every search afresh.
    Looser,
}

#[derive(Debug)]
pub struct BranchBound {
    objective: Objective,
    folded: DeviceObjective,
    /// The largest folded cost admitted (`-1`: none).
    admitted: i64,
    epoch: u32,
    /// The costs of the model last reported.
    pub last_costs: Option<Vec<i64>>,
}

impl BranchBound {
    /// An error when the levels cannot be folded into one 64-bit sum.
    pub fn new(objective: &Objective) -> Result<BranchBound, String> {
        let folded = DeviceObjective::new(objective)?;
        Ok(BranchBound {
            objective: objective.clone(),
            admitted: folded.max,
            folded,
            epoch: 0,
            last_costs: None,
        })
    }

    /// The literals the kernel sums, with their folded weights.
    pub fn lits(&self) -> &[(crate::lit::Lit, i64)] {
        &self.folded.lits
    }

    /// The global words from `YSM_G_OBJ_K` on: `k` (low, high) and the epoch.
    pub fn words(&self) -> [u32; 3] {
        let k = (self.admitted + 1) as u64;
        [k as u32, (k >> 32) as u32, self.epoch]
    }

    /// The costs of the model `atoms` (sorted), if the current bound admits them.
    pub fn admits(&self, atoms: &[u32]) -> Option<Vec<i64>> {
        let costs = self
            .objective
            .costs(|l| atoms.binary_search(&l.var()).is_ok() == l.is_true());
        (self.folded.fold(&costs) <= self.admitted).then_some(costs)
    }

    /// Take bound `b`.
    pub fn set(&mut self, b: &Bound) -> Change {
        let admitted = self.folded.max_admitted(b);
        let change = match admitted.cmp(&self.admitted) {
            std::cmp::Ordering::Equal => return Change::Same,
            std::cmp::Ordering::Less => Change::Tighter,
            std::cmp::Ordering::Greater => Change::Looser,
        };
        self.admitted = admitted;
        self.epoch = self.epoch.wrapping_add(1);
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::objective::Level;
    use crate::lit::Lit;

    #[test]
    fn bounds_tighten_loosen_and_filter_models() {
        // Level 0: a1 (2), not a2 (-1); level 1: a2 (1).
        let o = Objective {
            levels: vec![
                Level {
                    priority: 1,
                    lits: vec![(Lit::t(1), 2), (Lit::f(2), -1)],
                },
                Level {
                    priority: 0,
                    lits: vec![(Lit::t(2), 1)],
                },
            ],
        };
        let mut opt = BranchBound::new(&o).unwrap();
        assert_eq!(opt.admits(&[1]), Some(vec![1, 0]));
        assert_eq!(opt.admits(&[2]), Some(vec![0, 1]));
        let bound = |c: &[i64], strict| Bound {
            costs: c.iter().map(|&x| Some(x)).collect(),
            strict,
        };
        assert_eq!(opt.set(&bound(&[1, 0], true)), Change::Tighter);
        assert_eq!(opt.admits(&[1]), None);
        assert_eq!(opt.admits(&[1, 2]), None); // (2, 1)
        assert_eq!(opt.admits(&[]), Some(vec![-1, 0]));
        let [lo, hi, epoch] = opt.words();
        assert_eq!((hi, epoch), (0, 1));
        let k = lo as i64;
        assert_eq!(opt.set(&bound(&[1, 0], true)), Change::Same);
        assert_eq!(opt.set(&bound(&[1, 0], false)), Change::Looser);
        assert_eq!(opt.words()[0] as i64, k + 1);
        assert_eq!(opt.admits(&[1]), Some(vec![1, 0]));
        // Nothing admitted: k = 0, every search ends at level 1.
        assert_eq!(opt.set(&bound(&[-2], false)), Change::Tighter);
        assert_eq!(opt.words()[..2], [0, 0]);
    }
}
