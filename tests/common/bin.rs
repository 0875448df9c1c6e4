//! Running the yasmin-rs binary, and clingo, from integration tests.

use super::answer_sets;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_yasmin-rs");
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

impl From<std::process::Output> for Run {
    fn from(out: std::process::Output) -> Run {
        Run {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code(),
        }
    }
}

/// `yasmin-rs args…` with `stdin` piped in (or nothing).
pub fn yasmin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run yasmin-rs");
    let mut pipe = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        // A run that ends before reading its input (a usage error) closes the pipe: not a
        // failure of the test.
        if let Err(e) = pipe.write_all(bytes) {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "writing to yasmin-rs: {e}"
            );
        }
    }
    drop(pipe);
    Run::from(child.wait_with_output().unwrap())
}

/// gringo's aspif for the program `text`.
pub fn gringo(text: &str, args: &[&str]) -> Vec<u8> {
    let mut child = Command::new("gringo")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gringo must be installed (apt-get install gringo)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "gringo failed on {text}");
    out.stdout
}

/// A file of the repository's `examples/`.
pub fn example(name: &str) -> String {
    format!("{ROOT}/examples/{name}")
}

/// clingo's answer sets of `file` and its exit code.
pub fn clingo(file: &str, args: &[&str]) -> (BTreeMap<Vec<String>, usize>, Option<i32>) {
    let out = Command::new("clingo")
        .args(args)
        .arg(file)
        .output()
        .expect("clingo must be installed (apt-get install gringo)");
    (
        answer_sets(&String::from_utf8_lossy(&out.stdout)),
        out.status.code(),
    )
}
