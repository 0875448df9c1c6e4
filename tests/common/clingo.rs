//! clingo beside yasmin-rs in the integration tests: clingo 5.8 (PyPI's, `python3 -m clingo`,
//! for the output: it always exits 0) and clingo 5.4 (the Debian binary, for clasp's exit
//! codes), and the source files a test writes for both.

use super::bin::Run;
use std::io::Write;
use std::process::{Command, Stdio};

/// `python3 -m clingo args…` with `stdin`.
pub fn clingo58(args: &[&str], stdin: &[u8]) -> Run {
    run(
        Command::new("python3").args(["-m", "clingo"]).args(args),
        stdin,
    )
}

/// clingo 5.8's application through `clingo_main`, which returns its exit code (`python3 -m
/// clingo` always exits 0).
pub fn clingo58_app(args: &[&str], stdin: &[u8]) -> Run {
    const APP: &str = "import sys
from clingo.application import clingo_main
from clingo.__main__ import PyClingoApplication
sys.exit(clingo_main(PyClingoApplication(), sys.argv[1:]))";
    run(Command::new("python3").args(["-c", APP]).args(args), stdin)
}

/// The Debian binary, clingo 5.4 (its exit codes are clasp's).
pub fn clingo54(args: &[&str], stdin: &[u8]) -> Run {
    run(Command::new("clingo").args(args), stdin)
}

fn run(cmd: &mut Command, stdin: &[u8]) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clingo must be installed (pip install clingo; apt-get install gringo)");
    // A run that ends before reading its input (a usage error) closes the pipe.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing to clingo: {e}"
        );
    }
    let out = child.wait_with_output().unwrap();
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

/// A source file of this test run.
pub fn source(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("yasmin-cli-clingo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}
