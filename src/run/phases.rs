//! Timing and memory of the preparation phases (read, analyse, complete, engine), printed on
//! standard error with `--stats` as each phase ends, so that a run killed or stopped in the middle
//! of a large input still says where its time and memory went.
//!
//! Invariant: measuring costs one clock read and, on Linux, one read of `/proc/self/status` per
//! phase — never anything per rule or nogood — and prints nothing unless asked.

use std::time::Instant;

/// Times the phases of one run.
pub struct Phases {
    last: Instant,
    verbose: bool,
}

impl Phases {
    pub fn new(verbose: bool) -> Phases {
        Phases {
            last: Instant::now(),
            verbose,
        }
    }

    /// Phase `name` ended now.
    pub fn end(&mut self, name: &'static str) {
        self.end_with(name, "")
    }

    /// Phase `name` ended now, having made `made` (e.g. "12 nogoods").
    pub fn end_with(&mut self, name: &'static str, made: &str) {
        let now = Instant::now();
        let took = now - self.last;
        self.last = now;
        if self.verbose {
            eprintln!(
                "*** Info : (yasmin-rs): {name:<9}: {:>7.3}s{}{}",
                took.as_secs_f64(),
                memory().map_or(String::new(), |(rss, peak)| format!(
                    "  (memory {} MB, peak {} MB)",
                    rss >> 10,
                    peak >> 10
                )),
                if made.is_empty() {
                    String::new()
                } else {
                    format!("  {made}")
                },
            );
        }
    }
}

/// Resident and peak resident memory of this process in KiB (`VmRSS`, `VmHWM`), where the
/// system tells (Linux).
pub fn memory() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let (rss, peak) = super::memory().expect("/proc/self/status");
            assert!(rss > 0 && peak >= rss, "{rss} {peak}");
        }
    }
}
