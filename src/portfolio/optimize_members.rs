//! The optimisation race's members other than GPU 0's (which searches on the caller's thread,
//! `optimize.rs`): the host threads' branch and bound and, on a machine with several GPUs, each
//! further GPU's engine on a thread of its own, joining once the device's completion is made —
//! the same loop for both, reporting models and proofs to the caller and taking the newest
//! common bound whenever poked.
//!
//! Invariant: every member thread started sends exactly one `Done` when it ends (with its
//! engine, or none when it was never built), after its other reports.

use super::{Control, MemberEngine, OptRace, Report};
use crate::analyse::GroundProgram;
use crate::engine::cpu::CpuEngine;
use crate::engine::exchange::Port;
use crate::engine::{Bound, HostOptions, Step};
use crate::nogoods::Completion;
use crate::portfolio::gpu_join::{DeviceProgram, GpuBuild};
use crate::portfolio::race::spawn;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

impl OptRace {
    /// Start the further GPUs' members on `program`, each a member of its own number.
    pub(super) fn start_extra(&mut self, extra: Vec<GpuBuild>, program: &DeviceProgram) {
        for (k, build) in (1u32..).zip(extra) {
            let i = self.ctl.join();
            let Some(tx) = self.tx.clone() else { return };
            let (program, ctl) = (program.clone(), self.ctl.clone());
            let deadline = self.deadline;
            let started = spawn(&format!("opt-gpu-{k}"), move || {
                if ctl.stop.load(Ordering::Relaxed) {
                    let _ = tx.send(Report::Done(i, None));
                    return;
                }
                match build(&program.0, &program.1) {
                    Ok(engine) => {
                        drop(program);
                        search(i, engine, ctl, deadline, tx)
                    }
                    Err(why) => {
                        eprintln!("*** Info : (yasmin-rs): GPU {k} does not take part: {why}");
                        let _ = tx.send(Report::Done(i, None));
                    }
                }
            });
            match started {
                Ok(()) => {
                    self.running += 1;
                    self.gpu_members.push((i, k));
                }
                Err(e) => eprintln!("*** Warn : (yasmin-rs): {e}; GPU {k} does not take part"),
            }
        }
    }
}

/// Thread `i`: build the engine, then search, reporting each model and bounding itself below
/// it, taking the newest common bound whenever poked, until it proves its bound optimal or is
/// stopped; then hand its engine back.
/// With `port`, it shares short learned nogoods with the other threads, bounds and all
/// (`CpuEngine::share_under_bounds`).
pub(super) fn member(
    i: u32,
    program: Arc<(GroundProgram, Completion, crate::engine::cpu::Shared)>,
    opts: HostOptions,
    port: Option<Port>,
    ctl: Arc<Control>,
    deadline: Option<Instant>,
    tx: Sender<Report>,
) {
    if ctl.stop.load(Ordering::Relaxed) {
        let _ = tx.send(Report::Done(i, None));
        return;
    }
    let mut engine = CpuEngine::with_shared(&program.0, &program.1, opts, &program.2);
    let size = program.0.rules.len().max(program.0.bodies.len());
    // The last thread built frees the program and gives its pages back to the system.
    if Arc::into_inner(program).is_some() {
        crate::memory::give_back(size);
    }
    if let Some(p) = port {
        engine.share_under_bounds(p);
    }
    search(i, Box::new(engine), ctl, deadline, tx);
}

/// Member `i`'s search (a host thread's, or a further GPU's) with its `engine`.
fn search(
    i: u32,
    mut engine: MemberEngine,
    ctl: Arc<Control>,
    deadline: Option<Instant>,
    tx: Sender<Report>,
) {
    let (poke, limits) = ctl.wait_for_go(i, deadline);
    let mut seen = 0;
    while !ctl.stop.load(Ordering::Relaxed) && !deadline.is_some_and(|d| Instant::now() >= d) {
        // Clear the poke before reading the bound: a bound set later pokes again.
        poke.store(false, Ordering::Relaxed);
        if let Some((v, b)) = ctl.newer_bound(seen) {
            seen = v;
            if engine.set_bound(&b).is_err() {
                break;
            }
        }
        match engine.next_model(&limits).unwrap_or(Step::Stopped) {
            Step::Model(m) => {
                let Some(costs) = engine.costs() else { break };
                let own = Bound {
                    costs: costs.iter().map(|&c| Some(c)).collect(),
                    strict: true,
                };
                if tx.send(Report::Model(i, m, costs)).is_err() || engine.set_bound(&own).is_err() {
                    break;
                }
            }
            Step::Exhausted => {
                let _ = tx.send(Report::Exhausted(i));
                break;
            }
            Step::Limit => {
                let _ = tx.send(Report::Limit);
                break;
            }
            Step::Stopped => {}
        }
    }
    let _ = tx.send(Report::Done(i, Some(engine)));
}
