//! The many-searches engine starting over with fewer searches (`Narrow` in
//! `src/engine/gpu/engine.rs`), under `--engine=emu` with `YASMIN_NARROW=ms,rate,to` making it
//! happen after a few milliseconds whatever the rate: what was found before is kept and the
//! answers stay clingo's — the exact count of an enumeration (no model lost, none twice), an
//! UNSAT proof, and an optimum found over the start-over. Needs clingo on PATH.

mod common;

use common::bin::{clingo, ROOT};
use std::process::Command;

/// `--engine=emu --gpu-searches=8 -q --stats args…` starting over with 3 searches after
/// 5 ms; stdout and the exit code.
fn narrowed(args: &[&str]) -> (String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_yasmin-rs"))
        .args(["--engine=emu", "--gpu-searches=8", "-q", "--stats"])
        .args(args)
        .env("YASMIN_NARROW", "5,1e12,3")
        .output()
        .expect("run yasmin-rs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("ERROR"), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Narrowed   : 8 searches made"),
        "no start-over in\n{stdout}"
    );
    assert!(stdout.contains("GPU searches : 3 ("), "{stdout}");
    (stdout, out.status.code())
}

/// The line of `text` that starts with `key`.
fn line<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key} in\n{text}"))
}

fn clingo_stdout(file: &str, args: &[&str]) -> String {
    let out = Command::new("clingo")
        .args(args)
        .arg(file)
        .output()
        .expect("clingo must be installed (apt-get install gringo)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_enumeration_that_starts_over_counts_each_model_once() {
    let file = format!("{ROOT}/tests/device/many_models.lp");
    let want = line(&clingo_stdout(&file, &["-n", "0", "-q"]), "Models").to_string();
    for learning in ["res", "fwd"] {
        let (out, code) = narrowed(&[&file, "-n", "0", &format!("--learning={learning}")]);
        assert_eq!(code, Some(30), "{learning}\n{out}");
        assert_eq!(line(&out, "Models"), want, "{learning}\n{out}");
    }
}

#[test]
fn an_unsat_proof_after_a_start_over() {
    let file = format!("{ROOT}/tests/device/pigeons9.lp");
    let (want, code) = clingo(&file, &[]);
    assert!(want.is_empty() && code == Some(20));
    let (out, code) = narrowed(&[&file]);
    assert_eq!(code, Some(20), "{out}");
    assert!(out.contains("\nUNSATISFIABLE"), "{out}");
}

#[test]
fn an_optimum_after_a_start_over_is_clingos() {
    let file = format!("{ROOT}/tests/device/cover45.lp");
    let want = line(&clingo_stdout(&file, &["-q"]), "Optimization").to_string();
    let (out, code) = narrowed(&[&file]);
    assert_eq!(code, Some(30), "{out}");
    assert!(out.contains("OPTIMUM FOUND"), "{out}");
    assert_eq!(line(&out, "Optimization"), want, "{out}");
}
