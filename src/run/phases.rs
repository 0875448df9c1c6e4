//! Timing and memory of the preparation phases (read, analyse, complete, engine), printed on
//! standard error with `--stats` as each phase ends, so that a run killed or stopped in the middle
//! of a large input still says where its time and memory went.
//!
//! Invariant: measuring costs one clock read and, on Linux, one read of `/proc/self/status` per
//! phase — never anything per rule or nogood — and prints nothing unless asked.

use std::time::{Duration, Instant};

/// Times the phases of one run.
pub struct Phases {
    last: Instant,
    verbose: bool,
    /// Each phase that ended, with how long it took.
    took: Vec<(&'static str, Duration)>,
}

impl Phases {
    pub fn new(verbose: bool) -> Phases {
        Phases {
            last: Instant::now(),
            verbose,
            took: Vec::new(),
        }
    }

    /// How long the phase `name` took (zero if it has not ended).
    pub fn took(&self, name: &str) -> Duration {
        self.took
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, d)| *d)
            .sum()
    }

    /// How long every phase that ended took together.
    pub fn total(&self) -> Duration {
        self.took.iter().map(|(_, d)| *d).sum()
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
        self.took.push((name, took));
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

/// Processor time this process has used, all threads, user and system (clingo's `CPU Time`).
pub fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
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
    fn cpu_time_grows_with_work() {
        let before = super::cpu_time();
        let mut x = 0u64;
        let spin = std::time::Instant::now();
        while spin.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(super::cpu_time() > before, "{x}");
    }

    #[test]
    fn memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let (rss, peak) = super::memory().expect("/proc/self/status");
            assert!(rss > 0 && peak >= rss, "{rss} {peak}");
        }
    }
}
