//! The model loop: ask the engine for models until enough, none left, or a limit; check each
//! one; print it. With an objective it is clasp's optimisation loop (`--opt-mode`): `opt`
//! bounds the search after each model so that the next one costs strictly less, until no
//! model is left (the last one is optimal); `optN` does that, then asks for every model at
//! most as costly as the optimum (the engine forgets what the strict bound taught it);
//! `enum` enumerates the models within the bound given, if any.
//!
//! Invariant: a model is printed only after the checker (when there is one; incrementally, each
//! model against the last one it accepted, `check::Incremental`) accepted it and,
//! with an objective, the costs the engine reports for it equal the costs the checker computes
//! from the program; a rejected model ends the loop with an internal-error [`Failure`] (exit
//! 70) before anything of it is printed. `Step::Stopped` is told apart by the interrupt flag:
//! set = Ctrl-C, otherwise the deadline; `Step::Limit` is the solve limit's (`--solve-limit`).

use super::{engine_failure, exit, output_failure, Failure};
use crate::check::Checker;
use crate::config::{OptKind, OptMode};
use crate::engine::{Bound, Engine, Limits, Step};
use crate::output::{OptSummary, Outcome, Printer, ShownTable};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What the loop found.
#[derive(Clone, Debug)]
pub struct Found {
    pub outcome: Outcome,
    pub models: u64,
    pub solve_start: Instant,
    pub first_model: Option<Duration>,
    pub last_model: Instant,
    /// With an objective (not ignored) and a model.
    pub opt: Option<OptSummary>,
    /// `--enum-mode=brave|cautious` (`run/consequences.rs`), with a model.
    pub cons: Option<crate::output::ConsSummary>,
}

impl Found {
    /// Nothing found yet, the search started at `solve_start`; `outcome` until it ends.
    pub fn new(outcome: Outcome, solve_start: Instant) -> Found {
        Found {
            outcome,
            models: 0,
            solve_start,
            first_model: None,
            last_model: solve_start,
            opt: None,
            cons: None,
        }
    }
}

/// Enumerate up to `max_models` models (0 = all; with `optN`, optimal models) of `engine`;
/// `opt` is the optimisation mode when the program has an objective that is not ignored;
/// `backtrack`: without one, enumerate by backtracking where the engine can (clasp's
/// `--enum-mode=auto`; `record` keeps a blocking nogood per model).
#[allow(clippy::too_many_arguments)]
pub fn enumerate<W: Write>(
    engine: &mut dyn Engine,
    checker: Option<&Checker>,
    shown: &ShownTable,
    max_models: u64,
    opt: Option<&OptMode>,
    backtrack: bool,
    limits: &Limits,
    printer: &mut Printer<W>,
    mut on_model: impl FnMut(),
) -> anyhow::Result<Found> {
    let solve_start = Instant::now();
    let mut found = Found::new(Outcome::Enough, solve_start);
    let kind = opt.map(|o| o.kind);
    if let Some(o) = opt.filter(|o| !o.bound.is_empty()) {
        let bound = Bound {
            costs: o.bound.iter().map(|&c| Some(c)).collect(),
            strict: false,
        };
        engine.set_bound(&bound).map_err(engine_failure)?;
    }
    // optN: the optimum is known, the optimal models are being enumerated (how many so far).
    let mut optimal: Option<u64> = None;
    let mut last_costs: Option<Vec<i64>> = None;
    let mut caveats_said = false;
    let mut by_backtracking = false;
    // Consecutive models mostly differ in few atoms: each is checked at the cost of those.
    let mut incremental = checker.map(|c| c.incremental());
    found.outcome = loop {
        // optN counts the optimal models only.
        let counted = match (kind, optimal) {
            (_, Some(n)) => Some(n),
            (Some(OptKind::OptN), None) => None,
            _ => Some(found.models),
        };
        if max_models > 0 && counted.is_some_and(|n| n >= max_models) {
            break Outcome::Enough;
        }
        match engine.next_model(limits).map_err(engine_failure)? {
            Step::Model(model) => {
                let costs = match opt {
                    Some(_) => Some(engine.costs().ok_or_else(|| {
                        Failure::new(exit::INTERNAL, "internal error: a model without its costs")
                    })?),
                    None => None,
                };
                if let (Some(checker), Some(incremental)) = (checker, incremental.as_mut()) {
                    let verdict = incremental.check(&model.atoms).and_then(|v| match &costs {
                        Some(c) => checker.check_costs(&model.atoms, c).map(|()| v),
                        None => Ok(v),
                    });
                    match verdict {
                        Ok(verdict) => {
                            // Say once what the checker could not check (it is the same for
                            // every model of the program).
                            if !verdict.complete() && !caveats_said {
                                for c in &verdict.caveats {
                                    eprintln!("*** Warn : (yasmin-rs): checker: {c}");
                                }
                                caveats_said = true;
                            }
                        }
                        Err(v) => {
                            return Err(Failure::new(
                                exit::INTERNAL,
                                format!(
                                    "internal error: the engine reported model {} but it is not \
                                     an answer set: {v}",
                                    found.models + 1
                                ),
                            )
                            .into())
                        }
                    }
                }
                // Asked after each model: a race of threads has one engine only after its
                // first answer.
                if backtrack && opt.is_none() && !by_backtracking {
                    by_backtracking = engine.enumerate_by_backtracking();
                }
                found.models += 1;
                found.last_model = Instant::now();
                found
                    .first_model
                    .get_or_insert(found.last_model - solve_start);
                on_model();
                let names = match printer.wants_atoms() {
                    true => shown.shown(&model.atoms),
                    false => Vec::new(),
                };
                printer
                    .model(&names, costs.as_deref())
                    .map_err(output_failure)?;
                if let Some(n) = optimal.as_mut() {
                    *n += 1;
                } else if let (Some(OptKind::Opt | OptKind::OptN), Some(c)) = (kind, &costs) {
                    // Branch and bound: only better models from now on.
                    let bound = Bound {
                        costs: c.iter().map(|&x| Some(x)).collect(),
                        strict: true,
                    };
                    engine.set_bound(&bound).map_err(engine_failure)?;
                }
                last_costs = costs;
            }
            Step::Exhausted => match (&last_costs, optimal) {
                (Some(c), None) if kind == Some(OptKind::OptN) => {
                    // The last model is optimal: now every model that costs as much.
                    let bound = Bound {
                        costs: c.iter().map(|&x| Some(x)).collect(),
                        strict: false,
                    };
                    engine.set_bound(&bound).map_err(engine_failure)?;
                    printer.optimal_models();
                    optimal = Some(0);
                }
                _ => break Outcome::Exhausted,
            },
            Step::Stopped if limits.interrupt.load(Ordering::Relaxed) => {
                break Outcome::Interrupted
            }
            Step::Stopped => break Outcome::TimeLimit,
            Step::Limit => break Outcome::SolveLimit,
        }
    };
    if let (Some(kind), Some(costs)) = (kind, last_costs) {
        let optimum = optimal.is_some() || found.outcome == Outcome::Exhausted;
        found.opt = Some(OptSummary {
            costs,
            optimum,
            optimal: match (kind, optimal) {
                (_, Some(n)) => n,
                (OptKind::Opt, _) if optimum => 1,
                _ => 0,
            },
            optimize: matches!(kind, OptKind::Opt | OptKind::OptN),
        });
    }
    Ok(found)
}
