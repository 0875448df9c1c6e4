//! The search: one algorithm (CDNL guided by ASP computations, the paper's Algorithm 1), two
//! engines — `cpu`, the sequential reference on the host, and `gpu`, the same loop with kernel
//! launches in place of function calls.
//!
//! Invariant: an engine only ever reports assignments that violate no nogood and (for non-tight
//! programs) contain no unfounded set; successive models of one run are pairwise distinct.

pub mod cpu;
pub mod exchange;
pub mod gpu;
pub mod options;
pub mod restart;
pub mod stats;

pub use options::{
    Decide, DeviceOptions, FwdCut, GpuDecide, Heuristic, HostOptions, Learning, RestartPolicy,
    SaveProgress, SolveLimit, Sums,
};
pub use stats::Stats;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A model: the true atoms of the program (sorted, atoms only, no auxiliaries).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    pub atoms: Vec<u32>,
}

/// What one call of [`Engine::next_model`] ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A new model (distinct from every earlier one).
    Model(Model),
    /// The search space is exhausted: no (further) model exists.
    Exhausted,
    /// Stopped by the time limit or an interrupt before the space was exhausted.
    Stopped,
    /// The engine's solve limit (`SolveLimit`: conflicts or restarts, `--solve-limit`) was
    /// reached before the space was exhausted.
    Limit,
}

/// When to give up: a deadline and a flag set by the Ctrl-C handler.
#[derive(Clone, Debug)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub interrupt: Arc<AtomicBool>,
    /// Where the engine publishes its counters for the progress line (`None` = nobody listens).
    pub progress: Option<Arc<ProgressSink>>,
}

/// Counters an engine publishes while it searches (see [`Limits::report`]). A portfolio gives
/// each member a sink of its own ([`ProgressSink::member`]) and hangs its sink under the run's
/// ([`ProgressSink::adopt`]): the progress line shows the [`ProgressSink::totals`] of the tree.
#[derive(Debug, Default)]
pub struct ProgressSink {
    pub decisions: AtomicU64,
    pub conflicts: AtomicU64,
    pub learned: AtomicU64,
    /// Set by the first [`Limits::report`].
    pub published: AtomicBool,
    members: std::sync::Mutex<Vec<Arc<ProgressSink>>>,
}

impl ProgressSink {
    /// A new sink whose counters this one's totals include.
    pub fn member(&self) -> Arc<ProgressSink> {
        let m = Arc::new(ProgressSink::default());
        self.adopt(m.clone());
        m
    }

    /// Include `sink`'s counters in this one's totals from now on (once: adopting it again
    /// changes nothing).
    pub fn adopt(&self, sink: Arc<ProgressSink>) {
        let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        if !members.iter().any(|m| Arc::ptr_eq(m, &sink)) {
            members.push(sink);
        }
    }

    /// No longer count this sink and its members (their engines stopped, or go on publishing
    /// elsewhere); a later report here counts again.
    pub fn retire(&self) {
        self.published.store(false, Ordering::Relaxed);
        for m in self
            .members
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            m.retire();
        }
    }

    /// Decisions, conflicts and learned nogoods published here and by every member (members'
    /// members too); `None` while nobody has published.
    pub fn totals(&self) -> Option<(u64, u64, u64)> {
        let mut t = self.published.load(Ordering::Relaxed).then(|| {
            (
                self.decisions.load(Ordering::Relaxed),
                self.conflicts.load(Ordering::Relaxed),
                self.learned.load(Ordering::Relaxed),
            )
        });
        for m in self
            .members
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            if let Some((d, c, l)) = m.totals() {
                let (d0, c0, l0) = t.unwrap_or_default();
                t = Some((d0 + d, c0 + c, l0 + l));
            }
        }
        t
    }
}

impl Limits {
    pub fn none() -> Self {
        Limits {
            deadline: None,
            interrupt: Arc::new(AtomicBool::new(false)),
            progress: None,
        }
    }
    /// Publish the counters for the progress line; cheap, call it where `reached` is checked.
    pub fn report(&self, stats: &Stats) {
        if let Some(p) = &self.progress {
            p.decisions.store(stats.decisions, Ordering::Relaxed);
            p.conflicts.store(stats.conflicts, Ordering::Relaxed);
            p.learned.store(stats.learned, Ordering::Relaxed);
            p.published.store(true, Ordering::Relaxed);
        }
    }
    /// Check this every few hundred conflicts or decisions, not on every propagation.
    pub fn reached(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// How often a search loop looks at its [`Limits`]: every `stride` events (conflicts and
/// decisions), the stride adapting so that the looks come about every [`Looks::EVERY`] whatever
/// an event costs (a microsecond on a small program, several milliseconds on one of millions
/// of rules, where a fixed count of events let `--time-limit` run over by a second).
///
/// Invariant: `stride` stays in `1..=MAX_STRIDE`; it doubles after a gap below half of
/// `EVERY` and halves after one above twice `EVERY`, so a look is never more than about
/// `2 * EVERY` plus one event's time late once the stride has settled.
#[derive(Debug)]
pub struct Looks {
    events: u64,
    stride: u64,
    last: Instant,
}

impl Looks {
    pub const EVERY: std::time::Duration = std::time::Duration::from_millis(10);
    const MAX_STRIDE: u64 = 1 << 14;

    pub fn new() -> Self {
        Looks {
            events: 0,
            stride: 1,
            last: Instant::now(),
        }
    }

    /// Count one event; true when it is time to look at the limits.
    #[inline]
    pub fn due(&mut self) -> bool {
        self.events += 1;
        if self.events < self.stride {
            return false;
        }
        self.events = 0;
        let now = Instant::now();
        let gap = now - self.last;
        self.last = now;
        if gap < Self::EVERY / 2 {
            self.stride = (self.stride * 2).min(Self::MAX_STRIDE);
        } else if gap > Self::EVERY * 2 {
            self.stride = (self.stride / 2).max(1);
        }
        true
    }
}

impl Default for Looks {
    fn default() -> Self {
        Looks::new()
    }
}

/// An error that ends the search abnormally (never UNSAT, which is `Step::Exhausted`).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("device error: {0}")]
    Device(String),
    #[error("out of device memory: {0}")]
    OutOfMemory(String),
    #[error("{0} is not supported yet")]
    Unsupported(String),
    /// A broken invariant (a bug), never the user's doing.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Optimisation: which models the search may still report, by their cost vectors (highest
/// priority first, as [`crate::analyse::Objective`] orders its levels).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bound {
    /// Per level, the cost compared with (`None`: unbounded; levels past the end too).
    /// Costs are compared lexicographically.
    pub costs: Vec<Option<i64>>,
    /// Only costs lexicographically below `costs` (branch-and-bound after a model), else at
    /// most `costs` (enumeration of models within a bound, optimal models).
    pub strict: bool,
}

/// Both engines answer the same calls.
pub trait Engine {
    /// Search for the next model; after a model, a blocking nogood (the GPU engine: its
    /// backtracking) excludes it (unless a strict bound set since excludes it already).
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError>;
    fn stats(&self) -> &Stats;
    /// Optimisation: the cost vector of the model last reported (`None`: the engine has no
    /// objective).
    fn costs(&self) -> Option<Vec<i64>> {
        None
    }
    /// Optimisation: from now on report only models within `bound`. A bound that admits a
    /// cost an earlier one excluded (optN's second phase) makes the engine forget what it
    /// learned under the earlier bound.
    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        let _ = bound;
        Err(EngineError::Unsupported("optimization (#minimize)".into()))
    }
    /// Share learned nogoods with a portfolio's host threads through `link` (the GPU engine,
    /// `engine/gpu/host_share.rs`); false when the engine does not.
    fn share_with_host(&mut self, link: exchange::DeviceLink) -> bool {
        let _ = link;
        false
    }
    /// Add `lits` as a nogood before the next search: one every answer set satisfies (a
    /// loop nogood of the minimality check, `wrap::minimality_check`), over the engine's literals.
    /// False when the engine takes no nogoods from outside.
    fn add_nogood(&mut self, lits: &[crate::lit::Lit]) -> bool {
        let _ = lits;
        false
    }
    /// Enumerate from the next model on by backtracking (clasp's `--enum-mode=bt`): flip the
    /// last decision after each model instead of storing a nogood that blocks it, so that
    /// memory and speed do not depend on the models found (`engine/cpu/enum_bt.rs`). Only for
    /// a plain enumeration: no bound, no assumptions and no nogood added from outside from
    /// now on. False when the engine does not (it goes on blocking; the GPU engine enumerates
    /// by backtracking already).
    fn enumerate_by_backtracking(&mut self) -> bool {
        false
    }
    /// Enumerate from the next model on one model per class of models that agree on `atoms`
    /// (input atoms), by projective backtracking (clasp's projective enumeration,
    /// `engine/cpu/enum_bt.rs`): no nogood per class, so memory and speed do not depend on
    /// the classes found. The classes reported before must be blocked already (`add_nogood`);
    /// the same conditions as [`Engine::enumerate_by_backtracking`]. False when the engine
    /// does not (the caller goes on blocking each class).
    fn enumerate_projected(&mut self, atoms: &[u32]) -> bool {
        let _ = atoms;
        false
    }
    /// The value of `atom` at the engine's top level, if it has one there (`None`: open or
    /// not known), for the consequences' estimate.
    fn fixed(&self, atom: u32) -> Option<bool> {
        let _ = atom;
        None
    }
    /// Search under the assumptions `lits` (engine literals) from now on: a model holds them
    /// all, and a search that finds none ends `Step::Exhausted` with a core
    /// ([`Engine::core`]). False when the engine cannot (`engine/cpu/assume.rs` can).
    fn assume(&mut self, lits: &[crate::lit::Lit]) -> bool {
        let _ = lits;
        false
    }
    /// After `Step::Exhausted` under assumptions: assumptions that cannot hold together
    /// (empty: no model at all).
    fn core(&self) -> Option<Vec<crate::lit::Lit>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{Limits, Looks, ProgressSink, Stats};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_portfolios_progress_is_the_sum_of_its_members() {
        let run = Arc::new(ProgressSink::default());
        assert_eq!(run.totals(), None, "nobody published yet");
        let race = Arc::new(ProgressSink::default());
        let (a, b) = (race.member(), race.member());
        run.adopt(race.clone());
        run.adopt(race.clone()); // once only
        let publish = |sink: &Arc<ProgressSink>, decisions, conflicts| {
            let limits = Limits {
                progress: Some(sink.clone()),
                ..Limits::none()
            };
            let stats = Stats {
                decisions,
                conflicts,
                learned: conflicts,
                ..Stats::default()
            };
            limits.report(&stats);
        };
        publish(&a, 10, 3);
        assert_eq!(run.totals(), Some((10, 3, 3)));
        publish(&b, 5, 1);
        publish(&a, 12, 4); // a later report of a member replaces its earlier one
        assert_eq!(run.totals(), Some((17, 5, 5)));
        race.retire();
        assert_eq!(run.totals(), None, "a retired race counts no more");
        publish(&run, 20, 6); // the member that goes on alone, in the run's own sink
        assert_eq!(run.totals(), Some((20, 6, 6)));
    }

    #[test]
    fn looks_come_about_every_ten_milliseconds_whatever_an_event_costs() {
        // Cheap events: the stride grows to its cap, so looking costs next to nothing.
        let mut l = Looks::new();
        let looks = (0..1_000_000).filter(|_| l.due()).count();
        assert_eq!(l.stride, Looks::MAX_STRIDE);
        assert!(looks < 1_000, "{looks} looks in a tight loop");
        // Dear events (25 ms each): it falls back to 1, a look after every event.
        for _ in 0..16 {
            std::thread::sleep(Duration::from_millis(25));
            l.events = l.stride - 1; // as if the stride's events had all been dear
            assert!(l.due());
        }
        assert_eq!(l.stride, 1);
        std::thread::sleep(Duration::from_millis(25));
        assert!(l.due(), "with a stride of 1 every event is a look");
    }
}
