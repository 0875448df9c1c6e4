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
            (0, _) => {
                self.backtrack(lv1);
                self.stats.propagations += 1;
                self.assign(l0.negate(), r);
                Added::Ok
            }
            // Satisfied by l0 alone; if l0 was falsified after the others held, it is in
            // truth implied at level lv1: re-derive it there so a backjump cannot lose it.
            (-1, _) => {
                if lv0 > lv1 {
                    self.backtrack(lv1);
                    self.stats.propagations += 1;
                    self.assign(l0.negate(), r);
                }
                Added::Ok
            }
            // Violated.
            _ => {
                if lv0 == 0 {
                    return Added::Unsat;
                }
                if lv1 < lv0 {
                    self.backtrack(lv1);
                    self.stats.propagations += 1;
                    self.assign(l0.negate(), r);
                    Added::Ok
                } else {
                    self.backtrack(lv0);
                    Added::Conflict(r)
                }
            }
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
        }
        Added::Ok
    }
}
