//! The core-guided member of the optimisation race (`engine/usc.rs` on one of its threads).

use super::{Control, Report};
use crate::engine::usc::{oll, Ended};
use crate::engine::{HostOptions, Stats};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

/// A member optimising by cores (`engine/usc.rs`) in place of the last thread's branch and
/// bound: the input program (the member grows copies of it) and `--eq`.
#[derive(Clone)]
pub struct CoreGuided {
    pub program: Arc<lparse::Program>,
    pub eq: bool,
}

/// Thread `i`, optimising by cores (`engine/usc.rs`) with `opts`: its optimum is reported as
/// a model, then as a proof (nothing beats it, so nothing beats a model of the same cost
/// accepted before); a program without a model is reported as a proof alone. Pokes for new
/// bounds do not concern it: its search goes on unless the race stops.
pub(super) fn core_member(
    i: u32,
    cores: CoreGuided,
    opts: HostOptions,
    ctl: Arc<Control>,
    deadline: Option<Instant>,
    tx: Sender<Report>,
) {
    let (poke, limits) = ctl.wait_for_go(i, deadline);
    let resume = || {
        if ctl.stop.load(Ordering::Relaxed) {
            return false;
        }
        poke.store(false, Ordering::Relaxed);
        true
    };
    let mut stats = Stats::default();
    if !ctl.stop.load(Ordering::Relaxed) {
        match oll(&cores.program, cores.eq, opts, &limits, &resume, &mut stats) {
            Ok(Ended::Optimum(model, costs, _)) => {
                if tx.send(Report::Model(i, model, costs)).is_ok() {
                    let _ = tx.send(Report::Exhausted(i));
                }
            }
            Ok(Ended::NoModel) => {
                let _ = tx.send(Report::Exhausted(i));
            }
            Ok(Ended::Stopped | Ended::HeadCycle) => {}
            Err(e) => eprintln!("*** Warn : (yasmin-rs): the core-guided thread failed ({e})"),
        }
    }
    let _ = tx.send(Report::Counts(Box::new(stats)));
    let _ = tx.send(Report::Done(i, None));
}
