//! The engine a run searches with: the kind `--engine` names, on the threads and GPUs the
//! machine and the program allow (`threads.rs`), racing (`portfolio`) where several
//! members search, with the minimality check around it for disjunction with a head cycle.

use super::{engine_code, engine_failure, exit, plan, prepare, threads, Failure};
use crate::config::{Config, EngineKind, OptKind};
use crate::engine::Engine;
use crate::portfolio::optimize::CoreGuided;
use crate::wrap::minimality_check::Minimal;
use std::time::Instant;

/// The engine `kind` names. `auto` takes the GPU when one is usable and falls back to the
/// host engine, saying why, when it is not; `gpu` without a usable GPU is an error. Without an
/// objective, `auto` races the GPU engine against `threads` host threads (`portfolio`),
/// and `cpu` with more than one thread races the host threads alone; the race's members stop
/// at the run's `deadline`.
pub(super) fn make_engine(
    plan: &plan::Plan,
    config: &Config,
    ground: crate::ground::GroundProgram,
    completion: Option<crate::nogoods::Completion>,
    optimising: bool,
    deadline: Option<Instant>,
    cores: Option<CoreGuided>,
) -> anyhow::Result<Box<dyn Engine>> {
    use crate::engine::gpu::engine::Backend;
    use crate::engine::{cpu::CpuEngine, gpu};
    use crate::portfolio::optimize::OptRace;
    use crate::portfolio::race::{ExtraGpuBuild, GpuBuild, HostCompletion, Race};
    let host_opts = || {
        plan.host
            .expect("a plan with the host engine has its options")
    };
    // `auto` left the completion to this point: the host engine's, unless the race makes its
    // own and the device's.
    // One engine that takes nogoods from the run (`--project`, consequences) or from the
    // minimality check of a disjunctive program with a head cycle (`wrap::minimality_check`): not the
    // threads' race, which takes none.
    let single = threads::takes_nogoods(config) || ground.minimality.is_some();
    let (ground_minimality, num_atoms) = (ground.minimality.clone(), ground.num_atoms);
    let racing = plan.kind == EngineKind::Auto && !optimising && !single;
    let completion = match completion {
        Some(c) => c,
        None if racing => crate::nogoods::Completion::default(),
        None => prepare::completer(Some(host_opts().sums))(&ground),
    };
    let threads = if single {
        1
    } else if racing {
        threads::count_for_program(config, plan.kind, plan.gpus, &ground)
    } else {
        threads::count(config, plan.kind, plan.gpus, optimising, &completion)
    };
    let cpu = |ground: &_, completion: &_| {
        Box::new(CpuEngine::new(ground, completion, host_opts())) as Box<dyn Engine>
    };
    let hosts = || plan::host_portfolio(config, threads);
    // `auto` reaches here only with a usable GPU (`run` checked): `Auto` falls back when the
    // engine itself cannot start (device memory, a kernel that does not compile).
    // The many-searches engine, optimising when the program has an objective (not ignored).
    let many = |backend| {
        let opts = plan
            .device
            .expect("a plan with the GPU engine has its options");
        let make = match optimising {
            true => gpu::engine::ManyEngine::optimising,
            false => gpu::engine::ManyEngine::new,
        };
        make(&ground, &completion, opts, backend).map(|e| Box::new(e) as Box<dyn Engine>)
    };
    // `--engine=gpu`: the device engine, or why it cannot run (no GPU: exit 69).
    let on_gpu = || -> anyhow::Result<Box<dyn Engine>> {
        gpu::available()
            .map_err(|why| (exit::NO_DEVICE, why))
            .and_then(|()| many(Backend::Device).map_err(|e| (engine_code(&e), e.to_string())))
            .map_err(|(code, why)| {
                Failure::new(
                    code,
                    format!("the GPU engine (--engine=gpu) cannot run: {why}"),
                )
                .into()
            })
    };
    // `auto` optimises (opt, optN) on the host threads with the GPU engine as one more member;
    // enum on the host alone.
    const AUTO_OPT: &str =
        "the GPU engine takes part in optimization (#minimize) with --opt-mode=opt or optN only";
    let gpu_optimises = plan.kind == EngineKind::Auto
        && optimising
        && !single
        && plan.device.is_some()
        && matches!(config.opt_mode.kind, OptKind::Opt | OptKind::OptN);
    // `--emulated-gpus` (tests): `auto`'s GPU members are the search kernel compiled for the
    // host (as `--engine=emu`), so that the race with device members runs without a GPU.
    let backend = if plan.emulated_gpus.is_some() {
        Backend::Emulated
    } else {
        Backend::Device
    };
    // The GPU engine's constructors (decision or optimisation).
    type Make = fn(
        &crate::ground::GroundProgram,
        &crate::nogoods::Completion,
        crate::engine::DeviceOptions,
        Backend,
    ) -> Result<gpu::engine::ManyEngine, crate::engine::EngineError>;
    // `auto`'s member on GPU 0: the engine `make` builds, on the caller's thread.
    let first_gpu = |make: Make| -> GpuBuild {
        let device = plan.device;
        Box::new(move |ground, completion| {
            let opts = device.expect("a plan for auto has the GPU engine's options");
            make(ground, completion, opts, backend)
                .map(|e| Box::new(e) as Box<dyn Engine>)
                .map_err(|e| e.to_string())
        })
    };
    // `auto`'s members on GPU 1, 2, ... (`--gpus`): the engine `make` builds, each with a
    // seed of its own (search i of GPU k seeds with (seed + k) · 1000003 + i, apart from every
    // other GPU's).
    let extra_gpus = |make: Make| -> Vec<ExtraGpuBuild> {
        let Some(device) = plan.device else {
            return Vec::new();
        };
        (1..plan.gpus)
            .map(|k| {
                let mut opts = device;
                opts.gpu = k;
                opts.seed = opts.seed.wrapping_add(u64::from(k));
                Box::new(move |ground: &_, completion: &_| {
                    make(ground, completion, opts, backend)
                        .map(|e| Box::new(e) as Box<dyn Engine + Send>)
                        .map_err(|e| e.to_string())
                }) as ExtraGpuBuild
            })
            .collect()
    };
    // The optimisation race's threads share learned nogoods where one optimum is wanted.
    let share = config.one_optimum();
    let opt_race = |ground, completion| -> anyhow::Result<Box<dyn Engine>> {
        let race = OptRace::start(ground, completion, hosts(), deadline, cores.clone(), share);
        Ok(Box::new(race.map_err(engine_failure)?))
    };
    let engine: anyhow::Result<Box<dyn Engine>> = match plan.kind {
        EngineKind::Auto if gpu_optimises => {
            // The host threads start at once; the GPU joins their branch and bound when its
            // translation of the program is made (`portfolio::optimize`).
            let mut race = OptRace::start(
                ground.clone(),
                completion,
                hosts(),
                deadline,
                cores.clone(),
                share,
            )
            .map_err(engine_failure)?;
            let build = first_gpu(gpu::engine::ManyEngine::optimising);
            let complete = prepare::device_completer(Some(plan.device_sums()));
            let extra = extra_gpus(gpu::engine::ManyEngine::optimising);
            race.add_gpu_later(ground, complete, build, extra)
                .map_err(engine_failure)?;
            Ok(Box::new(race))
        }
        EngineKind::Cpu | EngineKind::Auto if optimising && threads > 1 => {
            if plan.kind == EngineKind::Auto && config.notes() {
                eprintln!("*** Info : (yasmin-rs): using the host engine: {AUTO_OPT}");
            }
            opt_race(ground, completion)
        }
        EngineKind::Cpu if threads > 1 && !optimising => {
            let ready = HostCompletion::Ready(completion);
            Ok(Box::new(
                Race::start(ground, ready, hosts(), deadline).map_err(engine_failure)?,
            ))
        }
        EngineKind::Cpu => Ok(cpu(&ground, &completion)),
        EngineKind::Auto if optimising => {
            if config.notes() {
                eprintln!("*** Info : (yasmin-rs): using the host engine: {AUTO_OPT}");
            }
            Ok(cpu(&ground, &completion))
        }
        EngineKind::Emu => many(Backend::Emulated).map_err(engine_failure),
        EngineKind::Gpu => on_gpu(),
        EngineKind::Auto if single => {
            if config.notes() {
                eprintln!(
                    "*** Info : (yasmin-rs): using the host engine on one thread: it takes \
                     nogoods as it goes (--project, consequences, or the minimality check of a \
                     disjunctive program with a head cycle)"
                );
            }
            Ok(cpu(&ground, &completion))
        }
        EngineKind::Auto => {
            // The host members start first and complete the program for themselves (native
            // sums); the device's translation is made on a thread beside them, and the GPU
            // member is built from it when the race first runs.
            let complete = HostCompletion::Make(prepare::completer(Some(host_opts().sums)));
            let mut race =
                Race::start(ground.clone(), complete, hosts(), deadline).map_err(engine_failure)?;
            let build = first_gpu(gpu::engine::ManyEngine::new);
            let extra = extra_gpus(gpu::engine::ManyEngine::new);
            let complete = prepare::device_completer(Some(plan.device_sums()));
            race.add_gpu_later(ground, complete, build, extra)
                .map_err(engine_failure)?;
            Ok(Box::new(race))
        }
    };
    let engine = engine?;
    // A disjunctive program with a head cycle: each candidate checked for minimality by second
    // searches on the host, which teach the engine loop nogoods.
    Ok(match ground_minimality {
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
