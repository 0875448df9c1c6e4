//! From the command line to each engine's search [`Options`]: the `--configuration` preset, the
//! options given over it, and which engine may run them.
//!
//! Invariant: an option given on the command line is never dropped silently: the engine that
//! runs honours it, or the run is a usage error (exit 64) before anything is read. A preset's
//! own choice that a given option makes meaningless (saved signs under `--decide=rules`) is
//! dropped. `--configuration=auto` is `tuned` on the host engine and `paper` on the GPU engine,
//! so `--engine=auto` searches with the best setting of whichever engine it gets.

use super::{exit, Failure};
use crate::config::SaveProgress;
use crate::config::{
    Config, Decide, EngineKind, FwdCut, GpuEngine, Heuristic, Learning, Preset, RestartPolicy,
};
use crate::engine::Options;

/// `tuned`'s `--phase-switch`.
pub const PHASE_SWITCH: u64 = 1000;

/// What `run` builds: the engine kind (`Auto`: the GPU with `device`, else the host engine with
/// `host`) and the options of each engine it may build.
#[derive(Debug)]
pub struct Plan {
    pub kind: EngineKind,
    /// `None` when `kind` is `Gpu`.
    pub host: Option<Options>,
    /// `None` when `kind` is `Cpu`.
    pub device: Option<Options>,
    /// Which device engine runs the GPU's search.
    pub gpu_engine: GpuEngine,
}

/// The plan for `c`, or the usage error that stops the run.
pub fn plan(c: &Config) -> Result<Plan, Failure> {
    if let Some(cut) = c.fwd_cut.filter(|&cut| cut != FwdCut::Decisions) {
        if c.learning != Learning::Fwd {
            return Err(usage(format!("{} needs --learning=fwd", cut_flag(cut))));
        }
    }
    let kind = match (c.engine, host_only(c)) {
        (EngineKind::Gpu | EngineKind::Emu, Some(flag)) => {
            return Err(usage(format!(
                "{flag} is not supported by the GPU engine (use --engine=cpu)"
            )))
        }
        (EngineKind::Auto, Some(_)) => EngineKind::Cpu,
        (kind, _) => kind,
    };
    let host_preset = match c.configuration {
        Preset::Paper => Preset::Paper,
        Preset::Auto | Preset::Tuned => Preset::Tuned,
    };
    let host = matches!(kind, EngineKind::Cpu | EngineKind::Auto)
        .then(|| resolve(c, host_preset))
        .transpose()?;
    let device = (kind != EngineKind::Cpu)
        .then(|| resolve(c, Preset::Paper))
        .transpose()?;
    Ok(Plan {
        kind,
        host,
        device,
        gpu_engine: c.gpu_engine,
    })
}

/// The first option given that only the host engine honours (the device kernels decide on
/// rules only, learn the paper's decision nogoods and restart on the Luby sequence).
fn host_only(c: &Config) -> Option<String> {
    if c.configuration == Preset::Tuned {
        return Some("--configuration=tuned".into());
    }
    if c.decide == Some(Decide::Vars) {
        return Some("--decide=vars".into());
    }
    if c.heuristic == Heuristic::Domain {
        return Some("--heuristic=domain".into());
    }
    if let Some(SaveProgress::Over(n)) = c.save_progress {
        return Some(format!("--save-progress={n}"));
    }
    if let Some(n) = c.phase_switch.filter(|&n| n > 0) {
        return Some(format!("--phase-switch={n}"));
    }
    if let Some(cut) = c.fwd_cut.filter(|&cut| cut != FwdCut::Decisions) {
        return Some(cut_flag(cut).into());
    }
    if c.restarts == Some(RestartPolicy::Dynamic) {
        return Some("--restarts=dynamic".into());
    }
    None
}

/// `c`'s options over `preset` (`Paper` or `Tuned`).
fn resolve(c: &Config, preset: Preset) -> Result<Options, Failure> {
    let tuned = preset == Preset::Tuned;
    let domain = c.heuristic == Heuristic::Domain;
    let decide = c.decide.unwrap_or(if tuned || domain {
        Decide::Vars
    } else {
        Decide::Rules
    });
    if domain && decide != Decide::Vars {
        return Err(usage(
            "--heuristic=domain needs --decide=vars (decisions on rules ignore #heuristic)",
        ));
    }
    let save_progress = match c.save_progress {
        Some(SaveProgress::Off) => None,
        Some(SaveProgress::Over(_)) if decide != Decide::Vars => {
            return Err(usage(
                "--save-progress needs --decide=vars (decisions on rules have fixed signs)",
            ))
        }
        Some(SaveProgress::Over(n)) => Some(n),
        None => (tuned && decide == Decide::Vars).then_some(0),
    };
    let phase_switch = match c.phase_switch {
        Some(0) => None,
        Some(_) if save_progress.is_none() => {
            return Err(usage(
                "--phase-switch needs --save-progress (it alternates the saved signs with the fixed ones)",
            ))
        }
        Some(n) => Some(n),
        None => (tuned && save_progress.is_some()).then_some(PHASE_SWITCH),
    };
    let fwd_cut = match c.learning {
        Learning::Fwd => c.fwd_cut.unwrap_or(if tuned {
            FwdCut::Lits
        } else {
            FwdCut::Decisions
        }),
        Learning::Res => FwdCut::Decisions,
    };
    let restarts = c.restarts.unwrap_or(if tuned {
        RestartPolicy::Dynamic
    } else {
        RestartPolicy::Luby
    });
    Ok(Options {
        learning: c.learning,
        heuristic: c.heuristic,
        seed: c.seed,
        sync_always: c.sync_always,
        sums: c.sums,
        decide,
        save_progress,
        phase_switch,
        fwd_cut,
        restarts,
        searches: c.gpu_searches,
        cubes: c.gpu_cubes,
    })
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
    use crate::config::Sums;
    use clap::Parser;

    fn plan_of(args: &str) -> Result<Plan, String> {
        let c = Config::try_parse_from(format!("yasmin-rs {args}").split_whitespace())
            .map_err(|e| e.to_string())?;
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
        assert_eq!(host.phase_switch, Some(PHASE_SWITCH));
        assert_eq!(host.restarts, RestartPolicy::Dynamic);
        assert_eq!(host.fwd_cut, FwdCut::Decisions, "res learning has no cut");
        let device = p.device.unwrap();
        assert_eq!(device.decide, Decide::Rules);
        assert_eq!(device.save_progress, None);
        assert_eq!(device.phase_switch, None);
        assert_eq!(device.restarts, RestartPolicy::Luby);
        let p = plan_of("--learning=fwd").unwrap();
        assert_eq!(p.host.unwrap().fwd_cut, FwdCut::Lits);
        assert_eq!(p.device.unwrap().fwd_cut, FwdCut::Decisions);
        assert_eq!(Sums::Native, plan_of("").unwrap().host.unwrap().sums);
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
