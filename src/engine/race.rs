//! The whole machine as one portfolio: the GPU engine's searches on the calling thread and the
//! host engine on a thread of its own, racing for the first answer (`--engine=auto` with a usable
//! GPU, one model wanted, no optimisation). The host member prepares its own completion (native
//! sums) on its thread while the GPU engine is built, and starts searching as soon as it is ready.
//!
//! Invariant: every answer the race gives is one member's answer — a model one member found, or
//! one member's proof that none exists — and the first member to claim an answer is the only one
//! heard; after the first answer the race is that member alone, so later calls continue its
//! search (its blocking nogoods in place) and models stay pairwise distinct.

use super::cpu::CpuEngine;
use super::{Engine, EngineError, HostOptions, Limits, Stats, Step};
use crate::ground::GroundProgram;
use crate::nogoods::Completion;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Who claimed the answer ([`Race::claim`]).
const NOBODY: u8 = 0;
const GPU: u8 = 1;
const CPU: u8 = 2;

/// How often the relay passes the user's Ctrl-C to the members.
const POLL: Duration = Duration::from_millis(20);

type HostResult = (Option<CpuEngine>, Result<Step, EngineError>);

pub struct Race {
    gpu: Option<Box<dyn Engine>>,
    host: Option<JoinHandle<HostResult>>,
    /// Set when a member claimed an answer or the user stopped the run: every member stops.
    stop: Arc<AtomicBool>,
    claimed: Arc<AtomicU8>,
    /// After the race: the member that answered first.
    winner: Option<Box<dyn Engine>>,
    stats: Stats,
}

impl Race {
    /// Start the host member at once (it completes `ground` for itself with `complete`, then
    /// searches until an answer, `deadline`, or the race's stop), so that it works while the
    /// GPU member is built ([`Race::add_gpu`]); the GPU member searches when
    /// [`Engine::next_model`] is first called. Without a GPU member the race is the host
    /// member alone.
    pub fn start(
        ground: GroundProgram,
        complete: fn(&GroundProgram) -> Completion,
        host: HostOptions,
        deadline: Option<Instant>,
    ) -> Result<Race, EngineError> {
        let stop = Arc::new(AtomicBool::new(false));
        let claimed = Arc::new(AtomicU8::new(NOBODY));
        let limits = Limits {
            deadline,
            interrupt: stop.clone(),
            progress: None,
        };
        let (stop2, claimed2) = (stop.clone(), claimed.clone());
        let host = std::thread::Builder::new()
            .name("host-member".into())
            // As much stack as the main thread, where the host engine runs otherwise.
            .stack_size(8 << 20)
            .spawn(move || {
                let completion = complete(&ground);
                let mut engine = CpuEngine::new(&ground, &completion, host);
                drop(completion);
                drop(ground);
                if stop2.load(Ordering::Relaxed) {
                    return (Some(engine), Ok(Step::Stopped));
                }
                let step = engine.next_model(&limits);
                if matches!(step, Ok(Step::Model(_) | Step::Exhausted)) && claim(&claimed2, CPU) {
                    stop2.store(true, Ordering::Relaxed);
                }
                (Some(engine), step)
            })
            .map_err(|e| EngineError::Device(format!("cannot start the host member: {e}")))?;
        Ok(Race {
            gpu: None,
            host: Some(host),
            stop,
            claimed,
            winner: None,
            stats: Stats::default(),
        })
    }

    pub fn add_gpu(&mut self, gpu: Box<dyn Engine>) {
        self.stats = gpu.stats().clone();
        self.gpu = Some(gpu);
    }

    /// The race itself: the GPU member on this thread, the host member on its own.
    fn run(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let mut gpu = self.gpu.take();
        let Some(host) = self.host.take() else {
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
        let member = Limits {
            deadline: limits.deadline,
            interrupt: self.stop.clone(),
            progress: limits.progress.clone(),
        };
        let on_gpu = match &mut gpu {
            Some(g) => g.next_model(&member),
            None => Err(EngineError::Device("no GPU member".into())),
        };
        if matches!(on_gpu, Ok(Step::Model(_) | Step::Exhausted)) && claim(&self.claimed, GPU) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let (Some(_), Err(e)) = (&gpu, &on_gpu) {
            // The host member goes on alone; the run still gets its answer.
            eprintln!(
                "*** Warn : (yasmin-rs): the GPU engine failed ({e}); the CPU engine goes on"
            );
        }
        // The host member's result, unless the GPU's answer stands (the host member stops at
        // its next check, or after its preparation, on its own) or the limits passed while it
        // still prepares: it is not waited for then.
        let mut on_host = None;
        if self.claimed.load(Ordering::Acquire) != GPU {
            loop {
                if host.is_finished() {
                    on_host = Some(host.join().unwrap_or_else(|_| {
                        let e = EngineError::Device("the CPU engine's thread panicked".into());
                        (None, Err(e))
                    }));
                    break;
                }
                if self.claimed.load(Ordering::Acquire) != CPU && limits.reached() {
                    self.stop.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(POLL);
            }
        }
        done.store(true, Ordering::Relaxed);
        let _ = relay.join();
        let searches = gpu.as_ref().map(|g| g.stats().gpu_searches);
        let host_won = self.claimed.load(Ordering::Acquire) == CPU
            || (on_gpu.is_err() && on_host.as_ref().is_some_and(|(e, _)| e.is_some()));
        let (winner, step, who): (Box<dyn Engine>, _, _) = match (on_host, gpu) {
            (Some((Some(engine), step)), _) if host_won => {
                (Box::new(engine), step, "the CPU engine")
            }
            // No answer, and the host member was not ready by the limits.
            (_, None) => return Ok(Step::Stopped),
            // The GPU failed and the limits passed before the host member was ready.
            (_, Some(g)) if on_gpu.is_err() => (g, Ok(Step::Stopped), "the GPU engine"),
            (_, Some(g)) => (g, on_gpu, "the GPU engine"),
        };
        self.stats = winner.stats().clone();
        self.stats.portfolio = match searches {
            None => String::new(),
            Some(_) if who == "the GPU engine" => {
                format!("answer from {who}, beside the CPU engine (1 thread)")
            }
            Some(n) => format!("answer from {who}, beside {n} GPU searches"),
        };
        self.winner = Some(winner);
        step
    }
}

/// Claim the answer for `who`; false when another member claimed it first.
fn claim(claimed: &AtomicU8, who: u8) -> bool {
    claimed
        .compare_exchange(NOBODY, who, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
}

impl Engine for Race {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        match &mut self.winner {
            None => self.run(limits),
            Some(w) => {
                let step = w.next_model(limits);
                let portfolio = std::mem::take(&mut self.stats.portfolio);
                self.stats = w.stats().clone();
                self.stats.portfolio = portfolio;
                step
            }
        }
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }
}

impl Drop for Race {
    /// A race dropped before it ran (the run stopped first): stop the host member.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::tests::{opts, prog};
    use crate::engine::Model;
    use crate::engine::{Heuristic, Learning};
    use lparse::Rule;

    /// A stand-in for the GPU member: answers `answer` at once, or (with `None`) searches until
    /// the race stops it, or fails.
    struct Fake {
        answer: Option<Result<Step, ()>>,
        stats: Stats,
    }

    impl Engine for Fake {
        fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
            match self.answer.take() {
                Some(Ok(step)) => Ok(step),
                Some(Err(())) => Err(EngineError::Device("fake fault".into())),
                None => {
                    while !limits.reached() {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    Ok(Step::Stopped)
                }
            }
        }
        fn stats(&self) -> &Stats {
            &self.stats
        }
    }

    /// `{a; b}. :- a, b. :- not a, not b.` — two models, {a} and {b} (atoms 1 and 2).
    fn two_models() -> GroundProgram {
        let p = prog(vec![
            Rule::choice(&[1, 2], &[]),
            Rule::normal(&[], &[1, 2]),
            Rule::normal(&[], &[-1, -2]),
        ]);
        crate::ground::analyse(&p).unwrap()
    }

    /// The host member's preparation, slowed down so that a GPU member answering at once is
    /// surely first.
    fn slow_complete(p: &GroundProgram) -> Completion {
        std::thread::sleep(Duration::from_millis(300));
        crate::nogoods::complete(p)
    }

    fn race(answer: Option<Result<Step, ()>>) -> Race {
        race_with(answer, crate::nogoods::complete)
    }

    fn race_with(
        answer: Option<Result<Step, ()>>,
        complete: fn(&GroundProgram) -> Completion,
    ) -> Race {
        let stats = Stats {
            gpu_searches: 7,
            ..Stats::default()
        };
        let host = opts(Learning::Res, Heuristic::Activity, 1);
        let mut r = Race::start(two_models(), complete, host, None).unwrap();
        r.add_gpu(Box::new(Fake { answer, stats }));
        r
    }

    #[test]
    fn the_host_member_answers_when_the_gpu_member_does_not() {
        let mut r = race(None);
        let limits = Limits::none();
        let Ok(Step::Model(m)) = r.next_model(&limits) else {
            panic!("no model")
        };
        assert!(m.atoms == vec![1] || m.atoms == vec![2], "{m:?}");
        assert!(r
            .stats()
            .portfolio
            .contains("from the CPU engine, beside 7 GPU"));
        // The race is the host member alone now: the other model, then no more.
        let Ok(Step::Model(m2)) = r.next_model(&limits) else {
            panic!("no second model")
        };
        assert_ne!(m, m2);
        assert_eq!(r.next_model(&limits).unwrap(), Step::Exhausted);
    }

    #[test]
    fn the_gpu_members_answer_stands_when_it_comes_first() {
        let model = Model { atoms: vec![2] };
        let mut r = race_with(Some(Ok(Step::Model(model.clone()))), slow_complete);
        assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Model(model));
        assert!(r.stats().portfolio.contains("from the GPU engine"));
    }

    #[test]
    fn a_failing_gpu_member_leaves_the_answer_to_the_host_member() {
        let mut r = race(Some(Err(())));
        assert!(matches!(r.next_model(&Limits::none()), Ok(Step::Model(_))));
        assert!(r.stats().portfolio.contains("from the CPU engine"));
    }

    #[test]
    fn without_a_gpu_member_the_host_member_answers_alone() {
        let host = opts(Learning::Res, Heuristic::Activity, 1);
        let mut r = Race::start(two_models(), crate::nogoods::complete, host, None).unwrap();
        assert!(matches!(r.next_model(&Limits::none()), Ok(Step::Model(_))));
        assert!(r.stats().portfolio.is_empty());
    }

    #[test]
    fn an_interrupt_stops_both_members() {
        // An unsatisfiable program would be proved at once; a stopped race must not wait for
        // the host member beyond the interrupt: the user's flag is set before the race runs.
        let mut r = race(None);
        let limits = Limits::none();
        limits.interrupt.store(true, Ordering::Relaxed);
        let step = r.next_model(&limits).unwrap();
        // The host member may have answered before it saw the stop; either is a right answer.
        assert!(matches!(step, Step::Stopped | Step::Model(_)), "{step:?}");
    }
}
