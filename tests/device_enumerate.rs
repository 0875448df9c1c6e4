//! `-n 0` on the device engine's kernel compiled for the host (`--engine=emu`): enumeration by
//! backtracking (`kernels/search/enumerate.cuh`). Regression (issue 17): the searches learned a
//! permanent blocking nogood per model, which filled their fixed learned store after some 40k
//! models and ended the run with "internal error in device search (code 2)".
//!
//! The counts are compared with clingo's: every model the binary prints has passed the
//! independent checker and the engine returns each once, so equal counts mean equal sets of
//! answer sets; on a smaller program the answer sets themselves are compared.

mod common;

use common::bin::{clingo, example, ROOT};
use std::process::Command;

/// The program with over 100k answer sets (`tests/device/many_models.lp`).
fn many_models() -> String {
    format!("{ROOT}/tests/device/many_models.lp")
}

/// The `Models : N` of a run's summary (N, and whether it ended with `+`).
fn models_line(stdout: &str) -> (u64, bool) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Models"))
        .unwrap_or_else(|| panic!("no Models line in\n{stdout}"));
    let n = line.split(':').nth(1).unwrap().trim();
    (n.trim_end_matches('+').parse().unwrap(), n.ends_with('+'))
}

/// A `--stats` counter: the number after `key` on the line that starts with `line`.
fn stat(stdout: &str, line: &str, key: &str) -> u64 {
    stdout
        .lines()
        .find(|l| l.trim_start().starts_with(line))
        .and_then(|l| l.split(key).nth(1))
        .and_then(|r| {
            r.trim_start()
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {line} … {key} in\n{stdout}"))
}

fn clingo_count(file: &str) -> u64 {
    let out = Command::new("clingo")
        .args(["-n", "0", "-q", file])
        .output()
        .expect("clingo must be installed (apt-get install gringo)");
    assert_eq!(out.status.code(), Some(30));
    models_line(&String::from_utf8_lossy(&out.stdout)).0
}

fn emu(args: &[&str], arena_words: Option<&str>) -> (String, Option<i32>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yasmin-rs"));
    cmd.args(["--engine=emu", "-n", "0", "-q", "--stats"])
        .args(args);
    if let Some(w) = arena_words {
        cmd.arg(format!("--gpu-arena-words={w}"));
    }
    let out = cmd.output().expect("run yasmin-rs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("ERROR"), "{stdout}\n{stderr}");
    (stdout, out.status.code())
}

#[test]
fn more_answer_sets_than_a_learned_store_holds() {
    let file = many_models();
    let want = clingo_count(&file);
    assert!(want > 100_000, "the program has {want} answer sets");
    for learning in ["res", "fwd"] {
        // A learned store as small as the program allows: deletion runs during the
        // enumeration, at the backtrack level.
        let (out, code) = emu(
            &[&file, "--gpu-searches=2", &format!("--learning={learning}")],
            Some("1"),
        );
        assert_eq!(code, Some(30), "{learning}\n{out}");
        assert_eq!(models_line(&out), (want, false), "{learning}\n{out}");
        assert!(stat(&out, "Lemmas", "Deleted:") > 0, "{learning}\n{out}");
    }
}

#[test]
fn cubes_share_out_the_enumeration() {
    let file = many_models();
    let want = clingo_count(&file);
    // One search on 16 cubes: each is enumerated, then counted as refuted; with splits after
    // every conflict on a cube, the split-off cubes too (the search takes them back from the
    // pool), and the count is still exact.
    for split in ["--gpu-split=1000", "--gpu-split=1"] {
        let (out, code) = emu(&[&file, "--gpu-searches=1", "--gpu-cubes=4", split], None);
        assert_eq!(code, Some(30), "{out}");
        assert_eq!(models_line(&out), (want, false), "{out}");
        let refuted = stat(&out, "Cubes", ":");
        let splits = stat(&out, "Cubes", "and");
        assert!(out.contains("16 base"), "{out}");
        assert_eq!(refuted, 16 + splits, "{out}");
        if split == "--gpu-split=1" {
            assert!(splits > 0, "{out}");
        }
    }
}

#[test]
fn answer_sets_after_conflicts_restarts_and_deletion_are_clingos() {
    let file = example("queens.lp");
    let (want, code) = clingo(&file, &["-c", "n=8", "-n", "0"]);
    assert_eq!(code, Some(30));
    for learning in ["res", "fwd"] {
        for searches in ["1", "3"] {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_yasmin-rs"));
            let args = [
                "--engine=emu",
                "-c",
                "n=8",
                "-n",
                "0",
                &format!("--gpu-searches={searches}"),
                "--gpu-cubes=3",
                &format!("--learning={learning}"),
                "--gpu-arena-words=1",
            ];
            let out = cmd.arg(&file).args(args).output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(30), "{args:?}\n{stdout}");
            assert_eq!(common::answer_sets(&stdout), want, "{args:?}");
        }
    }
}
