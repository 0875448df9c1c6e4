//! The yasmin-rs binary end to end: results and exit codes, model counts against clingo, the
//! output formats, bad input (`file:line:col`, exit 65), unsupported input (exit 66), `--pre`
//! round trips, standard input, and the time limit and Ctrl-C on an instance too hard to finish.
//!
//! Needs gringo and clingo on PATH (Debian package `gringo`); the tests fail, not skip, without.

mod common;

use common::bin::{clingo, example, gringo, yasmin, Run, BIN, ROOT};
use common::{answer_sets, big_tight_aspif};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A file under this test run's temporary directory.
fn tmp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yasmin-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn fixture(name: &str) -> String {
    format!("{ROOT}/tests/cli/{name}")
}

fn result_line(text: &str) -> &str {
    text.lines()
        .find(|l| ["SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"].contains(l))
        .unwrap_or("(no result line)")
}

#[test]
fn examples_have_clingos_answer_sets_and_exit_codes() {
    for name in ["queens", "hamiltonian", "coloring"] {
        let r = yasmin(&[&example(&format!("{name}.aspif")), "-n", "0"], None);
        let (want, want_code) = clingo(&example(&format!("{name}.lp")), &["-n", "0"]);
        assert!(!want.is_empty(), "{name}: clingo found no model");
        assert_eq!(answer_sets(&r.stdout), want, "{name}\n{}", r.stdout);
        assert_eq!(r.code, Some(30), "{name}: {}", r.stderr);
        assert_eq!(want_code, Some(30));
        assert!(r.stdout.contains(&format!(
            "Models       : {}\n",
            want.values().sum::<usize>()
        )));
    }
}

#[test]
fn results_and_exit_codes() {
    let choice = gringo("{a;b}. :- a, b. #show a/0. #show b/0.", &[]);
    // -n 0: all three models, exhausted.
    let r = yasmin(&["-n", "0"], Some(&choice));
    assert_eq!(
        (answer_sets(&r.stdout).len(), r.code),
        (3, Some(30)),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Models       : 3\n"));
    // -n 1: one model, more may exist.
    let r = yasmin(&["-n", "1"], Some(&choice));
    assert_eq!((result_line(&r.stdout), r.code), ("SATISFIABLE", Some(10)));
    assert!(r.stdout.contains("Models       : 1+\n"), "{}", r.stdout);
    // -n 5 with only three models: exhausted.
    let r = yasmin(&["-n", "5"], Some(&choice));
    assert_eq!((answer_sets(&r.stdout).len(), r.code), (3, Some(30)));
    // Unsatisfiable through a positive loop: {p, q} is supported but not an answer set.
    let unsat = gringo("p :- q. q :- p. :- not p.", &[]);
    let r = yasmin(&[], Some(&unsat));
    assert_eq!(
        (result_line(&r.stdout), r.code),
        ("UNSATISFIABLE", Some(20)),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Models       : 0\n"));
    // -q prints no models but the same result.
    let r = yasmin(&["-q", "-n", "0"], Some(&choice));
    assert!(!r.stdout.contains("Answer:") && r.stdout.contains("Models       : 3\n"));
    assert_eq!(r.code, Some(30));
}

#[test]
fn stdin_file_and_dash_agree() {
    let file = example("hamiltonian.aspif");
    let bytes = std::fs::read(&file).unwrap();
    let from_file = yasmin(&[&file, "-n", "0"], None);
    let from_stdin = yasmin(&["-n", "0"], Some(&bytes));
    let from_dash = yasmin(&["-", "-n", "0"], Some(&bytes));
    assert!(from_file.stdout.contains(&format!("Reading from {file}\n")));
    assert!(from_stdin.stdout.contains("Reading from stdin\n"));
    assert_eq!(
        answer_sets(&from_file.stdout),
        answer_sets(&from_stdin.stdout)
    );
    assert_eq!(
        answer_sets(&from_file.stdout),
        answer_sets(&from_dash.stdout)
    );
    assert_eq!(answer_sets(&from_file.stdout).len(), 4);
}

#[test]
fn bad_input_names_file_line_and_column() {
    let r = yasmin(&[&fixture("bad_body.aspif")], None);
    assert_eq!(r.code, Some(65), "{}", r.stderr);
    assert!(r.stderr.contains("bad_body.aspif:3:15: "), "{}", r.stderr);
    assert!(!r.stdout.contains("Answer"));
    let r = yasmin(&[&fixture("bad_rule.smodels")], None);
    assert_eq!(r.code, Some(65), "{}", r.stderr);
    assert!(r.stderr.contains("bad_rule.smodels:3:11: "), "{}", r.stderr);
    // Truncated input on stdin.
    let r = yasmin(&[], Some(b"asp 1 0 0\n1 0 1 1 0 0\n"));
    assert_eq!(r.code, Some(65));
    assert!(r.stderr.contains("<stdin>:3:1: "), "{}", r.stderr);
    // A file that does not exist.
    let r = yasmin(&["/nonexistent/x.aspif"], None);
    assert_eq!(r.code, Some(65), "{}", r.stderr);
    assert!(r.stderr.contains("/nonexistent/x.aspif"));
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

#[test]
fn several_ground_files_are_a_usage_error() {
    let q = example("queens.aspif");
    let r = yasmin(&[&q, &q], None);
    assert_eq!(r.code, Some(64), "{}", r.stderr);
    assert!(r.stderr.contains("a run reads one"), "{}", r.stderr);
}

#[test]
fn unsupported_features_exit_66() {
    // `#edge` (acyclicity constraints) is not supported yet.
    let edges = b"asp 1 0 0\n1 1 1 1 0 0\n8 0 1 1 1\n8 1 0 0\n4 1 a 1 1\n0\n";
    let r = yasmin(&[], Some(edges));
    assert_eq!(r.code, Some(66), "{}", r.stderr);
    assert!(r.stderr.contains("not supported yet"), "{}", r.stderr);
}

#[test]
fn a_head_cycle_is_solved_with_a_minimality_check() {
    // a; b.  a :- b.  b :- a.  — not head-cycle-free; its one answer set is {a, b}.
    let r = yasmin(&[&fixture("head_cycle.aspif"), "-n", "0", "--stats"], None);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    let one: Vec<String> = vec!["a".into(), "b".into()];
    let sets = answer_sets(&r.stdout);
    assert_eq!(
        sets.into_iter().collect::<Vec<_>>(),
        vec![(one, 1)],
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Minimality   : 1 "), "{}", r.stdout);
}

#[test]
fn pre_round_trips() {
    for name in ["hamiltonian.aspif", "coloring.aspif"] {
        let file = example(name);
        let direct = answer_sets(&yasmin(&[&file, "-n", "0"], None).stdout);
        for format in ["aspif", "smodels"] {
            let pre = yasmin(&[&file, &format!("--pre={format}")], None);
            assert_eq!(pre.code, Some(0), "{}", pre.stderr);
            if format == "aspif" {
                assert!(pre.stdout.starts_with("asp "), "{}", pre.stdout);
            }
            let again = yasmin(&["-n", "0"], Some(pre.stdout.as_bytes()));
            assert_eq!(again.code, Some(30), "{name} {format}: {}", again.stderr);
            assert_eq!(
                answer_sets(&again.stdout),
                direct,
                "{name} via --pre={format}"
            );
        }
    }
}

#[test]
fn competition_and_json_formats() {
    let file = example("queens.aspif");
    let r = yasmin(&[&file, "-n", "0", "--outf=1"], None);
    assert_eq!(r.code, Some(30));
    let lines: Vec<&str> = r.stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "ANSWER")
        .expect("ANSWER line");
    let atoms: Vec<&str> = lines[at + 1].split(' ').collect();
    assert_eq!(atoms.len(), 6);
    assert!(atoms
        .iter()
        .all(|a| a.starts_with("q(") && a.ends_with(").")));
    assert!(lines
        .iter()
        .all(|l| *l == "ANSWER" || l.starts_with("% ") || l.starts_with("q(")));
    let unsat = gringo(":- not a. a :- b. b :- a.", &[]);
    let r = yasmin(&["--outf=1"], Some(&unsat));
    assert!(
        r.stdout.lines().any(|l| l == "INCONSISTENT"),
        "{}",
        r.stdout
    );

    let r = yasmin(&[&file, "-n", "0", "--outf=2", "--stats"], None);
    let json: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
    assert_eq!(json["Result"], "SATISFIABLE");
    assert_eq!(json["Models"]["Number"], 4);
    assert_eq!(json["Models"]["More"], "no");
    let witnesses = json["Call"][0]["Witnesses"].as_array().unwrap();
    assert_eq!(witnesses.len(), 4);
    assert!(witnesses
        .iter()
        .all(|w| w["Value"].as_array().unwrap().len() == 6));
    assert!(json["Stats"]["Core"]["Choices"].as_u64().is_some());
}

/// `--eq=0` turns equivalence preprocessing off: the same answer sets on every engine, more
/// variables and nogoods in the problem table; a negative N is refused (exit 2).
#[test]
fn eq_zero_is_the_completion_without_equivalences() {
    let number = |out: &str, label: &str| -> u64 {
        let line = out.lines().find(|l| l.starts_with(label)).expect(label);
        line[line.find(':').unwrap() + 1..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    for name in ["coloring", "hamiltonian"] {
        let file = example(&format!("{name}.aspif"));
        let on = yasmin(
            &[&file, "-n", "0", "--stats", "--engine=cpu", "-t", "1"],
            None,
        );
        for engine in ["--engine=cpu", "--engine=emu"] {
            let off = yasmin(&[&file, "-n", "0", "--stats", engine, "--eq=0"], None);
            assert_eq!(
                answer_sets(&on.stdout),
                answer_sets(&off.stdout),
                "{name} {engine}"
            );
            assert_eq!(
                (on.code, off.code),
                (Some(30), Some(30)),
                "{name}: {}",
                off.stderr
            );
            if engine == "--engine=cpu" {
                for label in ["Variables", "Constraints"] {
                    let (a, b) = (number(&on.stdout, label), number(&off.stdout, label));
                    assert!(a < b, "{name} {label}: {a} with --eq, {b} without");
                }
            }
        }
    }
    assert_eq!(
        yasmin(&[&example("queens.aspif"), "--eq=-1"], None).code,
        Some(1)
    );
}

/// Pigeonhole, 16 pigeons in 15 holes: unsatisfiable, and far too hard for a resolution-based
/// search to prove in a second (the host engine's default needs 0.5M conflicts for 13 in 12,
/// growing about fivefold per pigeon).
fn pigeons() -> Vec<u8> {
    gringo(
        "p(1..16). h(1..15). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q.",
        &[],
    )
}

#[test]
fn time_limit_stops_with_unknown() {
    let file = tmp_file("php.aspif", &pigeons());
    let start = Instant::now();
    let r = yasmin(
        &[file.to_str().unwrap(), "--time-limit=1", "--engine=cpu"],
        None,
    );
    let took = start.elapsed();
    assert_eq!(result_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stdout.contains("TIME LIMIT   : 1\n") && r.stdout.contains("Models       : 0+\n"));
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(20),
        "{took:?}"
    );
}

/// Ctrl-C, SIGTERM (what `timeout`, runsolver and schedulers send), SIGHUP, and two SIGINTs at
/// once (a wrapper's `timeout -s INT`) all end the run as clingo's Ctrl-C does: the models found,
/// the result, `INTERRUPTED`, the summary; with `--outf=2` a whole JSON document.
#[test]
fn ctrl_c_prints_what_was_found() {
    // -n 0 on a satisfiable but huge enumeration: interrupted after some models.
    let big = gringo("{a(1..40)}. #show a/1.", &[]);
    let file = tmp_file("big.aspif", &big);
    for (signals, outf) in [
        (&["-INT"][..], "0"),
        (&["-TERM"][..], "0"),
        (&["-HUP"][..], "0"),
        (&["-INT", "-INT"][..], "0"),
        (&["-TERM"][..], "2"),
    ] {
        let child = Command::new(BIN)
            .args([file.to_str().unwrap(), "-n", "0", "-q", "--engine=cpu"])
            .arg(format!("--outf={outf}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        for signal in signals {
            let killed = Command::new("kill")
                .args([*signal, &child.id().to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
        }
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(11), "{signals:?}: {stdout}");
        if outf == "2" {
            assert!(stdout.trim_end().ends_with('}'), "{signals:?}: {stdout}");
            assert!(stdout.contains("\"Result\": \"SATISFIABLE\""), "{stdout}");
            assert!(stdout.contains("\"INTERRUPTED\": 1,"), "{stdout}");
        } else {
            assert_eq!(result_line(&stdout), "SATISFIABLE", "{signals:?}: {stdout}");
            assert!(
                stdout.contains("INTERRUPTED  : 1\n"),
                "{signals:?}: {stdout}"
            );
            assert!(
                stdout.contains("\nModels       : "),
                "{signals:?}: {stdout}"
            );
        }
    }
}

#[test]
fn engine_gpu_without_a_gpu_is_a_clear_error() {
    // On a machine with a usable GPU this test says nothing; on one without, --engine=gpu must
    // fail with exit 69 and say why, never fall back silently.
    let r = yasmin(&[&example("queens.aspif"), "--engine=gpu"], None);
    if r.code == Some(69) {
        assert!(
            r.stderr.contains("GPU engine (--engine=gpu) cannot run"),
            "{}",
            r.stderr
        );
    } else {
        assert_eq!(r.code, Some(10), "{}", r.stderr);
    }
}

/// `yasmin-rs args…` as if the machine had `gpus` GPUs (`--emulated-gpus`: the device
/// kernel compiled for the host stands in for each).
fn with_gpus(gpus: &str, args: &[&str]) -> Run {
    Command::new(BIN)
        .args(args)
        .arg(format!("--emulated-gpus={gpus}"))
        .stdin(Stdio::null())
        .output()
        .expect("run yasmin-rs")
        .into()
}

#[test]
fn auto_takes_every_gpu_as_a_member_and_refuses_more_than_there_are() {
    // Every model once, the members on two GPUs beside the host thread(s).
    let r = with_gpus(
        "2",
        &[&example("queens.aspif"), "-n", "0", "--stats", "-t", "2"],
    );
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    let (want, _) = clingo(&example("queens.lp"), &["-n", "0"]);
    assert_eq!(answer_sets(&r.stdout), want);
    // (Whether the GPUs' members join before a host thread answers depends on timing: the
    // unit tests of `portfolio` check that they do and answer.)
    assert!(
        !r.stdout.contains("on 3 GPUs") && !r.stdout.contains("on GPU 2"),
        "{}",
        r.stdout
    );
    // Optimisation: the optimum, proved, with three GPUs' members.
    let r = with_gpus("3", &[&example("cover.aspif"), "--stats", "-t", "2"]);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    assert!(r.stdout.contains("OPTIMUM FOUND"), "{}", r.stdout);
    assert!(r.stdout.contains("Optimization : 21 3"), "{}", r.stdout);
    // --gpus: fewer is fine, more is an error (exit 69), and the GPU engine alone runs on one.
    let r = with_gpus("2", &[&example("queens.aspif"), "--gpus=1", "--stats"]);
    assert_eq!(r.code, Some(10), "{}", r.stderr);
    assert!(!r.stdout.contains("GPUs"), "{}", r.stdout);
    let r = with_gpus("2", &[&example("queens.aspif"), "--gpus=3"]);
    assert_eq!(r.code, Some(69), "{}", r.stderr);
    assert!(
        r.stderr.contains("--gpus=3: this machine has 2 GPUs"),
        "{}",
        r.stderr
    );
    let r = yasmin(
        &[&example("queens.aspif"), "--engine=gpu", "--gpus=2"],
        None,
    );
    assert_eq!(r.code, Some(64), "{}", r.stderr);
    assert!(r.stderr.contains("runs on one GPU"), "{}", r.stderr);
}

#[test]
fn help_documents_the_exit_codes() {
    let r = yasmin(&["--help"], None);
    assert_eq!(r.code, Some(0));
    for code in [
        "10 satisfiable",
        "20 unsatisfiable",
        "30 satisfiable",
        "65 bad input",
        "66 a feature",
    ] {
        assert!(r.stdout.contains(code), "{code}");
    }
}

/// The time limit counts from the start and holds while a large program is still being read,
/// analysed and completed, not only during the search.
#[test]
fn time_limit_holds_during_preparation_of_a_large_program() {
    let file = tmp_file("big-tight.aspif", &big_tight_aspif(600_000));
    let start = Instant::now();
    let r = yasmin(
        &[
            file.to_str().unwrap(),
            "--time-limit=1",
            "--engine=cpu",
            "--stats",
            "-q",
        ],
        None,
    );
    let took = start.elapsed();
    let _ = std::fs::remove_file(&file);
    // It may have finished preparing (then the search is stopped) or not: either way UNKNOWN
    // after about a second — unless it found a model first, which is also a correct answer.
    match result_line(&r.stdout) {
        "UNKNOWN" => {
            assert_eq!(r.code, Some(1), "{}", r.stderr);
            assert!(r.stdout.contains("TIME LIMIT   : 1\n"), "{}", r.stdout);
            assert!(r.stdout.contains("Choices      : "), "{}", r.stdout);
        }
        "SATISFIABLE" => assert_eq!(r.code, Some(11), "{}", r.stderr),
        other => panic!("{other}\n{}\n{}", r.stdout, r.stderr),
    }
    assert!(took < Duration::from_secs(5), "{took:?}\n{}", r.stderr);
}

/// A ground program that never finishes arriving (standard input left open): the time limit and
/// Ctrl-C still end the run, with UNKNOWN and exit 1 — the preparation is not waited for.
#[test]
fn time_limit_and_ctrl_c_hold_while_reading() {
    for interrupt in [false, true] {
        let mut args = vec!["--engine=cpu", "--stats"];
        if !interrupt {
            args.push("--time-limit=1");
        }
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(b"asp 1 0 0\n1 0 1 1 0 0\n").unwrap();
        let start = Instant::now();
        if interrupt {
            std::thread::sleep(Duration::from_millis(700));
            let killed = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
        }
        // Wait at most 10 s: a solver that waits for the input would hang here.
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("still running after 10 s (interrupt: {interrupt})");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(pipe);
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(result_line(&stdout), "UNKNOWN", "{stdout}");
        let why = if interrupt {
            "INTERRUPTED"
        } else {
            "TIME LIMIT"
        };
        assert!(stdout.contains(&format!("{why:<13}: 1\n")), "{stdout}");
        assert!(stdout.contains("Models       : 0+\n"), "{stdout}");
        assert_eq!(status.code(), Some(1), "{stdout}");
    }
}

/// `yasmin-rs args…` under `ulimit -v kib` (through sh), nothing on standard input.
fn yasmin_limited(kib: u64, args: &[&str]) -> Run {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    Run::from(out)
}

/// Too little memory is a clear error with exit 33, never an abort by signal: an input whose
/// atom numbers alone cannot fit (refused before the analysis, or by the allocator under the
/// limit on machines with that much memory), and a large program under a low address-space
/// limit (a failed allocation in the middle of the preparation).
#[test]
fn too_little_memory_is_exit_33() {
    let absurd = tmp_file(
        "absurd.aspif",
        b"asp 1 0 0\n1 0 1 2147483647 0 0\n4 1 a 1 2147483647\n0\n",
    );
    let big = tmp_file("big-oom.aspif", &big_tight_aspif(600_000));
    for file in [&absurd, &big] {
        let r = yasmin_limited(400_000, &[file.to_str().unwrap(), "--engine=cpu"]);
        assert_eq!(r.code, Some(33), "{}\n{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("*** ERROR: (yasmin-rs): out of memory"),
            "{}",
            r.stderr
        );
    }
    let _ = std::fs::remove_file(&big);
}
