//! Read a ground program and report its size and the reader's throughput (best of 3 reads,
//! file already in memory, so only parsing is timed).
//!
//! Usage: `read_bench [--check] FILE...` — `--check` reads once and prints a one-line summary
//! (used by scripts/check-read-all.sh); exits 1 on the first file that does not read.

use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.first().is_some_and(|a| a == "--check");
    if check {
        args.remove(0);
    }
    if args.is_empty() {
        eprintln!("usage: read_bench [--check] FILE...");
        std::process::exit(2);
    }
    for path in &args {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let mb = bytes.len() as f64 / 1e6;
        let mut best = f64::INFINITY;
        let mut program = None;
        for _ in 0..if check { 1 } else { 3 } {
            let t = Instant::now();
            let p = lparse::read(&bytes, path);
            best = best.min(t.elapsed().as_secs_f64());
            match p {
                Ok(p) => program = Some(p),
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
        }
        let p = program.expect("at least one read");
        let format = lparse::detect(&bytes);
        println!(
            "{path}: {format:?} {mb:.1} MB, {} rules, {} minimize, {} outputs, max atom {}, \
             read in {:.3} s = {:.0} MB/s{}",
            p.rules.len(),
            p.minimize.len(),
            p.outputs.len(),
            p.max_atom,
            best,
            mb / best,
            if check { "" } else { " (best of 3)" }
        );
    }
}
