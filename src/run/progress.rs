//! The progress line: on standard error, every ~2 s once a run has lasted ~3 s, what the engine
//! last published (choices per second, conflicts, learned nogoods) — only when standard error is
//! a terminal or `--progress` was given, so that logs and pipes stay clean.
//!
//! Invariant: the reporter thread only reads the engine's published counters (atomics); it never
//! touches the engine, and it is stopped and joined before the final output is printed, so its
//! lines never interleave with the summary.

use crate::engine::ProgressSink;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const FIRST_AFTER: Duration = Duration::from_secs(3);
const EVERY: Duration = Duration::from_secs(2);

pub struct Progress {
    shared: Option<Arc<Shared>>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    sink: Arc<ProgressSink>,
    models: AtomicU64,
    stop: AtomicBool,
}

impl Progress {
    /// Start the reporter if asked (`force`) or if standard error is a terminal.
    pub fn start(force: bool, start: Instant) -> Progress {
        if !(force || std::io::stderr().is_terminal()) {
            return Progress {
                shared: None,
                thread: None,
            };
        }
        let shared = Arc::new(Shared {
            sink: Arc::new(ProgressSink::default()),
            models: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        let thread = std::thread::spawn(move || report(&s, start));
        Progress {
            shared: Some(shared),
            thread: Some(thread),
        }
    }

    /// The sink the engine publishes into (`None` = nobody is listening).
    pub fn sink(&self) -> Option<Arc<ProgressSink>> {
        self.shared.as_ref().map(|s| s.sink.clone())
    }

    pub fn model_found(&self) {
        if let Some(s) = &self.shared {
            s.models.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Stop and join the reporter.
    pub fn stop(mut self) {
        if let Some(s) = &self.shared {
            s.stop.store(true, Ordering::Relaxed);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn report(s: &Shared, start: Instant) {
    let mut next = start + FIRST_AFTER;
    let (mut last_decisions, mut last_time) = (0u64, start);
    while !s.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let now = Instant::now();
        if now < next {
            continue;
        }
        next = now + EVERY;
        let totals = s.sink.totals();
        let line = if let Some((d, conflicts, learned)) = totals {
            let rate = d.saturating_sub(last_decisions) as f64 / (now - last_time).as_secs_f64();
            (last_decisions, last_time) = (d, now);
            format!(
                "[{:>7.1}s] choices {d} ({rate:.0}/s), conflicts {conflicts}, learned {learned}, models {}",
                (now - start).as_secs_f64(),
                s.models.load(Ordering::Relaxed),
            )
        } else {
            format!(
                "[{:>7.1}s] searching (no counters yet: the engines are being built), models {}",
                (now - start).as_secs_f64(),
                s.models.load(Ordering::Relaxed)
            )
        };
        eprintln!("{line}");
    }
}
