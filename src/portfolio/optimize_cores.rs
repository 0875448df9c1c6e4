//! The core-guided member of the optimisation race (`wrap/oll.rs` on one of its threads).

use super::{Control, Report};
use crate::engine::gpu::engine::Backend;
use crate::engine::{DeviceOptions, HostOptions, Stats};
use crate::wrap::oll::{oll, Ended, Searcher};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

/// A member optimising by cores (`wrap/oll.rs`) in place of the last thread's branch and
/// bound: the input program (the member grows copies of it) and `--eq`; `device`: its searches
/// run on the GPU engine (`--engine=gpu`), the thread only drives them.
#[derive(Clone)]
pub struct CoreGuided {
    pub program: Arc<lparse::Program>,
    pub eq: bool,
    pub device: Option<(DeviceOptions, Backend)>,
}

/// Make the last of `hosts` (two or more; one where it drives the GPU's searches) the
/// core-guided member: it runs the configuration
/// (thread 0's options with a seed of its own), as `--opt-strategy=usc` does alone, whatever
/// the thread count. The row the last thread would run made it 2-3x slower (stilllife 007,
/// core-guided on one thread, build machine: 4.1 s with the configuration, 10.9 s with
/// forward learning, 12.1 s with fixed signs).
pub(super) fn make_last_core_guided(hosts: &mut [(HostOptions, &'static str)]) {
    let n = hosts.len();
    assert!(n >= 1, "the core-guided member is one of the threads");
    let base = hosts[0].0;
    hosts[n - 1] = (
        HostOptions {
            seed: base.seed.wrapping_add(n as u64 - 1),
            ..base
        },
        "usc",
    );
}

/// Thread `i`, optimising by cores (`wrap/oll.rs`) with `opts`: its optimum is reported as
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
        let searcher = match cores.device {
            Some((o, backend)) => Searcher::Device(o, backend),
            None => Searcher::Host(opts),
        };
        match oll(
            &cores.program,
            cores.eq,
            searcher,
            &limits,
            &resume,
            &mut stats,
        ) {
            Ok(Ended::Optimum(model, costs, _)) => {
                if tx.send(Report::Model(i, model, costs)).is_ok() {
                    let _ = tx.send(Report::Exhausted(i));
                }
            }
            Ok(Ended::NoModel) => {
                let _ = tx.send(Report::Exhausted(i));
            }
            Ok(Ended::Limit) => {
                let _ = tx.send(Report::Limit);
            }
            Ok(Ended::Stopped | Ended::HeadCycle) => {}
            Err(e) => eprintln!("*** Warn : (yasmin-rs): the core-guided thread failed ({e})"),
        }
    }
    let _ = tx.send(Report::Counts(Box::new(stats)));
    let _ = tx.send(Report::Done(i, None));
}

#[cfg(test)]
mod tests {
    use super::make_last_core_guided;
    use crate::engine::cpu::tests::opts;
    use crate::engine::{Heuristic, HostOptions, Learning};

    #[test]
    fn the_core_guided_member_runs_the_configuration_with_its_own_seed() {
        let base = opts(Learning::Res, Heuristic::Activity, 1);
        let row = HostOptions {
            learning: Learning::Fwd,
            seed: base.seed + 7,
            ..base
        };
        let mut hosts = vec![(base, "auto"), (row, "luby"), (row, "fwd")];
        make_last_core_guided(&mut hosts);
        assert_eq!(hosts[1], (row, "luby"), "only the last thread changes");
        let (last, name) = hosts[2];
        assert_eq!(name, "usc");
        assert_eq!(last.learning, base.learning);
        assert_eq!(last.seed, base.seed + 2);
        assert_eq!(
            HostOptions {
                seed: base.seed,
                ..last
            },
            base
        );
    }
}
