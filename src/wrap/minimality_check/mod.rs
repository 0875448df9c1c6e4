//! Disjunctive programs that are not head-cycle-free, clasp's way: the inner engine (either
//! engine) searches the shifted program, whose components with a head cycle carry no
//! unfounded-set reasoning (`analyse::minimality`), so it reports every answer set among its
//! candidates; each candidate is then checked for minimality in each such component by a
//! second, smaller search (`tester`), and only the candidates that pass are reported.
//!
//! Invariant: a candidate `M` (a model of the program whose other components are
//! unfounded-free) is reported exactly when no component `C` with a head cycle has a
//! non-empty `U ⊆ C ∩ M` with `M \ U` a model of the reduct `P^M` (then `M` is unfounded-free
//! component by component, hence an answer set: Leone, Rullo & Scarcello 1997; Koch, Leone &
//! Pfeifer 2003). A failed check hands the inner engine loop nogoods of `U` (`tester`), which
//! every answer set satisfies, so the same candidate is not produced again; an engine that
//! takes no nogoods (the GPU engine) still blocks the candidate it reported.

mod tester;

use crate::analyse::Minimality;
use crate::engine::{Bound, Engine, EngineError, HostOptions, Limits, Stats, Step};
use std::time::Instant;

/// Loop nogoods learned per failed check: one per atom of the unfounded set, its first ones
/// (they share their reasons, `tester::Tester::loop_reasons`).
const NOGOODS_PER_FAILURE: usize = 4;

/// An engine whose models are the minimal ones among `inner`'s candidates (`E`: `dyn Engine`,
/// or `dyn Engine + Send` for the host engine built on the preparation's thread).
pub struct Minimal<E: Engine + ?Sized> {
    inner: Box<E>,
    tester: tester::Tester,
    /// The inner engine takes nogoods (`Engine::add_nogood`); false once it refused one.
    learns: bool,
    /// The inner engine's statistics with this engine's counters added.
    stats: Stats,
    checks: u64,
    failed: u64,
    nogoods: u64,
    check_time: std::time::Duration,
}

impl<E: Engine + ?Sized> Minimal<E> {
    /// Wrap `inner`, which searches the program `minimality` was analysed from; the second
    /// searches run the host engine with `opts`.
    pub fn new(inner: Box<E>, minimality: Minimality, num_atoms: u32, opts: HostOptions) -> Self {
        Minimal {
            stats: inner.stats().clone(),
            inner,
            tester: tester::Tester::new(minimality, num_atoms, opts),
            learns: true,
            checks: 0,
            failed: 0,
            nogoods: 0,
            check_time: Default::default(),
        }
    }

    fn update_stats(&mut self) {
        self.stats = self.inner.stats().clone();
        self.stats.minimality_checks = self.checks;
        self.stats.minimality_failed = self.failed;
        self.stats.minimality_nogoods = self.nogoods;
        self.stats.minimality_time = self.check_time;
        self.stats.search_time += self.check_time;
    }
}

impl<E: Engine + ?Sized> Engine for Minimal<E> {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let step = loop {
            let step = self.inner.next_model(limits)?;
            let Step::Model(model) = step else { break step };
            let t = Instant::now();
            self.checks += 1;
            let verdict = self.tester.check(&model.atoms, limits);
            self.check_time += t.elapsed();
            match verdict {
                tester::Verdict::Minimal => break Step::Model(model),
                tester::Verdict::Stopped => break Step::Stopped,
                tester::Verdict::Unfounded(u) => {
                    self.failed += 1;
                    if self.learns {
                        let t = Instant::now();
                        let reasons = self.tester.loop_reasons(&model.atoms, &u);
                        self.check_time += t.elapsed();
                        let Some(reasons) = reasons else { continue };
                        for &a in u.iter().take(NOGOODS_PER_FAILURE) {
                            let ng = tester::Tester::loop_nogood(&reasons, a);
                            if !self.inner.add_nogood(&ng) {
                                self.learns = false;
                                break;
                            }
                            self.nogoods += 1;
                        }
                    }
                }
            }
        };
        self.update_stats();
        Ok(step)
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }

    fn costs(&self) -> Option<Vec<i64>> {
        self.inner.costs()
    }

    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        self.inner.set_bound(bound)
    }

    fn fixed(&self, atom: u32) -> Option<bool> {
        self.inner.fixed(atom)
    }

    fn add_nogood(&mut self, lits: &[crate::lit::Lit]) -> bool {
        self.inner.add_nogood(lits)
    }
}

#[cfg(test)]
mod tests;
