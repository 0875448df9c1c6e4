//! Learned-nogood deletion (keeps memory bounded) and arena compaction.
//!
//! Every `next` conflicts (the gap grows by [`GROWTH`] each round), half of the learned
//! nogoods with LBD > 2 go, worst first (highest LBD, then lowest activity). Invariant: a
//! nogood that is the reason of an assigned variable (*locked*), a binary one, or any
//! non-`Learned` nogood (input, loop, blocking) is never deleted; after `Store::collect`
//! every watch and reason refers to the nogood's new place.

use super::assign::NO_REASON;
use super::store::NgRef;
use super::CpuEngine;

const FIRST: u64 = 2000;
const GROWTH: u64 = 300;

#[derive(Debug)]
pub struct Reduce {
    next: u64,
    gap: u64,
}

impl Default for Reduce {
    fn default() -> Self {
        Reduce {
            next: FIRST,
            gap: FIRST,
        }
    }
}

impl CpuEngine {
    pub(super) fn reduce_if_due(&mut self) {
        if self.stats.conflicts < self.reduce.next {
            return;
        }
        self.reduce.gap += GROWTH;
        self.reduce.next = self.stats.conflicts + self.reduce.gap;
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
