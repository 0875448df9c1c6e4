//! The pipeline the command line runs: read → (print with `--pre`) → analyse → complete → search
//! → check → print, with clingo's exit codes.
//!
//! Invariant: no model reaches standard output unless the independent checker accepted it (or the
//! user turned checking off with `--verify=false`); a model the checker rejects ends the run with
//! an internal error (exit 70). Every failure a user can cause is a [`Failure`] with a message and
//! an exit code, never a panic. The time limit counts from the start of the process and, like
//! Ctrl-C, holds during the preparation too (`run/prepare.rs`): a run stopped before the search prints
//! `UNKNOWN` and exits 1.

mod consequences;
mod engines;
mod enumerate;
mod input;
mod phases;
mod plan;
mod prepare;
mod progress;
mod project;
#[cfg(test)]
mod tests;
mod threads;
mod usc;

use crate::config::{Config, EngineKind, EnumMode, OptKind, OptMode, OptStrategy, Pre, Projection};
use crate::engine::{Engine, EngineError, Limits};
use crate::output::{Format, Outcome, Printer, Summary};
use crate::wrap::{eliminated::Alias, projective::Project};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exit codes, as clasp's where clasp has one (`10`/`20` can combine with `1`, see
/// [`crate::output::Summary::exit_code`]).
pub mod exit {
    /// Bad input: a parse error, a file that cannot be read.
    pub const BAD_INPUT: i32 = 65;
    /// The input uses a feature the solver does not support yet.
    pub const UNSUPPORTED: i32 = 66;
    /// Command-line misuse clap does not catch (several ground files, `--decide=vars` with
    /// `--engine=gpu`, `--save-progress` without `--decide=vars`).
    pub const USAGE: i32 = 64;
    /// `--engine=gpu` but no usable GPU (no driver, no device, no NVRTC).
    pub const NO_DEVICE: i32 = 69;
    /// Out of (device) memory.
    pub const MEMORY: i32 = 33;
    /// A bug: a model the checker rejected, a device error.
    pub const INTERNAL: i32 = 70;
    /// Writing the output failed (other than a closed pipe).
    pub const IO: i32 = 74;
    /// Standard output was closed by its reader (`yasmin-rs … | head`): 128 + SIGPIPE, what a
    /// shell reports for clingo, which the signal kills.
    pub const PIPE: i32 = 141;
}

/// A run that ends without a result: what to say and the exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl Failure {
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
        }
    }
}

/// The exit code of a run that ended with the error `e`, and the message to print (empty:
/// none): a [`Failure`]'s own, else an internal error.
pub fn exit_code_of(e: &anyhow::Error) -> (i32, String) {
    match e.downcast_ref::<Failure>() {
        Some(f) => (f.code, f.message.clone()),
        None => (exit::INTERNAL, format!("{e:#}")),
    }
}

/// Run the whole pipeline for `config`; returns the exit code of a finished run.
/// `interrupt` is set by the Ctrl-C handler; `start` is when the process started.
/// What the binary does once the summary is printed (`main.rs`: end the process with the exit
/// code at once; nothing is left to print, and dropping a large program's structures and
/// joining the search threads took 0.3-0.6 s after the answer on one of 3.4M rules, past
/// `--time-limit`). Unset (a library caller, `examples/cli_batch.rs`): the run returns and
/// drops them.
pub static AFTER_SUMMARY: std::sync::OnceLock<fn(i32) -> !> = std::sync::OnceLock::new();

pub fn run(config: &Config, interrupt: Arc<AtomicBool>, start: Instant) -> anyhow::Result<i32> {
    run_to(config, interrupt, start, io::stdout().lock())
}

/// [`run`] printing to `out` instead of standard output (`examples/cli_batch.rs` runs many
/// command lines in one process so).
pub fn run_to<W: Write>(
    config: &Config,
    interrupt: Arc<AtomicBool>,
    start: Instant,
    out: W,
) -> anyhow::Result<i32> {
    if config.verbose >= 1 {
        for note in &config.search_notes {
            eprintln!("*** Warn : (yasmin-rs): {note}");
        }
    }
    let source = input::choose(&config.files)?;
    if let Some(pre) = config.print_ground() {
        let program = input::read(&source, &config.ground_args())?;
        let mut out = io::BufWriter::new(out);
        let written = match pre {
            Pre::Aspif => lparse::write_aspif(&program, &mut out),
            Pre::Smodels => lparse::write_smodels(&program, &mut out),
        };
        written.and_then(|_| out.flush()).map_err(output_failure)?;
        return Ok(0);
    }

    let mut plan = plan::plan(config)?;
    // `auto` without a usable GPU: the host engine from the start, so that the preparation
    // builds what it needs (native sums, the engine on the worker thread), not the device's.
    // With a usable GPU, the kernel compiles (or loads from the cache) while the program is
    // read and prepared, unless `auto` will search on one host thread (`threads::takes_nogoods`).
    // `auto` searches on every GPU there is, or on `--gpus`. The GPUs are counted from the
    // kernel driver's listing where it tells, so that the CUDA driver starts beside the
    // preparation (on the kernel's thread); asking the CUDA driver starts it (0.1 s on one
    // H100, seconds on some machines), as `--gpus` does to check its number: a phase of its
    // own in `--stats`. With `--emulated-gpus=N` (tests) the machine has N, each emulated.
    let mut phases = phases::Phases::new(config.stats);
    let emulated = plan.emulated_gpus;
    let gpus = match emulated {
        Some(n) => Ok(n),
        None if matches!(plan.kind, EngineKind::Auto | EngineKind::Gpu) => {
            let n = match config.gpus {
                Some(_) => crate::engine::gpu::device::count_by_driver(),
                None => crate::engine::gpu::count(),
            };
            let found = n
                .as_ref()
                .map_or("none usable".into(), |n| format!("{n} found"));
            phases.end_with("GPUs", &found);
            n
        }
        None => Err(String::new()),
    };
    if let (Ok(n), EngineKind::Auto) = (&gpus, plan.kind) {
        if let Some(want) = config.gpus.filter(|want| want > n) {
            let plural = if *n == 1 { "" } else { "s" };
            return Err(Failure::new(
                exit::NO_DEVICE,
                format!("--gpus={want}: this machine has {n} GPU{plural}"),
            )
            .into());
        }
        plan.gpus = config.gpus.unwrap_or(*n);
    }
    if matches!(plan.kind, EngineKind::Auto | EngineKind::Gpu) && emulated.is_none() {
        let host_only = plan.kind == EngineKind::Auto && threads::takes_nogoods(config);
        match gpus {
            Ok(_) if host_only => {}
            Ok(_) => crate::engine::gpu::device::warm_kernel(),
            Err(why) if plan.kind == EngineKind::Auto => {
                if config.notes() {
                    eprintln!("*** Info : (yasmin-rs): using the host engine: {why}");
                }
                plan.kind = EngineKind::Cpu;
            }
            Err(_) => {} // --engine=gpu: the engine's build reports it
        }
    }
    let gpu_searches = matches!(
        plan.kind,
        EngineKind::Auto | EngineKind::Gpu | EngineKind::Emu
    );
    if gpu_searches && !config.solve_limit.is_none() && config.verbose >= 1 {
        eprintln!(
            "*** Warn : (yasmin-rs): --solve-limit: the GPU engine looks at its searches' \
             conflicts and restarts between time slices (2 to 100 ms): it stops when one search \
             has reached the limit, which its searches may have passed by then (the host \
             engine stops at it)"
        );
    }
    let format = Format::from_outf(config.outf);
    let mut printer = Printer::new(
        io::BufWriter::new(crate::output::Muted::new(out, config.outf == 3)),
        format,
        config.quiet,
        &source.label(),
    )
    .with_start(start)
    .with_inputs(source.names())
    .with_verbose(config.verbose)
    .with_atom_format(config.out_atomf.as_deref(), config.out_ifs.as_deref());
    printer.header().map_err(output_failure)?;

    let mut source = source;
    if config.opt_strategy == OptStrategy::Usc && config.opt_mode.kind != OptKind::Ignore {
        let program = Arc::new(input::read(&source, &config.ground_args())?);
        if !program.minimize.is_empty() {
            if let Some(code) = usc::run(config, &plan, &program, &mut printer, &interrupt, start)?
            {
                return Ok(code);
            }
            eprintln!(
                "*** Info : (yasmin-rs): --opt-strategy=usc: the program has a head cycle, \
                 optimising by branch and bound (bb)"
            );
        }
        source = input::Source::Read(Box::new(Arc::unwrap_or_clone(program)), source.label());
    }

    // The time limit counts from the start of the process, preparation included.
    let deadline = (config.time_limit > 0).then(|| start + Duration::from_secs(config.time_limit));
    let stop = prepare::Stop {
        deadline,
        interrupt: interrupt.clone(),
    };
    // The host engine's completion (native sums) only when it is certain to search.
    let host_only = plan.host.filter(|_| plan.kind == EngineKind::Cpu);
    // `auto` completes a decision problem later: the host threads their own way while the
    // device's completion is made beside them; a program with an objective here (the host
    // engine searches it).
    let work = prepare::Work {
        ground_args: config.ground_args(),
        eq: config.eq > 0,
        host: host_only,
        device_sums: plan.device_sums(),
        complete: plan.kind != EngineKind::Auto,
        objective: config.opt_mode.kind != OptKind::Ignore,
        verify: config.verify,
        build: engines::builder(&plan, config, deadline),
    };
    let prepared = match prepare::prepare(source, work, &stop, &mut phases)? {
        Ok(p) => p,
        Err(outcome) => return stopped(config, &mut printer, outcome, start),
    };
    let (program, checker, shown) = (prepared.program, prepared.checker, prepared.shown);
    let problem = prepared.problem;
    let mut engine: Box<dyn Engine> = prepared.engine;
    if !prepared.aliases.is_empty() {
        // Eliminated atoms (`analyse::alias`) take their roots' values in every model.
        engine = Box::new(Alias::new(engine, prepared.aliases));
    }
    if let Some(mode) = config.projection() {
        let optimising = !program.minimize.is_empty() && config.opt_mode.kind != OptKind::Ignore;
        let atoms = project::atoms(mode, &program, optimising)?;
        engine = Box::new(Project::new(engine, atoms));
    }
    if let Some(outcome) = stop.reached() {
        return stopped(config, &mut printer, outcome, start);
    }

    let progress = progress::Progress::start(config.progress, start);
    let limits = Limits {
        deadline,
        interrupt: interrupt.clone(),
        progress: progress.sink(),
    };

    let reading = phases.took("Read");
    printer
        .times(reading, phases.total() - reading)
        .and_then(|()| printer.solving())
        .map_err(output_failure)?;
    let found = match config.enum_mode {
        EnumMode::Brave | EnumMode::Cautious if optimisation(config, &program).is_some() => {
            return Err(Failure::new(
                exit::UNSUPPORTED,
                "brave and cautious consequences with optimization (#minimize) are not \
                 supported yet (use --opt-mode=ignore)",
            )
            .into())
        }
        EnumMode::Brave | EnumMode::Cautious => {
            let n = config.models.unwrap_or(0);
            if n != 0 {
                eprintln!(
                    "*** Warn : (yasmin-rs): #models not 0: last model may not cover consequences."
                );
            }
            // clingo's consequences are over the `#project` atoms when there are any, unless
            // `--project=show`.
            let projection = program
                .projection
                .as_deref()
                .filter(|_| config.projection() != Some(Projection::Show));
            consequences::consequences(
                engine.as_mut(),
                checker.as_ref(),
                &shown,
                projection,
                config.enum_mode == EnumMode::Brave,
                n,
                &limits,
                &mut printer,
                || progress.model_found(),
            )?
        }
        EnumMode::Auto | EnumMode::Record => {
            let opt = optimisation(config, &program);
            enumerate::enumerate(
                engine.as_mut(),
                checker.as_ref(),
                &shown,
                models_wanted(config, opt),
                opt,
                config.enum_mode == EnumMode::Auto,
                &limits,
                &mut printer,
                || progress.model_found(),
            )?
        }
    };
    let now = Instant::now();
    progress.stop();
    phases.end("Search");
    let stats = engine.stats().clone();
    finish(
        &mut printer,
        found,
        start,
        now,
        config.stats.then_some(&stats),
        Some(&problem),
    )
}

/// Print the summary of what `found` holds (at `now`; the run started at `start`); the exit
/// code.
fn finish<W: Write>(
    printer: &mut Printer<W>,
    found: enumerate::Found,
    start: Instant,
    now: Instant,
    stats: Option<&crate::engine::Stats>,
    problem: Option<&crate::output::Problem>,
) -> anyhow::Result<i32> {
    let summary = Summary {
        outcome: found.outcome,
        models: found.models,
        total: now - start,
        solving: now - found.solve_start,
        first_model: found.first_model,
        unsat: if found.outcome == Outcome::Exhausted {
            now - found.last_model
        } else {
            Duration::ZERO
        },
        cpu: phases::cpu_time(),
        stats,
        problem,
        opt: found.opt,
        cons: found.cons,
    };
    printer.finish(&summary).map_err(output_failure)?;
    after_summary(summary.exit_code())
}

/// The exit code, or the end of the process where the binary asked for it ([`AFTER_SUMMARY`]).
fn after_summary(code: i32) -> anyhow::Result<i32> {
    if let Some(leave) = AFTER_SUMMARY.get() {
        leave(code)
    }
    Ok(code)
}

/// The optimisation mode, when the program has minimize statements that are not ignored;
/// clingo's warnings about the mode.
fn optimisation<'c>(config: &'c Config, program: &lparse::Program) -> Option<&'c OptMode> {
    let mode = &config.opt_mode;
    if program.minimize.is_empty() || mode.kind == OptKind::Ignore {
        return None;
    }
    if mode.kind == OptKind::Opt && config.models.is_some_and(|n| n != 0) {
        eprintln!(
            "*** Warn : (yasmin-rs): #models not 0: optimality of last model not guaranteed."
        );
    }
    if mode.kind == OptKind::Enum && mode.bound.is_empty() {
        eprintln!(
            "*** Warn : (yasmin-rs): opt-mode=enum: No bound given, optimize statement ignored."
        );
    }
    Some(mode)
}

/// `-n`, or clingo's default: all models (until the optimum; all optimal ones) when
/// optimising with `opt` or `optN`, else one.
fn models_wanted(config: &Config, opt: Option<&OptMode>) -> u64 {
    let optimising = opt.is_some_and(|o| matches!(o.kind, OptKind::Opt | OptKind::OptN));
    config.models.unwrap_or(if optimising { 0 } else { 1 })
}

/// The run stopped (time limit, Ctrl-C) before the search began: `UNKNOWN`, exit 1, and the
/// (empty) statistics when asked.
fn stopped<W: Write>(
    config: &Config,
    printer: &mut crate::output::Printer<W>,
    outcome: Outcome,
    start: Instant,
) -> anyhow::Result<i32> {
    let stats = crate::engine::Stats::default();
    let summary = Summary {
        outcome,
        models: 0,
        total: start.elapsed(),
        solving: Duration::ZERO,
        first_model: None,
        unsat: Duration::ZERO,
        cpu: phases::cpu_time(),
        stats: config.stats.then_some(&stats),
        problem: None,
        opt: None,
        cons: None,
    };
    printer.finish(&summary).map_err(output_failure)?;
    after_summary(summary.exit_code())
}

fn engine_code(e: &EngineError) -> i32 {
    match e {
        EngineError::OutOfMemory(_) => exit::MEMORY,
        EngineError::Unsupported(_) => exit::UNSUPPORTED,
        EngineError::Device(_) | EngineError::Internal(_) => exit::INTERNAL,
    }
}

fn engine_failure(e: EngineError) -> anyhow::Error {
    Failure::new(engine_code(&e), e.to_string()).into()
}

/// A failed write to standard output. A closed pipe (`yasmin-rs … | head`) is not an error of
/// ours: exit quietly, with the code a shell reports for clingo killed by SIGPIPE
/// ([`exit::PIPE`]), whatever had been found.
fn output_failure(e: io::Error) -> anyhow::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::new(exit::PIPE, String::new()).into()
    } else {
        Failure::new(exit::IO, format!("cannot write the output: {e}")).into()
    }
}
