//! Regression inputs: every `tests/regress/*.lp` (grounded with gringo) and `*.aspif` goes
//! through the binary with `-n 0`, on the host engine and on the GPU kernel compiled for the
//! host (`--engine=emu`, 4 searches), and its answer sets (shown atoms, sorted, counted with
//! multiplicity) and exit code must be clingo's (`clingo -n 0`, `--mode=clasp` for aspif). On the
//! GPU machine, `scripts/bench device smoke` runs the `.aspif` ones through `--engine=gpu`.
//!
//! One file per fixed bug or tricky case; adding a file adds a test case. Needs gringo and clingo
//! on PATH (Debian package `gringo`); fails, not skips, without them.
//!
//! No exceptions: disjunctive inputs (gringo writes recursive non-monotone sums as disjunctive
//! rules), head-cycle-free or not, are compared like any other.

mod common;

use common::answer_sets;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_yasmin-rs");

fn piped(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e} (apt-get install gringo)"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Ground `.lp` files with gringo; `.aspif` files are ground already.
fn ground(path: &Path) -> Vec<u8> {
    if path.extension().is_some_and(|e| e == "aspif") {
        return std::fs::read(path).unwrap();
    }
    let out = Command::new("gringo")
        .arg(path)
        .output()
        .expect("gringo (apt-get install gringo)");
    assert!(out.status.success(), "gringo failed on {}", path.display());
    out.stdout
}

fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lp" || e == "aspif"))
        .collect();
    files.sort();
    files
}

#[test]
fn regressions_match_clingo() {
    let files = inputs();
    assert!(
        !files.is_empty(),
        "tests/regress holds no .lp or .aspif file"
    );
    let mut failures = Vec::new();
    for path in &files {
        let aspif = ground(path);
        let theirs = piped(
            // `--eq=0`: see tests/differential.rs (clasp prints some disjunctive answer sets
            // twice with equivalence preprocessing on).
            Command::new("clingo").args(["--mode=clasp", "-n", "0", "--eq=0"]),
            &aspif,
        );
        let t = String::from_utf8_lossy(&theirs.stdout);
        let name = path.file_name().unwrap().to_string_lossy();
        for engine in [&["--engine=cpu"][..], &["--engine=emu", "--gpu-searches=4"]] {
            let ours = piped(Command::new(BIN).args(["-n", "0"]).args(engine), &aspif);
            let o = String::from_utf8_lossy(&ours.stdout);
            if ours.status.code() != theirs.status.code() {
                failures.push(format!(
                    "{name} {engine:?}: exit {:?}, clingo {:?}\n{}",
                    ours.status.code(),
                    theirs.status.code(),
                    String::from_utf8_lossy(&ours.stderr)
                ));
            } else if answer_sets(&o) != once(answer_sets(&t)) {
                failures.push(format!(
                    "{name} {engine:?}: answer sets differ\nyasmin-rs: {:?}\nclingo:    {:?}",
                    answer_sets(&o),
                    once(answer_sets(&t))
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} regression inputs disagree with clingo:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    println!("{} regression inputs agree with clingo", files.len());
}

/// clingo's answer sets, each counted once: clasp sometimes prints one twice (see
/// tests/differential.rs, `clingo`); a duplicate from yasmin-rs still counts 2 and differs.
fn once(
    sets: std::collections::BTreeMap<Vec<String>, usize>,
) -> std::collections::BTreeMap<Vec<String>, usize> {
    sets.into_keys().map(|k| (k, 1)).collect()
}
