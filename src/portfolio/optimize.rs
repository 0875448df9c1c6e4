//! Optimisation on `-t k` host threads: every thread runs branch and bound on its own (a row of
//! `rows` each), and the best cost any of them found bounds them all — clasp's parallel
//! optimisation. The caller (`run/enumerate.rs`) sees one engine: each model it gets is better
//! than the one before, and `Exhausted` once a thread proved that nothing beats the last one
//! (or `Limit` once one reached its solve limit: every member stops then, as clasp's threads).
//!
//! Invariant: no thread searches before the caller's first call, so a bound given before it
//! (`--opt-mode=opt,B`) holds for every model reported; the bound a thread searches under is
//! never tighter than the best model accepted
//! so far, except by that thread's own model, whose report reaches the caller before anything
//! the thread reports later (one channel, in order); so a thread's proof that nothing beats its
//! bound proves the last accepted model optimal (or, before any model, that none exists). A
//! bound that admits more than the last one (optN's optimal models, after the optimum) ends the
//! race: one thread's engine goes on alone on the caller's thread, forgetting what it learned
//! under the tighter bound, so the optimal models are enumerated once each.
//!
//! Under `--engine=auto` the GPU engine joins as one more member ([`OptRace::add_gpu_later`]):
//! built beside the threads (`gpu_join.rs`) from the device's completion, it searches on the
//! caller's thread in slices of [`POLL`] between looks at the threads' reports, under the
//! caller's newest bound (every bound the caller sets reaches it at once, as it reaches the
//! threads). The GPU engine reports only models within its bound, so each of its models beats
//! the last one accepted; its proof that nothing beats its bound proves the optimum as a
//! thread's does. The members of further GPUs (`--gpus`) are built from the same completion on
//! threads of their own and search there as the host threads do (a member number after theirs,
//! the same reports).

use super::race::{drop_beside, spawn};
use crate::analyse::GroundProgram;
use crate::engine::exchange::Exchange;
use crate::engine::{
    Bound, Engine, EngineError, HostOptions, Limits, Model, ProgressSink, Stats, Step,
};
use crate::nogoods::Completion;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the caller looks at the clock and the Ctrl-C flag while the threads search (and,
/// with a GPU member, at the threads' reports between its slices).
const POLL: Duration = Duration::from_millis(20);

/// How long the end of a race waits for its threads to hand their engines back.
const STOP_WAIT: Duration = Duration::from_millis(200);
/// How long the end of a race at the limits (time, Ctrl-C) waits for its threads' counters.
const LINGER: Duration = Duration::from_millis(30);

/// The GPU member's number in `best` and `proved_by`.
const GPU: u32 = u32::MAX;

/// A member's engine, handed back when it stops.
type MemberEngine = Box<dyn Engine + Send>;

enum Report {
    /// Thread `i` found a model with these costs (it then bounds itself below them).
    Model(u32, Model, Vec<i64>),
    /// Thread `i` proved that no model beats its bound.
    Exhausted(u32),
    /// A member reached its solve limit (`--solve-limit`): the race ends, as clasp's threads
    /// stop when one of them reaches it.
    Limit,
    /// Thread `i` stopped for good; its engine (`None`: not built, or the core-guided member).
    Done(u32, Option<MemberEngine>),
    /// The core-guided member's counters (its engines are its own), sent before `Done`.
    Counts(Box<Stats>),
}

/// What the caller tells the threads.
struct Control {
    /// The caller asked for the first model: the threads may search (an initial bound, set
    /// before, is then in place for all of them).
    go: AtomicBool,
    /// Every thread stops.
    stop: AtomicBool,
    /// Per thread: stop searching and look at the bound (the thread's `Limits::interrupt`);
    /// a further GPU's member adds its own when it joins.
    pokes: Mutex<Vec<Arc<AtomicBool>>>,
    /// The newest bound for everyone, with a version number.
    bound: Mutex<(u64, Option<Bound>)>,
    /// The members' progress counters, each member a sink under this one (hung under the
    /// run's at the first call; retired when one member goes on alone).
    progress: Arc<ProgressSink>,
}

impl Control {
    fn pokes(&self) -> std::sync::MutexGuard<'_, Vec<Arc<AtomicBool>>> {
        self.pokes.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn poke_all(&self) {
        for p in self.pokes().iter() {
            p.store(true, Ordering::Relaxed);
        }
    }
    /// A new member's number (after the others').
    fn join(&self) -> u32 {
        let mut pokes = self.pokes();
        pokes.push(Arc::new(AtomicBool::new(false)));
        pokes.len() as u32 - 1
    }
    fn stop_all(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.poke_all();
    }
    /// Thread `i` waits for the caller's first call (a bound it gives first,
    /// `--opt-mode=opt,B`, must hold for every model a thread reports); its poke and limits.
    fn wait_for_go(&self, i: u32, deadline: Option<Instant>) -> (Arc<AtomicBool>, Limits) {
        while !self.go.load(Ordering::Acquire) && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let poke = self.pokes()[i as usize].clone();
        let limits = Limits {
            deadline,
            interrupt: poke.clone(),
            progress: Some(self.progress.member()),
        };
        (poke, limits)
    }
    fn newer_bound(&self, seen: u64) -> Option<(u64, Bound)> {
        let b = self.bound.lock().unwrap_or_else(|e| e.into_inner());
        match &b.1 {
            Some(bound) if b.0 > seen => Some((b.0, bound.clone())),
            _ => None,
        }
    }
}

pub struct OptRace {
    ctl: Arc<Control>,
    reports: Receiver<Report>,
    rows: Vec<&'static str>,
    /// Threads that have not sent `Done` yet.
    running: usize,
    /// The last model's costs, and the thread that found it.
    best: Option<(Vec<i64>, u32)>,
    /// After the race: one member's engine, alone (`solo_is_gpu`: the GPU member's).
    solo: Option<MemberEngine>,
    solo_is_gpu: bool,
    /// The GPU member while it races, on its way, and its counters once it left.
    gpu: Option<MemberEngine>,
    gpu_pending: Option<GpuPending>,
    gpu_stats: Option<Stats>,
    /// The newest bound the caller set (for a GPU member built later).
    bound: Option<Bound>,
    /// The thread that proved the last model optimal (or that none exists).
    proved_by: Option<u32>,
    /// Counters of the threads that are done.
    done: Stats,
    /// Time in `next_model`: the search time of `stats` while no member searches alone.
    raced: Duration,
    stats: Stats,
    /// For further GPUs' members, until they joined: the reports' sender, the deadline.
    tx: Option<Sender<Report>>,
    deadline: Option<Instant>,
    /// The further GPUs' members: member number, GPU.
    gpu_members: Vec<(u32, u32)>,
    /// The host threads' sharing, when they share (`start`'s `share`).
    exchange: Option<Arc<Exchange>>,
    /// The GPU member's progress sink (under `ctl.progress`).
    gpu_sink: Arc<ProgressSink>,
}

impl OptRace {
    /// Start one thread per entry of `hosts` on `ground` and its (host) `completion`; with
    /// `cores` and two threads or more, the last one optimises by cores with its options (its
    /// optimum, found with no bound, ends the race: only for `--opt-mode=opt` without a bound).
    /// `share`: the branch-and-bound threads share short learned nogoods, bounds and all
    /// (`CpuEngine::share_under_bounds`: only where one optimum is wanted, `--opt-mode=opt`).
    pub fn start(
        ground: GroundProgram,
        completion: Completion,
        mut hosts: Vec<(HostOptions, &'static str)>,
        deadline: Option<Instant>,
        cores: Option<CoreGuided>,
        share: bool,
    ) -> Result<OptRace, EngineError> {
        let cores = cores.filter(|c| hosts.len() >= 2 || c.device.is_some());
        if cores.is_some() {
            cores::make_last_core_guided(&mut hosts);
        }
        let usc_thread = hosts.len() - 1;
        // The threads' engines read one rule graph (`cpu::Shared`), not a copy each.
        let shared = crate::engine::cpu::Shared::new(&ground, &completion);
        let program = Arc::new((ground, completion, shared));
        let ctl = Arc::new(Control {
            go: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            pokes: Mutex::new(
                hosts
                    .iter()
                    .map(|_| Arc::new(AtomicBool::new(false)))
                    .collect(),
            ),
            bound: Mutex::new((0, None)),
            progress: Arc::new(ProgressSink::default()),
        });
        let (tx, rx) = mpsc::channel();
        let rows: Vec<&'static str> = hosts.iter().map(|&(_, name)| name).collect();
        // Sharing needs two branch-and-bound threads (the core-guided one shares nothing).
        let bb_threads = hosts.len() - usize::from(cores.is_some());
        let exchange = (share && bb_threads >= 2).then(|| Exchange::new(hosts.len()));
        let mut running = 0;
        for (i, (opts, _)) in hosts.into_iter().enumerate() {
            let (program, ctl, tx) = (program.clone(), ctl.clone(), tx.clone());
            let name = format!("opt-{i}");
            let usc = cores.clone().filter(|_| i == usc_thread);
            // The core-guided member searches copies of the program: it shares nothing.
            let port = exchange
                .as_ref()
                .filter(|_| usc.is_none())
                .map(|e| e.port(i as u32));
            let started = spawn(&name, move || match usc {
                Some(c) => core_member(i as u32, c, opts, ctl, deadline, tx),
                None => member(i as u32, program, opts, port, ctl, deadline, tx),
            });
            match started {
                Ok(()) => running += 1,
                Err(e) if running > 0 => {
                    eprintln!("*** Warn : (yasmin-rs): {e}; optimising with {running} threads")
                }
                Err(e) => return Err(e),
            }
        }
        Ok(OptRace {
            reports: rx,
            rows,
            running,
            best: None,
            solo: None,
            solo_is_gpu: false,
            gpu: None,
            gpu_pending: None,
            gpu_stats: None,
            bound: None,
            proved_by: None,
            done: Stats::default(),
            raced: Duration::ZERO,
            stats: Stats::default(),
            tx: Some(tx),
            deadline,
            gpu_members: Vec::new(),
            exchange,
            gpu_sink: ctl.progress.member(),
            ctl,
        })
    }

    /// The race is over: member `by` proved its bound optimal; the member that found the best
    /// model stays, alone, for optN's optimal models (`set_bound`).
    fn finish(&mut self, by: u32) {
        self.proved_by = Some(by);
        let keep = self.best.as_ref().map(|&(_, t)| t);
        let gpu = self.gpu_leave(keep == Some(GPU));
        if keep == Some(GPU) {
            self.stop_all(None);
            self.solo = gpu;
            self.solo_is_gpu = self.solo.is_some();
        } else {
            self.solo = self.stop_all(keep);
        }
    }

    /// End the race: every thread stops; the engine of thread `keep` (if any) is returned.
    /// Threads still busy after [`STOP_WAIT`] (the core-guided one building an engine, which
    /// cannot be interrupted) are not waited for once `keep`'s engine is in: they end on their
    /// own, and their reports go nowhere.
    fn stop_all(&mut self, keep: Option<u32>) -> Option<MemberEngine> {
        self.stop_waiting(keep, STOP_WAIT)
    }

    /// The limits passed: every thread stops, and those that do not hand their counters back
    /// within [`LINGER`] (a thread still building its engine) are not waited for.
    fn stop_at_limits(&mut self) {
        self.gpu_leave(false);
        self.stop_waiting(None, LINGER);
    }

    /// [`OptRace::stop_all`], waiting `wait` for the threads that do not answer.
    fn stop_waiting(&mut self, keep: Option<u32>, wait: Duration) -> Option<MemberEngine> {
        self.ctl.stop_all();
        let mut kept = None;
        let until = Instant::now() + wait;
        while self.running > 0 {
            let wait = until.saturating_duration_since(Instant::now());
            let report = match self.reports.recv_timeout(wait.max(POLL)) {
                Ok(r) => Ok(r),
                Err(RecvTimeoutError::Timeout)
                    if Instant::now() >= until && (keep.is_none() || kept.is_some()) =>
                {
                    break;
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => Err(()),
            };
            match report {
                Ok(Report::Done(i, engine)) => {
                    self.running -= 1;
                    match engine {
                        Some(e) if Some(i) == keep => kept = Some(e),
                        Some(e) => {
                            self.done.add_counts(e.stats());
                            drop_beside(e);
                        }
                        None => {}
                    }
                }
                Ok(Report::Counts(s)) => self.done.add_counts(&s),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        kept
    }

    fn refresh_stats(&mut self) {
        let gpu = match &self.gpu {
            Some(g) => Some(g.stats().clone()),
            None => self.gpu_stats.clone(),
        };
        let mut s = match (&self.solo, &gpu) {
            (Some(e), _) => e.stats().clone(),
            (None, Some(g)) => g.clone(),
            (None, None) => Stats::default(),
        };
        if self.solo.is_none() {
            s.search_time = self.raced;
        }
        s.add_counts(&self.done);
        if let (Some(_), Some(g), false) = (&self.solo, &gpu, self.solo_is_gpu) {
            s.add_counts(g);
        }
        let gpus = usize::from(gpu.is_some()) + self.gpu_members.len();
        let on_gpu = |k: u32| match gpus {
            0 | 1 => "the GPU engine".to_string(),
            _ => format!("the GPU engine on GPU {k}"),
        };
        let thread = |i: u32| match i {
            GPU => on_gpu(0),
            i => match self.gpu_members.iter().find(|&&(m, _)| m == i) {
                Some(&(_, k)) => on_gpu(k),
                None => format!("CPU thread {i} ({})", self.rows[i as usize]),
            },
        };
        let mut who = match &self.best {
            Some((_, i)) => format!("last model from {}", thread(*i)),
            None => "no model".into(),
        };
        if let Some(i) = self.proved_by {
            who.push_str(&format!(", proof from {}", thread(i)));
        }
        let with_gpu = match (&gpu, gpus) {
            (Some(g), 1) => format!(" and the GPU engine ({} searches)", g.gpu_searches),
            (_, 0) => String::new(),
            (_, n) => format!(" and the GPU engine on {n} GPUs"),
        };
        s.portfolio = format!(
            "{who}; members: the CPU engine ({} thread{}{with_gpu}, optimising together)",
            self.rows.len(),
            if self.rows.len() == 1 { "" } else { "s" }
        );
        if let Some(e) = &self.exchange {
            let (out, inn) = e.counts_of(0..self.rows.len());
            s.portfolio.push_str(&format!(
                "; CPU threads shared {out} nogoods, imported {inn}"
            ));
        }
        self.stats = s;
    }

    fn race(&mut self, limits: &Limits) -> Step {
        self.ctl.go.store(true, Ordering::Release);
        if self.gpu_pending.is_none() {
            // No member joins later: the reports end when the members have.
            self.tx = None;
        }
        loop {
            if limits.reached() {
                self.stop_at_limits();
                return Step::Stopped;
            }
            self.poll_gpu();
            // The threads' reports: waited for without a GPU member, else only looked at.
            let report = match self.gpu.is_some() {
                true => self.reports.try_recv().map_err(|e| match e {
                    TryRecvError::Empty => RecvTimeoutError::Timeout,
                    TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                }),
                false => self.reports.recv_timeout(POLL),
            };
            match report {
                Ok(Report::Model(i, model, costs)) => {
                    // A thread's model that another's already beat is dropped.
                    if self.best.as_ref().is_none_or(|(b, _)| costs < *b) {
                        self.best = Some((costs, i));
                        return Step::Model(model);
                    }
                    continue;
                }
                Ok(Report::Exhausted(i)) => {
                    self.finish(i);
                    return Step::Exhausted;
                }
                Ok(Report::Limit) => {
                    self.gpu_leave(false);
                    self.stop_all(None);
                    return Step::Limit;
                }
                Ok(Report::Counts(s)) => {
                    self.done.add_counts(&s);
                    continue;
                }
                Ok(Report::Done(_, engine)) => {
                    self.running -= 1;
                    if let Some(e) = engine {
                        self.done.add_counts(e.stats());
                        drop_beside(e);
                    }
                    if self.running == 0 && self.gpu.is_none() && self.gpu_pending.is_none() {
                        return Step::Stopped;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    if self.gpu.is_none() && self.gpu_pending.is_none() {
                        return Step::Stopped;
                    }
                    if self.gpu.is_none() {
                        std::thread::sleep(POLL);
                    }
                }
            }
            if let Some(step) = self.gpu_slice(limits) {
                return step;
            }
        }
    }
}

impl Engine for OptRace {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let t0 = Instant::now();
        if let Some(p) = &limits.progress {
            p.adopt(self.ctl.progress.clone());
        }
        if self.solo.is_some() {
            // The member alone publishes into the run's sink from now on.
            self.ctl.progress.retire();
        }
        let step = match &mut self.solo {
            Some(e) => e.next_model(limits)?,
            None => self.race(limits),
        };
        self.raced += t0.elapsed();
        self.refresh_stats();
        Ok(step)
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }

    fn costs(&self) -> Option<Vec<i64>> {
        match &self.solo {
            Some(e) => e.costs(),
            None => self.best.as_ref().map(|(c, _)| c.clone()),
        }
    }

    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        if let Some(e) = &mut self.solo {
            return e.set_bound(bound);
        }
        if !bound.strict && self.best.is_some() {
            // More than the last bound admits before the optimum was proved: one member goes
            // on alone, the one that found the best model.
            let keep = self.best.as_ref().map(|&(_, i)| i);
            let gpu = self.gpu_leave(keep == Some(GPU));
            let solo = if keep == Some(GPU) {
                self.stop_all(None);
                self.solo_is_gpu = gpu.is_some();
                gpu
            } else {
                self.stop_all(keep)
            };
            let mut solo = solo.ok_or_else(|| {
                EngineError::Device("the member that found the optimum ended".into())
            })?;
            solo.set_bound(bound)?;
            self.solo = Some(solo);
            return Ok(());
        }
        let mut b = self.ctl.bound.lock().unwrap_or_else(|e| e.into_inner());
        b.0 += 1;
        b.1 = Some(bound.clone());
        drop(b);
        self.ctl.poke_all();
        self.bound = Some(bound.clone());
        if let Some(gpu) = self.gpu.as_mut() {
            if let Err(e) = gpu.set_bound(bound) {
                eprintln!(
                    "*** Warn : (yasmin-rs): the GPU engine failed ({e}); the CPU engine goes on"
                );
                self.gpu_leave(false);
            }
        }
        Ok(())
    }
}

impl Drop for OptRace {
    fn drop(&mut self) {
        self.ctl.stop_all();
    }
}

#[path = "optimize_gpu.rs"]
mod gpu;

#[path = "optimize_members.rs"]
mod members;
use gpu::GpuPending;
use members::member;

#[path = "optimize_cores.rs"]
mod cores;
use cores::core_member;
pub use cores::CoreGuided;

#[cfg(test)]
#[path = "optimize_tests.rs"]
mod tests;
