//! Two watched literals per nogood and unit propagation over them.
//!
//! A nogood is visited when one of its two watched literals starts to *hold*. Invariant (after
//! propagation reaches its fixpoint without conflict): for every live nogood, either neither
//! watched literal holds, or the nogood is satisfied by a watched literal whose complement was
//! assigned no later than the other watch, or the nogood was unit and its remaining literal's
//! complement was propagated with it as the reason. The `blocker` of a watch is another literal
//! of the nogood: when its complement holds, the nogood is satisfied and is skipped without
//! touching the arena. Binary nogoods are handled from the watch alone (the blocker is the
//! other literal). Propagation allocates nothing: each list is taken, filtered in place and put
//! back.

use super::store::NgRef;
use super::CpuEngine;
use crate::lit::Lit;

/// High bit of `Watch::ng`: the nogood is binary, `blocker` is its other literal.
pub const BINARY: u32 = 1 << 31;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub blocker: Lit,
    /// Nogood reference, with [`BINARY`] set for binaries.
    pub ng: u32,
}

impl CpuEngine {
    /// Watch `lits[0]` and `lits[1]` of nogood `r` (lits as stored).
    pub(super) fn attach(&mut self, r: NgRef) {
        let lits = self.store.lits(r);
        let (w0, w1) = (lits[0], lits[1]);
        let bin = if lits.len() == 2 { BINARY } else { 0 };
        self.watches[w0.code() as usize].push(Watch {
            blocker: w1,
            ng: r | bin,
        });
        self.watches[w1.code() as usize].push(Watch {
            blocker: w0,
            ng: r | bin,
        });
    }

    /// Unit propagation to fixpoint; returns a violated nogood, if any. (Not inlined: the
    /// profile then shows propagation apart from the search loop.)
    #[inline(never)]
    pub(super) fn propagate(&mut self) -> Option<NgRef> {
        let mut conflict = None;
        while conflict.is_none() && self.a.qhead < self.a.trail.len() {
            let p = self.a.trail[self.a.qhead];
            self.a.qhead += 1;
            let mut ws = std::mem::take(&mut self.watches[p.code() as usize]);
            let (mut i, mut j) = (0, 0);
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.a.is_false(w.blocker) {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                if w.ng & BINARY != 0 {
                    ws[j] = w;
                    j += 1;
                    let r = w.ng & !BINARY;
                    if self.a.holds(w.blocker) {
                        conflict = Some(r);
                        break;
                    }
                    self.imply(w.blocker.negate(), r);
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
                if first != w.blocker && self.a.is_false(first) {
                    ws[j] = Watch {
                        blocker: first,
                        ng: r,
                    };
                    j += 1;
                    continue;
                }
                // A literal that does not hold replaces `p` as the second watch.
                let mut moved = false;
                for k in 2..lits.len() {
                    let l = lits[k];
                    if !self.a.holds(l) {
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
                ws[j] = Watch {
                    blocker: first,
                    ng: r,
                };
                j += 1;
                if self.a.holds(first) {
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
        }
        conflict
    }

    /// `l` holds because nogood `r` would otherwise be violated.
    #[inline]
    fn imply(&mut self, l: Lit, r: NgRef) {
        self.stats.propagations += 1;
        self.assign(l, r);
    }
}
