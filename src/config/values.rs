//! The command line's names for the engines' choices: each value of an engine enum (in
//! `engine::options`) with its name, its help line and whether `--help` shows it, the way
//! clap's `ValueEnum` wants them; plus the parsers of the options whose values are not a plain
//! name (`--save-progress`, `--opt-mode`, `--solve-limit`, `-q`, `-c`, `--configuration`).
//!
//! Invariant: the engines never see these names; a value that only tests use is hidden, never
//! absent (it still parses).

use super::{
    EngineKind, EnumMode, Mode, OptKind, OptMode, OptStrategy, Pre, ProjectArg, Projection,
};
use crate::engine::options::{self, Configuration};
use crate::engine::{
    Decide, FwdCut, GpuDecide, Heuristic, Learning, RestartPolicy, SaveProgress, SolveLimit, Sums,
};
use crate::output::Quiet;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;

/// `impl ValueEnum for T` from rows `Variant => "name", "help"` (`| "alias"` after the name
/// adds names it also takes, e.g. clingo's; `hide` after the help hides the value from
/// `--help`).
macro_rules! values {
    ($ty:ty { $($v:ident => $name:literal $(| $alias:literal)*, $help:literal $(, $hide:ident)?;)* }) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$(<$ty>::$v),*]
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(match self {
                    $(<$ty>::$v => PossibleValue::new($name)$(.alias($alias))*.help($help)$(.$hide(true))?,)*
                })
            }
        }
    };
}

values!(EngineKind {
    Auto => "auto", "the GPU when a CUDA driver, a GPU and NVRTC are present, else the host engine";
    Gpu => "gpu", "the CUDA engine; fails without a usable GPU";
    Cpu => "cpu", "the sequential host engine";
    Emu => "emu", "the GPU engine's kernel compiled for the host (tests)", hide;
});

values!(Learning {
    Res => "res", "first-UIP resolution";
    Fwd => "fwd", "forward learning from decision-level dependencies (the paper's)";
});

values!(Heuristic {
    Activity => "activity" | "vsids", "VSIDS-style activity (clingo's Vsids)";
    Occ => "occ", "occurrences in the input nogoods";
    Jw => "jw", "Jeroslow-Wang: occurrences weighted by 2^-length";
    Domain => "domain", "activity steered by #heuristic directives (host engine, --decide=vars)";
});

values!(GpuDecide {
    Vmtf => "vmtf", "the most recently bumped variable (CaDiCaL's move-to-front queue)";
    Vsids => "vsids", "the variable of highest activity (MiniSat's heap, as the host engine)";
    Mixed => "mixed", "every other search each";
});

values!(Sums {
    Native => "native", "large sums by a counter propagator";
    Translate => "translate", "every sum as nogoods";
    AllNative => "all-native", "every sum by the propagator (tests)", hide;
});

values!(Decide {
    Rules => "rules", "applicable rules (the paper's ASP computations)";
    Vars => "vars", "any variable, clasp's way (host engine)";
    Alternate => "alternate", "vars and rules taking turns at restarts, 2000 conflicts each at first, doubling (host engine)";
});

values!(FwdCut {
    Decisions => "decisions", "the decisions the conflict depends on (the paper's)";
    Uip => "uip", "the first UIP from dominators (host engine)";
    Lits => "lits", "the first-UIP nogood gathered forward (host engine)";
});

values!(RestartPolicy {
    Luby => "luby", "the Luby sequence x 100 conflicts";
    Dynamic => "dynamic", "glucose's dynamic restarts (host engine)";
    Local => "local", "clasp's local restarts: the Luby sequence x 60 conflicts counted in the current branch (host engine)";
});

values!(Mode {
    Clingo => "clingo", "ground if the input is clingo source, then solve";
    Clasp => "clasp", "solve a ground program (aspif or smodels); clingo source is refused";
    Gringo => "gringo", "ground and print the ground program in aspif";
});

values!(Pre {
    Aspif => "aspif", "aspif";
    Smodels => "smodels", "smodels' format";
});

/// `--configuration NAME`: a row of [`options::CONFIGURATIONS`].
pub fn configuration() -> impl TypedValueParser<Value = &'static Configuration> {
    PossibleValuesParser::new(
        options::CONFIGURATIONS
            .iter()
            .map(|c| PossibleValue::new(c.name).help(c.help)),
    )
    .map(|name| options::configuration(&name).expect("a name the parser accepted"))
}

/// `--save-progress N|off`.
pub fn save_progress(s: &str) -> Result<SaveProgress, String> {
    if s == "off" {
        return Ok(SaveProgress::Off);
    }
    s.parse()
        .map(SaveProgress::Over)
        .map_err(|_| format!("'{s}' is neither a number of levels nor 'off'"))
}

/// `-t N[,compete]`: at least one thread; `split` (clingo's other mode) is not supported.
pub fn threads(s: &str) -> Result<u32, String> {
    let (n, mode) = s.split_once(',').unwrap_or((s, "compete"));
    if mode != "compete" {
        return Err(format!("mode '{mode}' is not supported (only 'compete')"));
    }
    match n.trim().parse::<u32>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("'{n}' is not a number of threads in 1..=1024")),
    }
}

/// `--solve-limit=N[,M]`, as clasp reads it: N conflicts, M restarts (unsigned 32-bit numbers;
/// `umax`, `-1` and 4294967295 are no limit; M left out is none).
pub fn solve_limit(s: &str) -> Result<SolveLimit, String> {
    let count = |part: &str| match part {
        "umax" | "-1" => Ok(None),
        p => match p.parse::<u32>() {
            Ok(u32::MAX) => Ok(None),
            Ok(n) => Ok(Some(u64::from(n))),
            Err(_) => Err(format!(
                "'{s}' is not <n>[,<m>]: conflicts and restarts, each a number or umax"
            )),
        },
    };
    let (conflicts, restarts) = match s.split_once(',') {
        Some((n, m)) => (count(n)?, count(m)?),
        None => (count(s)?, None),
    };
    Ok(SolveLimit {
        conflicts,
        restarts,
    })
}

/// `--opt-mode=opt|optN|enum|ignore[,BOUND...]`.
pub fn opt_mode(s: &str) -> Result<OptMode, String> {
    let mut parts = s.split(',');
    let kind = match parts.next().unwrap_or("") {
        "opt" => OptKind::Opt,
        "optN" => OptKind::OptN,
        "enum" => OptKind::Enum,
        "ignore" => OptKind::Ignore,
        m => return Err(format!("'{m}' is not one of opt, optN, enum, ignore")),
    };
    let bound = parts
        .map(|b| {
            b.trim()
                .parse()
                .map_err(|_| format!("'{b}' is not an integer bound"))
        })
        .collect::<Result<Vec<i64>, String>>()?;
    Ok(OptMode { kind, bound })
}

/// `--opt-strategy=bb[,lin]|usc[,oll]`: clingo's strategies, with the one tactic of each that
/// yasmin-rs has (`lin`: the basic branch and bound; `oll`: `wrap/oll.rs`).
pub fn opt_strategy(s: &str) -> Result<OptStrategy, String> {
    match s.trim() {
        "bb" | "bb,lin" => Ok(OptStrategy::Bb),
        "usc" | "usc,oll" => Ok(OptStrategy::Usc),
        t if t.starts_with("bb,") || t.starts_with("usc,") => Err(format!(
            "'{t}': the tactics here are bb,lin (branch and bound) and usc,oll (cores, OLL)"
        )),
        t => Err(format!("'{t}' is not one of bb, usc")),
    }
}

/// `-q MODELS[,COSTS[,CALLS]]`, each 0 (all), 1 (last) or 2 (none); costs default to the
/// models' level, calls are accepted and ignored (a run is one call), as clingo's.
pub fn quiet(s: &str) -> Result<Quiet, String> {
    let levels = s
        .split(',')
        .map(|l| match l.trim() {
            "0" => Ok(0u8),
            "1" => Ok(1),
            "2" => Ok(2),
            _ => Err(format!("'{l}' is not a quiet level (0, 1 or 2)")),
        })
        .collect::<Result<Vec<u8>, String>>()?;
    match levels[..] {
        [models] => Ok(Quiet {
            models,
            costs: models,
        }),
        [models, costs] | [models, costs, _] => Ok(Quiet { models, costs }),
        _ => Err(format!("'{s}' has more than three levels")),
    }
}

/// `-c name=value`, checked when the command line is parsed.
/// `-W`/`--warn`: clingo's warning switches.
pub fn warn() -> PossibleValuesParser {
    PossibleValuesParser::new([
        "none",
        "all",
        "atom-undefined",
        "no-atom-undefined",
        "file-included",
        "no-file-included",
        "operation-undefined",
        "no-operation-undefined",
        "global-variable",
        "no-global-variable",
        "other",
        "no-other",
    ])
}

/// `--stats[=N]` as clingo's (`N[,T]`: 0 none, 1 or 2 — clingo's basic and full — the same
/// statistics here; T, clingo's per-thread level, is taken and not used).
pub fn stats_level(s: &str) -> Result<bool, String> {
    let (level, threads) = match s.split_once(',') {
        Some((n, t)) => (n, Some(t)),
        None => (s, None),
    };
    if threads.is_some_and(|t| t.parse::<u8>().is_err()) {
        return Err(format!("'{s}': expected N or N,T with numbers N and T"));
    }
    match level {
        "0" => Ok(false),
        "1" | "2" => Ok(true),
        _ => Err(format!("'{s}': expected 0, 1 or 2 (clingo's levels)")),
    }
}

pub fn constant(s: &str) -> Result<(String, String), String> {
    crate::grounder::parse_constant(s).map_err(|e| e.to_string())
}

values!(EnumMode {
    Auto => "auto" | "bt", "blocking nogoods (as record; clingo's bt: the same models)";
    Record => "record" | "domRec", "blocking nogoods, one per model (clingo's domRec: the same models)";
    Brave => "brave", "the brave consequences: shown atoms true in some answer set";
    Cautious => "cautious", "the cautious consequences: shown atoms true in every answer set";
});

/// `--project[=auto|show|project|no][,BT]` (clingo's `,BT` backtracking options are accepted
/// and have no effect).
pub fn projection(s: &str) -> Result<ProjectArg, String> {
    let mode = s.split(',').next().unwrap_or("");
    match mode {
        "auto" | "" => Ok(ProjectArg(Some(Projection::Auto))),
        "show" => Ok(ProjectArg(Some(Projection::Show))),
        "project" => Ok(ProjectArg(Some(Projection::Project))),
        "no" => Ok(ProjectArg(None)),
        m => Err(format!("'{m}' is not one of auto, show, project, no")),
    }
}

/// `--out-ifs`: clingo's escapes `\n`, `\t`, `\v` and `\\` read as the characters.
pub fn escapes(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('v') => out.push('\u{b}'),
            Some('\\') | None => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}
