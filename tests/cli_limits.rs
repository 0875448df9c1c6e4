//! clasp's `--solve-limit=N[,M]`, each point beside what clingo 5.8 does with the same input:
//! the result line, `Models : N+`, no `TIME LIMIT` line, the JSON document and the exit code
//! (clasp's: 0 for `UNKNOWN` without an interrupt, 10 once a model was printed), on the host
//! engine at one thread and with `-t 2`, the default race, the emulated GPU engine and the race
//! with it. Then clingo's `--text`, which is refused here, and `--time-limit` on a large
//! program while the engines are built.
//!
//! clingo 5.8 is PyPI's, run through `clingo.application.clingo_main`, which returns clingo's
//! exit code (`python3 -m clingo` always exits 0). The tests fail, not skip, without it.

mod common;

use common::bin::{yasmin, Run, BIN, ROOT};
use common::clingo::{clingo58_app, source};
use common::{answer_sets, big_tight_aspif};
use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// clingo 5.8 on `args` (no standard input), with its exit code.
fn clingo58(args: &[&str]) -> Run {
    clingo58_app(args, b"")
}

/// yasmin-rs on `args`, stopped after a minute (a hang fails).
fn yasmin_timed(args: &[&str]) -> Run {
    let out = Command::new("timeout")
        .arg("60")
        .arg(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run yasmin-rs");
    Run::from(out)
}

/// Pigeons into holes, one too many: unsatisfiable, about 20,000 conflicts for either solver
/// at n = 8 (and about 20 restarts of ours).
const PIGEONS: &str = "p(1..n+1). h(1..n).
1 { at(P,H) : h(H) } 1 :- p(P).
:- at(P,H), at(Q,H), P < Q.";

fn queens() -> String {
    format!("{ROOT}/examples/queens.lp")
}

/// The result line (`SATISFIABLE`, `UNKNOWN`, …) of text output.
fn result(text: &str) -> Option<&str> {
    text.lines().find(|l| {
        matches!(
            *l,
            "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN" | "OPTIMUM FOUND"
        )
    })
}

/// The value of the summary line `label :` (`Models`, `Conflicts`, `  Optimum`).
fn summary<'t>(text: &'t str, label: &str) -> Option<&'t str> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(": ")?;
        (k.trim_end() == label).then(|| v.split_whitespace().next().unwrap_or(""))
    })
}

/// The lines of the run that say how it stopped early, which clingo prints for a time limit
/// or a signal and not for the solve limit.
fn early_stop_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("TIME LIMIT") || l.starts_with("INTERRUPTED"))
        .count()
}

/// An early stop by the solve limit as clasp prints it: `UNKNOWN`, `Models : 0+`, exit 0, or
/// (a model printed) `SATISFIABLE`, `Models : N+`, exit 10; never a `TIME LIMIT` line.
fn stopped_as_clasp(r: &Run, what: &str) {
    let models = summary(&r.stdout, "Models").unwrap_or("");
    match result(&r.stdout) {
        Some("UNKNOWN") => assert_eq!((models, r.code), ("0+", Some(0)), "{what}"),
        Some("SATISFIABLE") => {
            assert!(models.ends_with('+') && models != "0+", "{what}");
            assert_eq!(r.code, Some(10), "{what}");
        }
        other => panic!("{other:?}: {what}"),
    }
    assert_eq!(early_stop_lines(&r.stdout), 0, "{what}");
}

/// The host engine on one thread: deterministic, so compared with clingo result for result.
const ONE_THREAD: &[&str] = &["--engine=cpu", "-t", "1"];

/// The engines a solve limit must hold on (`--emulated-gpus`: the race with an emulated GPU
/// member). The first searches alone, on one thread, and gives what clingo gives on the tests'
/// programs; in the others a member that reaches the limit stops the rest (as one of clasp's threads
/// does), so whether a model came first depends on the members' timing.
const ENGINES: [&[&str]; 5] = [
    ONE_THREAD,
    &["--engine=cpu", "-t", "2"],
    &[],
    &["--engine=emu"],
    &["--emulated-gpus=1"],
];

#[test]
fn a_limit_before_any_model_ends_unknown_with_exit_0_as_clingos() {
    let file = source("pigeons.lp", PIGEONS);
    for limit in [
        "--solve-limit=100",
        "--solve-limit=umax,2",
        "--solve-limit=0",
    ] {
        let theirs = clingo58(&[&file, "-c", "n=8", limit]);
        assert_eq!(result(&theirs.stdout), Some("UNKNOWN"), "{}", theirs.stdout);
        assert_eq!(theirs.code, Some(0), "clingo: {limit}");
        for engine in ENGINES {
            let mut args = vec![file.as_str(), "-c", "n=8", limit];
            args.extend(engine);
            let ours = yasmin_timed(&args);
            let what = format!("{limit} {engine:?}:\n{}\n{}", ours.stdout, ours.stderr);
            // No model exists: every engine stops as clingo does.
            stopped_as_clasp(&ours, &what);
            assert_eq!(result(&ours.stdout), result(&theirs.stdout), "{what}");
            assert_eq!(ours.code, theirs.code, "{what}");
            assert_eq!(
                summary(&ours.stdout, "Models"),
                summary(&theirs.stdout, "Models"),
                "{what}"
            );
            assert_eq!(early_stop_lines(&theirs.stdout), 0);
        }
    }
    // On one thread the host engine stops at the limit itself: 100 conflicts, 2 restarts.
    let stats = |limit: &str| {
        let r = yasmin(
            &[
                &file,
                "-c",
                "n=8",
                limit,
                "--stats",
                "--engine=cpu",
                "-t",
                "1",
            ],
            None,
        );
        let at = |k| summary(&r.stdout, k).map(str::to_owned);
        (at("Conflicts"), at("Restarts"))
    };
    assert_eq!(stats("--solve-limit=100").0.as_deref(), Some("100"));
    assert_eq!(stats("--solve-limit=umax,2").1.as_deref(), Some("2"));
    assert_eq!(stats("--solve-limit=0").0.as_deref(), Some("0"));
    // Without a limit (umax, as clasp's -1) the search proves what clingo proves.
    for limit in ["--solve-limit=umax", "--solve-limit=-1,umax"] {
        let theirs = clingo58(&[&file, "-c", "n=6", limit]);
        let ours = yasmin(&[&file, "-c", "n=6", limit, "--engine=cpu"], None);
        assert_eq!(result(&theirs.stdout), Some("UNSATISFIABLE"));
        assert_eq!(result(&ours.stdout), result(&theirs.stdout), "{limit}");
        assert_eq!(ours.code, theirs.code, "{limit}");
    }
}

#[test]
fn json_after_the_limit_is_clingos_unknown_without_time_limit() {
    let file = source("pigeons.lp", PIGEONS);
    let json = |r: &Run| -> serde_json::Value {
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    };
    let theirs = json(&clingo58(&[
        &file,
        "-c",
        "n=8",
        "--solve-limit=100",
        "--outf=2",
    ]));
    let ours = yasmin(
        &[
            &file,
            "-c",
            "n=8",
            "--solve-limit=100",
            "--outf=2",
            "--engine=cpu",
        ],
        None,
    );
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    let ours = json(&ours);
    for key in ["Result", "Models", "TIME LIMIT", "INTERRUPTED"] {
        assert_eq!(ours[key], theirs[key], "{key}: {ours}\n{theirs}");
    }
    assert_eq!(theirs["Result"], "UNKNOWN");
    assert_eq!(theirs["Models"]["More"], "yes");
    assert!(theirs.get("TIME LIMIT").is_none());
}

/// clingo's answer sets of `args` (every one: no limit).
fn all_answer_sets(args: &[&str]) -> BTreeMap<Vec<String>, usize> {
    let r = clingo58(&[args, &["-n", "0"]].concat());
    assert_eq!(r.code, Some(30), "{}", r.stdout);
    answer_sets(&r.stdout)
}

#[test]
fn models_before_the_limit_are_printed_and_the_result_is_satisfiable() {
    let file = queens();
    let all = all_answer_sets(&[&file, "-c", "n=8"]);
    assert_eq!(all.len(), 92);
    let theirs = clingo58(&[&file, "-c", "n=8", "-n", "0", "--solve-limit=100"]);
    assert_eq!(result(&theirs.stdout), Some("SATISFIABLE"));
    assert_eq!(theirs.code, Some(10));
    let models = |text: &str| summary(text, "Models").map(str::to_owned);
    let more = |text: &str| models(text).is_some_and(|m| m.ends_with('+'));
    assert!(more(&theirs.stdout), "{}", theirs.stdout);
    for engine in ENGINES {
        let mut args = vec![file.as_str(), "-c", "n=8", "-n", "0", "--solve-limit=100"];
        args.extend(engine);
        let ours = yasmin_timed(&args);
        let what = format!("{engine:?}:\n{}\n{}", ours.stdout, ours.stderr);
        stopped_as_clasp(&ours, &what);
        if engine == ONE_THREAD {
            assert_eq!(result(&ours.stdout), result(&theirs.stdout), "{what}");
            assert_eq!(ours.code, theirs.code, "{what}");
        }
        // Some of the answer sets, each once (the search is not clingo's, so not the same ones).
        let found = answer_sets(&ours.stdout);
        let count: usize = found.values().sum();
        assert!(count < all.len(), "{what}");
        assert_eq!(models(&ours.stdout), Some(format!("{count}+")), "{what}");
        for (set, n) in &found {
            assert!(
                all.contains_key(set) && *n == 1,
                "{set:?} ({n} times): {what}"
            );
        }
    }
    // A limit the search never reaches: every answer set, no `+`, exit 30, as clingo.
    let theirs = clingo58(&[&file, "-c", "n=8", "-n", "0", "--solve-limit=100000"]);
    let ours = yasmin(
        &[
            &file,
            "-c",
            "n=8",
            "-n",
            "0",
            "--solve-limit=100000",
            "--engine=cpu",
        ],
        None,
    );
    assert_eq!((ours.code, theirs.code), (Some(30), Some(30)));
    assert_eq!(answer_sets(&ours.stdout), all);
    assert_eq!(models(&ours.stdout), models(&theirs.stdout));
}

#[test]
fn optimisation_stopped_by_the_limit_is_satisfiable_with_the_optimum_unknown() {
    let minimize = source("min.lp", "#minimize { R*C,R : q(R,C) }.");
    let file = queens();
    let theirs = clingo58(&[&file, &minimize, "-c", "n=8", "--solve-limit=100"]);
    assert_eq!(
        result(&theirs.stdout),
        Some("SATISFIABLE"),
        "{}",
        theirs.stdout
    );
    assert_eq!(theirs.code, Some(10));
    assert_eq!(summary(&theirs.stdout, "  Optimum"), Some("unknown"));
    for engine in ENGINES {
        let mut args = vec![file.as_str(), &minimize, "-c", "n=8", "--solve-limit=100"];
        args.extend(engine);
        let ours = yasmin_timed(&args);
        let what = format!("{engine:?}:\n{}\n{}", ours.stdout, ours.stderr);
        stopped_as_clasp(&ours, &what);
        if engine == ONE_THREAD {
            assert_eq!(result(&ours.stdout), result(&theirs.stdout), "{what}");
            assert_eq!(ours.code, theirs.code, "{what}");
        }
        if result(&ours.stdout) == Some("SATISFIABLE") {
            assert_eq!(
                summary(&ours.stdout, "  Optimum"),
                Some("unknown"),
                "{what}"
            );
        }
    }
    // Core-guided optimisation builds engine after engine (about 22,000 conflicts in all):
    // their conflicts count against one limit, as clasp's one solver's.
    let usc = [
        &file,
        &minimize,
        "-c",
        "n=8",
        "--solve-limit=3000",
        "--opt-strategy=usc",
    ];
    let theirs = clingo58(&usc);
    let ours = yasmin(
        &[&usc[..], &["--engine=cpu", "-t", "1", "--stats"]].concat(),
        None,
    );
    assert_eq!(result(&theirs.stdout), Some("UNKNOWN"), "{}", theirs.stdout);
    assert_eq!(
        result(&ours.stdout),
        result(&theirs.stdout),
        "{}",
        ours.stdout
    );
    assert_eq!(ours.code, theirs.code);
    assert_eq!(
        summary(&ours.stdout, "Conflicts"),
        Some("3000"),
        "{}",
        ours.stdout
    );
    // Before any model: UNKNOWN, exit 0.
    let theirs = clingo58(&[&file, &minimize, "-c", "n=8", "--solve-limit=0"]);
    let ours = yasmin(
        &[
            &file,
            &minimize,
            "-c",
            "n=8",
            "--solve-limit=0",
            "--engine=cpu",
        ],
        None,
    );
    assert_eq!(
        (result(&ours.stdout), ours.code),
        (Some("UNKNOWN"), Some(0))
    );
    assert_eq!(
        (result(&theirs.stdout), theirs.code),
        (Some("UNKNOWN"), Some(0))
    );
}

#[test]
fn a_zero_limit_decides_nothing_but_what_propagation_proves() {
    // clasp checks the limit before its first decision: a fact is not reported, a conflict
    // of the top level is. The host engine propagates first, as clasp; the GPU engine runs no
    // slice under a limit of 0, so it proves no more than its completion does and is not asked
    // about the conflict.
    for (name, text, want, engines) in [
        (
            "fact.lp",
            "a.",
            "UNKNOWN",
            &["--engine=cpu", "--engine=emu"][..],
        ),
        (
            "choice.lp",
            "{a;b}.",
            "UNKNOWN",
            &["--engine=cpu", "--engine=emu"],
        ),
        (
            "conflict.lp",
            "{a}. :- a. :- not a.",
            "UNSATISFIABLE",
            &["--engine=cpu"],
        ),
    ] {
        let file = source(name, text);
        let theirs = clingo58(&[&file, "--solve-limit=0"]);
        assert_eq!(
            result(&theirs.stdout),
            Some(want),
            "{name}: {}",
            theirs.stdout
        );
        for &engine in engines {
            let ours = yasmin(&[&file, "--solve-limit=0", engine], None);
            assert_eq!(
                result(&ours.stdout),
                Some(want),
                "{name} {engine}: {}",
                ours.stdout
            );
            assert_eq!(ours.code, theirs.code, "{name} {engine}");
        }
    }
}

#[test]
fn solve_limit_values_are_clasps() {
    let file = source("fact.lp", "a.");
    for good in ["5", "umax", "umax,umax", "-1", "100,3", "4294967295", "+5"] {
        let theirs = clingo58(&[&file, &format!("--solve-limit={good}")]);
        let ours = yasmin(
            &[&file, &format!("--solve-limit={good}"), "--engine=cpu"],
            None,
        );
        assert_ne!(theirs.code, Some(1), "clingo refuses {good}");
        assert_eq!(ours.code, theirs.code, "{good}: {}", ours.stderr);
    }
    for bad in [
        "100,",
        ",5",
        "abc",
        "1.5",
        "1,2,3",
        "-2",
        "4294967296",
        "UMAX",
    ] {
        let theirs = clingo58(&[&file, &format!("--solve-limit={bad}")]);
        let ours = yasmin(&[&file, &format!("--solve-limit={bad}")], None);
        assert_eq!(theirs.code, Some(1), "clingo takes {bad}");
        assert_eq!(ours.code, Some(1), "{bad}");
        assert!(
            ours.stderr.starts_with("*** ERROR: (yasmin-rs): "),
            "{}",
            ours.stderr
        );
        assert!(ours.stderr.contains("--solve-limit"), "{}", ours.stderr);
    }
    // The value may follow as the next argument, as clingo takes it.
    let ours = yasmin(&[&file, "--solve-limit", "0", "--engine=cpu"], None);
    assert_eq!(
        (result(&ours.stdout), ours.code),
        (Some("UNKNOWN"), Some(0))
    );
}

#[test]
fn the_gpu_engine_says_how_it_honours_the_limit() {
    let file = source("pigeons.lp", PIGEONS);
    let warns = |r: &Run| {
        r.stderr
            .matches("*** Warn : (yasmin-rs): --solve-limit")
            .count()
    };
    let emu = yasmin(
        &[&file, "-c", "n=8", "--solve-limit=100", "--engine=emu"],
        None,
    );
    assert_eq!(warns(&emu), 1, "{}", emu.stderr);
    let quiet = yasmin(
        &[
            &file,
            "-c",
            "n=8",
            "--solve-limit=100",
            "--engine=emu",
            "-V0",
        ],
        None,
    );
    assert_eq!(warns(&quiet), 0, "{}", quiet.stderr);
    assert_eq!(quiet.stdout.trim(), "UNKNOWN");
    let cpu = yasmin(
        &[&file, "-c", "n=8", "--solve-limit=100", "--engine=cpu"],
        None,
    );
    assert_eq!(warns(&cpu), 0, "{}", cpu.stderr);
}

#[test]
fn text_output_is_refused_with_clingos_error_line() {
    // clingo prints the ground program as text (`p(1).`, `{q(1)}.`, `:~q(1).[1@1,1]`, …) and
    // exits 0; no printer of that text is here, so the option is a clean error.
    let file = source(
        "text.lp",
        "p(1..2). {q(X)} :- p(X). :- q(1), q(2). #show q/1.",
    );
    let theirs = clingo58(&["--text", &file]);
    assert_eq!(theirs.code, Some(0));
    assert!(theirs.stdout.contains("{q(1)}."), "{}", theirs.stdout);
    let ours = yasmin(&["--text", &file], None);
    assert_eq!(ours.code, Some(1));
    assert_eq!(ours.stdout, "");
    let first = ours.stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("*** ERROR: (yasmin-rs): --text") && first.contains("not supported"),
        "{}",
        ours.stderr
    );
}

/// `--time-limit` holds after the program is prepared too, while the engines are built and
/// their members join, on every engine: `auto`'s host engine on one thread (brave consequences,
/// with an emulated GPU so that `auto` stays `auto`), its race with an emulated GPU member
/// built beside the host threads, the (emulated) GPU engine alone, and the host engine. On a
/// program of 1.4M rules, read and analysed in about a second, the caller's thread used to
/// complete the program and build the engine for brave consequences after the preparation,
/// past the limit: 1.6 to 2.7 s late on the 2-core build machine (and the race's GPU member's
/// build up to 1.8 s). Generous margins, as the machine may be loaded: only an end more than
/// 1.5 s late fails, where a run now ends within a tenth of a second plus the process's exit.
#[test]
fn the_time_limit_holds_while_the_engines_are_built() {
    let big = big_tight_aspif(700_000);
    let file = source("big-tight.aspif", std::str::from_utf8(&big).unwrap());
    for engine in [
        &["--emulated-gpus=1", "--enum-mode=brave"][..],
        &["--emulated-gpus=1"],
        &["--engine=emu"],
        &["--engine=cpu", "-t", "1"],
    ] {
        let mut args = vec![file.as_str(), "--time-limit=2", "-q"];
        args.extend(engine);
        let start = Instant::now();
        let r = yasmin_timed(&args);
        let took = start.elapsed();
        let what = format!("{engine:?} after {took:?}:\n{}\n{}", r.stdout, r.stderr);
        // Stopped by the limit, or done first: either way on time.
        match result(&r.stdout) {
            Some("UNKNOWN") => {
                assert_eq!(r.code, Some(1), "{what}");
                assert_eq!(early_stop_lines(&r.stdout), 1, "{what}");
            }
            Some("SATISFIABLE") => assert!(matches!(r.code, Some(10 | 11 | 30)), "{what}"),
            _ => panic!("{what}"),
        }
        assert!(took < Duration::from_millis(3_500), "{what}");
    }
}
