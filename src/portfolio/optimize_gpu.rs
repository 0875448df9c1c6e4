//! The GPU engine as a member of the optimisation race (`optimize.rs`): its completion made
//! beside the host threads, the member built on the caller's thread when it is ready, its time
//! slices between the caller's looks at the threads' reports, and its leaving the race.
//!
//! Invariant: the GPU member searches only on the caller's thread, for at most one `POLL` a
//! slice, under the newest bound, so the race's reports are never left waiting longer.

use super::{OptRace, GPU, POLL};
use crate::analyse::GroundProgram;
use crate::engine::{Engine, EngineError, Limits, Step};
use crate::nogoods::Completion;
use crate::portfolio::race::{complete_beside, ExtraGpuBuild, GpuBuild};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;
use std::time::Instant;

/// The GPU member on its way: the device's completion, made on a thread of its own, and what
/// builds the member from it.
pub(super) struct GpuPending {
    pub(super) completion: Receiver<(GroundProgram, Completion, ())>,
    pub(super) build: GpuBuild,
    /// The further GPUs' members, GPU 1 first.
    pub(super) extra: Vec<ExtraGpuBuild>,
}

impl OptRace {
    /// Add the GPU engine as a member once it is ready: `complete` makes the device's
    /// completion of `ground` on a thread of its own while the threads search, and the race
    /// builds the member with `build` (on the caller's thread) when it is done.
    /// `extra`: the members of further GPUs, built from the same completion on threads of
    /// their own.
    pub fn add_gpu_later(
        &mut self,
        ground: GroundProgram,
        complete: fn(&GroundProgram) -> Completion,
        build: GpuBuild,
        extra: Vec<ExtraGpuBuild>,
    ) -> Result<(), EngineError> {
        self.gpu_pending = Some(GpuPending {
            completion: complete_beside(ground, complete, |_| ())?,
            build,
            extra,
        });
        Ok(())
    }

    /// Build the pending GPU member if its completion is ready, under the newest bound.
    pub(super) fn poll_gpu(&mut self) {
        // Not while the kernel still compiles beside the preparation: the build would wait.
        if crate::engine::gpu::cache::warming() {
            return;
        }
        let Some(pending) = self.gpu_pending.take() else {
            return;
        };
        let (ground, completion, ()) = match pending.completion.try_recv() {
            Ok(done) => done,
            Err(TryRecvError::Empty) => {
                self.gpu_pending = Some(pending);
                return;
            }
            Err(TryRecvError::Disconnected) => {
                eprintln!("*** Warn : (yasmin-rs): the device's completion failed; the CPU engine goes on");
                self.tx = None;
                return;
            }
        };
        let program = Arc::new((ground, completion));
        if !pending.extra.is_empty() {
            self.start_extra(pending.extra, &program);
        }
        // No member joins later: the reports end when the members have.
        self.tx = None;
        let (ground, completion) = (&program.0, &program.1);
        let built = (pending.build)(ground, completion).and_then(|mut gpu| {
            match &self.bound {
                Some(b) => gpu.set_bound(b).map_err(|e| e.to_string()),
                None => Ok(()),
            }
            .map(|()| gpu)
        });
        match built {
            Ok(gpu) => self.gpu = Some(gpu),
            Err(why) => {
                eprintln!("*** Info : (yasmin-rs): the GPU engine does not take part: {why}")
            }
        }
    }

    /// The GPU member leaves the race (its counters kept); its engine.
    pub(super) fn gpu_leave(&mut self) -> Option<Box<dyn Engine>> {
        let gpu = self.gpu.take();
        if let Some(g) = &gpu {
            self.gpu_stats = Some(g.stats().clone());
        }
        self.gpu_pending = None;
        self.tx = None;
        gpu
    }

    /// Let the GPU member search for up to [`POLL`]; its answer, if it has one.
    pub(super) fn gpu_slice(&mut self, limits: &Limits) -> Option<Step> {
        let gpu = self.gpu.as_mut()?;
        let soon = Instant::now() + POLL;
        let slice = Limits {
            deadline: Some(limits.deadline.map_or(soon, |d| d.min(soon))),
            interrupt: limits.interrupt.clone(),
            progress: limits.progress.as_ref().map(|_| self.gpu_sink.clone()),
        };
        match gpu.next_model(&slice) {
            Ok(Step::Model(model)) => {
                // Within the caller's bound, so better than the best so far.
                let costs = gpu.costs()?;
                if self.best.as_ref().is_none_or(|(b, _)| costs < *b) {
                    self.best = Some((costs, GPU));
                    return Some(Step::Model(model));
                }
                None
            }
            Ok(Step::Exhausted) => {
                self.finish(GPU);
                Some(Step::Exhausted)
            }
            Ok(Step::Stopped) => None,
            Ok(Step::Limit) => {
                self.gpu_leave();
                self.stop_all(None);
                Some(Step::Limit)
            }
            Err(e) => {
                eprintln!(
                    "*** Warn : (yasmin-rs): the GPU engine failed ({e}); the CPU engine goes on"
                );
                self.gpu_leave();
                None
            }
        }
    }
}
