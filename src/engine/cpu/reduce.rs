//! Learned-nogood deletion (keeps the learned database small) and arena compaction.
//!
//! Every `gap` conflicts half of the learned nogoods with LBD > 2 go, worst first (highest LBD,
//! then lowest activity). The gap grows arithmetically, [`FIRST`] + [`GROWTH`]·i after the i-th
//! reduction (clasp's `tweety` grows it by 100 too, `--del-cfl=+,2000,100,20`, but starts over
//! every 20 rounds). Three schedules were run side by side on 40 instances of eight classes, 10 s,
//! the build machine (`benchmarks/results/rows/deletion-schedule-build-machine-10s.jsonl`): +300
//! a round (the earlier one) solved 28 at a median 23.0k conflicts/s, +100 solved 29 at 29.6k,
//! clasp's cycle 26 at 32.3k: the cycle keeps the database smallest and the conflicts cheapest,
//! and loses graceful, knighttour and sokoban instances the larger databases solve. Invariant: a
//! nogood that is the reason of an assigned variable (*locked*), a binary one, or any
//! non-`Learned` nogood (input, loop, blocking) is never deleted; after `Store::collect`
//! every watch and reason refers to the nogood's new place.

use super::assign::NO_REASON;
use super::store::NgRef;
use super::CpuEngine;

const FIRST: u64 = 2000;
const GROWTH: u64 = 100;

#[derive(Debug)]
pub struct Reduce {
    /// The conflict count at which the next reduction is due.
    next: u64,
    /// Reductions so far.
    round: u64,
}

impl Default for Reduce {
    fn default() -> Self {
        Reduce {
            next: FIRST,
            round: 0,
        }
    }
}

impl Reduce {
    /// The gap to the reduction after the one now due (and the schedule moved on by one).
    fn advance(&mut self) -> u64 {
        self.round += 1;
        FIRST + GROWTH * self.round
    }
}

impl CpuEngine {
    pub(super) fn reduce_if_due(&mut self) {
        if self.stats.conflicts < self.reduce.next {
            return;
        }
        self.reduce.next = self.stats.conflicts + self.reduce.advance();
        let mut cands: Vec<NgRef> = self
            .store
            .learned
            .iter()
            .copied()
            .filter(|&r| {
                !self.store.is_deleted(r)
                    && self.store.len(r) > 2
                    && self.store.lbd(r) > 2
                    && !self.locked(r)
            })
            .collect();
        let st = &self.store;
        cands.sort_by(|&x, &y| {
            st.lbd(y)
                .cmp(&st.lbd(x))
                .then(st.activity(x).total_cmp(&st.activity(y)))
        });
        let n = cands.len() / 2;
        for &r in &cands[..n] {
            self.store.delete(r);
        }
        self.stats.deleted += n as u64;
        for i in 0..self.store.learned.len() {
            let r = self.store.learned[i];
            let act = self.store.activity(r) * 0.5;
            self.store.set_activity(r, act);
        }
        if self.store.wasted * 4 > self.store.arena.len() {
            self.collect_garbage();
        }
    }

    /// `r` is the reason of the variable it propagated (at position 0 or 1).
    fn locked(&self, r: NgRef) -> bool {
        self.store.lits(r)[..2].iter().any(|l| {
            let v = l.var() as usize;
            !self.a.is_unassigned(l.var()) && self.a.reason[v] == r
        })
    }

    /// Compact the arena and rewrite watches and reasons.
    pub(super) fn collect_garbage(&mut self) {
        let fwd = self.store.collect();
        let moved = |w: &mut super::watch::Watch| match fwd.get(w.ng) {
            Some(n) => {
                w.ng = n;
                true
            }
            None => false,
        };
        self.watches.retain_mut(moved);
        self.bins.retain_mut(moved);
        for &l in &self.a.trail {
            let v = l.var() as usize;
            let r = self.a.reason[v];
            // (agg) a sum's lazy reason is no nogood yet: nothing to move.
            if r != NO_REASON && r != super::sums::LAZY {
                self.a.reason[v] = fwd.get(r).expect("a reason is never deleted");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_grow_by_growth_each_round() {
        let mut r = Reduce::default();
        let gaps: Vec<u64> = (0..45).map(|_| r.advance()).collect();
        assert_eq!(
            r.next, FIRST,
            "the first reduction comes after FIRST conflicts"
        );
        assert_eq!(gaps[0], FIRST + GROWTH);
        assert!(gaps.windows(2).all(|w| w[1] == w[0] + GROWTH));
    }
}
