//! Many ground programs through one engine kind in one process, each program's answer sets
//! enumerated (`-n 0`), checked by the independent checker and compared with `NNNN.expected`
//! beside the file (clingo's, written by `scripts/gen-corpus.sh`; format of
//! `scripts/lib/common.py::normalise_sets`).
//!
//! Why: on the GPU machine a process per program spends ~0.45 s starting CUDA, so the corpus
//! check of `scripts/bench device accept corpus` (thousands of programs × six configurations) would not fit
//! a device call; here the CUDA context is made once (the primary context, shared by every
//! engine) and each engine only loads the cached kernel image and uploads its program. The
//! engines, the checker and the shown-atom table are the library's own, as the CLI uses them.
//!
//! Invariant: a program counts as agreeing only when the enumeration ended (no limit hit), every
//! model passed the checker, and the normalised answer sets equal the expected text exactly
//! (duplicates included). A program the analysis rejects (exit 66 in the CLI) is counted as
//! "unsupported", never as agreeing. Exit status 1 when anything disagrees.
//!
//! Usage: gpu_batch [--engine gpu|emu|cpu] [--learning res|fwd]
//!                  [--heuristic occ|jw|activity] [--searches N] [--gpu-split N]
//!                  [--timeout SECONDS] FILE.aspif...
//!
//! `gpu` is the default, the GPU engine (`emu`: its kernel compiled for the host). Atoms are
//! eliminated (`analyse::alias`) and a disjunctive program with a head cycle gets the minimality
//! check around the engine, as in the CLI.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use yasmin_rs::check::Checker;
use yasmin_rs::engine::cpu::CpuEngine;
use yasmin_rs::engine::gpu::engine::{Backend, ManyEngine};
use yasmin_rs::engine::{DeviceOptions, Engine, Limits, Step};
use yasmin_rs::engine::{Heuristic, Learning, Sums};
use yasmin_rs::output::ShownTable;
use yasmin_rs::wrap::eliminated::Alias;
use yasmin_rs::wrap::minimality_check::Minimal;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Many(Backend),
    Cpu,
}

struct Args {
    kind: Kind,
    opts: DeviceOptions,
    timeout: Duration,
    files: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        kind: Kind::Many(Backend::Device),
        opts: DeviceOptions {
            learning: Learning::Res,
            heuristic: Heuristic::Activity,
            decide: yasmin_rs::engine::GpuDecide::Vsids,
            seed: 0,
            sums: Sums::Translate,
            searches: None,
            cubes: None,
            split: 1000,
            arena_words: yasmin_rs::engine::gpu::engine::ARENA_WORDS,
            gpu: 0,
            limit: yasmin_rs::engine::SolveLimit::NONE,
            room: 0,
            own_stream: false,
        },
        timeout: Duration::from_secs(60),
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = || it.next().ok_or(format!("{x} needs a value"));
        match x.as_str() {
            "--engine" => {
                a.kind = match val()?.as_str() {
                    "gpu" => Kind::Many(Backend::Device),
                    "emu" => Kind::Many(Backend::Emulated),
                    "cpu" => Kind::Cpu,
                    v => return Err(format!("no engine {v}")),
                }
            }
            "--learning" => {
                a.opts.learning = match val()?.as_str() {
                    "res" => Learning::Res,
                    "fwd" => Learning::Fwd,
                    v => return Err(format!("no learning scheme {v}")),
                }
            }
            "--heuristic" => {
                a.opts.heuristic = match val()?.as_str() {
                    "occ" => Heuristic::Occ,
                    "jw" => Heuristic::Jw,
                    "activity" => Heuristic::Activity,
                    v => return Err(format!("no heuristic {v}")),
                }
            }
            "--searches" => {
                let n: u32 = val()?.parse().map_err(|_| "bad --searches".to_string())?;
                a.opts.searches = Some(n);
            }
            "--gpu-split" => {
                a.opts.split = val()?.parse().map_err(|_| "bad --gpu-split".to_string())?;
            }
            "--timeout" => {
                let s: f64 = val()?.parse().map_err(|_| "bad --timeout".to_string())?;
                a.timeout = Duration::from_secs_f64(s);
            }
            f => a.files.push(f.to_string()),
        }
    }
    Ok(a)
}

enum Verdict {
    Agree,
    Unsupported(String),
    Mismatch(String),
}

fn run_one(a: &Args, path: &str) -> Verdict {
    let expected = match std::fs::read_to_string(Path::new(path).with_extension("expected")) {
        Ok(s) => s,
        Err(e) => return Verdict::Mismatch(format!("no expected answers: {e}")),
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Verdict::Mismatch(format!("cannot read: {e}")),
    };
    let program = match lparse::read(&bytes, path) {
        Ok(p) => p,
        Err(e) => return Verdict::Mismatch(format!("parse error: {e}")),
    };
    if !program.minimize.is_empty() {
        return Verdict::Unsupported("#minimize".into());
    }
    let mut ground = match yasmin_rs::analyse::analyse(&program) {
        Ok(g) => g,
        Err(e) => return Verdict::Unsupported(e.to_string()),
    };
    // Eliminated atoms (`analyse::alias`), as the CLI does with its default `--eq`.
    yasmin_rs::analyse::alias::eliminate(&mut ground);
    let completion = yasmin_rs::nogoods::complete(&ground);
    let engine: Result<Box<dyn Engine>, _> = match a.kind {
        Kind::Many(backend) => ManyEngine::new(&ground, &completion, a.opts, backend)
            .map(|e| Box::new(e) as Box<dyn Engine>),
        Kind::Cpu => Ok(Box::new(CpuEngine::new(
            &ground,
            &completion,
            a.opts.as_host(),
        ))),
    };
    let mut engine = match engine {
        Ok(e) => e,
        Err(e) => return Verdict::Mismatch(format!("device engine: {e}")),
    };
    if !ground.aliases.is_empty() {
        engine = Box::new(Alias::new(engine, ground.aliases.clone()));
    }
    // Disjunction with a head cycle: candidates checked for minimality, as the CLI does.
    if let Some(m) = ground.minimality.clone() {
        engine = Box::new(Minimal::new(engine, m, ground.num_atoms, a.opts.as_host()));
    }
    let checker = Checker::new(program.clone());
    let shown = ShownTable::new(&program);
    let limits = Limits {
        deadline: Some(Instant::now() + a.timeout),
        interrupt: Arc::new(AtomicBool::new(false)),
        progress: None,
    };
    let mut sets: Vec<Vec<String>> = Vec::new();
    loop {
        match engine.next_model(&limits) {
            Ok(Step::Model(m)) => {
                if let Err(v) = checker.check(&m.atoms) {
                    return Verdict::Mismatch(format!("model is not an answer set: {v}"));
                }
                let mut s: Vec<String> = shown
                    .shown(&m.atoms)
                    .iter()
                    .map(|x| x.to_string())
                    .collect();
                s.sort();
                sets.push(s);
            }
            Ok(Step::Exhausted) => break,
            Ok(Step::Stopped) => return Verdict::Mismatch("time limit".into()),
            Ok(Step::Limit) => return Verdict::Mismatch("solve limit".into()),
            Err(e) => return Verdict::Mismatch(format!("engine error: {e}")),
        }
    }
    sets.sort();
    let mut got = if sets.is_empty() {
        "UNSAT".to_string()
    } else {
        format!("SAT {}", sets.len())
    };
    for s in &sets {
        got.push('\n');
        got.push_str(&s.join(" "));
    }
    got.push('\n');
    if got == expected {
        Verdict::Agree
    } else {
        Verdict::Mismatch(format!("--- expected ---\n{expected}--- got ---\n{got}"))
    }
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gpu_batch: {e}");
            std::process::exit(2);
        }
    };
    // Hold GPU 0's primary context for the whole run: each engine retains it again, so it is
    // not torn down and re-made between programs (that alone costs ~0.25 s).
    let on_gpu = a.kind == Kind::Many(Backend::Device);
    let _ctx = if on_gpu {
        if let Err(e) = yasmin_rs::engine::gpu::available() {
            eprintln!("gpu_batch: {e}");
            std::process::exit(69);
        }
        match cudarc::driver::CudaContext::new(0) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("gpu_batch: cannot open GPU 0: {e:?}");
                std::process::exit(69);
            }
        }
    } else {
        None
    };
    let t0 = Instant::now();
    let (mut agree, mut unsupported, mut bad) = (0, 0, Vec::new());
    for (i, f) in a.files.iter().enumerate() {
        if i > 0 && i % 250 == 0 {
            println!("progress: {i} programs, {:.1}s", t0.elapsed().as_secs_f64());
        }
        match run_one(&a, f) {
            Verdict::Agree => agree += 1,
            Verdict::Unsupported(why) => {
                unsupported += 1;
                println!("UNSUPPORTED {f}: {why}");
            }
            Verdict::Mismatch(why) => {
                println!("MISMATCH {f}\n{why}");
                bad.push(f.clone());
            }
        }
    }
    println!(
        "gpu_batch: {} programs, {agree} agree, {unsupported} unsupported, {} mismatches, {:.1}s \
         (engine {} learning {:?} heuristic {:?})",
        a.files.len(),
        bad.len(),
        t0.elapsed().as_secs_f64(),
        match a.kind {
            Kind::Many(Backend::Device) => "gpu",
            Kind::Many(Backend::Emulated) => "emu",
            Kind::Cpu => "cpu",
        },
        a.opts.learning,
        a.opts.heuristic
    );
    std::process::exit(if bad.is_empty() { 0 } else { 1 });
}
