//! Differential tests: yasmin-rs against clingo on random ground programs (tests/gen).
//!
//! Invariant: for every generated program, the multiset of answer sets yasmin-rs prints with
//! `-n 0` (each answer set a sorted list of shown atoms) equals clingo's, for both learning
//! schemes with the default `--decide=rules` and for one of them (alternating from program to
//! program) with `--decide=vars` (host engine only), on every other program with
//! `--decide=alternate` switching every 3 conflicts, and the exit code says the same (20 none, 30 all found). A mismatch prints the
//! program and both answers, saves the program as `tests/regress/diff-<kind>-<seed>.lp`, and
//! fails the test. Disjunctive programs that are not head-cycle-free (written so, or made so by
//! gringo from a recursive non-monotone sum) are compared like any other (the minimality check,
//! `wrap::minimality_check`); the count of those is reported.
//!
//! Knobs (environment): `YASMIN_DIFF_COUNT` programs per kind (default 300, the CI count),
//! `YASMIN_DIFF_SEED` base seed (default 1), `YASMIN_DIFF_ENGINE` (default `cpu`),
//! `YASMIN_DIFF_TIMEOUT` seconds per solver run (default 30), `YASMIN_DIFF_BIN` another binary;
//! `YASMIN_DIFF_EMU_COUNT`, `YASMIN_DIFF_EMU_SUMS_COUNT` and `YASMIN_DIFF_AUTO_COUNT` the
//! programs per kind of the device kernel's tests (`auto-emu`: `--engine=auto` with the kernel
//! on the host as its GPU member); `YASMIN_DIFF_THREADS` the host threads (`-t`) of every run
//! of the host engine and of `auto` (default: 1, 4 or 2 by program). gringo and clingo (5.4+) must be on
//! the PATH: without them the test fails rather than passing vacuously.
//!
//! Optimisation (`differential_optimize`, kind `optimize`): the optimal answer sets
//! `--opt-mode=optN -n 0` prints (those whose costs are the final `Optimization` line's, each
//! once), the optimum, the result and the exit code equal clingo's; the default `opt` mode
//! reaches the same optimum (exit 30, `OPTIMUM FOUND`); on every third program `enum` with the
//! optimum as the bound prints the same answer sets as clingo's `enum` with it; on every fourth
//! `optN` agrees with clingo on gringo's smodels output too.
//!
//! Reproduce one program: `cargo run --example gen_program -- --kind KIND --seed SEED`.

mod common;
mod gen;
#[path = "differential/optimize.rs"]
mod optimize;

use common::sorted_atoms;
use gen::{generate, program_seed, Kind};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HEURISTICS: [&str; 3] = ["activity", "occ", "jw"];
const LEARNING: [&str; 2] = ["res", "fwd"];
/// `--decide` modes; `vars` runs once per program, with the learning scheme `i % 2` picks.
const DECIDE: [&str; 2] = ["rules", "vars"];
/// Host-engine `--fwd-cut`s besides the default; the one run per program is
/// `FWD_CUT[(i / 2) % 2]`, so that each meets both `DECIDE`s.
const FWD_CUT: [&str; 2] = ["uip", "lits"];
/// Regression files saved (and mismatches printed in full) per kind and run.
const MAX_SAVED: usize = 5;
const MAX_SHOWN: usize = 10;

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// What one solver run printed, normalised.
#[derive(Debug, PartialEq, Eq)]
struct Answers {
    /// Sorted list of answer sets, each a sorted list of atoms.
    sets: Vec<Vec<String>>,
    /// The result word (`SATISFIABLE`, `UNSATISFIABLE`, `UNKNOWN`, ...), if one was printed.
    result: Option<String>,
    exit: Option<i32>,
}

/// Parse clingo-style text: `Answer: N` (clingo 5.8 appends ` (Time: ...)`) then one line of
/// atoms; the result word on a line of its own.
fn parse_text(out: &str, exit: Option<i32>) -> Answers {
    let mut sets = Vec::new();
    let mut result = None;
    let mut lines = out.lines();
    while let Some(l) = lines.next() {
        let l = l.trim_end();
        if l.starts_with("Answer:") {
            sets.push(sorted_atoms(lines.next()));
        } else if matches!(
            l,
            "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN" | "OPTIMUM FOUND" | "INTERRUPTED"
        ) {
            result = Some(l.to_owned());
        }
    }
    sets.sort();
    Answers { sets, result, exit }
}

/// Run a command with a wall-clock limit; returns (stdout, stderr, exit code or None if killed).
fn run_limited(cmd: &mut Command, limit: Duration) -> (String, String, Option<i32>) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let to = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let te = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait failed") {
            break Some(st);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let out = to.join().unwrap();
    let err = te.join().unwrap();
    (out, err, status.and_then(|s| s.code()))
}

fn need_tool(name: &str) {
    let ok = Command::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "the differential tests need `{name}` on the PATH (gringo/clingo 5.4 or later)"
    );
}

fn scratch_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("yasmin-diff-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("cannot create scratch dir");
    d
}

/// Ground `text` with gringo into aspif; panics with gringo's message if it refuses (a bug in
/// the generator, not in the solver).
fn ground(text: &str, dir: &Path, stem: &str) -> PathBuf {
    let lp = dir.join(format!("{stem}.lp"));
    let aspif = dir.join(format!("{stem}.aspif"));
    std::fs::write(&lp, text).unwrap();
    let (out, err, code) = run_limited(Command::new("gringo").arg(&lp), Duration::from_secs(60));
    assert_eq!(code, Some(0), "gringo failed on\n{text}\n{err}");
    std::fs::write(&aspif, out).unwrap();
    aspif
}

/// clasp's equivalence preprocessing makes it print one answer set of some head-cycle-free
/// disjunctive programs twice (tests/regress/diff-disjunctive-119130337838655.lp: 4 answers, 2
/// distinct; clasp issues #84, #91 report related preprocessing/disjunction bugs). Turned off,
/// clasp enumerates each answer set once; it changes no answer set of any program.
const EQ_OFF: &str = "--eq=0";

fn clingo(aspif: &Path) -> Answers {
    let (out, err, code) = run_limited(
        Command::new("clingo")
            .args(["--mode=clasp", "-n", "0", EQ_OFF])
            .arg(aspif),
        Duration::from_secs(60),
    );
    assert!(
        matches!(code, Some(20) | Some(30)),
        "clingo failed ({code:?}) on {}:\n{err}",
        aspif.display()
    );
    let mut a = parse_text(&out, code);
    // An answer set is a set: clasp printing one twice is a clasp bug, seen with `--eq=0` on an
    // aggregate program (seed 164895232467773: {a2 a4} four times) and with `--eq` on on
    // disjunctive ones (above). The reference keeps each once; yasmin-rs printing one twice
    // still differs from it.
    a.sets.dedup();
    a
}

struct Mismatch {
    what: String,
}

/// How one program went.
enum Agreement {
    /// Same answer sets as clingo (this many) for every learning scheme; whether candidates
    /// were checked for minimality (a program with a head cycle, `--stats`' `Minimality`).
    Agreed(usize, bool),
}

/// The analysis shifts a disjunctive head set of the program over an auxiliary atom
/// (`analyse::shift`): what the run's summary counts, so that the corpus is seen to exercise it.
fn shares_heads(aspif: &Path) -> bool {
    let bytes = std::fs::read(aspif).unwrap();
    lparse::read(&bytes, "gringo")
        .ok()
        .and_then(|p| yasmin_rs::analyse::analyse(&p).ok())
        .is_some_and(|g| g.aux_atoms > 0)
}

/// The `--stats` line of a run that checked candidates for minimality.
const MINIMALITY: &str = "\nMinimality   :";

/// Compare one program against clingo for every learning scheme (`--decide=rules`), and, when
/// the engine is the host's, for `LEARNING[vars_with % 2]` with `--decide=vars` and for
/// `--learning=fwd --fwd-cut=FWD_CUT[(vars_with / 2) % 2]` with `DECIDE[vars_with % 2]`, and on
/// odd `vars_with` for `LEARNING[(vars_with / 2) % 2]` with `--decide=alternate`; `Err`
/// describes a mismatch.
fn check_program(
    text: &str,
    aspif: &Path,
    expected: &Answers,
    heuristic: &str,
    vars_with: usize,
    engine: &str,
) -> Result<Agreement, Mismatch> {
    // `emu-native`: the device kernel with every sum native (its counter propagator,
    // `kernels/search/sums.cuh`); plain `emu` forces that on two programs in three.
    let all_native = engine == "emu-native" || (engine == "emu" && (vars_with / 3) % 3 != 0);
    // `auto-emu`: the whole-machine race, host threads beside the device kernel on the host
    // (`--emulated-gpus`: as one or two GPUs), sharing nogoods both ways.
    let emulated_gpu = engine == "auto-emu";
    let engine = match engine {
        "emu-native" => "emu",
        "auto-emu" => "auto",
        e => e,
    };
    let searches = (1 + vars_with % 8).to_string();
    // The host engine: one thread, or a portfolio of 4 or 2 threads sharing nogoods
    // (`YASMIN_DIFF_THREADS`: that count on every program).
    let forced = std::env::var("YASMIN_DIFF_THREADS").ok();
    let threads = forced.as_deref().unwrap_or(["1", "4", "2"][vars_with % 3]);
    // The split: none, the default (cubes from 4 searches on), or 2^5 cubes whatever the count.
    let cubes = ["--gpu-cubes=0", "", "--gpu-cubes=5"][(vars_with / 8) % 3];
    // Cubes split after one conflict on every other program (the default of 1,000 conflicts
    // is rarely reached by these small programs), so that split-off cubes are taken and refuted.
    let split = ["--gpu-split=1", ""][(vars_with / 24) % 2];
    let limit = env_u64("YASMIN_DIFF_TIMEOUT", 30);
    let want_exit = if expected.sets.is_empty() { 20 } else { 30 };
    let mut minimality = false;
    let mut runs: Vec<(&str, &str, Option<&str>)> =
        LEARNING.iter().map(|&l| (l, DECIDE[0], None)).collect();
    if engine == "cpu" {
        runs.push((LEARNING[vars_with % 2], DECIDE[1], None));
        // Decisions on variables and on rules in turns, switching every few conflicts
        // (`--decide-turn`), on every other program.
        if vars_with % 2 == 1 {
            runs.push((LEARNING[(vars_with / 2) % 2], "alternate", None));
        }
        runs.push((
            "fwd",
            DECIDE[vars_with % 2],
            Some(FWD_CUT[(vars_with / 2) % 2]),
        ));
    }
    for (learning, decide, cut) in runs {
        // The default is not passed, so that a binary from before `--decide` can be compared.
        let mut args = vec![
            "-n",
            "0",
            "--engine",
            engine,
            "--learning",
            learning,
            "--heuristic",
            heuristic,
            "--stats",
        ];
        if decide != DECIDE[0] {
            args.extend(["--decide", decide]);
        }
        if decide == "alternate" {
            args.push("--decide-turn=3");
        }
        if let Some(cut) = cut {
            args.extend(["--fwd-cut", cut]);
        }
        if engine == "cpu" {
            args.extend(["-t", threads]);
        }
        if emulated_gpu {
            let t = forced.as_deref().unwrap_or(["1", "2"][vars_with % 2]);
            args.extend(["-t", t, "--gpu-searches", &searches]);
            // One GPU, or two on every other program (a member on each).
            args.push(["--emulated-gpus=1", "--emulated-gpus=2"][(vars_with / 2) % 2]);
        }
        if engine == "emu" {
            // The device engine's kernel on the host: 1 to 8 searches, so every row of the
            // portfolio, the sharing of models between searches and the split are exercised.
            args.extend(["--gpu-searches", &searches]);
            args.extend([cubes, split].into_iter().filter(|a| !a.is_empty()));
            if all_native {
                args.push("--sums=all-native");
            }
        }
        let mut cmd = Command::new(solver_bin());
        cmd.arg(aspif)
            .args(&args)
            .args(["--time-limit", &limit.to_string()]);
        let (out, err, code) = run_limited(&mut cmd, Duration::from_secs(limit + 10));
        let got = parse_text(&out, code);
        minimality |= out.contains(MINIMALITY);
        if got.sets != expected.sets || code != Some(want_exit) {
            return Err(Mismatch {
                what: format!(
                    "yasmin-rs {} {}\n--- program ---\n{text}--- clingo ({} answer sets, exit {:?}) ---\n{}\n\
                     --- yasmin-rs ({} answer sets, exit {code:?}, result {:?}) ---\n{}\n--- yasmin-rs stderr ---\n{}",
                    aspif.display(),
                    args.join(" "),
                    expected.sets.len(),
                    expected.exit,
                    show(&expected.sets),
                    got.sets.len(),
                    got.result,
                    show(&got.sets),
                    err.trim_end(),
                ),
            });
        }
    }
    Ok(Agreement::Agreed(expected.sets.len(), minimality))
}

/// The binary under test; `YASMIN_DIFF_BIN` overrides it (to test this harness itself with a
/// wrapper around clingo, or to compare another build).
fn solver_bin() -> PathBuf {
    std::env::var_os("YASMIN_DIFF_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_yasmin-rs")))
}

fn show(sets: &[Vec<String>]) -> String {
    sets.iter()
        .map(|s| format!("{{{}}}", s.join(" ")))
        .collect::<Vec<_>>()
        .join("\n")
}

fn save_regression(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_kind(kind: Kind) {
    let engine = std::env::var("YASMIN_DIFF_ENGINE").unwrap_or_else(|_| "cpu".into());
    run_kind_on(kind, &engine, env_u64("YASMIN_DIFF_COUNT", 300));
}

fn run_kind_on(kind: Kind, engine: &str, count: u64) {
    need_tool("gringo");
    need_tool("clingo");
    let base = env_u64("YASMIN_DIFF_SEED", 1);
    // One folder per engine and kind: the tests run in parallel in one process, and two
    // engines' runs of a kind ground the same seeds (a shared folder let one delete the
    // other's files).
    let dir = scratch_dir().join(format!("{engine}-{}", kind.name()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = Instant::now();
    let (mut sets, mut unsat, mut minimality, mut failures) = (0usize, 0usize, 0usize, Vec::new());
    let mut shared = 0usize;
    for i in 0..count {
        let seed = program_seed(base, kind, i);
        let text = generate(kind, seed);
        let stem = format!("{}-{seed}", kind.name());
        let aspif = ground(&text, &dir, &stem);
        shared += shares_heads(&aspif) as usize;
        let heuristic = HEURISTICS[(i % 3) as usize];
        let checked = if kind == Kind::Optimize {
            optimize::check_optimize(&text, &aspif, i as usize, engine)
        } else {
            let expected = clingo(&aspif);
            check_program(&text, &aspif, &expected, heuristic, i as usize, engine)
        };
        match checked {
            Ok(Agreement::Agreed(n, checked)) => {
                sets += n;
                unsat += (n == 0) as usize;
                minimality += checked as usize;
            }
            Err(m) => {
                // One root cause often fails many programs: save the first few, list the rest
                // by seed (each reproducible with gen_program).
                let saved = if failures.len() < MAX_SAVED {
                    save_regression(&format!("diff-{stem}.lp"), &text)
                        .display()
                        .to_string()
                } else {
                    "not saved".into()
                };
                if failures.len() < MAX_SHOWN {
                    eprintln!(
                        "MISMATCH {} seed {seed} ({saved}):\n{}\n",
                        kind.name(),
                        m.what
                    );
                }
                failures.push(seed);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "differential {:<9} ({engine}): {count} programs (base seed {base}), {sets} answer sets, {unsat} unsat, \
         {minimality} with candidates checked for minimality, {shared} with disjunctive heads \
         shared over auxiliary atoms, {} mismatches, {:.1}s",
        kind.name(),
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {count} {} programs disagree with clingo; seeds {failures:?} \
         (saved under tests/regress/diff-{}-<seed>.lp)",
        failures.len(),
        kind.name(),
        kind.name()
    );
}

/// The device engine's search kernel, compiled for the host (`--engine=emu`), on every kind:
/// the GPU engine's code against clingo on machines without a GPU.
#[test]
fn differential_device_kernel_on_the_host() {
    let count = env_u64("YASMIN_DIFF_EMU_COUNT", 150);
    for kind in [
        Kind::Tight,
        Kind::NonTight,
        Kind::Choice,
        Kind::Aggregate,
        Kind::Disjunctive,
    ] {
        run_kind_on(kind, "emu", count);
    }
}

/// `--engine=auto` with the device kernel on the host as its GPU member (1 or 2 host threads
/// beside 1 to 8 searches, sharing nogoods both ways), on every kind.
#[test]
fn differential_auto_with_an_emulated_gpu() {
    let count = env_u64("YASMIN_DIFF_AUTO_COUNT", 60);
    for kind in Kind::ALL {
        run_kind_on(kind, "auto-emu", count);
    }
}

/// The device kernel's branch and bound (`kernels/search/objective.cuh`) on the host: the
/// optimisation checks on `--engine=emu`, both learning schemes, 1 or 8 searches.
#[test]
fn differential_device_kernel_optimize() {
    run_kind_on(
        Kind::Optimize,
        "emu",
        env_u64("YASMIN_DIFF_EMU_OPT_COUNT", 150),
    );
}

/// The device kernel's native sums (`--sums=all-native`: every sum body by the counter
/// propagator, none translated) on the kinds with sum bodies, both learning schemes.
#[test]
fn differential_device_kernel_native_sums() {
    let count = env_u64("YASMIN_DIFF_EMU_SUMS_COUNT", 150);
    for kind in [
        Kind::Aggregate,
        Kind::NonTight,
        Kind::Choice,
        Kind::Disjunctive,
    ] {
        run_kind_on(kind, "emu-native", count);
    }
}

#[test]
fn differential_tight() {
    run_kind(Kind::Tight);
}

#[test]
fn differential_nontight() {
    run_kind(Kind::NonTight);
}

#[test]
fn differential_choice() {
    run_kind(Kind::Choice);
}

#[test]
fn differential_aggregate() {
    run_kind(Kind::Aggregate);
}

#[test]
fn differential_disjunctive() {
    run_kind(Kind::Disjunctive);
}

#[test]
fn differential_optimize() {
    run_kind(Kind::Optimize);
}

/// Every program a differential run once saved must keep agreeing with clingo.
#[test]
fn differential_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return; // no regression inputs saved yet
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("diff-") && n.ends_with(".lp"))
        })
        .collect();
    if files.is_empty() {
        return;
    }
    need_tool("gringo");
    need_tool("clingo");
    files.sort();
    let scratch = scratch_dir().join("regress");
    std::fs::create_dir_all(&scratch).unwrap();
    let mut failed = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let aspif = ground(&text, &scratch, &stem);
        let expected = clingo(&aspif);
        let engines: [String; 2] = [
            std::env::var("YASMIN_DIFF_ENGINE").unwrap_or_else(|_| "cpu".into()),
            "emu".into(),
        ];
        for (k, heuristic) in HEURISTICS.iter().enumerate() {
            let engine = &engines[k % 2];
            if let Err(m) = check_program(&text, &aspif, &expected, heuristic, k, engine) {
                eprintln!("MISMATCH {}:\n{}\n", f.display(), m.what);
                failed.push(f.display().to_string());
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!(
        "differential regressions: {} files, {} mismatches",
        files.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "regression inputs disagree with clingo: {failed:?}"
    );
}
