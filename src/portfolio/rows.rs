//! The configurations of a host portfolio's threads (`-t N`) as data: thread 0 runs the
//! configuration (`--configuration`), thread `i > 0` runs row `i` of [`ROWS`] (cycling) laid
//! over it, with a seed of its own (`run/plan.rs::host_portfolio` builds them) — clasp's way
//! of making `-t N` searches diverse, with rows of the same kind as the configuration table's.
//!
//! Invariant: a row sets only search choices of the host engine; the options the user gave lie
//! over every row (a row never overrides them).

use crate::engine::options::{SaveProgress, SearchRow};
use crate::engine::{Decide, FwdCut, Heuristic, Learning, RestartPolicy};

const KEEP: SearchRow = SearchRow {
    learning: None,
    heuristic: None,
    decide: None,
    save_progress: None,
    phase_switch: None,
    fwd_cut: None,
    restarts: None,
    seed: None,
};

/// Rule decisions have fixed signs: no saved signs, no phase switching.
const RULES: SearchRow = SearchRow {
    decide: Some(Decide::Rules),
    save_progress: Some(SaveProgress::Off),
    phase_switch: Some(0),
    ..KEEP
};

/// The rows threads 1, 2, ... run over the configuration. Chosen to differ where the
/// measurements saw different settings win different classes: restarts, signs, decisions on
/// rules or variables, resolution or forward learning.
pub const ROWS: &[(&str, SearchRow)] = &[
    (
        "luby",
        SearchRow {
            restarts: Some(RestartPolicy::Luby),
            ..KEEP
        },
    ),
    (
        "fwd",
        SearchRow {
            learning: Some(Learning::Fwd),
            fwd_cut: Some(FwdCut::Lits),
            ..KEEP
        },
    ),
    (
        "fixed-signs",
        SearchRow {
            save_progress: Some(SaveProgress::Off),
            phase_switch: Some(0),
            ..KEEP
        },
    ),
    (
        "rules",
        SearchRow {
            restarts: Some(RestartPolicy::Luby),
            ..RULES
        },
    ),
    (
        "saved-signs",
        SearchRow {
            decide: Some(Decide::Vars),
            save_progress: Some(SaveProgress::Over(0)),
            phase_switch: Some(0),
            ..KEEP
        },
    ),
    (
        "fwd-luby",
        SearchRow {
            learning: Some(Learning::Fwd),
            fwd_cut: Some(FwdCut::Lits),
            restarts: Some(RestartPolicy::Luby),
            ..KEEP
        },
    ),
    (
        "rules-dynamic",
        SearchRow {
            restarts: Some(RestartPolicy::Dynamic),
            ..RULES
        },
    ),
    (
        "paper-fwd",
        SearchRow {
            learning: Some(Learning::Fwd),
            fwd_cut: Some(FwdCut::Decisions),
            restarts: Some(RestartPolicy::Luby),
            ..RULES
        },
    ),
    (
        "rules-jw",
        SearchRow {
            heuristic: Some(Heuristic::Jw),
            restarts: Some(RestartPolicy::Luby),
            ..RULES
        },
    ),
    (
        "vars-luby-fixed",
        SearchRow {
            decide: Some(Decide::Vars),
            save_progress: Some(SaveProgress::Off),
            phase_switch: Some(0),
            restarts: Some(RestartPolicy::Luby),
            ..KEEP
        },
    ),
    (
        "fwd-fixed-signs",
        SearchRow {
            learning: Some(Learning::Fwd),
            fwd_cut: Some(FwdCut::Lits),
            save_progress: Some(SaveProgress::Off),
            phase_switch: Some(0),
            ..KEEP
        },
    ),
    (
        "switch-long",
        SearchRow {
            decide: Some(Decide::Vars),
            save_progress: Some(SaveProgress::Over(0)),
            phase_switch: Some(5000),
            ..KEEP
        },
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_distinct_names_and_set_no_seed() {
        let mut names: Vec<_> = ROWS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ROWS.len());
        assert!(
            ROWS.iter().all(|(_, r)| r.seed.is_none()),
            "seeds are per thread"
        );
    }
}
