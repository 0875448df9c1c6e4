//! Two watched literals per nogood and unit propagation over them.
//!
//! A nogood is visited when one of its two watched literals starts to *hold*. Invariant (after
//! propagation reaches its fixpoint without conflict): for every live nogood, either neither
//! watched literal holds, or the nogood is satisfied by a watched literal whose complement was
//! assigned no later than the other watch, or the nogood was unit and its remaining literal's
//! complement was propagated with it as the reason. Binary nogoods live in lists of their own
//! (`bins`, by literal: the other literal and the nogood), visited before the long ones of the
//! same literal, so the cheapest implications and conflicts come first and a long nogood's
//! arena words are touched only when no binary settled the matter. The `blocker` of a long
//! nogood's watch is another of its literals: when its complement holds, the nogood is
//! satisfied and is skipped without touching the arena. Both kinds of list lie in a pool each
//! (`lists.rs`: small headers, lists in literal order); propagation allocates nothing but a
//! moved watch's room: a long list is filtered in place, a binary one is read in place; values
//! are read without bounds checks (every literal of a stored nogood is a variable of the
//! assignment, checked in debug builds). While one literal's lists are scanned, the next
//! queued literal's are prefetched, and a literal's list headers are prefetched when it is
//! assigned: on knighttour 0117 a third of the search's time went to waiting for the headers
//! and the lists of each literal taken off the queue.

use super::store::NgRef;
use super::CpuEngine;
use crate::lit::Lit;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub blocker: Lit,
    /// Nogood reference.
    pub ng: u32,
}

impl CpuEngine {
    /// Watch `lits[0]` and `lits[1]` of nogood `r` (lits as stored); a binary one goes to the
    /// binary lists.
    pub(super) fn attach(&mut self, r: NgRef) {
        let lits = self.store.lits(r);
        let (w0, w1) = (lits[0], lits[1]);
        let lists = if lits.len() == 2 {
            &mut self.bins
        } else {
            &mut self.watches
        };
        lists.push(w0.code() as usize, Watch { blocker: w1, ng: r });
        lists.push(w1.code() as usize, Watch { blocker: w0, ng: r });
    }

    /// Unit propagation to fixpoint; returns a violated nogood, if any. (Not inlined: the
    /// profile then shows propagation apart from the search loop.)
    #[inline(never)]
    pub(super) fn propagate(&mut self) -> Option<NgRef> {
        while self.a.qhead < self.a.trail.len() {
            let p = self.a.trail[self.a.qhead];
            // The next literal's lists, while this one's are scanned (its headers were
            // prefetched when it was assigned, `CpuEngine::assign`).
            if let Some(&q) = self.a.trail.get(self.a.qhead + 1) {
                prefetch(self.bins.first_slot(q.code() as usize));
                prefetch(self.watches.first_slot(q.code() as usize));
            }
            self.a.qhead += 1;
            if let Some(c) = self.propagate_bins(p) {
                return Some(c);
            }
            if let Some(c) = self.propagate_long(p) {
                return Some(c);
            }
        }
        None
    }

    /// The binary nogoods of `p`, which just started to hold.
    #[inline]
    fn propagate_bins(&mut self, p: Lit) -> Option<NgRef> {
        // `imply` never touches the binary lists (only `attach` and `collect_garbage` change
        // them, neither runs during propagation), so the span stays valid through the loop.
        let (s, n) = self.bins.span(p.code() as usize);
        for k in s..s + n {
            let w = self.bins.at(k);
            match val(&self.a.vals, w.blocker) {
                v if v < 0 => {}
                0 => self.imply(w.blocker.negate(), w.ng),
                _ => return Some(w.ng),
            }
        }
        None
    }

    /// The long nogoods watched by `p`, which just started to hold. The list is filtered in
    /// place, by pool slot: watches that move go to lists of literals that do not hold, never
    /// to `p`'s own, so the slots of `p`'s list stay put while others grow.
    #[inline]
    fn propagate_long(&mut self, p: Lit) -> Option<NgRef> {
        let code = p.code() as usize;
        let (s, n) = self.watches.span(code);
        if n == 0 {
            return None;
        }
        let mut conflict = None;
        let (mut i, mut j) = (s, s);
        let end = s + n;
        while i < end {
            let w = self.watches.at(i);
            i += 1;
            if val(&self.a.vals, w.blocker) < 0 {
                self.watches.set(j, w);
                j += 1;
                continue;
            }
            let r = w.ng;
            if self.store.is_deleted(r) {
                continue; // drop the watch of a deleted nogood
            }
            let lits = self.store.lits_mut(r);
            if lits[0] == p {
                lits.swap(0, 1);
            }
            let first = lits[0];
            if first != w.blocker && val(&self.a.vals, first) < 0 {
                self.watches.set(
                    j,
                    Watch {
                        blocker: first,
                        ng: r,
                    },
                );
                j += 1;
                continue;
            }
            // A literal that does not hold replaces `p` as the second watch.
            let mut moved = None;
            for k in 2..lits.len() {
                let l = lits[k];
                if val(&self.a.vals, l) <= 0 {
                    lits[1] = l;
                    lits[k] = p;
                    moved = Some(l);
                    break;
                }
            }
            if let Some(l) = moved {
                debug_assert_ne!(l, p, "a watch never moves to the list being scanned");
                self.watches.push(
                    l.code() as usize,
                    Watch {
                        blocker: first,
                        ng: r,
                    },
                );
                continue;
            }
            self.watches.set(
                j,
                Watch {
                    blocker: first,
                    ng: r,
                },
            );
            j += 1;
            if val(&self.a.vals, first) > 0 {
                conflict = Some(r);
                break;
            }
            self.imply(first.negate(), r);
        }
        // Keep the watches not yet visited when a conflict cut the scan short.
        while i < end {
            let w = self.watches.at(i);
            self.watches.set(j, w);
            i += 1;
            j += 1;
        }
        self.watches.truncate(code, j - s);
        conflict
    }

    /// `l` holds because nogood `r` would otherwise be violated.
    #[inline]
    fn imply(&mut self, l: Lit, r: NgRef) {
        self.stats.propagations += 1;
        self.assign(l, r);
    }
}

/// Ask the cache for the line holding `x` (a hint; no effect on what is computed).
#[inline(always)]
pub(super) fn prefetch<T>(x: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing architecturally.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
}

/// The value of `l` in `vals` (1 holds, -1 false, 0 unassigned), unchecked in release builds.
/// A free function over the values alone, so that it can be read while a nogood of the store
/// is borrowed mutably.
#[inline(always)]
fn val(vals: &[i8], l: Lit) -> i8 {
    let i = l.code() as usize;
    debug_assert!(i < vals.len());
    // SAFETY: every literal of a stored nogood and of the trail has a variable below
    // `num_vars`, for which `vals` has both entries (`Assignment::new`).
    unsafe { *vals.get_unchecked(i) }
}
