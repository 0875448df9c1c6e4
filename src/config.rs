//! Every option of the command line, in one place (clap derive), with defaults and ranges in
//! the doc lines. Names follow clingo's where clingo has the option.

use clap::{Parser, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineKind {
    /// The GPU when a CUDA driver and device are present, otherwise the host engine.
    Auto,
    /// The CUDA engine; fails if no usable GPU is found.
    Gpu,
    /// The sequential reference engine on the host.
    Cpu,
    /// The GPU engine's search kernel compiled for the host, one search after another (tests).
    #[value(hide = true)]
    Emu,
}

/// Which device engine `--engine=gpu` runs (hidden; `single` is the earlier engine, kept to
/// measure the new one against it until it is retired).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GpuEngine {
    /// Many complete searches at once, one per warp (a portfolio).
    Many,
    /// One search spread over the whole GPU (grid-wide rounds).
    Single,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Learning {
    /// First-UIP resolution (clasp's, the paper's Algorithm 3).
    Res,
    /// Forward learning from decision-level dependency bitmaps (the paper's Algorithm 4).
    Fwd,
}

/// How the host engine handles sum (cardinality and weight) bodies. The device engine always
/// uses the translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sums {
    /// Sums whose decision diagram is small as nogoods, the others by a counter propagator
    /// in the host engine (reasons as explicit nogoods).
    Native,
    /// Every sum by the host engine's propagator (tests the propagator on small programs).
    AllNative,
    /// Nogoods over a decision diagram of each sum (an adder past a size budget).
    Translate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Heuristic {
    /// Occurrence counts of literals in the input nogoods.
    Occ,
    /// Jeroslow-Wang: occurrences weighted by 2^-length.
    Jw,
    /// VSIDS-style activity, bumped on conflicts and decayed.
    Activity,
    /// Activity, steered by the program's `#heuristic` directives (clingo's `Domain`: `level`,
    /// `sign`, `true`, `false`; `init` and `factor` have no effect). Host engine only, with
    /// `--decide=vars` (the default of `--configuration=tuned`); without it `#heuristic` is
    /// ignored with a notice.
    Domain,
}

/// A set of search options (`--configuration`, clingo's name); options given on the command
/// line override its choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Preset {
    /// `tuned` on the host engine, `paper` on the GPU engine.
    Auto,
    /// The paper's algorithm, as the device engine runs it: decisions on rules
    /// (`--decide=rules`), forward learning's decision nogoods (`--fwd-cut=decisions`), Luby
    /// restarts. Both engines.
    Paper,
    /// The host engine's best measured setting, clasp's way: `--decide=vars --save-progress=0
    /// --phase-switch=1000 --restarts=dynamic`, and with `--learning=fwd` `--fwd-cut=lits`.
    /// Host engine only.
    Tuned,
}

/// `--save-progress`: off, or save signs on backjumps over more than N levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveProgress {
    Off,
    Over(u32),
}

/// The nogood forward learning keeps of a conflict (`--fwd-cut`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FwdCut {
    /// The paper's Algorithm 4: the decisions the violated nogood depends on (its bitmaps'
    /// union). Both engines.
    Decisions,
    /// The conflict's first UIP, found from dominators kept during propagation, instead of the
    /// level's decision; the violated nogood's literals of lower levels whose decisions are
    /// not in the union of the rest, instead of their decisions. No trail walk. Host engine
    /// only.
    Uip,
    /// The first UIP as with `uip`, and instead of decisions the literals of lower levels
    /// that the conflict level's derivations used, collected during propagation (each
    /// literal's set of them, capped; where a set is unknown, as `uip`), minimised as
    /// resolution's nogoods. Host engine only.
    Lits,
}

/// What the host engine decides on (`--decide`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Decide {
    /// The paper's ASP computations: `T body` of an applicable rule or `T head` of a choice
    /// rule, ranked by --heuristic; complete-assignment (`F v`) when none is applicable.
    Rules,
    /// Any unassigned variable (atom, body or auxiliary), ranked by --heuristic, as clasp does:
    /// atoms false and bodies true (clasp's sign_atom), or the saved sign with
    /// --save-progress. Host engine only.
    Vars,
}

/// When the host engine restarts (`--restarts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RestartPolicy {
    /// The Luby sequence times 100 conflicts (both engines).
    Luby,
    /// Glucose's: when the recent learned nogoods' LBD average exceeds the overall one,
    /// blocked while the trail is much longer than usual. Host engine only.
    Dynamic,
}

/// What optimisation does (`--opt-mode`, clingo's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptKind {
    /// Find an optimal model, printing each better one on the way.
    Opt,
    /// Find the optimum, then enumerate optimal models (up to `-n`).
    OptN,
    /// Enumerate the models (within the bound, if one is given), with their costs.
    Enum,
    /// Ignore the minimize statements.
    Ignore,
}

/// `--opt-mode=MODE[,BOUND...]`: the mode and an initial bound (costs, highest priority
/// first; only models costing at most that, lexicographically, are reported).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptMode {
    pub kind: OptKind,
    pub bound: Vec<i64>,
}

impl Default for OptMode {
    fn default() -> Self {
        OptMode {
            kind: OptKind::Opt,
            bound: Vec::new(),
        }
    }
}

/// `--project`: which atoms projective enumeration projects onto (clingo's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// The `#project` atoms if the program has `#project` directives, else the shown ones.
    Auto,
    /// The atoms of the `#show` directives (the output table's conditions).
    Show,
    /// The atoms of the `#project` directives (none: every model projects to one class).
    Project,
}

/// `--enum-mode` (clingo's): how models are enumerated, or which consequences are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EnumMode {
    /// Blocking nogoods (as `record`).
    Auto,
    /// Blocking nogoods, one per model.
    Record,
    /// Brave consequences: the shown atoms true in some answer set.
    Brave,
    /// Cautious consequences: the shown atoms true in every answer set.
    Cautious,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Pre {
    /// Print the program read in aspif.
    Aspif,
    /// Print the program read in smodels format.
    Smodels,
}

#[derive(Clone, Debug, Parser)]
#[command(
    name = "yasmin-rs",
    version,
    about = "Answer-set solver whose conflict-driven search runs on a CUDA GPU",
    long_about = "Answer-set solver whose conflict-driven search runs on a CUDA GPU.\n\n\
        Reads a ground program in aspif or smodels format (what gringo prints) from the files\n\
        given, or from standard input when none (or '-') is given:\n\n    \
        gringo encoding.lp instance.lp | yasmin-rs -n 0\n\n\
        Exit codes (clasp's): 10 satisfiable (more models may exist), 20 unsatisfiable,\n\
        30 satisfiable and every model printed, 1 stopped (--time-limit or Ctrl-C) before any\n\
        model, 11 stopped after a model. Errors: 2 bad command line, 64 usage (several ground\n\
        files), 65 bad input (parse or grounding error), 66 a feature not supported yet,\n\
        69 --engine=gpu without a usable GPU, 33 out of memory, 70 internal error (a model the\n\
        checker rejects, a device error), 74 cannot write the output, 130 a second Ctrl-C."
)]
pub struct Config {
    /// Ground program files (aspif or smodels); '-' or none reads standard input. Files whose
    /// first non-blank line is not a ground header are clingo source, grounded in-process when
    /// built with `--features grounder` (see `grounder::detect`).
    pub files: Vec<PathBuf>,

    /// Replace the constant NAME by VALUE when grounding clingo source (as clingo's -c).
    #[arg(short = 'c', long = "const", value_name = "NAME=VALUE", value_parser = parse_const)]
    pub constants: Vec<(String, String)>,

    /// Number of models to compute; 0 computes all [default: 1; 0 when optimising with
    /// `--opt-mode=opt` or `optN`, where optN counts the optimal models].
    #[arg(short = 'n', long = "models")]
    pub models: Option<u64>,

    /// Optimisation (`#minimize`, host engine): `opt` finds an optimal model, printing each
    /// better one; `optN` finds the optimum, then enumerates optimal models; `enum`
    /// enumerates models with their costs; `ignore` ignores the minimize statements. A bound
    /// after the mode (`opt,10,3`: costs by priority, highest first) admits only models that
    /// cost at most that.
    #[arg(long = "opt-mode", value_name = "MODE[,BOUND...]", default_value = "opt",
          value_parser = parse_opt_mode)]
    pub opt_mode: OptMode,

    /// Print search statistics after solving, and on standard error the time and memory of
    /// each preparation phase (read, analyse, complete, engine) as it ends.
    #[arg(long)]
    pub stats: bool,

    /// Stop after this many seconds (0 = no limit), printing what was found.
    #[arg(long = "time-limit", default_value_t = 0, value_name = "SECS")]
    pub time_limit: u64,

    /// Output format: 0 = clingo's text, 1 = ASP competition format, 2 = JSON.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
    pub outf: u8,

    /// Quiet: do not print the models, only the result.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Which engine searches.
    #[arg(long, value_enum, default_value_t = EngineKind::Auto)]
    pub engine: EngineKind,

    /// GPU engine: how many searches run at once [default: as many as the GPU holds resident
    /// and its memory fits].
    #[arg(long = "gpu-searches", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub gpu_searches: Option<u32>,

    /// GPU engine: every second search works on cubes, the 2^K sign patterns of K variables,
    /// to share out proofs of unsatisfiability; 0: no splitting [default: about four cubes per
    /// splitting search].
    #[arg(long = "gpu-cubes", value_name = "K", value_parser = clap::value_parser!(u32).range(0..=16))]
    pub gpu_cubes: Option<u32>,

    /// GPU engine variant (debugging and comparison).
    #[arg(long = "gpu-engine", value_enum, default_value_t = GpuEngine::Many, hide = true)]
    pub gpu_engine: GpuEngine,

    /// Conflict learning scheme.
    #[arg(long, value_enum, default_value_t = Learning::Res)]
    pub learning: Learning,

    /// Search options as a set (clingo's `--configuration`); the options below override it.
    /// `tuned` needs the host engine: `--engine=gpu` rejects it and `--engine=auto` then picks
    /// the host engine.
    #[arg(long, value_enum, default_value_t = Preset::Auto)]
    pub configuration: Preset,

    /// With `--learning=fwd`: which nogood a conflict teaches [default: the configuration's:
    /// `decisions`, `lits` with `tuned`]. `uip` and `lits` need the host engine: `--engine=gpu`
    /// rejects them and `--engine=auto` then picks the host engine.
    #[arg(long = "fwd-cut", value_enum)]
    pub fwd_cut: Option<FwdCut>,

    /// Decision heuristic (ranks the applicable rules of unassigned heads).
    #[arg(long, value_enum, default_value_t = Heuristic::Activity)]
    pub heuristic: Heuristic,

    /// What to decide on, the applicable rules (the paper's ASP computations) or any variable
    /// (clasp's way) [default: the configuration's: `rules`, `vars` with `tuned`]. `vars`
    /// needs the host engine: `--engine=gpu` rejects it and `--engine=auto` then picks the
    /// host engine.
    #[arg(long, value_enum)]
    pub decide: Option<Decide>,

    /// With `--decide=vars`: on a backjump over more than N levels, remember the signs of the
    /// variables it unassigns and decide them so next time (clasp's option), or `off`
    /// [default: the configuration's: off, 0 with `tuned`]. A usage error without
    /// `--decide=vars`.
    #[arg(long = "save-progress", value_name = "N|off", value_parser = parse_save_progress)]
    pub save_progress: Option<SaveProgress>,

    /// With `--save-progress`: alternate between clasp's fixed signs and the saved ones, C
    /// conflicts with the fixed signs first, then C with the saved, then 2C and 2C, 4C and
    /// 4C, ... (each switch restarts); 0 is off [default: the configuration's: off, 1000
    /// with `tuned`]. A usage error without `--save-progress`.
    #[arg(long = "phase-switch", value_name = "C")]
    pub phase_switch: Option<u64>,

    /// When to restart [default: the configuration's: `luby`, `dynamic` with `tuned`].
    /// `dynamic` needs the host engine: `--engine=gpu` rejects it and `--engine=auto` then
    /// picks the host engine.
    #[arg(long, value_enum)]
    pub restarts: Option<RestartPolicy>,

    /// Host engine (`--engine cpu`): sum bodies as native constraints or as nogoods.
    #[arg(long, value_enum, default_value_t = Sums::Native)]
    pub sums: Sums,

    /// Print the program read (in aspif or smodels format) instead of solving it.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub pre: Option<Pre>,

    /// Check every printed model with the independent answer-set checker (on by default).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub verify: bool,

    /// GPU engine: synchronise and check for errors after every kernel launch (debugging).
    #[arg(long = "sync-always")]
    pub sync_always: bool,

    /// Print a progress line on standard error every ~2 s once a run lasts ~3 s (always on when
    /// standard error is a terminal).
    #[arg(long)]
    pub progress: bool,

    /// Random seed for tie-breaking in the heuristics.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Projective enumeration (clingo's): models that agree on the projection atoms are one,
    /// printed once (the first found, whole). `auto` (the value without `=`): the `#project`
    /// atoms if the program has `#project` directives, else the shown atoms; `show`: the
    /// shown atoms; `project`: the `#project` atoms; `no`: off. Without this option
    /// `#project` directives are ignored, as clingo does. Not with `#minimize` (exit 66).
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "auto", value_parser = parse_projection)]
    pub project: Option<ProjectArg>,

    /// Enumeration mode (clingo's): `auto` and `record` enumerate with blocking nogoods;
    /// `brave` / `cautious` compute the brave (in some answer set) or cautious (in every
    /// answer set) consequences among the shown atoms, printing the estimate after each
    /// model found (`Consequences: [lower;upper]`) [default: auto; with brave or cautious
    /// `-n` defaults to 0].
    #[arg(long = "enum-mode", value_enum, default_value_t = EnumMode::Auto)]
    pub enum_mode: EnumMode,
}

/// The value of `--project` (`None`: `no`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProjectArg(pub Option<Projection>);

impl Config {
    /// The projection `--project` asks for (`None`: off).
    pub fn projection(&self) -> Option<Projection> {
        self.project.and_then(|p| p.0)
    }
}

/// `--project[=auto|show|project|no][,BT]` (clingo's `,BT` backtracking options are accepted
/// and have no effect).
fn parse_projection(s: &str) -> Result<ProjectArg, String> {
    let mode = s.split(',').next().unwrap_or("");
    match mode {
        "auto" | "" => Ok(ProjectArg(Some(Projection::Auto))),
        "show" => Ok(ProjectArg(Some(Projection::Show))),
        "project" => Ok(ProjectArg(Some(Projection::Project))),
        "no" => Ok(ProjectArg(None)),
        m => Err(format!("'{m}' is not one of auto, show, project, no")),
    }
}

/// `--save-progress N|off`.
fn parse_save_progress(s: &str) -> Result<SaveProgress, String> {
    if s == "off" {
        return Ok(SaveProgress::Off);
    }
    s.parse()
        .map(SaveProgress::Over)
        .map_err(|_| format!("'{s}' is neither a number of levels nor 'off'"))
}

/// `--opt-mode=opt|optN|enum|ignore[,BOUND...]`.
fn parse_opt_mode(s: &str) -> Result<OptMode, String> {
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

/// `-c name=value`, checked when the command line is parsed.
fn parse_const(s: &str) -> Result<(String, String), String> {
    crate::grounder::parse_constant(s).map_err(|e| e.to_string())
}
