//! Read a ground program and report its size and the reader's throughput (best of 3 reads,
//! file already in memory, so only parsing is timed).
//!
//! Usage: `read_bench [--check] FILE...` — `--check` reads once and prints a one-line summary
//! (used by scripts/check-read-all.sh); exits 1 on the first file that does not read.

use std::time::Instant;

/// Seconds this thread has run on a CPU (Linux schedstat), so that throughput can be read on a
/// loaded machine too; None elsewhere.
fn thread_cpu_s() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

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
        let mut best_cpu = f64::INFINITY;
        let mut program = None;
        for _ in 0..if check { 1 } else { 3 } {
            let c = thread_cpu_s();
            let t = Instant::now();
            let p = lparse::read(&bytes, path);
            best = best.min(t.elapsed().as_secs_f64());
            if let (Some(c0), Some(c1)) = (c, thread_cpu_s()) {
                best_cpu = best_cpu.min(c1 - c0);
            }
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
             read in {:.3} s = {:.0} MB/s (thread CPU {:.3} s = {:.0} MB/s){}",
            p.rules.len(),
            p.minimize.len(),
            p.outputs.len(),
            p.max_atom,
            best,
            mb / best,
            best_cpu,
            mb / best_cpu,
            if check { "" } else { " (best of 3)" }
        );
    }
}
