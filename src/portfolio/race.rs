//! The whole machine as one portfolio: the GPU engine's searches on the calling thread and the
//! host engine on `k` threads of their own (`-t k`, each a row of `rows`, sharing short learned
//! nogoods through an `Exchange`), racing for the first answer. The host members prepare their
//! completion (native sums) on a thread while the GPU engine is built, and start searching as
//! soon as it is ready; without a GPU member the race is the host threads alone
//! (`--engine=cpu -t k`).
//!
//! The GPU member joins the exchange too (`exchange::DeviceLink`): between its time slices the
//! host pulls the device's shared nogoods into the ring and pushes the ring's into the device,
//! once the host threads' completion is known to be the device's (`exchange::variable_space`).
//!
//! The GPU member is built off the calling thread (`gpu_join.rs`), so the race can end at the
//! time limit while it is still being built: the host threads' answer (or none) is then the
//! race's.
//!
//! On a machine with several GPUs (`--gpus`), GPU 0's member searches on the calling thread and
//! each further GPU's member on a thread of its own, built from the same device completion
//! (each with its own seed) and sharing through the same exchange; whichever member claims
//! first answers.
//!
//! Invariant: every answer the race gives is one member's answer — a model one member found,
//! one member's proof that none exists, or one member's solve limit reached — and the first member to claim an answer is the only one
//! heard; after the first answer the race is that member alone, so later calls continue its
//! search (its blocking nogoods in place, its sharing ended) and models stay pairwise distinct.

use super::gpu_join::{join_beside, GpuBuild, Joining};
use crate::analyse::GroundProgram;
use crate::engine::cpu::{self, CpuEngine};
use crate::engine::exchange::{variable_space, DeviceLink, Exchange};
use crate::engine::{Engine, EngineError, HostOptions, Limits, ProgressSink, Stats, Step};
use crate::nogoods::Completion;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Who claimed the answer ([`Race::claim`]): nobody, GPU 0's member, host member `HOST + i`,
/// or GPU k's member `EXTRA_GPU + k` (k ≥ 1, `race_gpus.rs`).
const NOBODY: u32 = 0;
const GPU: u32 = 1;
const HOST: u32 = 2;
/// Exchange ports for GPU members (after the host threads'); a GPU beyond them searches
/// without sharing.
const GPU_PORTS: usize = 16;

/// How often the relay passes the user's Ctrl-C to the members, and the caller looks at the
/// host members' results.
const POLL: Duration = Duration::from_millis(20);
/// How long the race waits, after its answer, for the other host members' counters.
const LINGER: Duration = Duration::from_millis(30);

/// What a host member ends with: its index, its engine (`None` when it stopped before it
/// was built), its step.
type HostResult = (u32, Option<CpuEngine>, Step);

/// Who answered: host member `i`, or the member of GPU `k`.
#[derive(Clone, Copy)]
enum Who {
    Host(u32),
    Gpu(u32),
}

/// The GPU member on its way: the device's completion (with its `variable_space`), then the
/// member, from their thread (`gpu_join.rs`).
struct GpuPending {
    joining: Receiver<Joining<u64>>,
    /// The further GPUs' members, GPU 1 first (started when the completion comes).
    extra: Vec<GpuBuild>,
    /// The device's completion's `variable_space`, once it came.
    space: Option<u64>,
}

/// The completion the host members search: made already, or to make on their thread.
pub enum HostCompletion {
    Ready(Completion),
    Make(fn(&GroundProgram) -> Completion),
}

pub struct Race {
    gpu: Option<Box<dyn Engine + Send>>,
    gpu_pending: Option<GpuPending>,
    /// The further GPUs' members that started (on threads of their own), and their results.
    extra_started: usize,
    extra_results: Option<Receiver<GpuEnded>>,
    /// The further GPUs' members heard from at the end, and their searches.
    extra_members: usize,
    extra_searches: u64,
    /// The host members' results, until the race ran.
    results: Option<Receiver<HostResult>>,
    /// The host members' row names (thread `i` runs row `rows[i]`).
    rows: Vec<&'static str>,
    /// Members `0..rows.len()` are the host threads, `rows.len()` the GPU.
    exchange: Arc<Exchange>,
    /// The host threads' completion's `variable_space`, once made.
    host_space: Arc<OnceLock<u64>>,
    /// The GPU member's completion's `variable_space`, when it shares through the exchange.
    gpu_space: Option<u64>,
    /// Set when a member claimed an answer or the user stopped the run: every member stops.
    stop: Arc<AtomicBool>,
    claimed: Arc<AtomicU32>,
    /// After the race: the member that answered first, and where it publishes its counters.
    winner: Option<Box<dyn Engine + Send>>,
    winner_sink: Option<Arc<ProgressSink>>,
    /// The members' progress counters: the race's sink (hung under the run's when the race
    /// runs), one member sink for each host member and one for the GPU member.
    progress: Arc<ProgressSink>,
    host_sinks: Vec<Arc<ProgressSink>>,
    gpu_sink: Arc<ProgressSink>,
    /// The other host members' counters, summed (they stopped when the race ended).
    others: Stats,
    stats: Stats,
}

/// What every host member shares: the program, its completion, and the race's flags.
struct Common {
    program: (GroundProgram, Completion),
    /// The rule graph every member's engine reads (one copy for all threads).
    shared: cpu::Shared,
    stop: Arc<AtomicBool>,
    claimed: Arc<AtomicU32>,
    deadline: Option<Instant>,
}

impl Race {
    /// Start the host members at once, one thread each with the options of `hosts` (thread 0
    /// completes `ground` first, then starts the others; each builds its engine and searches
    /// until an answer, `deadline`, or the race's stop), so that they work while the GPU
    /// member is built ([`Race::add_gpu`]); the GPU member searches when
    /// [`Engine::next_model`] is first called.
    pub fn start(
        ground: GroundProgram,
        completion: HostCompletion,
        hosts: Vec<(HostOptions, &'static str)>,
        deadline: Option<Instant>,
    ) -> Result<Race, EngineError> {
        assert!(!hosts.is_empty(), "a race has at least one host member");
        let stop = Arc::new(AtomicBool::new(false));
        let claimed = Arc::new(AtomicU32::new(NOBODY));
        let exchange = Exchange::new(hosts.len() + GPU_PORTS);
        let host_space = Arc::new(OnceLock::new());
        let rows = hosts.iter().map(|&(_, name)| name).collect();
        let (tx, rx) = mpsc::channel();
        let (stop2, claimed2, ex) = (stop.clone(), claimed.clone(), exchange.clone());
        let space = host_space.clone();
        let progress = Arc::new(ProgressSink::default());
        let host_sinks: Vec<_> = hosts.iter().map(|_| progress.member()).collect();
        let gpu_sink = progress.member();
        let sinks = host_sinks.clone();
        spawn("host-0", move || {
            let completion = match completion {
                HostCompletion::Ready(c) => c,
                HostCompletion::Make(make) => make(&ground),
            };
            let shared = cpu::Shared::new(&ground, &completion);
            let common = Arc::new(Common {
                program: (ground, completion),
                shared,
                stop: stop2,
                claimed: claimed2,
                deadline,
            });
            let mut hosts = hosts.into_iter().enumerate();
            let (_, (first, _)) = hosts.next().expect("one host member");
            for (i, (opts, _)) in hosts {
                let (common, tx, sink) = (common.clone(), tx.clone(), sinks[i].clone());
                let port = ex.port(i as u32);
                let name = format!("host-{i}");
                if let Err(e) = spawn(&name, move || {
                    member(i as u32, common, opts, Some(port), tx, sink)
                }) {
                    eprintln!("*** Warn : (yasmin-rs): {e}; the race goes on with fewer threads");
                }
            }
            // For the GPU member's link, once the other threads search.
            let _ = space.set(variable_space(&common.program.1));
            // Thread 0 shares even alone: with the GPU member.
            member(0, common, first, Some(ex.port(0)), tx, sinks[0].clone());
        })?;
        Ok(Race {
            gpu: None,
            gpu_pending: None,
            extra_started: 0,
            extra_results: None,
            extra_members: 0,
            extra_searches: 0,
            results: Some(rx),
            rows,
            exchange,
            host_space,
            gpu_space: None,
            stop,
            claimed,
            winner: None,
            winner_sink: None,
            progress,
            host_sinks,
            gpu_sink,
            others: Stats::default(),
            stats: Stats::default(),
        })
    }

    pub fn add_gpu(&mut self, gpu: Box<dyn Engine + Send>) {
        self.stats = gpu.stats().clone();
        self.gpu = Some(gpu);
    }

    /// Add a GPU member once it is ready: `complete` makes the device's completion of `ground`
    /// and `build` the member from it, on a thread of their own while the host members search
    /// (`gpu_join.rs`); the race's first call waits for the member — unless a host member
    /// answers first, or the limits pass: the race then goes on without it, and never waits
    /// for it again. `extra`: the members of further GPUs, built from the same completion on
    /// threads of their own.
    pub fn add_gpu_later(
        &mut self,
        ground: GroundProgram,
        complete: fn(&GroundProgram) -> Completion,
        build: GpuBuild,
        extra: Vec<GpuBuild>,
    ) -> Result<(), EngineError> {
        let stop = self.stop.clone();
        let stopped = move || stop.load(Ordering::Relaxed);
        self.gpu_pending = Some(GpuPending {
            joining: join_beside(ground, complete, variable_space, build, stopped)?,
            extra,
            space: None,
        });
        Ok(())
    }

    /// Wait for the pending GPU member (while no host member has answered and the limits
    /// hold), starting the further GPUs' members when its completion comes.
    fn await_gpu(&mut self, limits: &Limits) {
        let Some(mut pending) = self.gpu_pending.take() else {
            return;
        };
        loop {
            if self.claimed.load(Ordering::Acquire) != NOBODY || limits.reached() {
                return;
            }
            match pending.joining.recv_timeout(POLL) {
                Ok(Joining::Completed(program, space)) => {
                    pending.space = Some(space);
                    let extra = std::mem::take(&mut pending.extra);
                    if !extra.is_empty() {
                        self.start_extra(extra, &program, space, limits.deadline);
                    }
                }
                Ok(Joining::Built(Ok(mut gpu))) => {
                    let space = pending
                        .space
                        .expect("the completion comes before the member");
                    let port = self.exchange.port(self.rows.len() as u32);
                    let (host, stop) = (self.host_space.clone(), self.stop.clone());
                    let link = DeviceLink::new(port, host, space, stop);
                    self.gpu_space = gpu.share_with_host(link).then_some(space);
                    self.add_gpu(gpu);
                    return;
                }
                Ok(Joining::Built(Err(why))) => {
                    eprintln!("*** Info : (yasmin-rs): the GPU engine does not take part: {why}");
                    return;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    eprintln!(
                        "*** Warn : (yasmin-rs): the GPU engine's preparation failed; the CPU \
                         engine goes on"
                    );
                    return;
                }
            }
        }
    }

    /// The race itself: the GPU member on this thread, the host members on theirs.
    fn run(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let started = Instant::now();
        if let Some(p) = &limits.progress {
            p.adopt(self.progress.clone());
        }
        self.await_gpu(limits);
        let mut gpu = self.gpu.take();
        let Some(results) = self.results.take() else {
            // Ran before and stopped without an answer.
            return Ok(Step::Stopped);
        };
        // The members stop on `self.stop`; the user's Ctrl-C reaches it through this relay.
        let done = Arc::new(AtomicBool::new(false));
        let relay = {
            let (done, stop, user) = (done.clone(), self.stop.clone(), limits.interrupt.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if user.load(Ordering::Relaxed) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    std::thread::sleep(POLL);
                }
            })
        };
        let member_limits = Limits {
            deadline: limits.deadline,
            interrupt: self.stop.clone(),
            // (The GPU engine reads its counters back for it: only when someone listens.)
            progress: limits.progress.as_ref().map(|_| self.gpu_sink.clone()),
        };
        let on_gpu = gpu.as_mut().map(|g| g.next_model(&member_limits));
        if matches!(&on_gpu, Some(Ok(step)) if answers(step)) && claim(&self.claimed, GPU) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(Err(e)) = &on_gpu {
            // The host members go on alone; the run still gets its answer.
            eprintln!(
                "*** Warn : (yasmin-rs): the GPU engine failed ({e}); the CPU engine goes on"
            );
        }
        // The host members' answer, unless the GPU's stands (they stop at their next check, or
        // after their preparation, on their own) or the limits passed while they still
        // prepare: they are not waited for then.
        let (host, lost) = if self.claimed.load(Ordering::Acquire) == GPU {
            (None, false)
        } else {
            self.host_answer(&results, limits)
        };
        // A further GPU's answer (it claimed), and the other GPUs' counters once they stopped.
        let extra = self.extra_answer(limits);
        // The others' counters, from those that stopped by now (most stop within a few ms).
        let linger = Instant::now() + LINGER;
        while let Ok((_, engine, _)) = results.recv_timeout(linger - Instant::now().min(linger)) {
            if let Some(e) = engine {
                self.others.add_counts(e.stats());
                drop_beside(e);
            }
        }
        done.store(true, Ordering::Relaxed);
        let _ = relay.join();
        let on_device = gpu.as_ref().map(|g| g.stats().clone());
        let gpu = match host.is_some() || extra.is_some() {
            true => {
                if let Some(g) = gpu {
                    drop_beside(g);
                }
                None
            }
            false => gpu,
        };
        let (winner, step, who): (Box<dyn Engine + Send>, _, _) = match (host, gpu, on_gpu) {
            (Some((i, mut engine, step)), _, _) => {
                engine.stop_sharing();
                (
                    Box::new(engine) as Box<dyn Engine + Send>,
                    Ok(step),
                    Who::Host(i),
                )
            }
            (None, _, _) if extra.is_some() => {
                let (k, engine, step) = extra.expect("a further GPU answered");
                (engine, Ok(step), Who::Gpu(k))
            }
            (None, Some(g), Some(Ok(step))) => (g, Ok(step), Who::Gpu(0)),
            // A host thread panicked and nobody else answered.
            (None, _, _) if lost => {
                return Err(EngineError::Device(
                    "a CPU engine thread ended without a result".into(),
                ))
            }
            (None, Some(g), Some(Err(_))) => (g, Ok(Step::Stopped), Who::Gpu(0)),
            (None, _, _) => {
                // Stopped without an answer: every member's counts over the race's time (as
                // a winner's search time is the race's).
                self.stats.add_counts(&self.others);
                self.stats.search_time = started.elapsed();
                return Ok(Step::Stopped);
            }
        };
        self.stats = winner.stats().clone();
        self.stats.add_counts(&self.others);
        self.stats.portfolio = self.describe(who, on_device.as_ref());
        self.winner_sink = match who {
            Who::Host(i) => self.host_sinks.get(i as usize).cloned(),
            Who::Gpu(0) => Some(self.gpu_sink.clone()),
            Who::Gpu(_) => None,
        };
        self.winner = Some(winner);
        step
    }

    /// Wait for the host member that claimed the answer (or for every member to stop, or for
    /// the limits); its index, engine and step, and whether a member was lost (panicked).
    fn host_answer(
        &mut self,
        results: &Receiver<HostResult>,
        limits: &Limits,
    ) -> (Option<(u32, CpuEngine, Step)>, bool) {
        let members = self.rows.len();
        let mut ended = 0;
        loop {
            match results.recv_timeout(POLL) {
                Ok((i, engine, step)) => {
                    ended += 1;
                    if self.claimed.load(Ordering::Acquire) == HOST + i {
                        let engine = engine.expect("a member that answered has its engine");
                        return (Some((i, engine, step)), false);
                    }
                    if let Some(e) = engine {
                        self.others.add_counts(e.stats());
                        drop_beside(e);
                    }
                    if ended == members {
                        return (None, false);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let c = self.claimed.load(Ordering::Acquire);
                    if c < HOST && limits.reached() {
                        self.stop.store(true, Ordering::Relaxed);
                        return (None, false);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return (None, ended < members),
            }
        }
    }

    /// The `Portfolio` line of `--stats`: who answered, beside whom, and what the host
    /// threads shared.
    fn describe(&self, who: Who, gpu: Option<&Stats>) -> String {
        let threads = self.rows.len();
        let gpus = usize::from(gpu.is_some()) + self.extra_members;
        let gpu_searches = gpu.map_or(0, |s| s.gpu_searches) + self.extra_searches;
        if threads == 1 && gpus == 0 {
            return String::new();
        }
        let who = match who {
            Who::Host(_) if threads == 1 => "the CPU engine".to_string(),
            Who::Host(i) => format!("CPU thread {i} ({})", self.rows[i as usize]),
            Who::Gpu(_) if gpus <= 1 => "the GPU engine".to_string(),
            Who::Gpu(k) => format!("the GPU engine on GPU {k}"),
        };
        let plural = if threads == 1 { "" } else { "s" };
        let mut beside = vec![format!("the CPU engine ({threads} thread{plural})")];
        match gpus {
            0 => {}
            1 => beside.push(format!("{gpu_searches} GPU searches")),
            n => beside.push(format!("{gpu_searches} GPU searches on {n} GPUs")),
        }
        let mut line = format!("answer from {who}; members: {}", beside.join(" and "));
        if threads > 1 {
            let (out, inn) = self.exchange.counts_of(0..threads);
            line.push_str(&format!(
                "; CPU threads shared {out} nogoods, imported {inn}"
            ));
        }
        if let (Some(space), Some(s), Some(&host)) = (self.gpu_space, gpu, self.host_space.get()) {
            if host == space {
                let (out, inn) = self.exchange.counts(threads);
                let bus = (s.bytes_to_device + s.bytes_from_device) as f64;
                line.push_str(&format!(
                    "; the GPU gave the CPU threads {out} nogoods and took {inn} ({:.2} bus bytes per GPU choice)",
                    bus / s.decisions.max(1) as f64
                ));
            } else {
                line.push_str("; no nogoods crossed to the GPU (another completion)");
            }
        }
        if self.extra_members > 0 {
            // The further GPUs' ports follow GPU 0's.
            let last = self
                .exchange
                .members()
                .min(threads + 1 + self.extra_started);
            let (out, inn) = self.exchange.counts_of(threads + 1..last);
            line.push_str(&format!(
                "; the further GPUs gave {out} nogoods and took {inn}"
            ));
        }
        line
    }
}

/// Drop `what` (a member's engine the race no longer needs) on a thread of its own: freeing the
/// engine of a large program (its arrays, the GPU's memory) takes tenths of a second, which the
/// race's caller, about to print the answer or the summary, must not spend.
pub(super) fn drop_beside<T: Send + 'static>(what: T) {
    // A thread that cannot start drops it here, as before.
    let _ = std::thread::Builder::new()
        .name("drop".into())
        .spawn(move || drop(what));
}

/// Spawn a member thread with as much stack as the main thread, where the host engine runs
/// otherwise.
pub(super) fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> Result<(), EngineError> {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(8 << 20)
        .spawn(f)
        .map(|_| ())
        .map_err(|e| EngineError::Device(format!("cannot start the CPU engine's thread: {e}")))
}

/// Host member `i`: build its engine, search until an answer or the race's stop, claim the
/// answer, send the result.
fn member(
    i: u32,
    common: Arc<Common>,
    opts: HostOptions,
    port: Option<crate::engine::exchange::Port>,
    tx: Sender<HostResult>,
    sink: Arc<ProgressSink>,
) {
    let (stop, claimed) = (common.stop.clone(), common.claimed.clone());
    let limits = Limits {
        deadline: common.deadline,
        interrupt: stop.clone(),
        progress: Some(sink),
    };
    if stop.load(Ordering::Relaxed) {
        let _ = tx.send((i, None, Step::Stopped));
        return;
    }
    let (ground, completion) = &common.program;
    let mut engine = CpuEngine::with_shared(ground, completion, opts, &common.shared);
    let size = ground.rules.len().max(ground.bodies.len());
    // The last member to be built frees the program and its completion, and gives their pages
    // back to the system.
    if Arc::into_inner(common).is_some() {
        crate::memory::give_back(size);
    }
    if let Some(p) = port {
        engine.share_through(p);
    }
    let step = if stop.load(Ordering::Relaxed) {
        Step::Stopped
    } else {
        engine.next_model(&limits).unwrap_or(Step::Stopped)
    };
    if answers(&step) && claim(&claimed, HOST + i) {
        stop.store(true, Ordering::Relaxed);
    }
    let _ = tx.send((i, Some(engine), step));
}

/// Whether a member's `step` ends the race: a model, a proof that there is none, or its solve
/// limit reached (clasp's threads each count theirs, and the first to reach it stops them all).
fn answers(step: &Step) -> bool {
    matches!(step, Step::Model(_) | Step::Exhausted | Step::Limit)
}

/// Claim the answer for `who`; false when another member claimed it first.
fn claim(claimed: &AtomicU32, who: u32) -> bool {
    claimed
        .compare_exchange(NOBODY, who, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
}

impl Engine for Race {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        match &mut self.winner {
            None => self.run(limits),
            Some(w) => {
                // The winner goes on publishing where it did in the race.
                let own = Limits {
                    progress: limits.progress.as_ref().and(self.winner_sink.clone()),
                    ..limits.clone()
                };
                let step = w.next_model(&own);
                let portfolio = std::mem::take(&mut self.stats.portfolio);
                self.stats = w.stats().clone();
                self.stats.add_counts(&self.others);
                self.stats.portfolio = portfolio;
                step
            }
        }
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The member that answered alone goes on (before the first answer: no).
    fn enumerate_by_backtracking(&mut self) -> bool {
        self.winner
            .as_mut()
            .is_some_and(|w| w.enumerate_by_backtracking())
    }

    fn enumerate_projected(&mut self, atoms: &[u32]) -> bool {
        self.winner
            .as_mut()
            .is_some_and(|w| w.enumerate_projected(atoms))
    }
}

impl Drop for Race {
    /// A race dropped before it ran (the run stopped first): stop the host members.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[path = "race_gpus.rs"]
mod gpus;
use gpus::GpuEnded;

#[cfg(test)]
#[path = "race_tests.rs"]
mod tests;
