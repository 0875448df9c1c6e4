//! The optimisation checks of the differential test (`differential_optimize` and its emulated
//! kernel variant): optN's optimal answer sets and optimum, opt's proved optimum, and the same
//! through smodels input, each against clingo 5.8 on the same ground program.

use super::*;

/// What an optimisation run printed.
#[derive(Debug, PartialEq, Eq)]
struct Optimal {
    /// The answer sets whose costs are the optimum's, sorted, each once.
    sets: Vec<Vec<String>>,
    /// The summary's `Optimization :` costs.
    optimum: Option<String>,
    /// The costs of the last model printed.
    last: Option<String>,
    result: Option<String>,
    exit: Option<i32>,
}

/// Parse clingo-style text with `Optimization:` lines after the models.
fn parse_opt(out: &str, exit: Option<i32>) -> Optimal {
    let mut models: Vec<(Vec<String>, String)> = Vec::new();
    let mut optimum = None;
    let mut lines = out.lines().peekable();
    while let Some(l) = lines.next() {
        let l = l.trim_end();
        if l.starts_with("Answer:") {
            let atoms = sorted_atoms(lines.next());
            let costs = match lines.peek() {
                Some(c) if c.starts_with("Optimization:") => {
                    let c = c["Optimization:".len()..].trim().to_owned();
                    lines.next();
                    c
                }
                _ => String::new(),
            };
            models.push((atoms, costs));
        } else if let Some(c) = l.strip_prefix("Optimization :") {
            optimum = Some(c.trim().to_owned());
        }
    }
    let last = models.last().map(|(_, c)| c.clone());
    let mut sets: Vec<Vec<String>> = models
        .into_iter()
        .filter(|(_, c)| Some(c) == optimum.as_ref())
        .map(|(a, _)| a)
        .collect();
    sets.sort();
    sets.dedup();
    Optimal {
        sets,
        optimum,
        last,
        result: parse_text(out, exit).result,
        exit,
    }
}

fn clingo_with(aspif: &Path, args: &[&str]) -> (String, Option<i32>) {
    let (out, err, code) = run_limited(
        Command::new("clingo")
            .args(["--mode=clasp", EQ_OFF])
            .args(args)
            .arg(aspif),
        Duration::from_secs(60),
    );
    assert!(
        matches!(code, Some(20) | Some(30)),
        "clingo {args:?} failed ({code:?}) on {}:\n{err}",
        aspif.display()
    );
    (out, code)
}

/// yasmin-rs on `engine` (`cpu`, or `emu` with `searches` device searches and every sum native
/// when `native`).
#[derive(Clone, Copy)]
struct OptEngine<'a> {
    engine: &'a str,
    searches: &'a str,
    native: bool,
}

fn yasmin_with(aspif: &Path, on: OptEngine, args: &[&str]) -> (String, String, Option<i32>) {
    let limit = env_u64("YASMIN_DIFF_TIMEOUT", 30);
    let mut engine = vec!["--engine", on.engine];
    if on.engine == "emu" {
        engine.extend(["--gpu-searches", on.searches]);
        if on.native {
            engine.push("--sums=all-native");
        }
    }
    run_limited(
        Command::new(solver_bin())
            .arg(aspif)
            .args(&engine)
            .args(args)
            .args(["--time-limit", &limit.to_string()]),
        Duration::from_secs(limit + 10),
    )
}

/// The optimisation checks of the module doc for program `i` on `engine` (`cpu`, or `emu`: the
/// device kernel on the host, 1 or 8 searches, every sum native on every other program, in
/// place of the threads and `--decide=vars`); `Err` describes a mismatch.
pub(crate) fn check_optimize(
    text: &str,
    aspif: &Path,
    i: usize,
    engine: &str,
) -> Result<Agreement, Mismatch> {
    let on = OptEngine {
        engine,
        searches: ["1", "8"][(i / 3) % 2],
        native: (i / 2) % 2 == 1,
    };
    let emu = engine == "emu";
    let (out, code) = clingo_with(aspif, &["--opt-mode=optN", "-n", "0"]);
    let expected = parse_opt(&out, code);
    let mismatch = |args: &[&str],
                    want: &dyn std::fmt::Debug,
                    got: &dyn std::fmt::Debug,
                    err: &str| {
        Mismatch {
        what: format!(
            "yasmin-rs {} {}\n--- program ---\n{text}--- clingo ---\n{want:#?}\n--- yasmin-rs ---\n{got:#?}\n\
             --- yasmin-rs stderr ---\n{}",
            aspif.display(),
            args.join(" "),
            err.trim_end()
        ),
    }
    };
    // optN: the optimal answer sets and the optimum.
    let learning = LEARNING[i % 2];
    // Threads optimising together (2 or 4), or one.
    let forced = std::env::var("YASMIN_DIFF_THREADS").ok();
    let threads = forced.as_deref().unwrap_or(["2", "4", "1"][i % 3]);
    let mut args = vec!["--opt-mode=optN", "-n", "0", "--learning", learning];
    if !emu {
        args.extend(["-t", threads]);
    }
    if (i / 2) % 2 == 1 && !emu {
        args.extend(["--decide", "vars"]);
    }
    args.push("--stats");
    let (out, err, code) = yasmin_with(aspif, on, &args);
    let minimality = out.contains(MINIMALITY);
    let got = parse_opt(&out, code);
    if got != expected {
        return Err(mismatch(&args, &expected, &got, &err));
    }
    // The same optimum, proved, with `args`.
    let proves_the_optimum = |args: &[&str]| {
        let (out, err, code) = yasmin_with(aspif, on, args);
        let got = parse_opt(&out, code);
        let same = got.optimum == expected.optimum
            && got.last == expected.last
            && got.result == expected.result
            && code == expected.exit;
        match same {
            true => Ok(()),
            false => Err(mismatch(args, &expected, &got, &err)),
        }
    };
    // opt (the default; with threads, the last optimises by cores).
    // (`-n 0`: a program whose weights are all 0 has no objective left after gringo.)
    let mut args = vec!["-n", "0", "--learning", LEARNING[(i + 1) % 2]];
    if !emu {
        args.extend(["-t", threads]);
    }
    proves_the_optimum(&args)?;
    // Core-guided on one thread (`--opt-strategy=usc`; a program with a head cycle falls back
    // to branch and bound): the optimum, and with optN the optimal answer sets.
    if !emu {
        proves_the_optimum(&["-n", "0", "--opt-strategy=usc", "--learning", learning])?;
        let args = ["--opt-mode=optN", "-n", "0", "--opt-strategy=usc"];
        let (out, err, code) = yasmin_with(aspif, on, &args);
        let got = parse_opt(&out, code);
        if got != expected {
            return Err(mismatch(&args, &expected, &got, &err));
        }
    }
    // smodels input (every fourth program): minimize statements in order, priority = index.
    if i % 4 == 1 {
        let sm = aspif.with_extension("sm");
        let (out, err, code) = run_limited(
            Command::new("gringo")
                .arg("--output=smodels")
                .arg(aspif.with_extension("lp")),
            Duration::from_secs(60),
        );
        assert_eq!(
            code,
            Some(0),
            "gringo --output=smodels failed on\n{text}\n{err}"
        );
        std::fs::write(&sm, out).unwrap();
        let args = ["--opt-mode=optN", "-n", "0"];
        let (out, code) = clingo_with(&sm, &args);
        let want = parse_opt(&out, code);
        let (out, err, code) = yasmin_with(&sm, on, &args);
        let got = parse_opt(&out, code);
        if got != want {
            return Err(mismatch(&args, &want, &got, &err));
        }
    }
    // enum within the optimum: every model at most as costly, with its costs.
    if let (0, Some(opt)) = (i % 3, &expected.optimum) {
        let mode = format!("--opt-mode=enum,{}", opt.replace(' ', ","));
        let args = [mode.as_str(), "-n", "0"];
        let (out, code) = clingo_with(aspif, &args);
        let want = parse_text(&out, code);
        let (out, err, code) = yasmin_with(aspif, on, &args);
        let mut got = parse_text(&out, code);
        got.sets.dedup();
        let mut want = want;
        want.sets.dedup();
        if got != want {
            return Err(mismatch(&args, &want, &got, &err));
        }
    }
    Ok(Agreement::Agreed(expected.sets.len(), minimality))
}
