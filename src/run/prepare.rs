//! The preparation — read, analyse, complete, build the engine, the checker and the table of
//! shown atoms — runs on a worker thread while the calling thread watches the clock and the
//! Ctrl-C flag, so that `--time-limit` and Ctrl-C hold during preparation as they do during
//! search, without a check in every loop of the reader, the analysis, the completion and the
//! engines' builds (on a program of millions of rules each takes seconds). The checker is built
//! beside the analysis, on a thread of the worker's, as it needs only the program read.
//!
//! Invariant: [`prepare`] returns within ~[`POLL`] of the deadline or of Ctrl-C, whatever phase
//! is running: `Ok(Err(outcome))` then says why it stopped, and the worker is abandoned (it holds
//! nothing the user asked for: no model is printed before the search starts; the process exits
//! soon after). Otherwise it returns the worker's result. A worker that panics is an internal
//! error, never a hang.

use super::input::{self, Source};
use super::phases::Phases;
use super::{exit, Failure};
use crate::analyse::alias::Aliases;
use crate::analyse::GroundProgram;
use crate::check::Checker;
use crate::engine::{Engine, Heuristic, HostOptions, Sums};
use crate::grounder;
use crate::nogoods::Completion;
pub use crate::nogoods::{completer, device_completer};
use crate::output::{Outcome, Problem, ShownTable};
use lparse::Program;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the calling thread looks at the clock and the Ctrl-C flag.
pub const POLL: Duration = Duration::from_millis(20);

/// When to give up: the deadline of `--time-limit` and the Ctrl-C flag.
#[derive(Clone)]
pub struct Stop {
    pub deadline: Option<Instant>,
    pub interrupt: Arc<AtomicBool>,
}

impl Stop {
    /// Why the run must stop now, if it must.
    pub fn reached(&self) -> Option<Outcome> {
        if self.interrupt.load(Ordering::Relaxed) {
            Some(Outcome::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Outcome::TimeLimit)
        } else {
            None
        }
    }
}

/// Builds the run's engine on the worker from the analysed program, its completion (`None`:
/// not made, the engine makes its own) and the program read (`run/engines.rs`).
pub type Build = Box<
    dyn FnOnce(
            GroundProgram,
            Option<Completion>,
            &Arc<Program>,
        ) -> anyhow::Result<Box<dyn Engine + Send>>
        + Send,
>;

/// What the worker makes of the program it reads.
pub struct Work {
    pub ground_args: grounder::Args,
    /// Equivalence preprocessing (`--eq` > 0, `analyse::eq`).
    pub eq: bool,
    /// The host engine's options when it is certain to search: its sums complete the program
    /// (`None`: the device engine's, `device_sums`).
    pub host: Option<HostOptions>,
    pub device_sums: Sums,
    /// Complete the program here (or, with `objective`, a program with `#minimize`: the host
    /// engine searches it); else `build` completes it as the engine needs.
    pub complete: bool,
    pub objective: bool,
    /// Build the checker (`--verify`).
    pub verify: bool,
    pub build: Build,
}

/// The prepared program.
pub struct Prepared {
    pub program: Arc<Program>,
    /// Its size, for `--stats`.
    pub problem: Problem,
    pub engine: Box<dyn Engine + Send>,
    /// The eliminated atoms (`analyse::alias`), whose values the caller puts back into each
    /// model (`wrap::eliminated::Alias`).
    pub aliases: Aliases,
    /// `None` without `--verify`.
    pub checker: Option<Checker>,
    pub shown: ShownTable,
}

enum Msg {
    /// A phase ended; what it made.
    Phase(&'static str, String),
    /// Boxed: the prepared program is much larger than a phase's message.
    Done(Box<anyhow::Result<Prepared>>),
}

/// Prepare `source` as `work` says, on a worker thread, until `stop`.
pub fn prepare(
    source: Source,
    work: Work,
    stop: &Stop,
    phases: &mut Phases,
) -> anyhow::Result<Result<Prepared, Outcome>> {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .name("prepare".into())
        .spawn(move || {
            let phase = |name, made| {
                let _ = tx.send(Msg::Phase(name, made));
            };
            let result = self::work(&source, work, phase);
            let _ = tx.send(Msg::Done(Box::new(result)));
        })
        .map_err(|e| Failure::new(exit::MEMORY, format!("cannot start a thread: {e}")))?;
    loop {
        if let Some(outcome) = stop.reached() {
            return Ok(Err(outcome));
        }
        match rx.recv_timeout(POLL) {
            Ok(Msg::Phase(name, made)) => phases.end_with(name, &made),
            // Not joined: what the worker still drops (the source) is not waited for.
            Ok(Msg::Done(result)) => return (*result).map(Ok),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                // The worker ended without a result: it panicked (the panic message is already
                // on standard error).
                let _ = worker.join();
                return Err(Failure::new(
                    exit::INTERNAL,
                    "internal error: the preparation of the program failed",
                )
                .into());
            }
        }
    }
}

fn work(
    source: &Source,
    work: Work,
    phase: impl Fn(&'static str, String),
) -> anyhow::Result<Prepared> {
    let program = Arc::new(input::read(source, &work.ground_args)?);
    phase(
        "Read",
        format!("{} rules, {} atoms", program.rules.len(), program.max_atom),
    );
    enough_memory_for_atoms(program.max_atom)?;
    let verify = work.verify;
    std::thread::scope(|beside| {
        let checking = beside.spawn(|| {
            let checker = verify.then(|| Checker::new(program.clone()));
            (checker, ShownTable::new(&program))
        });
        let (problem, engine, aliases) = analyse_and_build(&program, work, &phase)?;
        let (checker, shown) = checking.join().map_err(|_| {
            Failure::new(
                exit::INTERNAL,
                "internal error: building the answer-set checker failed",
            )
        })?;
        phase("Checker", String::new());
        Ok(Prepared {
            program: program.clone(),
            problem,
            engine,
            aliases,
            checker,
            shown,
        })
    })
}

/// Analyse `program`, complete it if `work` says so, and build the engine; the program's size
/// and the eliminated atoms.
fn analyse_and_build(
    program: &Arc<Program>,
    work: Work,
    phase: &impl Fn(&'static str, String),
) -> anyhow::Result<(Problem, Box<dyn Engine + Send>, Aliases)> {
    let mut problem = Problem {
        rules: program.rules.len() as u64,
        choice_rules: program
            .rules
            .iter()
            .filter(|r| r.head.kind == lparse::HeadKind::Choice)
            .count() as u64,
        atoms: u64::from(program.max_atom),
        ..Problem::default()
    };
    let ground = crate::analyse::analyse_eq(program, work.eq)
        .map_err(|e| Failure::new(exit::UNSUPPORTED, e.to_string()))?;
    // The analysis's intermediate rules are freed: their pages back before the completion.
    crate::memory::give_back(program.rules.len());
    for w in &ground.warnings {
        eprintln!("*** Warn : (yasmin-rs): {w}");
    }
    let domain = work.host.is_some_and(|o| o.heuristic == Heuristic::Domain);
    if !ground.heuristics.is_empty() && !domain {
        eprintln!(
            "*** Info : (yasmin-rs): {} #heuristic directive(s) ignored (--heuristic=domain \
             applies them)",
            ground.heuristics.len()
        );
    }
    phase(
        "Analyse",
        format!(
            "{} bodies, {} rules{}{}{}",
            ground.bodies.len(),
            ground.rules.len(),
            match ground.aux_atoms {
                0 => String::new(),
                aux => format!(", {aux} auxiliary atoms"),
            },
            match ground.aliases.count() {
                0 => String::new(),
                n => format!(", {n} atoms eliminated"),
            },
            settled(&ground.simplified),
        ),
    );
    problem.bodies = ground.bodies.len() as u64;
    problem.tight = ground.tight;
    let completion =
        (work.complete || (work.objective && !program.minimize.is_empty())).then(|| {
            // The host engine's sums when it is certain to search, else the device engine's.
            let completion = match work.host {
                Some(o) => completer(Some(o.sums))(&ground),
                None => device_completer(Some(work.device_sums))(&ground),
            };
            crate::memory::give_back(program.rules.len());
            let db = &completion.db;
            problem.variables = u64::from(db.num_vars);
            // Units are assignments at level 0, not constraints (clasp counts them so too).
            problem.nogoods = db.len() as u64 - u64::from(db.bounds[0]);
            problem.binary = u64::from(db.bounds[1] - db.bounds[0]);
            problem.ternary = u64::from(db.bounds[2] - db.bounds[1]);
            phase(
                "Complete",
                format!(
                    "{} nogoods, {} literals, {} variables",
                    db.len(),
                    db.lits.len(),
                    db.num_vars
                ),
            );
            completion
        });
    // The completion and the engines read them too.
    let aliases = ground.aliases.clone();
    let engine = (work.build)(ground, completion, program)?;
    phase("Engine", String::new());
    Ok((problem, engine, aliases))
}

/// Bytes of the preparation and the engine per atom, at least (measured: ~128 on a program of
/// 20M atoms and one rule; half of that, so that only inputs that certainly do not fit are
/// refused).
const BYTES_PER_ATOM: u64 = 64;

/// Refuse, with exit 33, a program whose atom numbers alone need more memory than the machine
/// has free. Without this, an input such as one rule with atom 2^31-1 makes the per-atom arrays
/// of the analysis and the engine grow, through the system's overcommit, until the kernel kills
/// the process (or others) minutes later.
fn enough_memory_for_atoms(max_atom: u32) -> Result<(), Failure> {
    let need = u64::from(max_atom) * BYTES_PER_ATOM;
    match available_memory() {
        Some(free) if need > free => Err(Failure::new(
            exit::MEMORY,
            format!(
                "out of memory: the program's atoms go up to {max_atom}, which needs at least \
                 {} MB, but only {} MB are available",
                need >> 20,
                free >> 20
            ),
        )),
        _ => Ok(()),
    }
}

/// Memory the system can still give this process, in bytes (`MemAvailable` + `SwapFree` of
/// `/proc/meminfo`), where the system tells (Linux).
pub(super) fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb << 10)
    };
    Some(field("MemAvailable:")? + field("SwapFree:").unwrap_or(0))
}

/// The Analyse line's account of [`crate::analyse::simplify`]: atoms settled, rules dropped or
/// made constraints.
fn settled(s: &crate::analyse::simplify::Simplified) -> String {
    if *s == crate::analyse::simplify::Simplified::default() {
        return String::new();
    }
    format!(
        ", {} atoms true and {} false in every answer set ({} rules dropped, {} made constraints)",
        s.atoms_true, s.atoms_false, s.rules_dropped, s.to_constraints
    )
}
