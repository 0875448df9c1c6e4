//! The command line as one table: each field of [`Config`] is one option — its name, default,
//! help line, `--help` group (clingo's: basic, solving, output) and whether `--help` shows it —
//! the shape of CaDiCaL's `options.hpp`. Which engine honours an option is said in its help
//! (`Host engine:`/`GPU engine:`) and enforced by `run/plan.rs`, which maps these values to each
//! engine's own option struct (`engine::options`); the `--configuration` presets are the named
//! rows of `engine::options::CONFIGURATIONS`. Names follow clingo's where clingo has the option.
//!
//! Invariants: no engine reads a [`Config`]; test-only values (`--engine=emu`,
//! `--sums=all-native`) and options (`--decide-turn`, `--gpu-arena-words`, `--emulated-gpus`)
//! parse but are hidden from `--help`, and no environment variable stands in for them;
//! `config/tests.rs` keeps `--help` and README.md's option table in agreement.

mod spellings;
mod values;

use clap::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

pub use crate::engine::options::{Configuration, CONFIGURATIONS};
pub use crate::engine::{
    Decide, FwdCut, GpuDecide, Heuristic, Learning, RestartPolicy, SaveProgress, SolveLimit, Sums,
};
pub use crate::output::Quiet;

/// `--help` groups, clingo's.
const BASIC: &str = "Basic Options";
const SOLVING: &str = "Solving Options";
const OUTPUT: &str = "Output Options";

/// Which engine searches (`--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    Auto,
    Gpu,
    Cpu,
    /// The GPU engine's search kernel compiled for the host, one search after another (tests).
    Emu,
}

/// How optimisation searches (`--opt-strategy`, clingo's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptStrategy {
    /// Model-guided branch and bound.
    Bb,
    /// Core-guided (OLL, `run/usc.rs`).
    Usc,
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

/// The value of `--project` (`None`: `no`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProjectArg(pub Option<Projection>);

/// `--enum-mode` (clingo's): how models are enumerated, or which consequences are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// `--mode`, as clingo's: what runs of grounder and solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Ground clingo source (if it is source), then solve.
    Clingo,
    /// Solve a ground program; clingo source is refused.
    Clasp,
    /// Ground, print the ground program in aspif and stop (as `--pre=aspif`).
    Gringo,
}

/// `--pre`: the format the program read is printed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pre {
    Aspif,
    Smodels,
}

#[derive(Clone, Debug, Parser)]
#[command(
    name = "yasmin-rs",
    version,
    disable_version_flag = true,
    disable_help_flag = true,
    next_line_help = false,
    about = "Answer-set solver whose conflict-driven search runs on a CUDA GPU",
    long_about = "Answer-set solver whose conflict-driven search runs on a CUDA GPU.\n\n\
        Reads a ground program in aspif or smodels format (what gringo prints), or clingo\n\
        source files grounded in-process, from the files given; '-' or none reads standard\n\
        input:\n\n    \
        gringo encoding.lp instance.lp | yasmin-rs -n 0\n    \
        yasmin-rs encoding.lp instance.lp -n 0\n\n\
        Exit codes (clasp's): 10 satisfiable (more models may exist), 20 unsatisfiable,\n\
        30 satisfiable and every model printed, 1 stopped (--time-limit or Ctrl-C) before any\n\
        model, 11 stopped after a model. Errors: 2 bad command line, 64 usage (several ground\n\
        files), 65 bad input (parse or grounding error), 66 a feature not supported yet,\n\
        69 --engine=gpu without a usable GPU, 33 out of memory, 70 internal error (a model the\n\
        checker rejects, a device error), 74 cannot write the output, 141 the reader closed\n\
        the output pipe (`yasmin-rs ... | head`), 130 a second Ctrl-C."
)]
pub struct Config {
    /// Ground program files (aspif or smodels), or clingo source files; '-' or none reads
    /// standard input.
    pub files: Vec<PathBuf>,

    // ---- Basic Options ---------------------------------------------------------------------
    /// Print help (a summary with '-h') and exit.
    #[arg(short = 'h', long = "help", action = clap::ArgAction::Help, help_heading = BASIC)]
    pub help: Option<bool>,

    /// Print version information and exit.
    #[arg(short = 'v', long = "version", action = clap::ArgAction::Version, help_heading = BASIC)]
    pub version: Option<bool>,

    /// Verbosity: 0 prints only the models and the result, 1 clingo's usual lines, 2 also the
    /// time of reading and preparing [-V alone: 2].
    #[arg(short = 'V', long = "verbose", value_name = "N", default_value_t = 1,
          num_args = 0..=1, require_equals = true, default_missing_value = "2",
          value_parser = clap::value_parser!(u8).range(0..=3), help_heading = BASIC)]
    pub verbose: u8,

    /// Stop after this many seconds (0 = no limit), printing what was found; whole seconds,
    /// as clingo's.
    #[arg(long = "time-limit", default_value_t = 0, value_name = "SECS", help_heading = BASIC)]
    pub time_limit: u64,

    /// Quiet levels MODELS[,COSTS]: print all (0), the last (1) or no (2) models, and the same
    /// for the optimisation values (default: as the models) [-q alone: 2].
    #[arg(short = 'q', long = "quiet", value_name = "LEVELS", default_value = "0",
          num_args = 0..=1, require_equals = true, default_missing_value = "2",
          value_parser = values::quiet, help_heading = BASIC)]
    pub quiet: Quiet,

    /// Print the program read in aspif or smodels format and exit.
    #[arg(long, value_enum, value_name = "FORMAT", help_heading = BASIC)]
    pub pre: Option<Pre>,

    /// Run the grounder and the solver (clingo), only the solver on a ground program (clasp), or
    /// only the grounder, printing aspif (gringo), as clingo's --mode.
    #[arg(long, value_enum, default_value = "clingo", help_heading = BASIC)]
    pub mode: Mode,

    /// Replace the constant NAME by VALUE when grounding clingo source (clingo's -c).
    #[arg(short = 'c', long = "const", value_name = "NAME=VALUE", value_parser = values::constant,
          help_heading = BASIC)]
    pub constants: Vec<(String, String)>,

    /// Enable or disable warnings of the grounder, as clingo's -W (repeatable): none, all, or
    /// [no-]atom-undefined, [no-]file-included, [no-]operation-undefined,
    /// [no-]global-variable, [no-]other.
    #[arg(short = 'W', long = "warn", value_name = "WARN", value_parser = values::warn(),
          hide_possible_values = true, help_heading = BASIC)]
    pub warn: Vec<String>,

    // ---- Solving Options -------------------------------------------------------------------
    /// Compute at most N models; 0 computes all [default: 1; 0 when optimising with
    /// `--opt-mode=opt` or `optN`, where optN counts the optimal models].
    #[arg(short = 'n', long = "models", value_name = "N", help_heading = SOLVING)]
    pub models: Option<u64>,

    /// Optimisation (`#minimize`): `opt` finds an optimal model, printing each
    /// better one; `optN` then enumerates the optimal models; `enum` enumerates models with
    /// their costs; `ignore` ignores the minimize statements. A bound after the mode
    /// (`opt,10,3`: costs by priority, highest first) admits only models that cost at most that.
    #[arg(long = "opt-mode", value_name = "MODE[,BOUND...]", default_value = "opt",
          value_parser = values::opt_mode, help_heading = SOLVING)]
    pub opt_mode: OptMode,

    /// Optimisation strategy (clingo's `--opt-strategy`): `bb` model-guided branch and bound,
    /// each model bounding the next; `usc` core-guided (OLL): unsatisfiable cores under the
    /// assumption that no objective literal holds raise a lower bound until a model meets it
    /// (host engine on one thread, or the GPU engine's searches with `--engine=gpu`;
    /// `--opt-mode=opt` or `optN`).
    #[arg(long = "opt-strategy", value_name = "STRATEGY", default_value = "bb",
          value_parser = values::opt_strategy, help_heading = SOLVING)]
    pub opt_strategy: OptStrategy,

    /// Enumeration mode (clingo's): `auto` and `record` enumerate with blocking nogoods;
    /// `brave` / `cautious` compute the brave (in some answer set) or cautious (in every
    /// answer set) consequences among the shown atoms, printing the estimate after each model
    /// found [with brave or cautious `-n` defaults to 0].
    #[arg(short = 'e', long = "enum-mode", value_enum, value_name = "MODE",
          default_value_t = EnumMode::Auto, help_heading = SOLVING)]
    pub enum_mode: EnumMode,

    /// Projective enumeration (clingo's): models that agree on the projection atoms are one,
    /// printed once. `auto` (the value without `=`): the `#project` atoms if the program has
    /// `#project` directives, else the shown atoms; `show`, `project`, or `no` (off). Without
    /// this option `#project` directives are ignored, as clingo does. Not with `#minimize`.
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "auto", value_parser = values::projection,
          help_heading = SOLVING)]
    pub project: Option<ProjectArg>,

    /// Which engine searches.
    #[arg(long, value_enum, default_value_t = EngineKind::Auto, help_heading = SOLVING)]
    pub engine: EngineKind,

    /// The search options below as a set (clingo's name); options given override it.
    #[arg(long, value_name = "NAME", default_value = "auto",
          value_parser = values::configuration(), help_heading = SOLVING)]
    pub configuration: &'static Configuration,

    /// Conflict learning scheme [default: res; with -t, some threads learn the other way].
    #[arg(long, value_enum, help_heading = SOLVING)]
    pub learning: Option<Learning>,

    /// With `--learning=fwd`: the nogood a conflict teaches [default: the configuration's].
    #[arg(long = "fwd-cut", value_enum, help_heading = SOLVING)]
    pub fwd_cut: Option<FwdCut>,

    /// Decision ranking [default: activity; with -t, some threads rank otherwise]; clingo's
    /// spellings (Vsids, Domain) are taken too.
    #[arg(long, value_enum, ignore_case = true, help_heading = SOLVING)]
    pub heuristic: Option<Heuristic>,

    /// What to decide on [default: the configuration's].
    #[arg(long, value_enum, help_heading = SOLVING)]
    pub decide: Option<Decide>,

    /// Tests: with `--decide=alternate`, the first turn N conflicts long, so that small
    /// programs switch too [default: `engine::cpu::decide_turns::TURN`].
    #[arg(long = "decide-turn", value_name = "N", hide = true,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub decide_turn: Option<u64>,

    /// Host engine, with `--decide=vars`: on a backjump over more than N levels, keep the
    /// signs it undoes for later decisions, or `off` [default: the configuration's].
    #[arg(long = "save-progress", value_name = "N|off", value_parser = values::save_progress,
          help_heading = SOLVING)]
    pub save_progress: Option<SaveProgress>,

    /// Host engine, with `--save-progress`: alternate fixed and saved signs, C conflicts each
    /// at first, doubling; 0 is off [default: the configuration's].
    #[arg(long = "phase-switch", value_name = "C", help_heading = SOLVING)]
    pub phase_switch: Option<u64>,

    /// When to restart [default: the configuration's].
    #[arg(long, value_enum, help_heading = SOLVING)]
    pub restarts: Option<RestartPolicy>,

    /// Sum bodies by a propagator or as nogoods (the host engine and the GPU engine alike).
    #[arg(long, value_enum, default_value_t = Sums::Native, help_heading = SOLVING)]
    pub sums: Sums,

    /// Preprocessing (clingo's `--eq`): rules read under the atoms settled in every answer set
    /// (derived from facts, or false), and a body equal to an atom given the atom's variable,
    /// one-literal bodies their literal's; any N > 0 is on (one pass), 0 is off.
    #[arg(long, value_name = "N", default_value_t = 3, help_heading = SOLVING)]
    pub eq: u32,

    /// clasp's options given that change only the search and have no counterpart here, with
    /// what was done with each (`config/spellings.rs`; said once each in a `*** Warn` line).
    #[arg(skip)]
    pub search_notes: Vec<String>,

    /// Threads of the host engine (clingo's `--parallel-mode`; `compete`, the only mode: each
    /// thread searches with a configuration of its own, sharing short learned nogoods, and
    /// optimises under the best bound any found) [default: one per core; beside the GPU
    /// engine, one per core but one].
    #[arg(short = 't', long = "parallel-mode", value_name = "N[,compete]",
          value_parser = values::threads, help_heading = SOLVING)]
    pub threads: Option<u32>,

    /// GPU engine: searches run at once [default: as many as fit; 16 when one search needs
    /// over 128 MB of device memory].
    #[arg(long = "gpu-searches", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..), help_heading = SOLVING)]
    pub gpu_searches: Option<u32>,

    /// GPUs of `--engine=auto`: each GPU's searches are one more member of its portfolio
    /// [default: every GPU there is].
    #[arg(long = "gpus", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..), help_heading = SOLVING)]
    pub gpus: Option<u32>,

    /// Tests: `--engine=auto` as if the machine had N GPUs, each the GPU engine's kernel
    /// compiled for the host (as `--engine=emu`), so that its race runs without a GPU.
    #[arg(long = "emulated-gpus", value_name = "N", hide = true,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub emulated_gpus: Option<u32>,

    /// GPU engine: how each search picks its next decision variable.
    #[arg(long = "gpu-decide", value_enum, default_value = "vsids", help_heading = SOLVING)]
    pub gpu_decide: GpuDecide,

    /// GPU engine: half the searches split the space into 2^K cubes for UNSAT proofs; 0 is off
    /// [default: from the searches].
    #[arg(long = "gpu-cubes", value_name = "K",
          value_parser = clap::value_parser!(u32).range(0..=16), help_heading = SOLVING)]
    pub gpu_cubes: Option<u32>,

    /// GPU engine: a search that has spent N conflicts on its cube splits it, handing half to
    /// a search without one; 0 is off.
    #[arg(long = "gpu-split", value_name = "N", default_value_t = 1000, help_heading = SOLVING)]
    pub gpu_split: u32,

    /// Tests: GPU engine, N words of learned arena per search before the program's size raises
    /// it, so that deletion runs often [default: `engine::gpu::engine::ARENA_WORDS`].
    #[arg(long = "gpu-arena-words", value_name = "N", hide = true,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub gpu_arena_words: Option<u32>,

    /// Random seed for tie-breaking in the heuristics.
    #[arg(long, default_value_t = 1, help_heading = SOLVING)]
    pub seed: u64,

    /// Stop the search after N conflicts or M restarts (clasp's --solve-limit; umax: no limit),
    /// each search counting its own (each thread of -t, each GPU search; the GPU engine looks
    /// between its time slices); the run then ends as clingo's: UNKNOWN or SATISFIABLE with the
    /// models found, `Models : N+`, exit 0 or 10.
    #[arg(long = "solve-limit", value_name = "N[,M]", default_value = "umax",
          value_parser = values::solve_limit, help_heading = SOLVING)]
    pub solve_limit: SolveLimit,

    /// Check every model with the independent answer-set checker before printing it.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL",
          help_heading = SOLVING)]
    pub verify: bool,

    // ---- Output Options --------------------------------------------------------------------
    /// Output format: 0 clingo's text, 1 the ASP competition's, 2 JSON, 3 none (the exit code
    /// alone).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3),
          help_heading = OUTPUT)]
    pub outf: u8,

    /// Text output: print each atom of a model by FMT, its %s replaced by the atom (clingo's
    /// --out-atomf; e.g. '%s.').
    #[arg(long = "out-atomf", value_name = "FMT", help_heading = OUTPUT)]
    pub out_atomf: Option<String>,

    /// Text output: separate a model's atoms by SEP (default a space; \n, \t and \\ are
    /// read as escapes, as clingo's --out-ifs).
    #[arg(long = "out-ifs", value_name = "SEP", value_parser = values::escapes, help_heading = OUTPUT)]
    pub out_ifs: Option<String>,

    /// clingo's --text (the ground program as text, no solving) is refused with a message
    /// (`Config::try_from_args`): no printer of ground programs as clingo's text is here.
    #[arg(long, hide = true)]
    pub text: bool,

    /// Print statistics: the problem (rules, atoms, bodies, nogoods) and the search; on
    /// standard error the time and memory of each preparation phase as it ends. N as clingo's:
    /// 0 none, 1 or 2 these.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          action = clap::ArgAction::Set, default_value = "0", default_missing_value = "1",
          value_parser = values::stats_level, help_heading = OUTPUT)]
    pub stats: bool,

    /// Print a progress line on standard error every ~2 s once a run lasts ~3 s (always on
    /// when standard error is a terminal).
    #[arg(long, help_heading = OUTPUT)]
    pub progress: bool,
}

impl Config {
    /// The grounder's arguments (`-c`, `-W`, `--mode=clasp`).
    pub fn ground_args(&self) -> crate::grounder::Args {
        crate::grounder::Args {
            constants: self.constants.clone(),
            warn: self.warn.clone(),
            refused: self.mode == Mode::Clasp,
        }
    }

    /// The format to print the program read in and stop (`--pre`, `--mode=gringo`).
    pub fn print_ground(&self) -> Option<Pre> {
        self.pre
            .or((self.mode == Mode::Gringo).then_some(Pre::Aspif))
    }

    /// The projection `--project` asks for (`None`: off).
    pub fn projection(&self) -> Option<Projection> {
        self.project.and_then(|p| p.0)
    }

    /// One optimum is wanted (`--opt-mode=opt`, no projection): models of the best cost
    /// found need not be enumerated, so a search may drop every model not better than it.
    pub fn one_optimum(&self) -> bool {
        self.opt_mode.kind == OptKind::Opt && self.projection().is_none()
    }

    /// Whether notes on how the run is made (`*** Info` lines: which engine runs and why) go to
    /// standard error: at the default verbosity with clingo's text output and every model
    /// printed; clingo is silent under `-V0`, `-q` and `--outf=1|2`, and so is this.
    pub fn notes(&self) -> bool {
        self.verbose >= 1 && self.outf == 0 && self.quiet == Quiet::default()
    }

    /// Parse `args` (the program name first). `--help` and `--version` print and exit 0; a bad
    /// option or value exits 1 with clingo's two lines (`*** ERROR: (yasmin-rs): …`, then
    /// `*** Info : (yasmin-rs): Try '--help' for usage information`), as clingo does.
    pub fn from_args(args: impl IntoIterator<Item = OsString>) -> Config {
        use clap::error::ErrorKind;
        match Config::try_from_args(args) {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::DisplayVersion => {
                print!("{}", version_text());
                std::process::exit(0)
            }
            Err(e) if e.kind() == ErrorKind::DisplayHelp => e.exit(),
            Err(e) => {
                eprintln!("*** ERROR: (yasmin-rs): {}", error_text(&e));
                eprintln!("*** Info : (yasmin-rs): Try '--help' for usage information");
                std::process::exit(1)
            }
        }
    }

    /// As [`Config::from_args`], returning clap's error.
    pub fn try_from_args(args: impl IntoIterator<Item = OsString>) -> Result<Config, clap::Error> {
        use clap::CommandFactory;
        let cmd = Config::command();
        let (args, notes) = spellings::rewrite(args, |flag| takes_value(&cmd, flag));
        let mut config = Config::try_parse_from(args)?;
        if config.text {
            return Err(cmd.clone().error(
                clap::error::ErrorKind::ArgumentConflict,
                "--text (clingo's ground program as text) is not supported; --pre=aspif or \
                 --pre=smodels prints the ground program",
            ));
        }
        config.search_notes = notes;
        Ok(config)
    }
}

/// `--version`, in the shape of clingo's (`clingo version 5.8.3`, `Address model: 64-bit`, the
/// libraries, the licence), so that a script reading its first line reads ours.
pub fn version_text() -> String {
    let grounder = if cfg!(feature = "grounder") {
        "with the embedded clingo grounder (libclingo 5.6.2)"
    } else {
        "without the embedded grounder"
    };
    format!(
        "yasmin-rs version {}\nAddress model: {}-bit\n\nConfiguration: {grounder}, the GPU \
         engine through CUDA and NVRTC when present\n\nLicense: The MIT License \
         <https://opensource.org/licenses/MIT>\n",
        env!("CARGO_PKG_VERSION"),
        usize::BITS
    )
}

/// clap's message for `e` on one line: its first line without `error: `, and its tip.
fn error_text(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("bad command line");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    match lines.find(|l| l.starts_with("tip:")) {
        Some(tip) => format!("{first} ({tip})"),
        None => first.to_string(),
    }
}

/// The option `-x` / `--long` of `cmd` takes its value from the next argument (a value that is
/// not optional; the optional ones require `=`).
fn takes_value(cmd: &clap::Command, flag: &str) -> bool {
    let (short, long) = match flag.strip_prefix("--") {
        Some(l) => (None, Some(l)),
        None => (
            flag.strip_prefix('-').filter(|c| c.chars().count() == 1),
            None,
        ),
    };
    cmd.get_arguments().any(|a| {
        let needs =
            a.get_action().takes_values() && a.get_num_args().is_none_or(|n| n.min_values() > 0);
        let named = short.is_some_and(|c| a.get_short().map(String::from).as_deref() == Some(c))
            || long.is_some_and(|l| a.get_long() == Some(l));
        needs && named
    })
}

#[cfg(test)]
mod tests;
