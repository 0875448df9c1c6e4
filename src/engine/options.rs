//! What each engine is told to do: the search choices (plain enums, no command line), the host
//! engine's [`HostOptions`] and the device engine's [`DeviceOptions`], and the table of
//! configurations — named rows of search values ([`SearchRow`], [`CONFIGURATIONS`]), the shape
//! of clasp's configuration table. A portfolio of host-engine searches is a list of rows of the
//! same kind, laid over the options the user gave ([`SearchRow::over`]).
//!
//! Invariants: no engine imports the command line (the `config` module maps its values to these
//! types, and `run/plan.rs` builds both option structs, in one place). A row never holds a
//! value its engine does not honour: a configuration's `device` row is `None` when the device
//! engine cannot run it, and [`SearchRow::host_only`] names the first value only the host
//! engine honours.

/// The conflict learning scheme (both engines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learning {
    /// First-UIP resolution (clasp's, the paper's Algorithm 3).
    Res,
    /// Forward learning from decision-level dependencies (the paper's Algorithm 4).
    Fwd,
}

/// How each of the GPU engine's searches picks its next decision variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuDecide {
    /// CaDiCaL's variable move-to-front queue: the most recently bumped unassigned variable.
    Vmtf,
    /// MiniSat's activity heap (the host engine's `activity`): the unassigned variable of
    /// highest activity, bumped in conflicts and decayed per conflict.
    Vsids,
    /// Every other search each.
    Mixed,
}

/// The decision ranking (both engines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Occurrence counts of literals in the input nogoods.
    Occ,
    /// Jeroslow-Wang: occurrences weighted by 2^-length.
    Jw,
    /// VSIDS-style activity, bumped on conflicts and decayed.
    Activity,
    /// Activity, steered by the program's `#heuristic` directives (clingo's `Domain`: `level`,
    /// `sign`, `true`, `false`; `init` and `factor` have no effect). Host engine only, with
    /// `--decide=vars`; without it `#heuristic` is ignored with a notice.
    Domain,
}

/// How the engines handle sum bodies: a choice of the completion (`nogoods::Sums`).
pub use crate::nogoods::Sums;

/// What the host engine decides on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decide {
    /// The paper's ASP computations: applicable rules (both engines).
    Rules,
    /// Any variable, clasp's way (host engine only).
    Vars,
    /// `Vars` and `Rules` taking turns (host engine only; `engine/cpu/decide_turns.rs`).
    Alternate,
}

impl Decide {
    /// Whether decisions on any variable are made (always or in turns): progress saving and
    /// its phase switch apply.
    pub fn on_vars(self) -> bool {
        matches!(self, Decide::Vars | Decide::Alternate)
    }
}

/// The nogood forward learning keeps of a conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FwdCut {
    /// The decisions the violated nogood depends on (the paper's; both engines).
    Decisions,
    /// The first UIP from dominators, plus lower-level literals (host engine only).
    Uip,
    /// The first-UIP nogood gathered forward, minimised (host engine only).
    Lits,
}

/// When to restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestartPolicy {
    /// The Luby sequence times 100 conflicts (both engines).
    Luby,
    /// Glucose's dynamic restarts (host engine only).
    Dynamic,
    /// clasp tweety's local restarts: the Luby sequence times 60 conflicts, counted in the
    /// current branch (host engine only).
    Local,
}

/// `--save-progress`: off, or save signs on backjumps over more than N levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveProgress {
    Off,
    Over(u32),
}

/// `--solve-limit=N[,M]`, clasp's: a search gives up once it has had `conflicts` conflicts or
/// `restarts` restarts since the solve began (`None`: no limit), and ends with
/// `Step::Limit`. Each search counts its own, as each of clasp's threads does: a host thread of
/// a portfolio, one GPU search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveLimit {
    pub conflicts: Option<u64>,
    pub restarts: Option<u64>,
}

impl SolveLimit {
    /// No limit (clasp's `umax,umax`).
    pub const NONE: SolveLimit = SolveLimit {
        conflicts: None,
        restarts: None,
    };

    pub fn is_none(&self) -> bool {
        *self == SolveLimit::NONE
    }

    /// A search that has had `conflicts` conflicts and `restarts` restarts has reached it.
    #[inline]
    pub fn reached(&self, conflicts: u64, restarts: u64) -> bool {
        self.conflicts.is_some_and(|n| conflicts >= n)
            || self.restarts.is_some_and(|m| restarts >= m)
    }

    /// What is left of it after `conflicts` and `restarts`: the limit of a search that goes on
    /// where another stopped (core-guided optimisation builds its engine anew).
    pub fn after(&self, conflicts: u64, restarts: u64) -> SolveLimit {
        SolveLimit {
            conflicts: self.conflicts.map(|n| n.saturating_sub(conflicts)),
            restarts: self.restarts.map(|m| m.saturating_sub(restarts)),
        }
    }
}

/// The host engine's options (`engine/cpu`, and the host members of `portfolio/race.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostOptions {
    pub learning: Learning,
    pub heuristic: Heuristic,
    pub seed: u64,
    /// Sum bodies native or translated (the completion must match: see `run/prepare.rs`).
    pub sums: Sums,
    /// Decide on applicable rules (the paper's) or on any variable.
    pub decide: Decide,
    /// `Decide::Alternate`: conflicts of the first turn (`engine::cpu::decide_turns::TURN`;
    /// tests give fewer, so that small programs switch too).
    pub decide_turn: u64,
    /// `Decide::Vars`: save signs on backjumps over more than this many levels (`None`: never).
    pub save_progress: Option<u32>,
    /// With `save_progress`: alternate fixed and saved signs, periods from this many conflicts.
    pub phase_switch: Option<u64>,
    /// `Learning::Fwd`: the nogood a conflict teaches (`Decisions` under `Res`).
    pub fwd_cut: FwdCut,
    pub restarts: RestartPolicy,
    /// `--solve-limit`: when the search gives up.
    pub limit: SolveLimit,
}

/// The device engine's options (`engine/gpu`): it decides on rules, learns the paper's decision
/// nogoods under `Fwd` and restarts on the Luby sequence; its portfolio varies the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceOptions {
    pub learning: Learning,
    pub heuristic: Heuristic,
    /// How the searches pick their decision variables.
    pub decide: GpuDecide,
    pub seed: u64,
    /// Sum bodies native or translated (the completion must match: `run::plan::Plan::device_sums`).
    pub sums: Sums,
    /// Many-searches engine: searches at once (`None`: as many as fit, 16 for a huge program).
    pub searches: Option<u32>,
    /// Many-searches engine: split into 2^k cubes (`Some(0)`: no splitting; `None`: as many
    /// as the searches need).
    pub cubes: Option<u32>,
    /// Many-searches engine: conflicts a search spends on a cube before it splits it (0: never).
    pub split: u32,
    /// Words of learned arena per search before the program's size raises it
    /// (`engine::gpu::engine::ARENA_WORDS`; tests give fewer, so that deletion runs often).
    pub arena_words: u32,
    /// The GPU it runs on (CUDA's number among the visible ones; 0 unless `--engine=auto`
    /// spreads its GPU members over several).
    pub gpu: u32,
    /// `--solve-limit`, looked at between time slices (`engine/gpu/engine.rs`).
    pub limit: SolveLimit,
    /// Searches of the default count left resident for a second engine on the same GPU (the
    /// core-guided member beside branch and bound under `--engine=gpu`: `portfolio::optimize`).
    pub room: u32,
    /// Slices on a CUDA stream of its own, so that they run beside another engine's on the
    /// same GPU instead of after them (the default stream orders every engine's work).
    pub own_stream: bool,
}

impl DeviceOptions {
    /// The host engine with the device's learning, heuristic and seed and the paper's other
    /// choices (decisions on rules, decision nogoods under `fwd`, Luby restarts), over the
    /// device's completion (every sum translated).
    pub fn as_host(&self) -> HostOptions {
        HostOptions {
            learning: self.learning,
            heuristic: self.heuristic,
            seed: self.seed,
            sums: Sums::Translate,
            decide: Decide::Rules,
            decide_turn: crate::engine::cpu::decide_turns::TURN,
            save_progress: None,
            phase_switch: None,
            fwd_cut: FwdCut::Decisions,
            restarts: RestartPolicy::Luby,
            limit: self.limit,
        }
    }
}

/// One row of the configuration table: a value for each search option it sets, `None` where it
/// leaves the option to what lies under it. The options a user gives are a row too, laid over a
/// configuration's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchRow {
    pub learning: Option<Learning>,
    pub heuristic: Option<Heuristic>,
    pub decide: Option<Decide>,
    pub save_progress: Option<SaveProgress>,
    /// `Some(0)`: off.
    pub phase_switch: Option<u64>,
    /// The cut under `Learning::Fwd` (no meaning under `Res`).
    pub fwd_cut: Option<FwdCut>,
    pub restarts: Option<RestartPolicy>,
    pub seed: Option<u64>,
}

impl SearchRow {
    /// `self`'s values where it has one, `under`'s elsewhere.
    pub const fn over(self, under: SearchRow) -> SearchRow {
        macro_rules! or {
            ($f:ident) => {
                match self.$f {
                    Some(v) => Some(v),
                    None => under.$f,
                }
            };
        }
        SearchRow {
            learning: or!(learning),
            heuristic: or!(heuristic),
            decide: or!(decide),
            save_progress: or!(save_progress),
            phase_switch: or!(phase_switch),
            fwd_cut: or!(fwd_cut),
            restarts: or!(restarts),
            seed: or!(seed),
        }
    }

    /// The first value of the row that only the host engine honours, as its option
    /// (`--decide=vars`), or `None` when the device engine runs the row.
    pub fn host_only(&self) -> Option<String> {
        match self.decide {
            Some(Decide::Vars) => return Some("--decide=vars".into()),
            Some(Decide::Alternate) => return Some("--decide=alternate".into()),
            _ => {}
        }
        if let Some(SaveProgress::Over(n)) = self.save_progress {
            return Some(format!("--save-progress={n}"));
        }
        if let Some(n) = self.phase_switch.filter(|&n| n > 0) {
            return Some(format!("--phase-switch={n}"));
        }
        match self.fwd_cut {
            Some(FwdCut::Uip) => return Some("--fwd-cut=uip".into()),
            Some(FwdCut::Lits) => return Some("--fwd-cut=lits".into()),
            _ => {}
        }
        match self.restarts {
            Some(RestartPolicy::Dynamic) => return Some("--restarts=dynamic".into()),
            Some(RestartPolicy::Local) => return Some("--restarts=local".into()),
            _ => {}
        }
        if self.heuristic == Some(Heuristic::Domain) {
            return Some("--heuristic=domain".into());
        }
        None
    }
}

/// The paper's algorithm, as the device engine runs it (both engines).
pub const PAPER: SearchRow = SearchRow {
    learning: None,
    heuristic: None,
    decide: Some(Decide::Rules),
    save_progress: Some(SaveProgress::Off),
    phase_switch: Some(0),
    fwd_cut: Some(FwdCut::Decisions),
    restarts: Some(RestartPolicy::Luby),
    seed: None,
};

/// The host engine's best measured setting, clasp's way (host engine only).
pub const TUNED: SearchRow = SearchRow {
    learning: None,
    heuristic: None,
    decide: Some(Decide::Vars),
    save_progress: Some(SaveProgress::Over(0)),
    phase_switch: Some(1000),
    fwd_cut: Some(FwdCut::Lits),
    restarts: Some(RestartPolicy::Dynamic),
    seed: None,
};

/// A named configuration (`--configuration`): the row each engine searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Configuration {
    pub name: &'static str,
    pub help: &'static str,
    /// The host engine's row.
    pub host: SearchRow,
    /// The device engine's row; `None`: the device engine cannot run this configuration.
    pub device: Option<SearchRow>,
}

/// Every configuration; the first is the default.
pub const CONFIGURATIONS: &[Configuration] = &[
    Configuration {
        name: "auto",
        help: "tuned on the host engine, paper on the GPU engine",
        host: TUNED,
        device: Some(PAPER),
    },
    Configuration {
        name: "paper",
        help: "the paper's algorithm as the GPU engine runs it: --decide=rules \
               --fwd-cut=decisions --restarts=luby (both engines)",
        host: PAPER,
        device: Some(PAPER),
    },
    Configuration {
        name: "tuned",
        help: "the host engine's best measured setting: --decide=vars --save-progress=0 \
               --phase-switch=1000 --restarts=dynamic, --fwd-cut=lits (host engine only)",
        host: TUNED,
        device: None,
    },
];

/// The configuration called `name`.
pub fn configuration(name: &str) -> Option<&'static Configuration> {
    CONFIGURATIONS.iter().find(|c| c.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_row_holds_nothing_the_device_does_not_run() {
        for c in CONFIGURATIONS {
            if let Some(d) = c.device {
                assert_eq!(d.host_only(), None, "{}", c.name);
            } else {
                assert!(
                    c.host.host_only().is_some(),
                    "{} could run on the device",
                    c.name
                );
            }
        }
    }

    #[test]
    fn a_row_over_another_keeps_its_own_values() {
        let given = SearchRow {
            restarts: Some(RestartPolicy::Luby),
            seed: Some(7),
            ..SearchRow::default()
        };
        let r = given.over(TUNED);
        assert_eq!(r.restarts, Some(RestartPolicy::Luby));
        assert_eq!(r.seed, Some(7));
        assert_eq!(r.decide, Some(Decide::Vars));
        assert_eq!(SearchRow::default().over(PAPER), PAPER);
    }

    /// No engine file names the command line's module.
    #[test]
    fn no_engine_imports_the_command_line() {
        fn walk(dir: &std::path::Path, bad: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, bad);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    if text.contains(concat!("crate::", "config")) {
                        bad.push(p.display().to_string());
                    }
                }
            }
        }
        let mut bad = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine"),
            &mut bad,
        );
        assert!(
            bad.is_empty(),
            "engine files import the command line: {bad:?}"
        );
    }
}
