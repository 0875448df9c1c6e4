//! The progress line (`--progress`) shows counters from every engine: one host thread, the
//! host threads' race, the default portfolio (without a GPU here: the host threads), the
//! emulated GPU engine, and the optimisation race.

mod common;
use common::bin::{gringo, yasmin};

/// Pigeonhole 11 into 10: no model, and far more than the run's 4 s of search for every engine.
const PIGEONS: &str =
    "p(1..11). h(1..10). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q.";

/// The same with an objective (the optimisation race runs under `-t 2`).
const PIGEONS_OPT: &str =
    "p(1..11). h(1..10). { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q. \
                           placed(P) :- in(P,H). #minimize { 1,P : p(P), not placed(P) }. \
                           :- not placed(1). :- not placed(2).";

/// The counters of the progress lines in `stderr`: (choices, conflicts) of each line that has them.
fn counters(stderr: &str) -> Vec<(u64, u64)> {
    stderr
        .lines()
        .filter(|l| l.starts_with('[') && l.contains("] choices "))
        .map(|l| {
            let num = |key: &str| -> u64 {
                let at = l.find(key).unwrap() + key.len();
                l[at..]
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            (num("] choices "), num(", conflicts "))
        })
        .collect()
}

#[test]
fn every_engine_publishes_its_counters_to_the_progress_line() {
    let aspif = gringo(PIGEONS, &[]);
    let opt = gringo(PIGEONS_OPT, &[]);
    let runs: [(&[u8], &[&str]); 5] = [
        (&aspif, &["--engine=cpu", "-t", "1"]),
        (&aspif, &["--engine=cpu", "-t", "2"]),
        (&aspif, &[]),
        (&aspif, &["--engine=emu"]),
        (&opt, &["--engine=cpu", "-t", "2"]),
    ];
    for (input, extra) in runs {
        let mut args = vec!["-", "--progress", "--time-limit=5", "-q"];
        args.extend_from_slice(extra);
        let r = yasmin(&args, Some(input));
        let seen = counters(&r.stderr);
        assert!(
            !seen.is_empty() && seen.iter().all(|&(d, c)| d > 0 && c > 0),
            "{extra:?}: progress lines without counters:\n{}",
            r.stderr
        );
    }
}
