//! The GPU engine as a member of the optimisation race (`optimize.rs`): its completion and its
//! build beside the host threads (`gpu_join.rs`), its joining the race when it is ready, its
//! time slices between the caller's looks at the threads' reports, and its leaving the race.
//!
//! Invariant: the GPU member searches only on the caller's thread, for at most one `POLL` a
//! slice, under the newest bound, so the race's reports are never left waiting longer; the
//! caller never waits for its completion or its build.

use super::{OptRace, GPU, POLL};
use crate::analyse::GroundProgram;
use crate::engine::{EngineError, Limits, Step};
use crate::nogoods::Completion;
use crate::portfolio::gpu_join::{join_beside, GpuBuild, Joining};
use crate::portfolio::race::drop_beside;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Instant;

/// The GPU member on its way: the device's completion, then the member, from their thread.
pub(super) struct GpuPending {
    pub(super) joining: Receiver<Joining<()>>,
    /// The further GPUs' members, GPU 1 first (started when the completion comes).
    pub(super) extra: Vec<GpuBuild>,
}

impl OptRace {
    /// Add the GPU engine as a member once it is ready: `complete` makes the device's
    /// completion of `ground` and `build` the member from it, on a thread of their own while
    /// the threads search; the member joins at the caller's first look after that.
    /// `extra`: the members of further GPUs, built from the same completion on threads of
    /// their own.
    pub fn add_gpu_later(
        &mut self,
        ground: GroundProgram,
        complete: fn(&GroundProgram) -> Completion,
        build: GpuBuild,
        extra: Vec<GpuBuild>,
    ) -> Result<(), EngineError> {
        let ctl = self.ctl.clone();
        let stopped = move || ctl.stop.load(Ordering::Relaxed);
        self.gpu_pending = Some(GpuPending {
            joining: join_beside(ground, complete, |_| (), build, stopped)?,
            extra,
        });
        Ok(())
    }

    /// Take what the pending GPU member's thread sent: start the further GPUs' members when
    /// the completion came; the member, under the newest bound, once it is built.
    pub(super) fn poll_gpu(&mut self) {
        let Some(mut pending) = self.gpu_pending.take() else {
            return;
        };
        let built = loop {
            match pending.joining.try_recv() {
                Ok(Joining::Completed(program, ())) => {
                    let extra = std::mem::take(&mut pending.extra);
                    if !extra.is_empty() {
                        self.start_extra(extra, &program);
                    }
                    // No member joins later: the reports end when the members have.
                    self.tx = None;
                }
                Ok(Joining::Built(built)) => break built,
                Err(TryRecvError::Empty) => {
                    self.gpu_pending = Some(pending);
                    return;
                }
                Err(TryRecvError::Disconnected) => {
                    eprintln!(
                        "*** Warn : (yasmin-rs): the GPU engine's preparation failed; the CPU \
                         engine goes on"
                    );
                    self.tx = None;
                    return;
                }
            }
        };
        let built = built.and_then(|mut gpu| {
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

    /// The GPU member leaves the race (its counters kept); its engine with `keep` (it goes on
    /// alone), else it is dropped beside (`race::drop_beside`).
    pub(super) fn gpu_leave(&mut self, keep: bool) -> Option<super::MemberEngine> {
        let gpu = self.gpu.take();
        if let Some(g) = &gpu {
            self.gpu_stats = Some(g.stats().clone());
        }
        self.gpu_pending = None;
        self.tx = None;
        match (gpu, keep) {
            (Some(g), false) => {
                drop_beside(g);
                None
            }
            (gpu, _) => gpu,
        }
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
                self.gpu_leave(false);
                self.stop_all(None);
                Some(Step::Limit)
            }
            Err(e) => {
                eprintln!(
                    "*** Warn : (yasmin-rs): the GPU engine failed ({e}); the CPU engine goes on"
                );
                self.gpu_leave(false);
                None
            }
        }
    }
}
