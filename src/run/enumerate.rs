//! The model loop: ask the engine for models until enough, none left, or a limit; check each
//! one; print it.
//!
//! Invariant: a model is printed only after the checker (when there is one) accepted it; a
//! rejected model ends the loop with an internal-error [`Failure`] (exit 70) before anything of
//! it is printed. `Step::Stopped` is told apart by the interrupt flag: set = Ctrl-C, otherwise
//! the deadline.

use super::{engine_failure, exit, output_failure, Failure};
use crate::check::Checker;
use crate::engine::{Engine, Limits, Step};
use crate::output::{Outcome, Printer, ShownTable};
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
}

/// Enumerate up to `max_models` models (0 = all) of `engine`.
pub fn enumerate<W: Write>(
    engine: &mut dyn Engine,
    checker: Option<&Checker>,
    shown: &ShownTable,
    max_models: u64,
    limits: &Limits,
    printer: &mut Printer<W>,
    mut on_model: impl FnMut(),
) -> anyhow::Result<Found> {
    let solve_start = Instant::now();
    let mut found = Found {
        outcome: Outcome::Enough,
        models: 0,
        solve_start,
        first_model: None,
        last_model: solve_start,
    };
    let mut caveats_said = false;
    found.outcome = loop {
        if max_models > 0 && found.models >= max_models {
            break Outcome::Enough;
        }
        match engine.next_model(limits).map_err(engine_failure)? {
            Step::Model(model) => {
                if let Some(checker) = checker {
                    match checker.check(&model.atoms) {
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
                found.models += 1;
                found.last_model = Instant::now();
                found
                    .first_model
                    .get_or_insert(found.last_model - solve_start);
                on_model();
                printer
                    .model(&shown.shown(&model.atoms))
                    .map_err(output_failure)?;
            }
            Step::Exhausted => break Outcome::Exhausted,
            Step::Stopped if limits.interrupt.load(Ordering::Relaxed) => {
                break Outcome::Interrupted
            }
            Step::Stopped => break Outcome::TimeLimit,
        }
    };
    Ok(found)
}
