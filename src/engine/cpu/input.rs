//! The input nogoods into the store, read under the input's units: a unit nogood fixes its
//! complement at level 0; any other is left out when one of its literals is false there (it can
//! never be violated), loses the literals that hold there, and is watched, or becomes a unit
//! when one literal is left. clasp simplifies its constraints under the top level the same way.
//!
//! Invariant: the level-0 assignment used is made from unit nogoods alone (those of the input
//! and those the reading leaves), all kept in `units`, which `forget` assigns again; so every
//! stored input nogood is equivalent to the input's under any later state of the search.

use super::assign::{Assignment, NO_REASON};
use super::lists::Lists;
use super::store::Kind;
use super::{lits_of, CpuEngine};
use crate::lit::Lit;
use crate::nogoods::NogoodDb;

impl CpuEngine {
    /// Store and watch the input nogoods of `db` (the engine's assignment is empty).
    pub(super) fn load_input(&mut self, db: &NogoodDb) {
        self.store.arena.reserve(db.lits.len() + 3 * db.len());
        for i in 0..db.len() {
            let ng = lits_of(db.nogood(i));
            if ng.len() == 1 {
                self.input_unit(ng[0]);
            }
        }
        let mut kept = Vec::new();
        let mut stored = Vec::new();
        for i in 0..db.len() {
            let ng = lits_of(db.nogood(i));
            if self.unsat {
                break;
            }
            if ng.len() == 1 {
                continue;
            }
            match simplified(&self.a, ng, &mut kept) {
                None => {}
                Some([]) => self.unsat = true,
                Some(&[l]) => self.input_unit(l),
                Some(lits) => stored.push(self.store.add(lits, Kind::Input, 0)),
            }
        }
        // Attached in the order stored, into lists laid out for them first (`Lists::with_room`:
        // the lists they would be after pushes and a compaction, without the copies).
        let n = self.watches.num_lists();
        let (mut bins, mut longs) = (vec![0u32; n], vec![0u32; n]);
        for &r in &stored {
            let lits = self.store.lits(r);
            let counts = if lits.len() == 2 {
                &mut bins
            } else {
                &mut longs
            };
            counts[lits[0].code() as usize] += 1;
            counts[lits[1].code() as usize] += 1;
        }
        self.bins = Lists::with_room(&bins);
        self.watches = Lists::with_room(&longs);
        drop((bins, longs));
        for r in stored {
            self.attach(r);
        }
    }

    /// Unit nogood `{l}`: its complement holds at level 0 (kept in `units`), or the input has
    /// no model.
    fn input_unit(&mut self, l: Lit) {
        if self.a.holds(l) {
            self.unsat = true;
        } else if self.a.is_unassigned(l.var()) {
            self.assign(l.negate(), NO_REASON);
            self.units.push(l.negate());
        }
    }
}

/// Input nogood `ng` under the level-0 assignment `a`: `None` when one of its literals is false
/// (it can never be violated), else its literals that do not hold, in `buf`.
pub(super) fn simplified<'b>(
    a: &Assignment,
    ng: &[Lit],
    buf: &'b mut Vec<Lit>,
) -> Option<&'b [Lit]> {
    buf.clear();
    for &l in ng {
        if a.holds(l) {
            continue;
        }
        if a.is_false(l) {
            return None;
        }
        buf.push(l);
    }
    Some(buf)
}
