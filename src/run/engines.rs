//! The engine a run searches with. First its shape, as data ([`Shape`], from the plan, the
//! options and what the program needs: [`shape`]); then [`make_engine`] builds that shape: the
//! kind `--engine` names, on the threads and GPUs the machine and the program allow
//! (`threads.rs`), racing (`portfolio`) where several members search, with the minimality
//! check around it for disjunction with a head cycle.
//!
//! Invariant: every run's engine is one of [`Shape`]'s cases, chosen in [`shape`] alone (with
//! the note that says why where the user asked for more), so what a run will do can be read
//! off one value. The engine is built on the preparation's worker ([`builder`]), where the time
//! limit holds.

use super::{engine_code, engine_failure, exit, plan, prepare, threads, Failure};
use crate::analyse::GroundProgram;
use crate::config::{Config, EngineKind, OptKind};
use crate::engine::gpu::engine::{Backend, ManyEngine};
use crate::engine::{cpu::CpuEngine, gpu, Engine};
use crate::nogoods::Completion;
use crate::portfolio::gpu_join::GpuBuild;
use crate::portfolio::optimize::{CoreGuided, OptRace};
use crate::portfolio::race::{HostCompletion, Race};
use crate::wrap::minimality_check::Minimal;
use lparse::Program;
use std::sync::Arc;
use std::time::Instant;

/// What searches a run: the members and how they race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// The host engine on one thread.
    Host,
    /// Host threads racing for the first answer (`--engine=cpu -t N`, no objective).
    HostRace,
    /// Host threads optimising together, bounded by the best cost any found.
    HostOptimise,
    /// The GPU engine alone, on the GPU or emulated (`--engine=gpu`, `--engine=emu`).
    Gpu(Backend),
    /// The GPU engine alone optimising (one optimum, no bound given): branch and bound on most
    /// of its searches, core-guided optimisation (OLL, `wrap/oll.rs`) on [`CORE_SEARCHES`] of
    /// them beside it, racing as the host threads do.
    GpuOptimise(Backend),
    /// The whole machine (`auto`): the host threads race, the GPU engine joins them once the
    /// device's completion is made.
    WholeMachine,
    /// The whole machine optimising: the host threads' branch and bound, the GPU engine as one
    /// more member.
    WholeMachineOptimise,
}

/// One engine that takes nogoods from the run (`--project`, consequences) or from the
/// minimality check of a disjunctive program with a head cycle: not a race, which takes none.
fn single(config: &Config, ground: &GroundProgram) -> bool {
    threads::takes_nogoods(config) || ground.minimality.is_some()
}

/// Whether the run is `auto`'s race of the host threads and the GPU engine for an answer,
/// which completes the program itself (the host threads' way and the device's).
fn whole_machine(
    plan: &plan::Plan,
    config: &Config,
    ground: &GroundProgram,
    optimising: bool,
) -> bool {
    plan.kind == EngineKind::Auto && !optimising && !single(config, ground)
}

/// The shape of the run and its host threads, for `completion` (the host threads', or the
/// default where the whole machine's race completes the program itself); prints why `auto`
/// runs less than the whole machine where it does.
pub(super) fn shape(
    plan: &plan::Plan,
    config: &Config,
    ground: &GroundProgram,
    completion: &Completion,
    optimising: bool,
) -> (Shape, usize) {
    let single = single(config, ground);
    let threads = if single {
        1
    } else if whole_machine(plan, config, ground, optimising) {
        threads::count_for_program(config, plan.kind, plan.gpus, ground)
    } else {
        threads::count(config, plan.kind, plan.gpus, optimising, completion)
    };
    let note = |why: &str| {
        if config.notes() {
            eprintln!("*** Info : (yasmin-rs): using the host engine{why}");
        }
    };
    // `auto` optimises (opt, optN) with the GPU engine as one more member; enum on the host.
    const AUTO_OPT: &str =
        "the GPU engine takes part in optimization (#minimize) with --opt-mode=opt or optN only";
    let gpu_optimises =
        plan.device.is_some() && matches!(config.opt_mode.kind, OptKind::Opt | OptKind::OptN);
    // Core-guided optimisation finds one optimum and takes no bound (`wrap/oll.rs`), and the
    // minimality check of a program with a head cycle wraps the engine, which then takes no
    // assumptions.
    // The GPU's searches take it only where they take the objective at all (else the GPU engine
    // alone refuses it).
    let cores = optimising
        && config.one_optimum()
        && config.opt_mode.bound.is_empty()
        && ground.minimality.is_none()
        && gpu::branch_bound::BranchBound::new(&ground.objective).is_ok();
    let shape = match plan.kind {
        EngineKind::Emu if cores => Shape::GpuOptimise(Backend::Emulated),
        EngineKind::Gpu if cores => Shape::GpuOptimise(Backend::Device),
        EngineKind::Emu => Shape::Gpu(Backend::Emulated),
        EngineKind::Gpu => Shape::Gpu(Backend::Device),
        EngineKind::Cpu if threads == 1 => Shape::Host,
        EngineKind::Cpu if optimising => Shape::HostOptimise,
        EngineKind::Cpu => Shape::HostRace,
        EngineKind::Auto if single => {
            note(
                " on one thread: it takes nogoods as it goes (--project, consequences, or the \
                 minimality check of a disjunctive program with a head cycle)",
            );
            Shape::Host
        }
        EngineKind::Auto if optimising && gpu_optimises => Shape::WholeMachineOptimise,
        EngineKind::Auto if optimising => {
            note(&format!(": {AUTO_OPT}"));
            match threads {
                1 => Shape::Host,
                _ => Shape::HostOptimise,
            }
        }
        EngineKind::Auto => Shape::WholeMachine,
    };
    (shape, threads)
}

/// What the preparation's worker calls to build the run's engine: [`make_engine`] with the
/// run's plan and options.
pub(super) fn builder(
    plan: &plan::Plan,
    config: &Config,
    deadline: Option<Instant>,
) -> prepare::Build {
    let (plan, config) = (plan.clone(), config.clone());
    Box::new(move |ground, completion, program| {
        make_engine(&plan, &config, ground, completion, program, deadline)
    })
}

/// The engine of `shape` (see [`shape`]) for `program` (as read; `ground` as analysed). `auto`
/// reaches here only with a usable GPU (`run` checked); `gpu` without one is an error (exit
/// 69). The race's members stop at the run's `deadline`.
fn make_engine(
    plan: &plan::Plan,
    config: &Config,
    ground: GroundProgram,
    completion: Option<Completion>,
    program: &Arc<Program>,
    deadline: Option<Instant>,
) -> anyhow::Result<Box<dyn Engine + Send>> {
    let optimising = !program.minimize.is_empty() && config.opt_mode.kind != OptKind::Ignore;
    // With `--opt-mode=opt` and no bound, a thread of the host race optimises by cores
    // (`wrap/oll.rs`): clasp's portfolio has core-guided threads too.
    let cores =
        (optimising && config.one_optimum() && config.opt_mode.bound.is_empty()).then(|| {
            CoreGuided {
                program: program.clone(),
                eq: config.eq > 0,
                device: None,
            }
        });
    let host_opts = || {
        plan.host
            .expect("a plan with the host engine has its options")
    };
    // `auto` left the completion to this point: the host engine's, unless the race makes its
    // own and the device's.
    let completion = match completion {
        Some(c) => c,
        None if whole_machine(plan, config, &ground, optimising) => Completion::default(),
        None => prepare::completer(Some(host_opts().sums))(&ground),
    };
    let (shape, threads) = shape(plan, config, &ground, &completion, optimising);
    let hosts = || plan::host_portfolio(config, threads);
    let (minimality, num_atoms) = (ground.minimality.clone(), ground.num_atoms);
    let make: Make = match optimising {
        true => ManyEngine::optimising,
        false => ManyEngine::new,
    };
    // The optimisation race's threads share learned nogoods where one optimum is wanted.
    let share = config.one_optimum();
    let engine: Box<dyn Engine + Send> = match shape {
        Shape::Host => Box::new(CpuEngine::from_owned(ground, completion, host_opts())),
        Shape::HostRace => {
            let ready = HostCompletion::Ready(completion);
            Box::new(Race::start(ground, ready, hosts(), deadline).map_err(engine_failure)?)
        }
        Shape::HostOptimise => Box::new(
            OptRace::start(ground, completion, hosts(), deadline, cores, share)
                .map_err(engine_failure)?,
        ),
        Shape::Gpu(backend) => gpu_alone(plan, &ground, &completion, make, backend)?,
        Shape::GpuOptimise(backend) => {
            let opts = plan
                .device
                .expect("a plan with the GPU engine has its options");
            if backend == Backend::Device {
                gpu::available().map_err(|why| gpu_cannot_run(exit::NO_DEVICE, &why))?;
            }
            let room = match backend {
                Backend::Device => CORE_SEARCHES,
                Backend::Emulated => 2,
            };
            let cores = cores.map(|c| CoreGuided {
                device: Some((
                    crate::engine::DeviceOptions {
                        searches: Some(room),
                        own_stream: true,
                        ..opts
                    },
                    backend,
                )),
                ..c
            });
            let driver = vec![(opts.as_host(), "usc-gpu")];
            let mut race =
                OptRace::start(ground.clone(), completion, driver, deadline, cores, false)
                    .map_err(engine_failure)?;
            let bb = crate::engine::DeviceOptions { room, ..opts };
            let build: GpuBuild = Box::new(move |ground, completion| {
                make(ground, completion, bb, backend)
                    .map(|e| Box::new(e) as Box<dyn Engine + Send>)
                    .map_err(|e| e.to_string())
            });
            let device = prepare::device_completer(Some(plan.device_sums()));
            race.add_gpu_later(ground, device, build, Vec::new())
                .map_err(engine_failure)?;
            Box::new(race)
        }
        Shape::WholeMachine => {
            // The host members start first and complete the program for themselves (native
            // sums); the device's translation is made on a thread beside them, and the GPU
            // member is built from it there.
            let complete = HostCompletion::Make(prepare::completer(Some(host_opts().sums)));
            let mut race =
                Race::start(ground.clone(), complete, hosts(), deadline).map_err(engine_failure)?;
            let device = prepare::device_completer(Some(plan.device_sums()));
            let (build, extra) = gpu_members(plan, make);
            race.add_gpu_later(ground, device, build, extra)
                .map_err(engine_failure)?;
            Box::new(race)
        }
        Shape::WholeMachineOptimise => {
            // The host threads start at once; the GPU joins their branch and bound when its
            // translation of the program is made (`portfolio::optimize`).
            let mut race =
                OptRace::start(ground.clone(), completion, hosts(), deadline, cores, share)
                    .map_err(engine_failure)?;
            let device = prepare::device_completer(Some(plan.device_sums()));
            let (build, extra) = gpu_members(plan, make);
            race.add_gpu_later(ground, device, build, extra)
                .map_err(engine_failure)?;
            Box::new(race)
        }
    };
    // A disjunctive program with a head cycle: each candidate checked for minimality by second
    // searches on the host, which teach the engine loop nogoods.
    Ok(match minimality {
        Some(m) => {
            let opts = plan.host.unwrap_or_else(|| {
                plan.device
                    .expect("a plan has the host or the device engine's options")
                    .as_host()
            });
            Box::new(Minimal::new(engine, m, num_atoms, opts))
        }
        None => engine,
    })
}

/// The searches of the core-guided member under `--engine=gpu` (two warps an SM of an H200),
/// left out of branch and bound's default count so that both stay resident.
const CORE_SEARCHES: u32 = 264;

/// The GPU engine's constructors (decision or optimisation).
type Make = fn(
    &GroundProgram,
    &Completion,
    crate::engine::DeviceOptions,
    Backend,
) -> Result<ManyEngine, crate::engine::EngineError>;

/// `--engine=gpu` (or `emu`): the GPU engine alone, or why it cannot run (no GPU: exit 69).
fn gpu_alone(
    plan: &plan::Plan,
    ground: &GroundProgram,
    completion: &Completion,
    make: Make,
    backend: Backend,
) -> anyhow::Result<Box<dyn Engine + Send>> {
    let opts = plan
        .device
        .expect("a plan with the GPU engine has its options");
    if backend == Backend::Emulated {
        let engine = make(ground, completion, opts, backend).map_err(engine_failure)?;
        return Ok(Box::new(engine));
    }
    gpu::available()
        .map_err(|why| (exit::NO_DEVICE, why))
        .and_then(|()| {
            make(ground, completion, opts, backend).map_err(|e| (engine_code(&e), e.to_string()))
        })
        .map(|e| Box::new(e) as Box<dyn Engine + Send>)
        .map_err(|(code, why)| gpu_cannot_run(code, &why).into())
}

/// Why `--engine=gpu` stops before it searches (no GPU: exit 69), with exit code `code`.
fn gpu_cannot_run(code: i32, why: &str) -> Failure {
    Failure::new(
        code,
        format!("the GPU engine (--engine=gpu) cannot run: {why}"),
    )
}

/// The backend of `auto`'s GPU members: the device, or (`--emulated-gpus`, tests) the search
/// kernel compiled for the host, so that the race with device members runs without a GPU.
fn members_backend(plan: &plan::Plan) -> Backend {
    match plan.emulated_gpus {
        Some(_) => Backend::Emulated,
        None => Backend::Device,
    }
}

/// `auto`'s members: GPU 0's, and those of GPU 1, 2, ... (`--gpus`), each the engine `make`
/// builds (off the caller's thread: `portfolio/gpu_join.rs`), a further GPU's with a seed of
/// its own (search i of GPU k seeds with (seed + k) · 1000003 + i, apart from every other
/// GPU's).
fn gpu_members(plan: &plan::Plan, make: Make) -> (GpuBuild, Vec<GpuBuild>) {
    let device = plan
        .device
        .expect("a plan for auto has the GPU engine's options");
    let backend = members_backend(plan);
    let member = move |opts| -> GpuBuild {
        Box::new(move |ground: &_, completion: &_| {
            make(ground, completion, opts, backend)
                .map(|e| Box::new(e) as Box<dyn Engine + Send>)
                .map_err(|e| e.to_string())
        })
    };
    let extra = (1..plan.gpus)
        .map(|k| {
            let mut opts = device;
            opts.gpu = k;
            opts.seed = opts.seed.wrapping_add(u64::from(k));
            member(opts)
        })
        .collect();
    (member(device), extra)
}
