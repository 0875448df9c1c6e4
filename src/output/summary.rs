//! What the run tells the printer at the end: how the search ended, the models, the times, the
//! optimisation and consequences summaries, and the exit code all of it gives (clasp's).
//!
//! Invariant: the exit code follows from the summary alone (10 a model found, + 20 the search
//! space exhausted, + 1 stopped early by the time limit or a signal).

use super::Problem;
use crate::engine::Stats;
use std::time::Duration;

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The search space was exhausted (all models printed, or none exists).
    Exhausted,
    /// The requested number of models was reached; more may exist.
    Enough,
    /// The time limit was reached.
    TimeLimit,
    /// Interrupted by a signal (Ctrl-C).
    Interrupted,
    /// The solve limit (`--solve-limit`) was reached. clasp marks it nowhere: the output and
    /// the exit code are those of `Enough` (`Models : N+`, no `TIME LIMIT` line, no +1).
    SolveLimit,
}

/// Optimisation's part of the final block (a run with an objective and a model).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptSummary {
    /// The last model's costs, highest priority first.
    pub costs: Vec<i64>,
    /// The last model is known to be optimal.
    pub optimum: bool,
    /// How many models are known to be optimal (clasp's `Optimal`).
    pub optimal: u64,
    /// `--opt-mode=opt|optN`: clasp prints `Optimization`, `Optimal` and the JSON fields only
    /// then (not with `enum`).
    pub optimize: bool,
}

/// Everything the final block needs.
#[derive(Clone, Debug)]
pub struct Summary<'a> {
    pub outcome: Outcome,
    pub models: u64,
    pub total: Duration,
    pub solving: Duration,
    /// From the start of solving to the first model (`None` = no model).
    pub first_model: Option<Duration>,
    /// From the last model (or the start) to the proof that no more exist (zero otherwise).
    pub unsat: Duration,
    /// Processor time of the whole process (clingo's `CPU Time`).
    pub cpu: Duration,
    pub stats: Option<&'a Stats>,
    /// With `stats`: the program's size (`None` when the run stopped before it was read).
    pub problem: Option<&'a Problem>,
    /// Optimisation (`None`: no objective, `--opt-mode=ignore`, or no model).
    pub opt: Option<OptSummary>,
    /// `--enum-mode=brave|cautious` with a model: the consequences' final estimate.
    pub cons: Option<ConsSummary>,
}

/// Brave or cautious consequences' part of the final block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConsSummary {
    /// Brave (else cautious).
    pub brave: bool,
    /// The last estimate `[lower;upper]`: symbols known to be consequences, and those that may be.
    pub lower: u64,
    pub upper: u64,
}

impl Summary<'_> {
    /// `SATISFIABLE`, `OPTIMUM FOUND`, `UNSATISFIABLE` or `UNKNOWN`.
    pub fn result(&self) -> &'static str {
        match (self.models, self.outcome) {
            (0, Outcome::Exhausted) => "UNSATISFIABLE",
            (0, _) => "UNKNOWN",
            _ if self.optimum() => "OPTIMUM FOUND",
            _ => "SATISFIABLE",
        }
    }
    /// A model was printed and the last one is known to be optimal.
    pub(super) fn optimum(&self) -> bool {
        self.models > 0 && self.opt.as_ref().is_some_and(|o| o.optimum)
    }
    /// The optimisation lines apply (a run with an objective that printed a model).
    pub(super) fn opt(&self) -> Option<&OptSummary> {
        self.opt.as_ref().filter(|_| self.models > 0)
    }
    /// clasp's exit code: 10 = a model was found, +20 = the space was exhausted, +1 = stopped
    /// early by a time limit or a signal (so 0 appears only when the solve limit stopped the
    /// search before a model, as clasp's `UNKNOWN` without an interrupt).
    pub fn exit_code(&self) -> i32 {
        let mut code = 0;
        if self.models > 0 {
            code += 10;
        }
        match self.outcome {
            Outcome::Exhausted => code += 20,
            Outcome::Enough | Outcome::SolveLimit => {}
            Outcome::TimeLimit | Outcome::Interrupted => code += 1,
        }
        code
    }
}
