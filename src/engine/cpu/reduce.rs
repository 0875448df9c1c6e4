//! Learned-nogood deletion (keeps memory bounded) and arena compaction.
//!
//! Every `gap` conflicts half of the learned nogoods with LBD > 2 go, worst first (highest LBD,
//! then lowest activity). The gap follows clasp's schedule for ASP programs (its `tweety`
//! configuration, `--del-cfl=+,2000,100,20`): [`FIRST`] + [`GROWTH`]·i for i = 0..[`CYCLE`], then
//! again from [`FIRST`], each cycle one round longer than the one before, so the number of
//! learned nogoods stays bounded however long the search runs (a gap growing without bound let
//! it grow with the run: graphcol 0030 made 19.6k conflicts/s with +300 per round, 26.0k with
//! +100, on the build machine). Invariant: a
//! nogood that is the reason of an assigned variable (*locked*), a binary one, or any
//! non-`Learned` nogood (input, loop, blocking) is never deleted; after `Store::collect`
//! every watch and reason refers to the nogood's new place.

use super::assign::NO_REASON;
use super::store::NgRef;
use super::CpuEngine;

const FIRST: u64 = 2000;
const GROWTH: u64 = 100;
const CYCLE: u64 = 20;

#[derive(Debug)]
pub struct Reduce {
    /// The conflict count at which the next reduction is due.
    next: u64,
    /// Rounds into the current cycle, and the current cycle's length.
    round: u64,
    cycle: u64,
}

impl Default for Reduce {
    fn default() -> Self {
        Reduce {
            next: FIRST,
            round: 0,
            cycle: CYCLE,
        }
    }
}

impl Reduce {
    /// The gap to the reduction after the one now due (and the schedule moved on by one).
    fn advance(&mut self) -> u64 {
        self.round += 1;
        if self.round == self.cycle {
            self.round = 0;
            self.cycle += 1;
        }
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
        for list in self.watches.iter_mut().chain(self.bins.iter_mut()) {
            list.retain_mut(|w| match fwd.get(w.ng) {
                Some(n) => {
                    w.ng = n;
                    true
                }
                None => false,
            });
        }
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
    fn gaps_follow_clasps_cyclic_arithmetic_schedule() {
        let mut r = Reduce::default();
        let gaps: Vec<u64> = (0..45).map(|_| r.advance()).collect();
        // The first reduction comes after FIRST conflicts; then 2100 .. 3900 (19 gaps) closes
        // the first cycle of 20 rounds, and the second cycle (21 rounds) starts again at FIRST.
        assert_eq!(r.next, FIRST);
        assert_eq!(gaps[0], 2100);
        assert_eq!(gaps[18], 3900);
        assert_eq!(gaps[19], 2000);
        assert_eq!(gaps[39], 4000);
        assert_eq!(gaps[40], 2000);
        assert!(gaps
            .iter()
            .all(|&g| (FIRST..=FIRST + GROWTH * 21).contains(&g)));
    }
}
