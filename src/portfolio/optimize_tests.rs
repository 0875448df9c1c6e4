//! Tests of the optimisation race with the GPU engine's kernel (emulated on the host) as a
//! member, beside host threads or alone: clasp's loop as `run/enumerate.rs` runs it.

use super::*;
use crate::engine::cpu::tests::{opts, prog};
use crate::engine::cpu::CpuEngine;
use crate::engine::gpu::engine::{Backend, ManyEngine};
use crate::engine::{DeviceOptions, Heuristic, Learning};
use crate::portfolio::gpu_join::GpuBuild;
use lparse::{Minimize, ProgramBuilder, Rule, WLit};

/// `{a1..a7}.`, `:- not a1, not a2.`, `:- a3, a4.`; minimise (priority 1) 3·a1 + 2·a2 +
/// a5 − a6 and (priority 0) a3 + a4 + not a5 (the test takes the optimum and the optimal
/// models from the host engine alone).
fn program() -> GroundProgram {
    crate::analyse::analyse(&input()).unwrap()
}

/// The input program of [`program`].
fn input() -> lparse::Program {
    let mut p = prog(vec![
        Rule::choice(&[1, 2, 3, 4, 5, 6, 7], &[]),
        Rule::normal(&[], &[-1, -2]),
        Rule::normal(&[], &[3, 4]),
    ]);
    let wl = |lit, weight| WLit { lit, weight };
    p.minimize(Minimize {
        priority: 1,
        lits: vec![wl(1, 3), wl(2, 2), wl(5, 1), wl(6, -1)],
    });
    p.minimize(Minimize {
        priority: 0,
        lits: vec![wl(3, 1), wl(4, 1), wl(-5, 1)],
    });
    p
}

fn device_opts(searches: u32, seed: u64) -> DeviceOptions {
    DeviceOptions {
        learning: Learning::Res,
        heuristic: Heuristic::Activity,
        decide: crate::engine::GpuDecide::Vsids,
        seed,
        sums: crate::engine::Sums::Translate,
        searches: Some(searches),
        cubes: None,
        split: 1000,
        arena_words: crate::engine::gpu::engine::ARENA_WORDS,
        gpu: 0,
        limit: crate::engine::SolveLimit::NONE,
        room: 0,
        own_stream: false,
    }
}

fn emulated(searches: u32) -> GpuBuild {
    Box::new(move |g, c| {
        ManyEngine::optimising(g, c, device_opts(searches, 1), Backend::Emulated)
            .map(|e| Box::new(e) as Box<dyn Engine + Send>)
            .map_err(|e| e.to_string())
    })
}

/// The members of `n` further (emulated) GPUs.
fn further(n: u32, searches: u32) -> Vec<GpuBuild> {
    (1..=n)
        .map(|k| {
            Box::new(move |g: &GroundProgram, c: &Completion| {
                let opts = device_opts(searches, 1 + u64::from(k));
                ManyEngine::optimising(g, c, opts, Backend::Emulated)
                    .map(|e| Box::new(e) as Box<dyn Engine + Send>)
                    .map_err(|e| e.to_string())
            }) as GpuBuild
        })
        .collect()
}

/// clasp's loop (opt, then optN's optimal models): the costs of each model, and the
/// optimal models.
fn optimise(e: &mut dyn Engine) -> (Vec<Vec<i64>>, Vec<Vec<u32>>) {
    let limits = Limits::none();
    let mut costs: Vec<Vec<i64>> = Vec::new();
    loop {
        match e.next_model(&limits).unwrap() {
            Step::Model(_) => {
                let c = e.costs().unwrap();
                let b = Bound {
                    costs: c.iter().map(|&x| Some(x)).collect(),
                    strict: true,
                };
                costs.push(c);
                e.set_bound(&b).unwrap();
            }
            Step::Exhausted => break,
            Step::Stopped | Step::Limit => panic!("stopped"),
        }
    }
    let best = costs.last().cloned().unwrap();
    e.set_bound(&Bound {
        costs: best.iter().map(|&x| Some(x)).collect(),
        strict: false,
    })
    .unwrap();
    let mut optimal = Vec::new();
    while let Step::Model(m) = e.next_model(&limits).unwrap() {
        assert_eq!(e.costs().unwrap(), best);
        optimal.push(m.atoms);
    }
    optimal.sort();
    (costs, optimal)
}

fn host(n: usize) -> Vec<(HostOptions, &'static str)> {
    (0..n)
        .map(|i| {
            (
                opts(Learning::Res, Heuristic::Activity, i as u64 + 1),
                "row",
            )
        })
        .collect()
}

#[test]
fn the_gpu_member_optimises_with_the_threads_and_alone() {
    let g = program();
    let c = crate::nogoods::complete(&g);
    let mut alone = CpuEngine::new(&g, &c, opts(Learning::Res, Heuristic::Activity, 1));
    let (want_costs, want_optimal) = optimise(&mut alone);
    let want = want_costs.last().unwrap().clone();
    // Several better models before the optimum, and two optimal models (a7 is free).
    assert!(
        want_costs.len() > 3 && want_optimal.len() == 2,
        "{want_costs:?} {want_optimal:?}"
    );
    // (threads, searches, further GPUs)
    for (threads, searches, more) in [
        (0, 1, 0),
        (0, 8, 0),
        (1, 4, 0),
        (2, 8, 0),
        (0, 2, 2),
        (1, 4, 1),
    ] {
        // Optimal models are enumerated here (`optN`): no sharing.
        let mut race =
            OptRace::start(g.clone(), c.clone(), host(threads), None, None, false).unwrap();
        let extra = further(more, searches);
        race.add_gpu_later(
            g.clone(),
            crate::nogoods::complete,
            emulated(searches),
            extra,
        )
        .unwrap();
        let (costs, optimal) = optimise(&mut race);
        assert!(costs.windows(2).all(|w| w[1] < w[0]), "{costs:?}");
        assert_eq!(
            costs.last(),
            Some(&want),
            "{threads} threads, {searches} searches, {more} further GPUs"
        );
        assert_eq!(
            optimal, want_optimal,
            "{threads} threads, {searches} searches, {more} further GPUs"
        );
        let line = &race.stats().portfolio;
        if threads == 0 {
            // Alone, the GPU member found every model and the proof (beside threads it may
            // come too late to take part: the threads may be done before it is built).
            assert!(line.contains("and the GPU engine"), "{line}");
            assert!(line.contains("last model from the GPU engine"), "{line}");
            assert!(line.contains("proof from the GPU engine"), "{line}");
            assert!(race.stats().gpu_bound_updates > 0);
            if more > 0 {
                assert!(line.contains(&format!("on {} GPUs", more + 1)), "{line}");
            }
        }
    }
}

/// The last of the threads optimising by cores (`wrap/oll.rs`): with `opt` the race ends
/// with the optimum of the host engine alone, proved, whichever member finds it first; the
/// stats name the core-guided thread's row.
#[test]
fn a_core_guided_thread_proves_the_optimum_in_the_race() {
    let g = program();
    let c = crate::nogoods::complete(&g);
    let mut alone = CpuEngine::new(&g, &c, opts(Learning::Res, Heuristic::Activity, 1));
    let want = optimise(&mut alone).0.last().unwrap().clone();
    for (threads, share) in [(2, false), (3, false), (3, true), (4, true)] {
        let cores = CoreGuided {
            program: Arc::new(input()),
            eq: true,
            device: None,
        };
        let mut race = OptRace::start(
            g.clone(),
            c.clone(),
            host(threads),
            None,
            Some(cores),
            share,
        )
        .unwrap();
        let last = optimum(&mut race);
        assert_eq!(
            last,
            Some(want.clone()),
            "{threads} threads, sharing {share}"
        );
        assert!(
            race.stats().portfolio.contains("threads"),
            "{}",
            race.stats().portfolio
        );
        assert_eq!(race.rows.last(), Some(&"usc"));
        assert_eq!(
            race.stats().portfolio.contains("CPU threads shared"),
            share,
            "{}",
            race.stats().portfolio
        );
    }
}

/// Branch-and-bound threads sharing learned nogoods under their bounds (`--opt-mode=opt`)
/// end with the optimum of one engine alone, proved, on random programs with objectives.
#[test]
fn threads_sharing_under_bounds_prove_the_optimum_alone() {
    let mut imported = 0;
    for seed in 0..24u64 {
        let (g, c) = random_optimisation(seed);
        let mut alone = CpuEngine::new(&g, &c, opts(Learning::Res, Heuristic::Activity, 1));
        let want = optimum(&mut alone);
        for threads in [2, 4] {
            let mut race =
                OptRace::start(g.clone(), c.clone(), host(threads), None, None, true).unwrap();
            assert_eq!(optimum(&mut race), want, "seed {seed}, {threads} threads");
            let line = &race.stats().portfolio;
            let n = line
                .rsplit("imported ")
                .next()
                .and_then(|n| n.parse::<u64>().ok());
            imported += n.unwrap_or_else(|| panic!("no sharing counts: {line}"));
        }
    }
    assert!(
        imported > 0,
        "the threads imported nothing: the test shares nothing"
    );
}

/// Branch and bound to the proof, as `run/enumerate.rs` runs it: the optimum's costs
/// (`None`: no model); each model must cost less than the one before.
fn optimum(e: &mut dyn Engine) -> Option<Vec<i64>> {
    let limits = Limits::none();
    let mut last: Option<Vec<i64>> = None;
    loop {
        match e.next_model(&limits).unwrap() {
            Step::Model(_) => {
                let costs = e.costs().unwrap();
                assert!(
                    last.as_ref().is_none_or(|l| costs < *l),
                    "{costs:?} after {last:?}"
                );
                e.set_bound(&Bound {
                    costs: costs.iter().map(|&x| Some(x)).collect(),
                    strict: true,
                })
                .unwrap();
                last = Some(costs);
            }
            Step::Exhausted => return last,
            Step::Stopped | Step::Limit => panic!("stopped"),
        }
    }
}

/// A random program with an objective, large enough that threads learn and share: a choice
/// over 40 atoms, 120 random constraints of three literals, and two priority levels of random
/// weights.
fn random_optimisation(seed: u64) -> (GroundProgram, Completion) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let atoms: Vec<u32> = (1..=40).collect();
    let mut rules = vec![Rule::choice(&atoms, &[])];
    for _ in 0..120 {
        let body: Vec<i32> = (0..3)
            .map(|_| {
                let a = 1 + next(40) as i32;
                if next(2) == 0 {
                    a
                } else {
                    -a
                }
            })
            .collect();
        rules.push(Rule::normal(&[], &body));
    }
    let mut p = prog(rules);
    for priority in [1, 0] {
        let mut lits = Vec::new();
        for a in 1..=40 {
            if next(3) > 0 {
                lits.push(WLit {
                    lit: a,
                    weight: 1 + next(9) as i64,
                });
            }
        }
        p.minimize(Minimize { priority, lits });
    }
    let g = crate::analyse::analyse(&p).unwrap();
    let c = crate::nogoods::complete(&g);
    (g, c)
}

#[test]
fn a_slow_gpu_build_never_holds_the_race() {
    // Regression: the member was built on the caller's thread once its completion was made,
    // so the threads' models and proof waited for the build (seconds, on a program of
    // millions of rules, past the time limit).
    let g = program();
    let c = crate::nogoods::complete(&g);
    let mut race = OptRace::start(g.clone(), c, host(1), None, None, false).unwrap();
    let build: GpuBuild = Box::new(|_, _| {
        std::thread::sleep(Duration::from_secs(20));
        Err("built too late".into())
    });
    race.add_gpu_later(g, crate::nogoods::complete, build, Vec::new())
        .unwrap();
    let t = Instant::now();
    let limits = Limits::none();
    loop {
        match race.next_model(&limits).unwrap() {
            Step::Model(_) => {
                let costs = race.costs().unwrap();
                let bound = Bound {
                    costs: costs.into_iter().map(Some).collect(),
                    strict: true,
                };
                race.set_bound(&bound).unwrap();
            }
            Step::Exhausted => break,
            other => panic!("{other:?}"),
        }
    }
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}
