//! Sharing learned nogoods with the other members of a host portfolio
//! (`engine::portfolio::exchange`): short learned nogoods go out as they are learned, the
//! others' come in at restarts.
//!
//! Invariant: only nogoods implied by the program alone leave this engine — nothing is
//! exported once a model was found (a blocking nogood or an optimisation bound may then have
//! taken part in learning); and an imported nogood is added at level 0 through `integrate`,
//! so the watch invariant holds for it as for any nogood added during the search.

use super::integrate::Added;
use super::store::Kind;
use super::CpuEngine;
use crate::engine::portfolio::exchange::{worth_sharing, Port};
use crate::lit::Lit;

impl CpuEngine {
    /// Take part in a portfolio's sharing through `port`.
    pub fn share_through(&mut self, port: Port) {
        self.port = Some(port);
    }

    /// Leave the portfolio's sharing (what is still in the outbox goes out first).
    pub fn stop_sharing(&mut self) {
        if let Some(mut p) = self.port.take() {
            if self.stats.models == 0 {
                p.flush();
            }
        }
    }

    /// A nogood was just learned: offer it when it is short enough.
    pub(super) fn export(&mut self, lits: &[Lit], lbd: u32) {
        let Some(p) = self.port.as_mut() else { return };
        if self.stats.models == 0 && worth_sharing(lits.len(), lbd) {
            p.offer(lits);
            self.stats.shared_out += 1;
        }
    }

    /// At a restart (level 0): publish the outbox and add what the others published.
    pub(super) fn import(&mut self) {
        let Some(p) = self.port.as_mut() else { return };
        debug_assert_eq!(self.a.level(), 0, "imports happen at level 0");
        if self.stats.models == 0 {
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
