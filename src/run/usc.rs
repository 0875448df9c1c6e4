//! `--opt-strategy=usc` on one host thread: core-guided optimisation (`engine/usc.rs`, OLL)
//! finds an optimal model, which is checked and printed as any other; [`run`] says first why a
//! request it does not serve is refused.
//!
//! Invariant: the model printed passed the checker (rules and costs from the input program),
//! and `OPTIMUM FOUND` is said only for a model OLL proved optimal.

use super::enumerate::Found;
use super::{engine_failure, exit, output_failure, plan, Failure};
use crate::check::Checker;
use crate::config::{Config, EnumMode, OptKind};
use crate::engine::usc::{oll, Ended};
use crate::engine::{HostOptions, Limits, Stats};
use crate::output::{OptSummary, Outcome, Printer, ShownTable};
use lparse::Program;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

/// Find an optimal model of `program` (`--opt-mode=opt`), print it, and return what was found
/// with the search statistics of every engine built; `None`, before anything is printed, for a
/// program with a head cycle (branch and bound runs it instead).
pub fn solve<W: Write>(
    program: &Program,
    eq: bool,
    opts: HostOptions,
    checker: Option<&Checker>,
    shown: &ShownTable,
    limits: &Limits,
    printer: &mut Printer<W>,
) -> anyhow::Result<Option<(Found, Stats)>> {
    let solve_start = Instant::now();
    let mut stats = Stats::default();
    let mut solving_said = false;
    let mut say_solving = |printer: &mut Printer<W>| -> anyhow::Result<()> {
        if !solving_said {
            solving_said = true;
            printer.solving().map_err(output_failure)?;
        }
        Ok(())
    };
    let ended = oll(program, eq, opts, limits, &|| false, &mut stats).map_err(engine_failure)?;
    let mut found = Found::new(Outcome::Exhausted, solve_start);
    let (model, costs) = match ended {
        Ended::HeadCycle => return Ok(None),
        Ended::NoModel => {
            say_solving(printer)?;
            return Ok(Some((found, stats)));
        }
        Ended::Stopped => {
            say_solving(printer)?;
            found.outcome = if limits.interrupt.load(Ordering::Relaxed) {
                Outcome::Interrupted
            } else {
                Outcome::TimeLimit
            };
            return Ok(Some((found, stats)));
        }
        Ended::Optimum(model, costs) => (model, costs),
    };
    say_solving(printer)?;
    if let Some(checker) = checker {
        if let Err(v) = checker
            .check(&model.atoms)
            .and_then(|_| checker.check_costs(&model.atoms, &costs))
        {
            return Err(Failure::new(
                exit::INTERNAL,
                format!("internal error: the optimal model is not an answer set: {v}"),
            )
            .into());
        }
    }
    found.models = 1;
    found.last_model = Instant::now();
    found.first_model = Some(found.last_model - solve_start);
    printer
        .model(&shown.shown(&model.atoms), Some(&costs))
        .map_err(output_failure)?;
    found.opt = Some(OptSummary {
        costs,
        optimum: true,
        optimal: 1,
        optimize: true,
    });
    Ok(Some((found, stats)))
}

/// `--opt-strategy=usc` on a program with an objective (`run/usc.rs`): the host engine on one
/// thread finds an optimal model (the exit code), or says why it cannot run the request;
/// `None` for a program with a head cycle, nothing printed yet.
pub(super) fn run<W: Write>(
    config: &Config,
    plan: &plan::Plan,
    program: &lparse::Program,
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
    if config.opt_mode.kind != OptKind::Opt || !config.opt_mode.bound.is_empty() {
        return Err(unsupported("supports --opt-mode=opt without a bound only").into());
    }
    if !matches!(config.enum_mode, EnumMode::Auto | EnumMode::Record) {
        return Err(unsupported("does not compute consequences").into());
    }
    if config.projection().is_some() {
        return Err(unsupported("does not project yet").into());
    }
    let Some(opts) = plan.host else {
        return Err(unsupported("runs on the host engine (--engine=cpu or auto)").into());
    };
    let deadline = (config.time_limit > 0).then(|| start + Duration::from_secs(config.time_limit));
    let limits = Limits {
        deadline,
        interrupt: interrupt.clone(),
        progress: None,
    };
    let checker = config.verify.then(|| Checker::new(program));
    let shown = ShownTable::new(program);
    let Some((found, stats)) = solve(
        program,
        config.eq > 0,
        opts,
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
