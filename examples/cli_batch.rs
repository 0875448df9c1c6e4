//! Many command lines through the CLI's own pipeline in one process: each job is parsed by
//! [`Config::from_args`] and run by [`yasmin_rs::run::run_to`] (what `yasmin-rs ARGS` runs),
//! its standard output written to a file of its own and its exit code beside it.
//!
//! Why: on the GPU machine a process per run spends ~0.45 s starting CUDA, so the mode matrix
//! (`scripts/lib/matrix.py`: thousands of programs × every mode) would not fit a device call;
//! here the CUDA context and the loaded kernel are made once (`cuda.rs`, kept for the
//! process), and a small program's run takes a few hundredths of a second. Run one process
//! per GPU: processes sharing one take turns on it and each run gets 35-70× slower.
//!
//! Invariant: a job's `OUT.rc` holds the exit code `yasmin-rs ARGS` would end with (an error:
//! its code by `run::exit_code_of`, the message on standard error), and `OUT`
//! what it would print on standard output.
//!
//! Usage: cli_batch JOBS — each line of the file JOBS is `OUT<TAB>ARG<TAB>ARG...`; a line
//! `OUT<TAB>CODE<TAB>SECONDS` per job on standard output.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use yasmin_rs::config::Config;
use yasmin_rs::run::{exit_code_of, run_to};

fn main() {
    let Some(jobs) = std::env::args().nth(1) else {
        eprintln!("usage: cli_batch JOBS (lines OUT<TAB>ARG<TAB>ARG...)");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&jobs).unwrap_or_else(|e| {
        eprintln!("cli_batch: cannot read {jobs}: {e}");
        std::process::exit(2);
    });
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut fields = line.split('\t');
        let out_path = fields.next().expect("a line has its output file first");
        let args: Vec<String> = std::iter::once("yasmin-rs".to_owned())
            .chain(fields.map(str::to_owned))
            .collect();
        let config = Config::from_args(args.iter().map(std::ffi::OsString::from));
        let out = std::fs::File::create(out_path)
            .unwrap_or_else(|e| panic!("cannot write {out_path}: {e}"));
        let interrupt = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        let code = match run_to(&config, interrupt, start, out) {
            Ok(code) => code,
            Err(e) => {
                let (code, message) = exit_code_of(&e);
                eprintln!("{out_path}: *** ERROR: (yasmin-rs): {message}");
                code
            }
        };
        let mut rc = std::fs::File::create(format!("{out_path}.rc")).expect("the .rc file");
        writeln!(rc, "{code}").expect("the .rc file");
        // What each run took, on standard output (the GPU machine's throughput).
        println!("{out_path}\t{code}\t{:.3}", start.elapsed().as_secs_f64());
    }
}
