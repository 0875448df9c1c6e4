//! The race's members on further GPUs (GPU 1, 2, ...; GPU 0's member searches on the caller's
//! thread, `race.rs`): each built from the device's completion on a thread of its own, where it
//! searches until the race's stop and claims the answer as `EXTRA_GPU + k`; at the end the race
//! takes the one that claimed and the others' counters.
//!
//! Invariant: every thread started sends exactly one message when it ends (its engine, or none
//! when the build failed), after its claim if it claimed, so the race waits for the claimer's
//! message without a limit and for the others' at most [`GPU_STOP_WAIT`] — at most [`LINGER`]
//! once the limits passed (a member still being built does not stop before its build ends).

use super::{answers, claim, drop_beside, spawn, DeviceLink, Race, LINGER};
use crate::engine::{Engine, Limits, Step};
use crate::portfolio::gpu_join::{DeviceProgram, GpuBuild};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The claim of GPU k's member is `EXTRA_GPU + k`.
const EXTRA_GPU: u32 = 1 << 20;
/// How long the end of the race waits for the other GPUs' members to stop (a time slice of the
/// GPU engine is at most 100 ms), so that no GPU is still busy when the run ends.
const GPU_STOP_WAIT: Duration = Duration::from_millis(500);

/// What a further GPU's member ends with: its GPU, its engine, its step.
pub(super) type GpuResult = (u32, Box<dyn Engine + Send>, Step);

/// What a further GPU's thread sends when it ends: its GPU, its engine (`None`: it could not
/// be built), its step.
pub(super) type GpuEnded = (u32, Option<Box<dyn Engine + Send>>, Step);

impl Race {
    /// Start the further GPUs' members on `program` (the device's completion, of variable
    /// space `space`), each on a thread of its own, searching until the race's stop.
    pub(super) fn start_extra(
        &mut self,
        extra: Vec<GpuBuild>,
        program: &DeviceProgram,
        space: u64,
        deadline: Option<Instant>,
    ) {
        let (tx, rx) = mpsc::channel();
        for (k, build) in (1u32..).zip(extra) {
            let port = self.rows.len() + k as usize;
            let link = (port < self.exchange.members()).then(|| {
                let port = self.exchange.port(port as u32);
                DeviceLink::new(port, self.host_space.clone(), space, self.stop.clone())
            });
            let (program, tx) = (program.clone(), tx.clone());
            let (stop, claimed) = (self.stop.clone(), self.claimed.clone());
            let limits = Limits {
                deadline,
                interrupt: stop.clone(),
                progress: None,
            };
            let started = spawn(&format!("gpu-{k}"), move || {
                let mut engine = match build(&program.0, &program.1) {
                    Ok(e) => e,
                    Err(why) => {
                        eprintln!("*** Info : (yasmin-rs): GPU {k} does not take part: {why}");
                        let _ = tx.send((k, None, Step::Stopped));
                        return;
                    }
                };
                drop(program);
                if let Some(link) = link {
                    engine.share_with_host(link);
                }
                let step = engine.next_model(&limits).unwrap_or_else(|e| {
                    eprintln!("*** Warn : (yasmin-rs): the GPU engine on GPU {k} failed ({e})");
                    Step::Stopped
                });
                if answers(&step) && claim(&claimed, EXTRA_GPU + k) {
                    stop.store(true, Ordering::Relaxed);
                }
                let _ = tx.send((k, Some(engine), step));
            });
            match started {
                Ok(()) => self.extra_started += 1,
                Err(e) => eprintln!("*** Warn : (yasmin-rs): {e}; GPU {k} does not take part"),
            }
        }
        self.extra_results = Some(rx);
    }

    /// The further GPU member that claimed the answer, if one did (its result is waited for);
    /// the others' counters, from those that stop within [`GPU_STOP_WAIT`] (within [`LINGER`]
    /// once `limits` passed).
    pub(super) fn extra_answer(&mut self, limits: &Limits) -> Option<GpuResult> {
        let results = self.extra_results.take()?;
        let want = self.claimed.load(Ordering::Acquire).checked_sub(EXTRA_GPU);
        let wait = match limits.reached() {
            true => LINGER,
            false => GPU_STOP_WAIT,
        };
        let until = Instant::now() + wait;
        let (mut answer, mut heard) = (None, 0);
        while heard < self.extra_started {
            let wait = until.saturating_duration_since(Instant::now());
            // The one that claimed is waited for whatever the time: it sends at once.
            let got = match (want, &answer) {
                (Some(_), None) => results.recv().ok(),
                _ => results.recv_timeout(wait).ok(),
            };
            let Some((k, engine, step)) = got else { break };
            heard += 1;
            let Some(engine) = engine else { continue };
            self.extra_members += 1;
            self.extra_searches += engine.stats().gpu_searches;
            if Some(k) == want {
                answer = Some((k, engine, step));
            } else {
                self.others.add_counts(engine.stats());
                drop_beside(engine);
            }
        }
        answer
    }
}
