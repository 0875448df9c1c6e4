//! `YASMIN_PROFILE=1`: where the device engine's search time goes — per kernel the launches, the
//! host time spent issuing them and the time until they finished, plus the read-backs and the
//! host's own work — printed on standard error when the engine is dropped.
//!
//! Invariant: with profiling on, every launch is followed by a synchronisation (as with
//! `--sync-always`), so the time between issuing a kernel and its end is that kernel's run time
//! plus one synchronisation (~10 µs on the H100); the engine already waits for the GPU at every
//! loop iteration (the state read-back), so this removes little overlap. With profiling off
//! nothing is timed.

use std::time::{Duration, Instant};

#[derive(Default)]
struct Entry {
    name: &'static str,
    count: u64,
    /// Host time inside the launch call (issuing).
    issue: Duration,
    /// Time from the end of the launch call to the end of the synchronisation.
    run: Duration,
}

/// Accumulated timings; `None` in the engine unless `YASMIN_PROFILE=1`.
#[derive(Default)]
pub struct Profile {
    entries: Vec<Entry>,
    started: Option<Instant>,
}

impl Profile {
    /// A profile when `YASMIN_PROFILE=1`.
    pub fn from_env() -> Option<Profile> {
        (std::env::var("YASMIN_PROFILE").as_deref() == Ok("1")).then(|| Profile {
            entries: Vec::new(),
            started: Some(Instant::now()),
        })
    }

    /// Add one event of `name`: `issue` spent issuing it, `run` waiting for it.
    pub fn add(&mut self, name: &'static str, issue: Duration, run: Duration) {
        let i = match self.entries.iter().position(|e| e.name == name) {
            Some(i) => i,
            None => {
                self.entries.push(Entry {
                    name,
                    ..Entry::default()
                });
                self.entries.len() - 1
            }
        };
        let e = &mut self.entries[i];
        e.count += 1;
        e.issue += issue;
        e.run += run;
    }

    /// The table: one line per kernel or host activity, then the rest of the wall time.
    pub fn report(&self) -> String {
        let wall = self.started.map(|t| t.elapsed()).unwrap_or_default();
        let mut s = format!(
            "profile (YASMIN_PROFILE=1), wall {:.3}s since the engine was made:\n{:<22} {:>10} {:>10} {:>10} {:>9} {:>7}\n",
            wall.as_secs_f64(),
            "what",
            "count",
            "issue s",
            "run s",
            "µs/each",
            "% wall"
        );
        let mut accounted = Duration::ZERO;
        let mut es: Vec<&Entry> = self.entries.iter().collect();
        es.sort_by_key(|e| std::cmp::Reverse(e.issue + e.run));
        for e in es {
            let t = e.issue + e.run;
            accounted += t;
            s += &format!(
                "{:<22} {:>10} {:>10.3} {:>10.3} {:>9.1} {:>6.1}%\n",
                e.name,
                e.count,
                e.issue.as_secs_f64(),
                e.run.as_secs_f64(),
                t.as_secs_f64() * 1e6 / e.count.max(1) as f64,
                100.0 * t.as_secs_f64() / wall.as_secs_f64().max(1e-9)
            );
        }
        let rest = wall.saturating_sub(accounted);
        s += &format!(
            "{:<22} {:>10} {:>10.3} {:>10} {:>9} {:>6.1}%\n",
            "(host, unaccounted)",
            "-",
            rest.as_secs_f64(),
            "-",
            "-",
            100.0 * rest.as_secs_f64() / wall.as_secs_f64().max(1e-9)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_accumulate_by_name() {
        let mut p = Profile {
            entries: Vec::new(),
            started: Some(Instant::now()),
        };
        p.add(
            "step_k",
            Duration::from_micros(4),
            Duration::from_micros(100),
        );
        p.add(
            "step_k",
            Duration::from_micros(4),
            Duration::from_micros(50),
        );
        p.add("read-back", Duration::ZERO, Duration::from_micros(12));
        let r = p.report();
        let step = r.lines().find(|l| l.starts_with("step_k")).unwrap();
        assert!(step.split_whitespace().nth(1) == Some("2"), "{r}");
        assert!(r.contains("read-back"), "{r}");
        assert!(r.contains("(host, unaccounted)"), "{r}");
    }
}
