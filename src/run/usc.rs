//! `--opt-strategy=usc` on one host thread (on the GPU engine's searches with `--engine=gpu`):
//! core-guided optimisation (`wrap/oll.rs`, OLL)
//! finds an optimal model and, with `--opt-mode=optN`, the optimal models, each checked and
//! printed as any other (clingo's layout: the optimum, then every optimal model again);
//! [`run`] says first why a request it does not serve is refused.
//!
//! Invariant: every model printed passed the checker (rules and costs from the input program)
//! and costs the optimum, and `OPTIMUM FOUND` is said only once OLL proved it.

use super::enumerate::Found;
use super::{engine_failure, exit, output_failure, plan, Failure};
use crate::check::Checker;
use crate::config::EngineKind;
use crate::config::{Config, EnumMode, OptKind};
use crate::engine::gpu::engine::Backend;
use crate::engine::{Limits, Stats, Step};
use crate::output::{OptSummary, Outcome, Printer, ShownTable};
use crate::wrap::oll::{oll, Ended, Searcher};
use lparse::Program;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

/// Find an optimal model of `program`, print it, and with `--opt-mode=optN` then up to
/// `max_optimal` optimal models (0: all; the optimum's among them, as branch and bound prints
/// it twice too); return what was found with the search statistics of every engine built;
/// `None`, before anything is printed, for a program with a head cycle (branch and bound runs
/// it instead).
#[allow(clippy::too_many_arguments)]
pub fn solve<W: Write>(
    program: &Program,
    eq: bool,
    searcher: Searcher,
    optimal_too: bool,
    max_optimal: u64,
    checker: Option<&Checker>,
    shown: &ShownTable,
    limits: &Limits,
    printer: &mut Printer<W>,
) -> anyhow::Result<Option<(Found, Stats)>> {
    let solve_start = Instant::now();
    let mut stats = Stats::default();
    let ended =
        oll(program, eq, searcher, limits, &|| false, &mut stats).map_err(engine_failure)?;
    if matches!(ended, Ended::HeadCycle) {
        return Ok(None);
    }
    printer.solving().map_err(output_failure)?;
    let mut found = Found::new(Outcome::Exhausted, solve_start);
    let stopped = || match limits.interrupt.load(Ordering::Relaxed) {
        true => Outcome::Interrupted,
        false => Outcome::TimeLimit,
    };
    let (model, costs, mut optimal) = match ended {
        Ended::HeadCycle | Ended::NoModel => return Ok(Some((found, stats))),
        Ended::Stopped => {
            found.outcome = stopped();
            return Ok(Some((found, stats)));
        }
        Ended::Limit => {
            found.outcome = Outcome::SolveLimit;
            return Ok(Some((found, stats)));
        }
        Ended::Optimum(model, costs, optimal) => (model, costs, optimal),
    };
    let print = |printer: &mut Printer<W>,
                 found: &mut Found,
                 atoms: &[u32],
                 c: &[i64]|
     -> anyhow::Result<()> {
        if c != costs.as_slice() {
            return Err(Failure::new(
                exit::INTERNAL,
                format!("internal error: an optimal model costs {c:?}, the optimum {costs:?}"),
            )
            .into());
        }
        if let Some(checker) = checker {
            if let Err(v) = checker
                .check(atoms)
                .and_then(|_| checker.check_costs(atoms, c))
            {
                return Err(Failure::new(
                    exit::INTERNAL,
                    format!("internal error: an optimal model is not an answer set: {v}"),
                )
                .into());
            }
        }
        found.models += 1;
        found.last_model = Instant::now();
        found
            .first_model
            .get_or_insert(found.last_model - solve_start);
        printer
            .model(&shown.shown(atoms), Some(c))
            .map_err(output_failure)?;
        Ok(())
    };
    print(printer, &mut found, &model.atoms, &costs)?;
    let mut count = 1;
    if optimal_too {
        // optN: the optimum again, then the other models of the last engine, each optimal.
        printer.optimal_models();
        print(printer, &mut found, &model.atoms, &costs)?;
        while max_optimal == 0 || count < max_optimal {
            match optimal.next_model(limits).map_err(engine_failure)? {
                (Step::Model(m), c) => {
                    let c = c.ok_or_else(|| {
                        Failure::new(exit::INTERNAL, "internal error: a model without its costs")
                    })?;
                    print(printer, &mut found, &m.atoms, &c)?;
                    count += 1;
                }
                (Step::Exhausted, _) => break,
                (Step::Stopped, _) => {
                    found.outcome = stopped();
                    break;
                }
                (Step::Limit, _) => {
                    found.outcome = Outcome::SolveLimit;
                    break;
                }
            }
        }
        if found.outcome == Outcome::Exhausted && max_optimal != 0 && count >= max_optimal {
            found.outcome = Outcome::Enough;
        }
    }
    found.opt = Some(OptSummary {
        costs,
        optimum: true,
        optimal: count,
        optimize: true,
    });
    Ok(Some((found, stats)))
}

/// `--opt-strategy=usc` on a program with an objective (`run/usc.rs`): the host engine on one
/// thread (the GPU engine with `--engine=gpu`) finds an optimal model (the exit code), or says
/// why it cannot run the request;
/// `None` for a program with a head cycle, nothing printed yet.
pub(super) fn run<W: Write>(
    config: &Config,
    plan: &plan::Plan,
    program: &Arc<lparse::Program>,
    printer: &mut Printer<W>,
    interrupt: &Arc<AtomicBool>,
    start: Instant,
) -> anyhow::Result<Option<i32>> {
    let unsupported = |what: &str| {
        Failure::new(
            exit::UNSUPPORTED,
            format!("--opt-strategy=usc {what} (use --opt-strategy=bb)"),
        )
    };
    let optimal_too = match config.opt_mode.kind {
        OptKind::Opt => false,
        OptKind::OptN => true,
        _ => return Err(unsupported("supports --opt-mode=opt and optN only").into()),
    };
    if !config.opt_mode.bound.is_empty() {
        return Err(unsupported("takes no initial bound").into());
    }
    if !matches!(config.enum_mode, EnumMode::Auto | EnumMode::Record) {
        return Err(unsupported("does not compute consequences").into());
    }
    if config.projection().is_some() {
        return Err(unsupported("does not project yet").into());
    }
    let searcher = match (plan.kind, plan.device, plan.host) {
        (EngineKind::Gpu, Some(o), _) => Searcher::Device(o, Backend::Device),
        (EngineKind::Emu, Some(o), _) => Searcher::Device(o, Backend::Emulated),
        (_, _, Some(o)) => Searcher::Host(o),
        _ => return Err(unsupported("has no engine to run on").into()),
    };
    let deadline = (config.time_limit > 0).then(|| start + Duration::from_secs(config.time_limit));
    let limits = Limits {
        deadline,
        interrupt: interrupt.clone(),
        progress: None,
    };
    let checker = config.verify.then(|| Checker::new(program.clone()));
    let shown = ShownTable::new(program);
    let Some((found, stats)) = solve(
        program,
        config.eq > 0,
        searcher,
        optimal_too,
        config.models.unwrap_or(0),
        checker.as_ref(),
        &shown,
        &limits,
        printer,
    )?
    else {
        return Ok(None);
    };
    let stats = config.stats.then_some(&stats);
    super::finish(printer, found, start, Instant::now(), stats, None).map(Some)
}
