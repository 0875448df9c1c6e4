//! From the command line to each engine's options, in one place: the `--configuration` row
//! (`engine::options::CONFIGURATIONS`), the options given laid over it as a row of their own,
//! and which engine may run them; [`host_options`] and [`device_options`] build the two
//! engines' structs.
//!
//! Invariant: an option given on the command line is never dropped silently: the engine that
//! runs honours it, or the run is a usage error (exit 64) before anything is read. A row's own
//! choice that a given option makes meaningless (saved signs under `--decide=rules`) is
//! dropped. `--configuration=auto` is `tuned` on the host engine and `paper` on the GPU engine,
//! so `--engine=auto` searches with the best setting of whichever engine it gets.

use super::{exit, Failure};
use crate::config::{Config, EngineKind};
use crate::engine::cpu::decide_turns;
use crate::engine::gpu::engine::ARENA_WORDS;
use crate::engine::options::SearchRow;
use crate::engine::{
    Decide, DeviceOptions, FwdCut, Heuristic, HostOptions, Learning, RestartPolicy, SaveProgress,
    Sums,
};

/// What `run` builds: the engine kind (`Auto`: the GPU with `device`, else the host engine with
/// `host`) and the options of each engine it may build.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kind: EngineKind,
    /// `None` when `kind` is `Gpu`.
    pub host: Option<HostOptions>,
    /// `None` when `kind` is `Cpu`.
    pub device: Option<DeviceOptions>,
    /// The GPUs `auto` searches on, each one more member of its portfolio (`--gpus`, or every
    /// GPU there is; 1 until `run` has counted them).
    pub gpus: u32,
    /// `--emulated-gpus` (tests): the GPUs `auto` counts, each the device kernel compiled for
    /// the host (`Backend::Emulated`); `None`: the machine's own.
    pub emulated_gpus: Option<u32>,
}

impl Plan {
    /// How the completion that may reach the device engine treats sums: `--sums` (its kernel
    /// propagates native sums, `kernels/search/sums.cuh`); the translation when no device
    /// engine is planned.
    pub fn device_sums(&self) -> Sums {
        self.device.map_or(Sums::Translate, |o| o.sums)
    }
}

/// The plan for `c`, or the usage error that stops the run.
pub fn plan(c: &Config) -> Result<Plan, Failure> {
    let given = given(c);
    if let Some(cut) = c.fwd_cut.filter(|&cut| cut != FwdCut::Decisions) {
        if c.learning != Some(Learning::Fwd) {
            return Err(usage(format!("{} needs --learning=fwd", cut_flag(cut))));
        }
    }
    // The first host-only choice: the configuration's (it has no device row), or a value given.
    let host_only = match c.configuration.device {
        None => Some(format!("--configuration={}", c.configuration.name)),
        Some(_) => given.host_only(),
    };
    let kind = match (c.engine, host_only) {
        (EngineKind::Gpu | EngineKind::Emu, Some(flag)) => {
            return Err(usage(format!(
                "{flag} is not supported by the GPU engine (use --engine=cpu)"
            )))
        }
        (EngineKind::Auto, Some(_)) => EngineKind::Cpu,
        (kind, _) => kind,
    };
    let host = matches!(kind, EngineKind::Cpu | EngineKind::Auto)
        .then(|| host_options(c, &given, &c.configuration.host))
        .transpose()?;
    let device = (kind != EngineKind::Cpu).then(|| device_options(c));
    if let Some(n) = c.gpus.filter(|&n| n > 1) {
        if matches!(kind, EngineKind::Gpu | EngineKind::Emu) {
            return Err(usage(format!(
                "--gpus={n}: the GPU engine alone runs on one GPU (--engine=auto spreads its \
                 members over several)"
            )));
        }
    }
    if let Some(n) = c.emulated_gpus {
        if c.engine != EngineKind::Auto {
            return Err(usage(format!(
                "--emulated-gpus={n} needs --engine=auto (it emulates auto's GPU members)"
            )));
        }
    }
    let gpus = c.gpus.unwrap_or(1);
    Ok(Plan {
        kind,
        host,
        device,
        gpus,
        emulated_gpus: c.emulated_gpus,
    })
}

/// The search options given on the command line, as a row (`None`: not given).
pub fn given(c: &Config) -> SearchRow {
    SearchRow {
        learning: c.learning,
        heuristic: c.heuristic,
        decide: c.decide,
        save_progress: c.save_progress,
        phase_switch: c.phase_switch,
        fwd_cut: c.fwd_cut,
        restarts: c.restarts,
        seed: Some(c.seed),
    }
}

/// The host engine's options: the `given` row over `row` (a configuration's, or a portfolio
/// member's), with the usage errors of given options that something else makes meaningless.
pub fn host_options(
    c: &Config,
    given: &SearchRow,
    row: &SearchRow,
) -> Result<HostOptions, Failure> {
    let r = given.over(*row);
    // `--heuristic=domain` decides on variables (decisions on rules ignore `#heuristic`).
    let domain = r.heuristic == Some(Heuristic::Domain);
    let decide = match given.decide {
        Some(d) => d,
        None if domain => Decide::Vars,
        None => r.decide.unwrap_or(Decide::Rules),
    };
    if domain && decide != Decide::Vars {
        return Err(usage(
            "--heuristic=domain needs --decide=vars (decisions on rules ignore #heuristic)",
        ));
    }
    let save_progress = match (given.save_progress, row.save_progress) {
        (Some(SaveProgress::Over(_)), _) if !decide.on_vars() => {
            return Err(usage(
                "--save-progress needs --decide=vars (decisions on rules have fixed signs)",
            ))
        }
        (Some(SaveProgress::Over(n)), _) => Some(n),
        (Some(SaveProgress::Off), _) => None,
        (None, Some(SaveProgress::Over(n))) if decide.on_vars() => Some(n),
        (None, _) => None,
    };
    let phase_switch = match (given.phase_switch, row.phase_switch) {
        (Some(0), _) => None,
        (Some(_), _) if save_progress.is_none() => {
            return Err(usage(
                "--phase-switch needs --save-progress (it alternates the saved signs with the fixed ones)",
            ))
        }
        (Some(n), _) => Some(n),
        (None, Some(n)) if n > 0 && save_progress.is_some() => Some(n),
        (None, _) => None,
    };
    let learning = r.learning.unwrap_or(Learning::Res);
    let fwd_cut = match learning {
        Learning::Fwd => r.fwd_cut.unwrap_or(FwdCut::Decisions),
        Learning::Res => FwdCut::Decisions,
    };
    Ok(HostOptions {
        learning,
        heuristic: r.heuristic.unwrap_or(Heuristic::Activity),
        seed: r.seed.unwrap_or(1),
        sums: c.sums,
        decide,
        decide_turn: c.decide_turn.unwrap_or(decide_turns::TURN),
        save_progress,
        phase_switch,
        fwd_cut,
        restarts: r.restarts.unwrap_or(RestartPolicy::Luby),
        limit: c.solve_limit,
    })
}

/// The host engine's options of `threads` threads (`-t`): thread 0 runs the configuration,
/// thread `i > 0` row `i` of `portfolio::rows::ROWS` (cycling) over it, with seed
/// `--seed + i`; the options given lie over every row. A row that a given option makes a
/// usage error (`--save-progress` given, the row deciding on rules) leaves thread `i` at
/// thread 0's options with its own seed.
pub fn host_portfolio(c: &Config, threads: usize) -> Vec<(HostOptions, &'static str)> {
    use crate::portfolio::rows::ROWS;
    let given = given(c);
    let base = host_options(c, &given, &c.configuration.host);
    let Ok(base) = base else {
        return Vec::new(); // `plan` refused these options already
    };
    (0..threads)
        .map(|i| {
            if i == 0 {
                return (base, c.configuration.name);
            }
            let (name, row) = ROWS[(i - 1) % ROWS.len()];
            let mut o = host_options(c, &given, &row.over(c.configuration.host)).unwrap_or(base);
            o.seed = base.seed.wrapping_add(i as u64);
            (o, name)
        })
        .collect()
}

/// The device engine's options (its search choices are the paper's; `plan` refused the rest).
pub fn device_options(c: &Config) -> DeviceOptions {
    DeviceOptions {
        learning: c.learning.unwrap_or(Learning::Res),
        heuristic: c.heuristic.unwrap_or(Heuristic::Activity),
        decide: c.gpu_decide,
        seed: c.seed,
        sums: c.sums,
        searches: c.gpu_searches,
        cubes: c.gpu_cubes,
        split: c.gpu_split,
        arena_words: c.gpu_arena_words.unwrap_or(ARENA_WORDS),
        gpu: 0,
        limit: c.solve_limit,
        room: 0,
        own_stream: false,
    }
}

fn cut_flag(cut: FwdCut) -> &'static str {
    match cut {
        FwdCut::Decisions => "--fwd-cut=decisions",
        FwdCut::Uip => "--fwd-cut=uip",
        FwdCut::Lits => "--fwd-cut=lits",
    }
}

fn usage(message: impl Into<String>) -> Failure {
    Failure::new(exit::USAGE, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Sums;

    fn config_of(args: &str) -> Result<Config, String> {
        Config::try_from_args(
            format!("yasmin-rs {args}")
                .split_whitespace()
                .map(Into::into),
        )
        .map_err(|e| e.to_string())
    }

    fn plan_of(args: &str) -> Result<Plan, String> {
        let c = config_of(args)?;
        plan(&c).map_err(|f| {
            assert_eq!(f.code, exit::USAGE);
            f.message
        })
    }

    #[test]
    fn auto_searches_tuned_on_the_host_and_paper_on_the_device() {
        let p = plan_of("").unwrap();
        assert_eq!(p.kind, EngineKind::Auto);
        let host = p.host.unwrap();
        assert_eq!(host.decide, Decide::Vars);
        assert_eq!(host.save_progress, Some(0));
        assert_eq!(host.phase_switch, Some(1000));
        assert_eq!(host.restarts, RestartPolicy::Dynamic);
        assert_eq!(host.fwd_cut, FwdCut::Decisions, "res learning has no cut");
        let device = p.device.unwrap();
        assert_eq!((device.learning, device.seed), (Learning::Res, 1));
        let p = plan_of("--learning=fwd").unwrap();
        assert_eq!(p.host.unwrap().fwd_cut, FwdCut::Lits);
        assert_eq!(p.device.unwrap().learning, Learning::Fwd);
        assert_eq!(Sums::Native, plan_of("").unwrap().host.unwrap().sums);
    }

    fn portfolio_of(args: &str, threads: usize) -> Vec<(HostOptions, &'static str)> {
        host_portfolio(&config_of(args).unwrap(), threads)
    }

    fn consistent(o: &HostOptions) -> bool {
        (o.learning == Learning::Fwd || o.fwd_cut == FwdCut::Decisions)
            && (o.decide.on_vars() || o.save_progress.is_none())
            && (o.save_progress.is_some() || o.phase_switch.is_none())
    }

    #[test]
    fn threads_run_the_configuration_then_diverse_rows() {
        use crate::portfolio::rows::ROWS;
        let rows = portfolio_of("", ROWS.len() + 3);
        assert_eq!(rows[0].0, plan_of("").unwrap().host.unwrap());
        for (i, (o, name)) in rows.iter().enumerate() {
            assert!(consistent(o), "thread {i} ({name}): {o:?}");
            assert_eq!(o.seed, 1 + i as u64, "thread {i}: its own seed");
        }
        let differs = rows[1..=ROWS.len()]
            .iter()
            .filter(|(o, _)| HostOptions { seed: 1, ..*o } != rows[0].0)
            .count();
        assert!(
            differs >= ROWS.len() - 1,
            "{differs} rows differ from thread 0"
        );
        for scheme in [Learning::Res, Learning::Fwd] {
            assert!(rows.iter().any(|(o, _)| o.learning == scheme), "{scheme:?}");
        }
        for d in [Decide::Rules, Decide::Vars] {
            assert!(rows.iter().any(|(o, _)| o.decide == d), "{d:?}");
        }
    }

    #[test]
    fn every_thread_keeps_the_options_given() {
        let rows = portfolio_of("--engine=cpu --learning=res --save-progress=5", 20);
        for (o, name) in rows {
            assert_eq!(o.learning, Learning::Res, "{name}");
            assert_eq!(o.save_progress, Some(5), "{name}");
            assert_eq!(
                o.decide,
                Decide::Vars,
                "{name}: rules would drop saved signs"
            );
            assert!(consistent(&o), "{name}");
        }
        let rows = portfolio_of("--engine=cpu --configuration=paper --learning=fwd", 12);
        assert!(rows.iter().all(|(o, _)| o.learning == Learning::Fwd));
    }

    /// The options only the tests give (hidden from `--help`) reach the engines' structs, and
    /// without them the engines keep their own defaults.
    #[test]
    fn test_options_reach_the_engines() {
        let host = |args: &str| plan_of(args).unwrap().host.unwrap();
        assert_eq!(host("--engine=cpu").decide_turn, decide_turns::TURN);
        let h = host("--engine=cpu --decide=alternate --decide-turn=3");
        assert_eq!(h.decide_turn, 3);
        let device = |args: &str| plan_of(args).unwrap().device.unwrap();
        assert_eq!(device("--engine=emu").arena_words, ARENA_WORDS);
        assert_eq!(device("--engine=emu --gpu-arena-words=1").arena_words, 1);
        assert_eq!(plan_of("").unwrap().emulated_gpus, None);
        assert_eq!(plan_of("--emulated-gpus=2").unwrap().emulated_gpus, Some(2));
        for engine in ["cpu", "gpu", "emu"] {
            let e = plan_of(&format!("--engine={engine} --emulated-gpus=1")).unwrap_err();
            assert!(e.contains("needs --engine=auto"), "{e}");
        }
    }

    #[test]
    fn the_device_engine_takes_sums_as_told() {
        let sums = |args: &str| plan_of(args).unwrap().device_sums();
        assert_eq!(sums("--engine=gpu"), Sums::Native);
        assert_eq!(sums("--engine=auto --sums=all-native"), Sums::AllNative);
        assert_eq!(sums("--engine=emu --sums=translate"), Sums::Translate);
        // Only the host engine searches: its completion is built from `host`.
        assert_eq!(sums("--engine=cpu"), Sums::Translate);
    }

    #[test]
    fn paper_is_the_device_algorithm_on_both_engines() {
        let p = plan_of("--configuration=paper --engine=cpu --learning=fwd").unwrap();
        assert_eq!(p.kind, EngineKind::Cpu);
        assert!(p.device.is_none());
        let host = p.host.unwrap();
        assert_eq!(
            (host.decide, host.save_progress, host.phase_switch),
            (Decide::Rules, None, None)
        );
        assert_eq!(
            (host.fwd_cut, host.restarts),
            (FwdCut::Decisions, RestartPolicy::Luby)
        );
    }

    #[test]
    fn given_options_override_the_preset() {
        let host = |args: &str| plan_of(args).unwrap().host.unwrap();
        let h = host("--engine=cpu --save-progress=off");
        assert_eq!((h.save_progress, h.phase_switch), (None, None));
        let h = host("--engine=cpu --phase-switch=0 --restarts=luby");
        assert_eq!((h.save_progress, h.phase_switch), (Some(0), None));
        assert_eq!(h.restarts, RestartPolicy::Luby);
        // `--decide=rules` makes the preset's saved signs meaningless: dropped.
        let h = host("--engine=cpu --decide=rules");
        assert_eq!(
            (h.decide, h.save_progress, h.phase_switch),
            (Decide::Rules, None, None)
        );
        let h = host("--engine=cpu --learning=fwd --fwd-cut=uip --save-progress=5");
        assert_eq!((h.fwd_cut, h.save_progress), (FwdCut::Uip, Some(5)));
        // Over `paper`, host-only options take the host engine under `auto`.
        let p = plan_of("--configuration=paper --decide=vars").unwrap();
        assert_eq!(p.kind, EngineKind::Cpu);
        assert_eq!(p.host.unwrap().save_progress, None);
    }

    #[test]
    fn given_options_are_honoured_or_refused() {
        let err = |args: &str| plan_of(args).unwrap_err();
        assert!(err("--save-progress=3 --decide=rules").contains("needs --decide=vars"));
        assert!(err("--configuration=paper --save-progress=3").contains("needs --decide=vars"));
        assert!(err("--save-progress=off --phase-switch=5").contains("needs --save-progress"));
        assert!(err("--fwd-cut=lits").contains("--fwd-cut=lits needs --learning=fwd"));
        for flag in [
            "--configuration=tuned",
            "--decide=vars",
            "--save-progress=0",
            "--phase-switch=9",
            "--restarts=dynamic",
            "--restarts=local",
        ] {
            let e = err(&format!("--engine=gpu {flag}"));
            assert!(
                e.contains(&format!("{flag} is not supported by the GPU engine")),
                "{e}"
            );
            assert_eq!(plan_of(flag).unwrap().kind, EngineKind::Cpu, "{flag}");
        }
        // What the device runs anyway is no host-only option.
        for ok in [
            "--decide=rules",
            "--save-progress=off",
            "--phase-switch=0",
            "--restarts=luby",
            "--learning=fwd --fwd-cut=decisions",
        ] {
            let p = plan_of(&format!("--engine=gpu {ok}")).unwrap();
            assert_eq!((p.kind, p.host.is_none()), (EngineKind::Gpu, true), "{ok}");
        }
        assert!(plan_of("--save-progress=x")
            .unwrap_err()
            .contains("'x' is neither"));
    }
}
