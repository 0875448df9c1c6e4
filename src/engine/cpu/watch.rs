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
//! satisfied and is skipped without touching the arena. Propagation allocates nothing: a long
//! list is taken, filtered in place and put back, a binary one is read in place; values are
//! read without bounds checks (every literal of a stored nogood is a variable of the
//! assignment, checked in debug builds).

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
        lists[w0.code() as usize].push(Watch { blocker: w1, ng: r });
        lists[w1.code() as usize].push(Watch { blocker: w0, ng: r });
    }

    /// Unit propagation to fixpoint; returns a violated nogood, if any. (Not inlined: the
    /// profile then shows propagation apart from the search loop.)
    #[inline(never)]
    pub(super) fn propagate(&mut self) -> Option<NgRef> {
        while self.a.qhead < self.a.trail.len() {
            let p = self.a.trail[self.a.qhead];
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
        // Indexed afresh at each step rather than taken out of `bins`: `imply` never touches the
        // binary lists, and most lists are short, so the reload is cheaper than moving the
        // vector out and back.
        let code = p.code() as usize;
        let n = self.bins[code].len();
        for k in 0..n {
            // SAFETY: `bins[code]` keeps its n entries through the loop (only `attach` and
            // `collect_garbage` change binary lists, neither runs during propagation).
            let w = unsafe { *self.bins.get_unchecked(code).get_unchecked(k) };
            match val(&self.a.vals, w.blocker) {
                v if v < 0 => {}
                0 => self.imply(w.blocker.negate(), w.ng),
                _ => return Some(w.ng),
            }
        }
        None
    }

    /// The long nogoods watched by `p`, which just started to hold.
    #[inline]
    fn propagate_long(&mut self, p: Lit) -> Option<NgRef> {
        if self.watches[p.code() as usize].is_empty() {
            return None;
        }
        let mut conflict = None;
        let mut ws = std::mem::take(&mut self.watches[p.code() as usize]);
        let (mut i, mut j) = (0, 0);
        while i < ws.len() {
            // SAFETY: i < ws.len() (the loop condition) and j <= i, so after `i += 1` each write
            // at j below is in bounds (j never passes i).
            let w = unsafe { *ws.get_unchecked(i) };
            i += 1;
            if val(&self.a.vals, w.blocker) < 0 {
                unsafe { *ws.get_unchecked_mut(j) = w };
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
                unsafe {
                    *ws.get_unchecked_mut(j) = Watch {
                        blocker: first,
                        ng: r,
                    }
                };
                j += 1;
                continue;
            }
            // A literal that does not hold replaces `p` as the second watch.
            let mut moved = false;
            for k in 2..lits.len() {
                let l = lits[k];
                if val(&self.a.vals, l) <= 0 {
                    lits[1] = l;
                    lits[k] = p;
                    self.watches[l.code() as usize].push(Watch {
                        blocker: first,
                        ng: r,
                    });
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            unsafe {
                *ws.get_unchecked_mut(j) = Watch {
                    blocker: first,
                    ng: r,
                }
            };
            j += 1;
            if val(&self.a.vals, first) > 0 {
                conflict = Some(r);
                break;
            }
            self.imply(first.negate(), r);
        }
        // Keep the watches not yet visited when a conflict cut the scan short.
        while i < ws.len() {
            ws[j] = ws[i];
            i += 1;
            j += 1;
        }
        ws.truncate(j);
        self.watches[p.code() as usize] = ws;
        conflict
    }

    /// `l` holds because nogood `r` would otherwise be violated.
    #[inline]
    fn imply(&mut self, l: Lit, r: NgRef) {
        self.stats.propagations += 1;
        self.assign(l, r);
    }
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
