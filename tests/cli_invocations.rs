//! clingo command lines from the Potassco guide, `clingo --help` and typical scripts, each run
//! side by side with clingo 5.8 and compared on the answer sets printed, the result line, the
//! exit code and (`--outf=2`) the JSON document's key shape.
//!
//! clingo 5.8 is PyPI's, run through `clingo.application.clingo_main`, which returns clingo's
//! exit code (`python3 -m clingo` always exits 0). The tests fail, not skip, without it.
//! yasmin-rs gets the very same arguments (a drop-in): its default engine, which falls back to
//! the host engine without a GPU.
//!
//! How a row is compared (`compare`):
//! - the result line (`SATISFIABLE`, `UNSATISFIABLE`, `OPTIMUM FOUND`, `UNKNOWN`) and the exit
//!   code, always;
//! - the models: with `--enum-mode=brave|cautious` the last one printed (the consequences);
//!   with an objective (not `--opt-mode=enum|ignore`) the last `Optimization:` line, and with
//!   `optN` the distinct models of the optimal cost; a search run to its end (exit 20 or 30)
//!   each set of shown atoms, printed at least once and never more often than clingo prints it
//!   (clingo prints some twice: README, "clingo's known faults"); a search stopped by `-n N`
//!   the number of models;
//! - `--outf=1`: the result words (`ANSWER`, `OPTIMUM`, `INCONSISTENT`, `UNKNOWN`);
//! - `--outf=2`: `Result`, and the keys at the top level, of `Call` entries and of their
//!   `Witnesses` entries (with `--stats` the names in `Stats` too); values may differ.
//!
//! Timing lines and stderr (`*** Info`, `*** Warn`) are not compared. Rows whose difference the
//! README documents carry its reason (`Expect::Differs`): they run, and a difference is
//! accepted. A difference the README does not document fails the test.

mod common;

use common::bin::{Run, BIN};
use common::clingo::clingo58_app;
use common::sorted_atoms;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::{Command, Stdio};

/// `cmd` with `stdin` (or nothing) on its standard input.
fn run(cmd: &mut Command, stdin: Option<&str>) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clingo 5.8 must be installed (pip install clingo)");
    let mut pipe = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        let _ = pipe.write_all(text.as_bytes());
    }
    drop(pipe);
    Run::from(child.wait_with_output().unwrap())
}

fn clingo58(args: &[String], stdin: Option<&str>) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    clingo58_app(&args, stdin.unwrap_or("").as_bytes())
}

/// yasmin-rs, stopped after a minute (a hang fails).
fn yasmin(args: &[String], stdin: Option<&str>) -> Run {
    run(Command::new("timeout").arg("60").arg(BIN).args(args), stdin)
}

// The programs (`@name` in a row's arguments is the file of that name).
const CHOICE: &str = "{a;b}. :- a, b.";
const MANY: &str = "{p(1..5)}.";
const UNSAT: &str = "a. :- a.";
const EMPTY: &str = "";
const CONSTRAINTS: &str = "{p(1..4)}. :- p(1), p(2). :- not p(3). :- p(4), not p(1).";
/// Two priorities: `a` costs at 2, `b` and `c` at 1; the one optimum is `{b}`.
const PRIORITIES: &str =
    "{a;b;c}. :- not a, not b. #minimize{1@2,a:a}. #minimize{2@1,b:b; 1@1,c:c; 2@1,c:c}.";
/// Four optimal models of cost 1: `{a}`, `{b}`, `{a,c}`, `{b,c}`.
const OPTN: &str = "{a;b;c}. :- not a, not b. #minimize{1,a:a; 1,b:b}.";
const MAXIMIZE: &str = "{x(1..4)}. :- x(1), x(2). :- x(3), x(4). #maximize{W,X : x(X), W = X*X}.";
const SHOW: &str = "p(1..3). {q(X) : p(X)}. :- q(1), q(2). #show q/1.";
const SHOW_TERM: &str = "{a;b}. #show. #show x : a. #show y(1) : b.";
/// Eight answer sets, four projections on `a`, `b`.
const PROJECT: &str = "{a;b;c}. #project a/0. #project b/0. #show a/0. #show b/0.";
const DISJ: &str = "a | b. c | d :- a.";
const CONST: &str = "#const n=2. p(1..n). {q(X) : p(X)} = 1.";
const HEUR: &str = "{a;b;c}. :- a, b. #heuristic a. [10,true] #heuristic c. [5,false]";
const EXTRA: &str = "{c}. :- c, a.";
const NONTIGHT: &str = "a :- b. b :- a. {a;c}. d :- not c.";
/// Pigeonhole, 13 pigeons in 12 holes: far too long for a second.
const HARD: &str = "p(1..13). h(1..12). 1 {in(P,H) : h(H)} 1 :- p(P). :- in(P,H), in(Q,H), P < Q.";
const QUEENS: &str = "#const n=5. q(1..n,1..n). {queen(X,Y) : q(X,Y)}. :- not n { queen(X,Y) } n.
:- queen(X,Y), queen(X,Z), Y < Z. :- queen(X,Y), queen(Z,Y), X < Z.
:- queen(X,Y), queen(Z,W), X < Z, X - Y = Z - W. :- queen(X,Y), queen(Z,W), X < Z, X + Y = Z + W.
#show queen/2.";
const WARN: &str = "p :- q. {r}.";

const PROGRAMS: &[(&str, &str)] = &[
    ("choice", CHOICE),
    ("many", MANY),
    ("unsat", UNSAT),
    ("empty", EMPTY),
    ("constraints", CONSTRAINTS),
    ("priorities", PRIORITIES),
    ("optn", OPTN),
    ("maximize", MAXIMIZE),
    ("show", SHOW),
    ("showterm", SHOW_TERM),
    ("project", PROJECT),
    ("disj", DISJ),
    ("const", CONST),
    ("heur", HEUR),
    ("extra", EXTRA),
    ("nontight", NONTIGHT),
    ("hard", HARD),
    ("queens", QUEENS),
    ("warn", WARN),
];

#[derive(Clone, Copy)]
enum Expect {
    Same,
    /// The README documents a difference (the reason, quoted from it).
    Differs(&'static str),
}
use Expect::{Differs, Same};

/// One command line: the arguments (`@name`: a program's file), standard input, what to expect.
struct Row(&'static str, Option<&'static str>, Expect);

const fn row(args: &'static str) -> Row {
    Row(args, None, Same)
}

/// The table (`|` separates arguments, so that `'-n 0'` can be one argument).
const ROWS: &[Row] = &[
    // Model counts.
    row("@choice"),
    row("@choice|0"),
    row("@choice|1"),
    row("@many|3"),
    row("@many|0"),
    row("@many|-n|3"),
    row("@many|-n|0"),
    row("@many|-n 0"),
    row("@many|-n 3"),
    row("@many|-n3"),
    row("@many|--models=2"),
    row("@many|--models=0"),
    row("0|@many"),
    row("@many|-n|40"),
    row("@unsat"),
    row("@unsat|0"),
    row("@empty|0"),
    row("@constraints|0"),
    row("@queens|0"),
    row("@queens|-n|5"),
    // Optimisation.
    row("@priorities"),
    row("@priorities|0"),
    row("@priorities|--opt-mode=opt"),
    row("@priorities|--opt-mode=opt|0"),
    row("@optn|--opt-mode=optN|0"),
    row("@optn|--opt-mode=optN"),
    row("@priorities|--opt-mode=optN|0"),
    row("@optn|--opt-mode=enum|0"),
    row("@optn|--opt-mode=ignore|0"),
    row("@maximize|0"),
    row("@maximize|--opt-mode=optN|0"),
    row("@priorities|--opt-strategy=bb|0"),
    row("@priorities|--opt-strategy=usc|0"),
    row("@optn|--opt-strategy=usc|--opt-mode=optN|0"),
    row("@priorities|--opt-strategy=bb,lin"),
    row("@priorities|--opt-strategy=usc,oll"),
    // Enumeration modes.
    row("@choice|--enum-mode=brave"),
    row("@choice|--enum-mode=cautious"),
    row("@show|-e|brave"),
    row("@show|-e|cautious|0"),
    row("@many|--enum-mode=auto|0"),
    row("@many|--enum-mode=record|0"),
    row("@many|--enum-mode=bt|0"),
    row("@disj|--enum-mode=brave"),
    row("@disj|--enum-mode=cautious"),
    // Projection.
    row("@project|0"),
    row("@project|--project|0"),
    row("@project|--project=auto|0"),
    row("@project|--project|-n|2"),
    // Show, disjunction, non-tight.
    row("@show|0"),
    row("@showterm|0"),
    row("@disj|0"),
    row("@nontight|0"),
    // Output formats and verbosity.
    row("@choice|--outf=0|0"),
    row("@choice|--outf=1|0"),
    row("@priorities|--outf=1|0"),
    row("@unsat|--outf=1"),
    row("@choice|--outf=2|0"),
    row("@priorities|--outf=2|0"),
    row("@unsat|--outf=2"),
    row("@choice|--outf=3|0"),
    row("@choice|-q|0"),
    row("@choice|-q1|0"),
    row("@priorities|-q1|0"),
    row("@priorities|-q2,1|0"),
    row("@priorities|-q1,2|0"),
    row("@choice|-V0|0"),
    row("@priorities|-V0|0"),
    row("@choice|--verbose=0|0"),
    row("@choice|-V2|0"),
    row("@choice|--verbose=1|0"),
    // Statistics (text; JSON: keys only).
    row("@choice|--stats|0"),
    row("@choice|--stats=2|0"),
    Row(
        "@choice|--stats|--outf=2|0",
        None,
        Differs("README, Output: `Stats` in clingo's objects ... with the counters kept here (clingo's others, such as `Jumps`, are absent), and `Yasmin` for the rest"),
    ),
    // Limits and threads.
    row("@choice|--time-limit=10|0"),
    Row(
        "@hard|--time-limit=1",
        None,
        Differs("README, clingo's known faults: clingo 5.8's Python application exits 65 after a time limit (its main raises `solving stopped by signal`); clingo 5.4's binary exits 1, as yasmin-rs"),
    ),
    Row(
        "@hard|--time-limit=1|--outf=2",
        None,
        Differs("README, clingo's known faults: clingo 5.8's Python application exits 65 after a time limit"),
    ),
    // clasp's options that change only the search: accepted with a `*** Warn` line.
    row("@many|--restarts=L,100|0"),
    row("@many|--restarts|x,100,1.5|0"),
    row("@many|--backprop|0"),
    row("@many|-t|2|0"),
    row("@many|-t 2|0"),
    row("@priorities|-t|2|0"),
    row("@many|--parallel-mode=2|0"),
    // Search configuration.
    row("@many|--configuration=auto|0"),
    row("@many|--configuration=frumpy|0"),
    row("@many|--configuration=jumpy|0"),
    row("@many|--configuration=tweety|0"),
    row("@many|--configuration=handy|0"),
    row("@many|--configuration=crafty|0"),
    row("@many|--configuration=trendy|0"),
    row("@heur|--heuristic=Domain|0"),
    row("@heur|--heuristic=Berkmin|0"),
    row("@heur|--heuristic=Vsids|0"),
    row("@heur|--heuristic=Vmtf|0"),
    row("@heur|--heuristic=Domain|-n|1"),
    row("@many|--seed=7|--rand-freq=0.5|0"),
    row("@priorities|--sign-def=pos|0"),
    // Constants, input, warnings.
    row("@const|0"),
    row("@const|-c|n=3|0"),
    row("@const|--const|n=4|0"),
    row("@const|--const=n=1|0"),
    Row("-|0", Some(CHOICE), Same),
    Row("0", Some(MANY), Same),
    Row("@choice|-|0", Some(EXTRA), Same),
    row("@choice|@extra|0"),
    row("@warn|--warn=none|0"),
    row("@warn|-W|none|0"),
    row("@warn|--warn=no-atom-undefined|0"),
    // Preprocessing.
    row("@many|--eq=0|0"),
    row("@disj|--eq=0|0"),
    row("@many|--sat-prepro=2|0"),
];

struct Parsed {
    result: Option<String>,
    models: Vec<(Vec<String>, Option<String>)>,
}

const RESULTS: [&str; 4] = ["SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN"];

fn parse(text: &str, v0: bool) -> Parsed {
    let mut models: Vec<(Vec<String>, Option<String>)> = Vec::new();
    let mut result = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if RESULTS.contains(&line) {
            result = Some(line.to_string());
            if v0 {
                break;
            }
        } else if let Some(cost) = line.strip_prefix("Optimization: ") {
            if let Some(m) = models.last_mut() {
                m.1 = Some(cost.to_string());
            }
        } else if line.starts_with("Answer:") {
            models.push((sorted_atoms(lines.next()), None));
        } else if v0 && result.is_none() && !line.starts_with("Consequences:") {
            models.push((sorted_atoms(Some(line)), None));
        }
    }
    Parsed { result, models }
}

/// Each distinct set at least once in `ours`, never more often than in `theirs`.
fn same_sets(ours: &[Vec<String>], theirs: &[Vec<String>]) -> Result<(), String> {
    let tally = |v: &[Vec<String>]| {
        let mut m: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        for s in v {
            *m.entry(s.clone()).or_default() += 1;
        }
        m
    };
    let (o, t) = (tally(ours), tally(theirs));
    let ok = o.keys().eq(t.keys()) && o.iter().all(|(k, n)| *n <= t[k]);
    if ok {
        Ok(())
    } else {
        Err(format!("answer sets: ours {o:?}, clingo's {t:?}"))
    }
}

fn keys(v: &serde_json::Value) -> BTreeSet<String> {
    v.as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// The key shape of an `--outf=2` document.
fn json_shape(text: &str, stats: bool) -> Result<Vec<(String, BTreeSet<String>)>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{e}: {text}"))?;
    let mut shape = vec![("top".to_string(), keys(&v))];
    shape.push(("Result".into(), [v["Result"].to_string()].into()));
    let mut call = BTreeSet::new();
    let mut witness = BTreeSet::new();
    for c in v["Call"].as_array().into_iter().flatten() {
        call.extend(keys(c));
        for w in c["Witnesses"].as_array().into_iter().flatten() {
            witness.extend(keys(w));
        }
    }
    shape.push(("Call".into(), call));
    shape.push(("Witnesses".into(), witness));
    if stats {
        shape.push(("Stats".into(), keys(&v["Stats"])));
    }
    Ok(shape)
}

/// The words of `--outf=1` that say the result.
fn competition(text: &str) -> Vec<String> {
    let mut w: Vec<String> = text
        .lines()
        .filter(|l| ["ANSWER", "OPTIMUM", "INCONSISTENT", "UNKNOWN"].contains(l))
        .map(String::from)
        .collect();
    w.dedup();
    w
}

fn args_of(spec: &str, files: &BTreeMap<&str, String>) -> Vec<String> {
    spec.split('|')
        .map(|a| match a.strip_prefix('@') {
            Some(name) => files[name].clone(),
            None => a.to_string(),
        })
        .collect()
}

fn files() -> BTreeMap<&'static str, String> {
    let dir = std::env::temp_dir().join(format!("yasmin-cli-invocations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    PROGRAMS
        .iter()
        .map(|(name, text)| {
            let path = dir.join(format!("{name}.lp"));
            std::fs::write(&path, text).unwrap();
            (*name, path.display().to_string())
        })
        .collect()
}

/// Runs one row on both; `Err` says what differs.
fn compare(spec: &str, stdin: Option<&str>, files: &BTreeMap<&str, String>) -> Result<(), String> {
    let args = args_of(spec, files);
    let ours = yasmin(&args, stdin);
    let theirs = clingo58(&args, stdin);
    let show = |why: String| {
        format!(
            "{why}\n--- yasmin-rs (exit {:?}):\n{}{}\n--- clingo 5.8 (exit {:?}):\n{}{}",
            ours.code, ours.stdout, ours.stderr, theirs.code, theirs.stdout, theirs.stderr
        )
    };
    if ours.code != theirs.code {
        return Err(show(format!(
            "exit codes {:?} and {:?}",
            ours.code, theirs.code
        )));
    }
    let has = |s: &str| args.iter().any(|a| a.contains(s));
    if has("--outf=2") {
        let stats = has("--stats");
        let (o, t) = (
            json_shape(&ours.stdout, stats),
            json_shape(&theirs.stdout, stats),
        );
        return if o == t {
            Ok(())
        } else {
            Err(show(format!("JSON shape: ours {o:?}, clingo's {t:?}")))
        };
    }
    if has("--outf=1") {
        let (o, t) = (competition(&ours.stdout), competition(&theirs.stdout));
        return if o == t {
            Ok(())
        } else {
            Err(show(format!(
                "competition result: ours {o:?}, clingo's {t:?}"
            )))
        };
    }
    if has("--outf=3") {
        return if ours.stdout.trim().is_empty() == theirs.stdout.trim().is_empty() {
            Ok(())
        } else {
            Err(show("--outf=3 output".into()))
        };
    }
    let v0 = has("-V0") || has("--verbose=0");
    let (o, t) = (parse(&ours.stdout, v0), parse(&theirs.stdout, v0));
    if o.result != t.result {
        return Err(show(format!("result {:?} and {:?}", o.result, t.result)));
    }
    let atoms = |p: &Parsed| p.models.iter().map(|m| m.0.clone()).collect::<Vec<_>>();
    let last = |p: &Parsed| p.models.last().cloned();
    if has("brave") || has("cautious") {
        let (lo, lt) = (last(&o).map(|m| m.0), last(&t).map(|m| m.0));
        return if lo == lt {
            Ok(())
        } else {
            Err(show(format!("consequences {lo:?} and {lt:?}")))
        };
    }
    let costs = t.models.iter().any(|m| m.1.is_some());
    if costs && !has("--opt-mode=enum") {
        let (co, ct) = (last(&o).and_then(|m| m.1), last(&t).and_then(|m| m.1));
        if co != ct {
            return Err(show(format!("last cost {co:?} and {ct:?}")));
        }
        if has("optN") && t.result.as_deref() == Some("OPTIMUM FOUND") {
            let optimal = |p: &Parsed| -> BTreeSet<Vec<String>> {
                p.models
                    .iter()
                    .filter(|m| m.1 == ct)
                    .map(|m| m.0.clone())
                    .collect()
            };
            let (so, st) = (optimal(&o), optimal(&t));
            if so != st {
                return Err(show(format!("optimal models {so:?} and {st:?}")));
            }
        }
        return Ok(());
    }
    let complete = theirs.code.is_some_and(|c| c & 20 == 20 || c == 20);
    if complete && !has("-q") {
        same_sets(&atoms(&o), &atoms(&t)).map_err(show)
    } else if o.models.len() == t.models.len() {
        Ok(())
    } else {
        Err(show(format!(
            "{} models and {}",
            o.models.len(),
            t.models.len()
        )))
    }
}

#[test]
fn clingo_command_lines_give_clingos_models_result_exit_code_and_json_keys() {
    assert!(ROWS.len() >= 70, "{} rows", ROWS.len());
    let files = files();
    let mut failures = Vec::new();
    for Row(spec, stdin, expect) in ROWS {
        match (compare(spec, *stdin, &files), expect) {
            (Ok(()), _) => {}
            (Err(e), Differs(reason)) => eprintln!("expected difference, {spec}: {reason}\n{e}"),
            (Err(e), Same) => failures.push(format!("=== {spec}\n{e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        ROWS.len(),
        failures.join("\n")
    );
}
