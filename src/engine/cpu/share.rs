//! Sharing learned nogoods with the other members of a host portfolio
//! (`engine::exchange`): short learned nogoods go out as they are learned, the
//! others' come in at restarts.
//!
//! Invariant: only nogoods implied by the program alone leave this engine — nothing is
//! exported once a model was found (a blocking nogood or an optimisation bound may then have
//! taken part in learning) — except in the optimisation race of `--opt-mode=opt`
//! ([`CpuEngine::share_under_bounds`]), where every nogood that leaves is implied by the
//! program and "cost below B" for a cost B some member's model reached; and an imported
//! nogood is added at level 0 through `integrate`, so the watch invariant holds for it as for
//! any nogood added during the search.

use super::integrate::Added;
use super::store::Kind;
use super::CpuEngine;
use crate::engine::exchange::{worth_sharing, Port};
use crate::lit::Lit;

impl CpuEngine {
    /// Take part in a portfolio's sharing through `port`.
    pub fn share_through(&mut self, port: Port) {
        self.port = Some(port);
    }

    /// Take part in the sharing of an optimisation race looking for one optimum
    /// (`--opt-mode=opt`): nogoods go on leaving after models and under bounds. Sound there
    /// because every bound a member searches under is strict and below the cost of a model some
    /// member found (its own, or the race's common bound), so a nogood it learns is implied by
    /// the program and "cost < B" with B at least the race's best cost: it removes no model
    /// better than the best, which is all the race looks for, and a member that proves its
    /// bound unreachable with imported nogoods proves that nothing beats the best.
    /// Not for `optN` or enumeration, where models of the best cost are still wanted.
    pub fn share_under_bounds(&mut self, port: Port) {
        self.port = Some(port);
        self.share_bounded = true;
    }

    /// Nogoods may still leave: no model found yet, or sharing under bounds.
    fn may_export(&self) -> bool {
        self.stats.models == 0 || self.share_bounded
    }

    /// Leave the portfolio's sharing (what is still in the outbox goes out first).
    pub fn stop_sharing(&mut self) {
        let may = self.may_export();
        if let Some(mut p) = self.port.take() {
            if may {
                p.flush();
            }
        }
    }

    /// A nogood was just learned: offer it when it is short enough.
    pub(super) fn export(&mut self, lits: &[Lit], lbd: u32) {
        let may = self.may_export();
        let Some(p) = self.port.as_mut() else { return };
        if may && worth_sharing(lits.len(), lbd) {
            p.offer(lits);
            self.stats.shared_out += 1;
        }
    }

    /// At a restart (level 0): publish the outbox and add what the others published.
    pub(super) fn import(&mut self) {
        let may = self.may_export();
        let Some(p) = self.port.as_mut() else { return };
        debug_assert_eq!(self.a.level(), 0, "imports happen at level 0");
        if may {
            p.flush();
        }
        let mut got = std::mem::take(&mut self.inbox);
        got.clear();
        p.collect(&mut got);
        for ng in &got {
            if self.unsat || self.conflict.is_some() {
                break;
            }
            // A literal false at level 0 satisfies the nogood for good.
            if ng.iter().any(|&l| self.a.value(l) < 0) {
                continue;
            }
            self.stats.shared_in += 1;
            match self.integrate(ng, Kind::Learned, ng.len() as u32) {
                Added::Ok => {}
                Added::Unsat => self.unsat = true,
                Added::Conflict(r) => self.conflict = Some(r),
            }
        }
        self.inbox = got;
    }
}
