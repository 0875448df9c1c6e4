//! Adding a nogood in the middle of the search (learned, loop and blocking nogoods).
//!
//! Invariant: on return, the new nogood is watched so that the invariant of [`super::watch`]
//! holds for it: its two watched literals are either both non-holding, or the nogood is
//! satisfied by a watch assigned no later than the other, or it was unit — the engine then
//! backjumped to the highest level among its other literals and propagated the complement of
//! the last one there — or it is violated, in which case the engine backjumped to the highest
//! level of its literals and the caller analyses it as a conflict.

use super::assign::NO_REASON;
use super::store::{Kind, NgRef};
use super::CpuEngine;
use crate::lit::Lit;

pub enum Added {
    Ok,
    /// The nogood is violated at the (new) current level, with ≥ 2 literals of that level.
    Conflict(NgRef),
    /// Violated at level 0 (or empty): no (further) model.
    Unsat,
}

impl CpuEngine {
    pub(super) fn integrate(&mut self, lits: &[Lit], kind: Kind, lbd: u32) -> Added {
        match lits.len() {
            0 => return Added::Unsat,
            1 => return self.integrate_unit(lits[0], kind),
            _ => {}
        }
        let r = self.store.add(lits, kind, lbd);
        // Best watches first: unassigned, then false (latest first), then holding (latest first).
        let a = &self.a;
        let rank = |l: &Lit| -> (u8, std::cmp::Reverse<u32>) {
            match a.value(*l) {
                0 => (0, std::cmp::Reverse(0)),
                v if v < 0 => (1, std::cmp::Reverse(a.level_of(l.var()))),
                _ => (2, std::cmp::Reverse(a.level_of(l.var()))),
            }
        };
        // Only the two best literals matter: select them without sorting the whole nogood.
        let ls = self.store.lits_mut(r);
        for k in 0..2 {
            let best = (k..ls.len())
                .min_by_key(|&i| rank(&ls[i]))
                .expect("len >= 2");
            ls.swap(k, best);
        }
        let (l0, l1) = (ls[0], ls[1]);
        self.attach(r);
        let (v0, v1) = (self.a.value(l0), self.a.value(l1));
        let (lv0, lv1) = (self.a.level_of(l0.var()), self.a.level_of(l1.var()));
        match (v0, v1) {
            // Two non-holding watches: nothing to do.
            (0, 0) | (0, -1) | (-1, -1) => Added::Ok,
            // Unit: every literal but l0 holds.
            (0, _) => self.imply_at(lv1, l0, r),
            // Satisfied by l0 alone; if l0 was falsified after the others held, it is in
            // truth implied at level lv1: re-derive it there so a backjump cannot lose it.
            (-1, _) => {
                if lv0 > lv1 {
                    self.imply_at(lv1, l0, r)
                } else {
                    Added::Ok
                }
            }
            // Violated.
            _ => {
                if lv0 == 0 {
                    return Added::Unsat;
                }
                if lv1 < lv0 {
                    self.imply_at(lv1, l0, r)
                } else {
                    self.backtrack(lv0);
                    Added::Conflict(r)
                }
            }
        }
    }

    /// Backtrack to `lvl` and make ¬l0 hold there with reason `r` (every other literal of `r`
    /// holds at `lvl` or below). Enumerating by backtracking (`enum_bt`) the backtrack may stop
    /// higher, at the backtrack level: then l0 may still be assigned there, false (nothing to
    /// do) or holding (`r` is violated in the branch: a conflict at that level).
    fn imply_at(&mut self, lvl: u32, l0: Lit, r: NgRef) -> Added {
        self.backtrack(lvl);
        if self.a.is_unassigned(l0.var()) {
            self.stats.propagations += 1;
            self.assign(l0.negate(), r);
            Added::Ok
        } else if self.a.holds(l0) {
            Added::Conflict(r)
        } else {
            Added::Ok
        }
    }

    /// A unit nogood `{l}`: `¬l` at level 0. A permanent one is kept with the input's units,
    /// so that `forget` assigns it again (a learned one may depend on the bound).
    fn integrate_unit(&mut self, l: Lit, kind: Kind) -> Added {
        if kind == Kind::Permanent {
            self.units.push(l.negate());
        }
        if self.a.holds(l) && self.a.level_of(l.var()) == 0 {
            return Added::Unsat;
        }
        self.backtrack(0);
        if self.a.is_unassigned(l.var()) {
            self.stats.propagations += 1;
            self.assign(l.negate(), NO_REASON);
        } else if self.a.holds(l) {
            // Enumerating by backtracking, the backtrack stopped at the backtrack level and
            // the branch holds l (`enum_bt`): no model is left in it; the search flips next.
            self.flip_due = true;
        }
        Added::Ok
    }
}
