//! The configurations of a host portfolio's threads (`-t N`): thread 0 runs the options as
//! resolved from the command line; thread `i > 0` runs row `i` of [`ROWS`] (cycling) over them,
//! with its own seed — clasp's way of making `-t N` searches diverse.
//!
//! Invariant: an option the user gave is never changed by a row (a row that would need to
//! change one for consistency, e.g. rule decisions under a given `--save-progress`, leaves every
//! option as given and varies only the seed), and every row is a consistent host-engine
//! configuration (saved signs only with decisions on variables, phase switching only with
//! saved signs, a forward cut other than `decisions` only with forward learning).

use crate::config::{Decide, FwdCut, Heuristic, Learning, RestartPolicy};
use crate::engine::Options;

/// One row: the options it sets (`None`: keep the base's).
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub name: &'static str,
    pub learning: Option<Learning>,
    pub decide: Option<Decide>,
    pub heuristic: Option<Heuristic>,
    /// `Some(None)`: no saved signs.
    pub save_progress: Option<Option<u32>>,
    pub phase_switch: Option<Option<u64>>,
    pub restarts: Option<RestartPolicy>,
    pub fwd_cut: Option<FwdCut>,
}

const KEEP: Row = Row {
    name: "",
    learning: None,
    decide: None,
    heuristic: None,
    save_progress: None,
    phase_switch: None,
    restarts: None,
    fwd_cut: None,
};

/// The rows threads 1, 2, ... run (thread 0 runs the base). Chosen to differ where the
/// measurements of `benchmarks/results` saw different configurations win different classes:
/// restarts, signs, decisions on rules or variables, resolution or forward learning.
pub const ROWS: &[Row] = &[
    Row {
        name: "luby",
        restarts: Some(RestartPolicy::Luby),
        ..KEEP
    },
    Row {
        name: "fwd",
        learning: Some(Learning::Fwd),
        fwd_cut: Some(FwdCut::Lits),
        ..KEEP
    },
    Row {
        name: "fixed-signs",
        save_progress: Some(None),
        phase_switch: Some(None),
        ..KEEP
    },
    Row {
        name: "rules",
        decide: Some(Decide::Rules),
        save_progress: Some(None),
        phase_switch: Some(None),
        restarts: Some(RestartPolicy::Luby),
        ..KEEP
    },
    Row {
        name: "saved-signs",
        decide: Some(Decide::Vars),
        save_progress: Some(Some(0)),
        phase_switch: Some(None),
        ..KEEP
    },
    Row {
        name: "fwd-luby",
        learning: Some(Learning::Fwd),
        fwd_cut: Some(FwdCut::Lits),
        restarts: Some(RestartPolicy::Luby),
        ..KEEP
    },
    Row {
        name: "rules-dynamic",
        decide: Some(Decide::Rules),
        save_progress: Some(None),
        phase_switch: Some(None),
        restarts: Some(RestartPolicy::Dynamic),
        ..KEEP
    },
    Row {
        name: "paper-fwd",
        learning: Some(Learning::Fwd),
        fwd_cut: Some(FwdCut::Decisions),
        decide: Some(Decide::Rules),
        save_progress: Some(None),
        phase_switch: Some(None),
        restarts: Some(RestartPolicy::Luby),
        ..KEEP
    },
    Row {
        name: "rules-jw",
        decide: Some(Decide::Rules),
        heuristic: Some(Heuristic::Jw),
        save_progress: Some(None),
        phase_switch: Some(None),
        restarts: Some(RestartPolicy::Luby),
        ..KEEP
    },
    Row {
        name: "vars-luby-fixed",
        decide: Some(Decide::Vars),
        save_progress: Some(None),
        phase_switch: Some(None),
        restarts: Some(RestartPolicy::Luby),
        ..KEEP
    },
    Row {
        name: "fwd-fixed-signs",
        learning: Some(Learning::Fwd),
        fwd_cut: Some(FwdCut::Lits),
        save_progress: Some(None),
        phase_switch: Some(None),
        ..KEEP
    },
    Row {
        name: "switch-long",
        decide: Some(Decide::Vars),
        save_progress: Some(Some(0)),
        phase_switch: Some(Some(5000)),
        ..KEEP
    },
];

/// Which options the user gave on the command line (rows leave those alone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Given {
    pub learning: bool,
    pub decide: bool,
    pub heuristic: bool,
    pub save_progress: bool,
    pub phase_switch: bool,
    pub restarts: bool,
    pub fwd_cut: bool,
}

/// The options of `threads` host threads over `base`, and each one's row name.
pub fn host_rows(base: Options, given: Given, threads: usize) -> Vec<(Options, &'static str)> {
    (0..threads)
        .map(|i| {
            if i == 0 {
                return (base, "base");
            }
            let row = &ROWS[(i - 1) % ROWS.len()];
            let mut o = apply(base, row, given).unwrap_or(base);
            o.seed = base.seed.wrapping_add(i as u64);
            (o, row.name)
        })
        .collect()
}

/// `row` over `base`, or `None` when that would change an option the user gave.
fn apply(base: Options, row: &Row, given: Given) -> Option<Options> {
    let mut o = base;
    let set = |given: bool, row: bool| row && !given;
    if set(given.learning, row.learning.is_some()) {
        o.learning = row.learning.unwrap();
    }
    if set(given.decide, row.decide.is_some()) {
        o.decide = row.decide.unwrap();
    }
    if set(given.heuristic, row.heuristic.is_some()) {
        o.heuristic = row.heuristic.unwrap();
    }
    if set(given.save_progress, row.save_progress.is_some()) {
        o.save_progress = row.save_progress.unwrap();
    }
    if set(given.phase_switch, row.phase_switch.is_some()) {
        o.phase_switch = row.phase_switch.unwrap();
    }
    if set(given.restarts, row.restarts.is_some()) {
        o.restarts = row.restarts.unwrap();
    }
    if set(given.fwd_cut, row.fwd_cut.is_some()) {
        o.fwd_cut = row.fwd_cut.unwrap();
    }
    // Consistency, as the command line's rules (run/plan.rs) demand it.
    if o.learning != Learning::Fwd {
        o.fwd_cut = FwdCut::Decisions;
    }
    if o.decide != Decide::Vars {
        o.save_progress = None;
    }
    if o.save_progress.is_none() {
        o.phase_switch = None;
    }
    let changed_given = (given.fwd_cut && o.fwd_cut != base.fwd_cut)
        || (given.save_progress && o.save_progress != base.save_progress)
        || (given.phase_switch && o.phase_switch != base.phase_switch);
    (!changed_given).then_some(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Sums;

    fn tuned() -> Options {
        Options {
            learning: Learning::Res,
            heuristic: Heuristic::Activity,
            seed: 1,
            sync_always: false,
            sums: Sums::Native,
            decide: Decide::Vars,
            save_progress: Some(0),
            phase_switch: Some(1000),
            fwd_cut: FwdCut::Decisions,
            restarts: RestartPolicy::Dynamic,
            searches: None,
            cubes: None,
        }
    }

    fn consistent(o: &Options) -> bool {
        (o.learning == Learning::Fwd || o.fwd_cut == FwdCut::Decisions)
            && (o.decide == Decide::Vars || o.save_progress.is_none())
            && (o.save_progress.is_some() || o.phase_switch.is_none())
    }

    #[test]
    fn thread_zero_runs_the_base_and_the_others_differ() {
        let rows = host_rows(tuned(), Given::default(), ROWS.len() + 3);
        assert_eq!(rows[0].0, tuned());
        for (i, (o, name)) in rows.iter().enumerate() {
            assert!(consistent(o), "row {i} ({name}) inconsistent: {o:?}");
            assert_eq!(o.seed, 1 + i as u64, "row {i}: its own seed");
        }
        // Every row but the base changes more than the seed over `tuned`.
        let differs = rows[1..=ROWS.len()]
            .iter()
            .filter(|(o, _)| Options { seed: 1, ..*o } != tuned())
            .count();
        assert!(differs >= ROWS.len() - 1, "{differs} rows differ");
        for scheme in [Learning::Res, Learning::Fwd] {
            assert!(
                rows.iter().any(|(o, _)| o.learning == scheme),
                "{scheme:?} takes part"
            );
        }
    }

    #[test]
    fn given_options_are_kept_by_every_row() {
        let given = Given {
            learning: true,
            save_progress: true,
            ..Given::default()
        };
        let base = Options {
            save_progress: Some(5),
            ..tuned()
        };
        for (o, name) in host_rows(base, given, 2 * ROWS.len()) {
            assert_eq!(o.learning, Learning::Res, "{name}");
            assert_eq!(o.save_progress, Some(5), "{name}");
            assert_eq!(
                o.decide,
                Decide::Vars,
                "{name}: rules would drop saved signs"
            );
            assert!(consistent(&o), "{name}");
        }
    }
}
