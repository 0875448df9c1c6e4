//! The host engine's search loop (the paper's Algorithm 1) and where it looks at its limits:
//! conflict → analyse → backjump; else integrate a pending nogood; else restart?; else decide;
//! else the assignment is total: check it for unfounded atoms (unless the source pointers have
//! shown there are none) and report it as a model.
//!
//! Invariant: the loop returns only at a fixpoint of propagation or right after a conflict's
//! analysis (a model, `Exhausted`, `Stopped` at a look at the limits, `Limit` at the solve
//! limit), so the engine can be called again from where it stopped.

use super::assign::NO_REASON;
use super::assume;
use super::decide::Decision;
use super::integrate::Added;
use super::store::Kind;
use super::CpuEngine;
use crate::engine::{Limits, Step};

impl CpuEngine {
    /// The search loop (Algorithm 1): conflict → analyse → backjump; else integrate a pending
    /// nogood; else restart?; else decide; else the assignment is total: check it for
    /// unfounded atoms, and report it as a model.
    pub(super) fn search(&mut self, limits: &Limits) -> Step {
        if let Some(b) = self.block.take() {
            self.pending.push(b);
        }
        loop {
            if std::mem::take(&mut self.flip_due) && !self.flip() {
                self.unsat = true;
            }
            if self.unsat {
                self.core = Some(Vec::new()); // no model at all, whatever is assumed
                return Step::Exhausted;
            }
            // Unit propagation with the native sums (`sums`), then unfounded-set propagation
            // (`source`, `loops`); the latter may find no model.
            if let Some(confl) = self.conflict.take().or_else(|| self.propagate_all()) {
                self.stats.conflicts += 1;
                if self.bt && self.a.level() <= self.bl {
                    // The branch below the highest decision is exhausted (`enum_bt`).
                    self.flip_due = true;
                    continue;
                }
                if self.a.level() == 0 || !self.resolve(confl) {
                    self.unsat = true;
                    continue;
                }
                self.scores.decay();
                self.reduce_if_due();
                // `--solve-limit` (below too): conflicts in a row reach no fixpoint between.
                if self.limit_reached() {
                    return Step::Limit;
                }
                if self.tick(limits) {
                    return Step::Stopped;
                }
                continue;
            }
            if self.unsat {
                continue;
            }
            // `--solve-limit`, at a fixpoint: a conflict at level 0 still proves no model (as
            // clasp's), and a limit of 0 conflicts decides nothing.
            if self.limit_reached() {
                return Step::Limit;
            }
            if let Some(ng) = self.pending.pop() {
                match self.integrate(&ng, Kind::Permanent, 0) {
                    Added::Unsat => self.unsat = true,
                    Added::Conflict(r) => self.conflict = Some(r),
                    Added::Ok => {}
                }
                continue;
            }
            let switched = self
                .switch
                .as_mut()
                .is_some_and(|s| s.due(self.stats.conflicts, &mut self.phases));
            let turn = self
                .turns
                .as_mut()
                .is_some_and(|t| t.due(self.stats.conflicts, self.vars));
            if self.restarts.due(self.stats.conflicts) || switched || turn {
                self.stats.restarts += 1;
                self.backtrack(0);
                self.restarts.restarted();
                if turn {
                    self.switch_decisions();
                }
                self.import();
                continue;
            }
            self.sums_collect_if_due(); // (agg) a safe point: no NgRef held
            self.watches.compact_if_wasteful(); // no scan under way
            let assumed = match self.next_assumption() {
                assume::Assumed::AllHold => None,
                assume::Assumed::Decide(l) => Some(l),
                assume::Assumed::False(l) => {
                    self.core = Some(self.analyse_final(l));
                    return Step::Exhausted;
                }
            };
            let decision = match assumed {
                Some(l) => Decision::Lit(l),
                None => self.decide(),
            };
            match decision {
                Decision::Lit(lit) => {
                    self.stats.decisions += 1;
                    self.a.lim.push(self.a.trail.len() as u32);
                    self.assign(lit, NO_REASON);
                    self.max_level = self.max_level.max(self.a.level());
                    if self.tick(limits) {
                        return Step::Stopped;
                    }
                    continue;
                }
                Decision::Later if limits.reached() => return Step::Stopped,
                Decision::Later => continue,
                Decision::Total => {}
            }
            // With exact source pointers the fixpoint holds no unfounded set (`source`).
            let loops = match self.src.exact() {
                true => Vec::new(),
                false => self.unfounded_check(),
            };
            debug_assert!(!self.src.exact() || self.unfounded_check().is_empty());
            if !loops.is_empty() {
                self.stats.loop_nogoods += loops.len() as u64;
                self.pending.extend(loops);
                continue;
            }
            debug_assert!(
                self.violated().is_none(),
                "a total assignment violates a nogood"
            );
            self.stats.models += 1;
            let model = self.model();
            self.last_costs = self.objective_costs();
            match self.bt {
                true => self.flip_due = true,
                false => self.block = Some(self.blocking_nogood()),
            }
            return Step::Model(model);
        }
    }

    /// `--solve-limit` (`HostOptions::limit`): the conflicts or restarts so far reach it.
    #[inline]
    fn limit_reached(&self) -> bool {
        let s = &self.stats;
        self.opts.limit.reached(s.conflicts, s.restarts)
    }

    /// Count conflicts and decisions; true when the limits say stop.
    fn tick(&mut self, limits: &Limits) -> bool {
        if !self.looks.due() {
            return false;
        }
        limits.report(&self.stats); // the progress line (`--progress`)
        limits.reached()
    }
}
