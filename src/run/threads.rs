//! How many host threads search (`-t`): what the user asked for, or one per core (beside the
//! GPU engine one per core but one per GPU, whose host loop keeps a core busy), then what the
//! objective and the memory allow.
//!
//! Invariant: the count is at least 1; it is below the user's `-t` only for a reason said on
//! standard error (`--opt-mode=enum`, `--project` and consequences run one thread; too little
//! memory for more engines).

use crate::analyse::GroundProgram;
use crate::config::{Config, EngineKind, EnumMode, OptKind};
use crate::nogoods::Completion;

/// The threads wanted before the program is known; `gpus`: the GPUs `auto` searches on.
pub fn wanted(config: &Config, kind: EngineKind, gpus: u32) -> usize {
    if takes_nogoods(config) {
        if config.threads.is_some_and(|n| n > 1) && config.notes() {
            eprintln!(
                "*** Info : (yasmin-rs): --project and --enum-mode=brave|cautious run one CPU \
                 thread (-t ignored)"
            );
        }
        return 1;
    }
    if let Some(n) = config.threads {
        return n as usize;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match kind {
        EngineKind::Cpu => cores,
        EngineKind::Auto => cores.saturating_sub(gpus.max(1) as usize).max(1),
        EngineKind::Gpu | EngineKind::Emu => 1,
    }
}

/// The run hands the engine nogoods as it goes (`--project`, `--enum-mode=brave|cautious`):
/// one host engine takes them, so the search runs on one thread, not in a race.
pub fn takes_nogoods(config: &Config) -> bool {
    config.projection().is_some()
        || matches!(config.enum_mode, EnumMode::Brave | EnumMode::Cautious)
}

/// The threads that search `completion`; `optimising`: the program has an objective that is
/// not ignored (the threads optimise together, except with `--opt-mode=enum`).
pub fn count(
    config: &Config,
    kind: EngineKind,
    gpus: u32,
    optimising: bool,
    completion: &Completion,
) -> usize {
    if optimising && !parallel_optimisation(config) {
        if config.threads.is_some_and(|n| n > 1) && config.notes() {
            eprintln!("*** Info : (yasmin-rs): --opt-mode=enum runs one CPU thread (-t ignored)");
        }
        return 1;
    }
    fitting(config, kind, gpus, engine_bytes(completion))
}

/// Whether `-t` threads can optimise together: branch and bound (`opt`, and `optN` until the
/// optimum), not the enumeration of models within a bound (`enum`).
fn parallel_optimisation(config: &Config) -> bool {
    matches!(config.opt_mode.kind, OptKind::Opt | OptKind::OptN)
}

/// The threads that search `ground`, before its completion is made (no objective): the
/// completion's size guessed from the program's.
pub fn count_for_program(
    config: &Config,
    kind: EngineKind,
    gpus: u32,
    ground: &GroundProgram,
) -> usize {
    use crate::analyse::BodyDef;
    let size = |b: &BodyDef| match b {
        BodyDef::Conj { pos, neg } => pos.len() + neg.len(),
        BodyDef::Sum { lits, .. } => lits.len(),
    };
    let lits: u64 = ground
        .bodies
        .iter()
        .map(|b| 2 * size(b) as u64 + 1)
        .sum::<u64>()
        + 2 * ground.rules.len() as u64;
    let vars = u64::from(ground.num_atoms) + ground.bodies.len() as u64;
    fitting(
        config,
        kind,
        gpus,
        3 * (16 * lits + 48 * lits / 2 + 96 * vars),
    )
}

/// The threads wanted, or as many as half the free memory holds at `per_engine` bytes each.
fn fitting(config: &Config, kind: EngineKind, gpus: u32, per_engine: u64) -> usize {
    let wanted = wanted(config, kind, gpus);
    let fit = super::prepare::available_memory()
        .map_or(wanted, |free| (free / 2 / per_engine.max(1)) as usize)
        .max(1);
    if fit < wanted {
        if config.threads.is_some() {
            eprintln!(
                "*** Info : (yasmin-rs): {fit} CPU threads instead of {wanted}: each needs about \
                 {} MB and half the free memory fits {fit}",
                per_engine >> 20
            );
        }
        return fit;
    }
    wanted
}

/// A host engine's memory for `completion`, roughly (its store, watches and per-variable
/// arrays; measured on the shared instances: see `benchmarks/results`).
fn engine_bytes(completion: &Completion) -> u64 {
    let db = &completion.db;
    16 * db.lits.len() as u64 + 48 * db.len() as u64 + 96 * u64::from(db.num_vars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn config(args: &str) -> Config {
        Config::try_parse_from(format!("yasmin-rs {args}").split_whitespace()).unwrap()
    }

    #[test]
    fn the_user_s_count_or_the_cores() {
        assert_eq!(wanted(&config("-t 3"), EngineKind::Cpu, 1), 3);
        assert_eq!(
            wanted(&config("--parallel-mode=5,compete"), EngineKind::Auto, 1),
            5
        );
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(wanted(&config(""), EngineKind::Cpu, 1), cores);
        assert_eq!(wanted(&config(""), EngineKind::Auto, 1), (cores - 1).max(1));
        // One core per GPU for its host loop.
        assert_eq!(
            wanted(&config(""), EngineKind::Auto, 2),
            cores.saturating_sub(2).max(1)
        );
        assert_eq!(wanted(&config(""), EngineKind::Gpu, 1), 1);
    }

    #[test]
    fn bad_counts_and_modes_are_refused() {
        for bad in ["-t 0", "-t x", "-t 4,split", "-t 2000"] {
            let args = format!("yasmin-rs {bad}");
            assert!(
                Config::try_parse_from(args.split_whitespace()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn enumeration_within_a_bound_runs_one_thread() {
        let c = crate::nogoods::Completion::default();
        assert_eq!(
            count(
                &config("-t 8 --opt-mode=enum"),
                EngineKind::Cpu,
                1,
                true,
                &c
            ),
            1
        );
        assert_eq!(
            count(
                &config("-t 8 --opt-mode=enum"),
                EngineKind::Cpu,
                1,
                false,
                &c
            ),
            8
        );
        assert_eq!(count(&config("-t 8"), EngineKind::Cpu, 1, true, &c), 8);
        assert_eq!(
            count(
                &config("-t 8 --opt-mode=optN"),
                EngineKind::Cpu,
                1,
                true,
                &c
            ),
            8
        );
    }
}
