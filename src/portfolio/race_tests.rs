//! Tests of the race: fake GPU members, host threads enumerating and proving.

use super::*;
use crate::engine::cpu::tests::{opts, prog};
use crate::engine::Model;
use crate::engine::{Heuristic, Learning};
use lparse::Rule;

/// A stand-in for the GPU member: answers `answer` at once, or (with `None`) searches until
/// the race stops it, or fails.
struct Fake {
    answer: Option<Result<Step, ()>>,
    stats: Stats,
}

impl Engine for Fake {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        match self.answer.take() {
            Some(Ok(step)) => Ok(step),
            Some(Err(())) => Err(EngineError::Device("fake fault".into())),
            None => {
                while !limits.reached() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(Step::Stopped)
            }
        }
    }
    fn stats(&self) -> &Stats {
        &self.stats
    }
}

/// `{a; b}. :- a, b. :- not a, not b.` — two models, {a} and {b} (atoms 1 and 2).
fn two_models() -> GroundProgram {
    let p = prog(vec![
        Rule::choice(&[1, 2], &[]),
        Rule::normal(&[], &[1, 2]),
        Rule::normal(&[], &[-1, -2]),
    ]);
    crate::analyse::analyse(&p).unwrap()
}

/// The host member's preparation, slowed down so that a GPU member answering at once is
/// surely first.
fn slow_complete(p: &GroundProgram) -> Completion {
    std::thread::sleep(Duration::from_millis(300));
    crate::nogoods::complete(p)
}

fn race(answer: Option<Result<Step, ()>>) -> Race {
    race_with(answer, crate::nogoods::complete)
}

fn race_with(answer: Option<Result<Step, ()>>, complete: fn(&GroundProgram) -> Completion) -> Race {
    let stats = Stats {
        gpu_searches: 7,
        ..Stats::default()
    };
    let host = opts(Learning::Res, Heuristic::Activity, 1);
    let hosts = vec![(host, "base")];
    let mut r = Race::start(two_models(), HostCompletion::Make(complete), hosts, None).unwrap();
    r.add_gpu(Box::new(Fake { answer, stats }));
    r
}

#[test]
fn the_host_member_answers_when_the_gpu_member_does_not() {
    let mut r = race(None);
    let limits = Limits::none();
    let Ok(Step::Model(m)) = r.next_model(&limits) else {
        panic!("no model")
    };
    assert!(m.atoms == vec![1] || m.atoms == vec![2], "{m:?}");
    let line = &r.stats().portfolio;
    assert!(line.contains("answer from the CPU engine;"), "{line}");
    assert!(line.contains("7 GPU searches"), "{line}");
    // The race is the host member alone now: the other model, then no more.
    let Ok(Step::Model(m2)) = r.next_model(&limits) else {
        panic!("no second model")
    };
    assert_ne!(m, m2);
    assert_eq!(r.next_model(&limits).unwrap(), Step::Exhausted);
}

#[test]
fn the_gpu_members_answer_stands_when_it_comes_first() {
    let model = Model { atoms: vec![2] };
    let mut r = race_with(Some(Ok(Step::Model(model.clone()))), slow_complete);
    assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Model(model));
    assert!(r.stats().portfolio.contains("from the GPU engine"));
}

#[test]
fn a_later_gpu_member_is_built_when_its_completion_is_ready() {
    let host = opts(Learning::Res, Heuristic::Activity, 1);
    let hosts = vec![(host, "base")];
    let mut r = Race::start(
        two_models(),
        HostCompletion::Make(slow_complete),
        hosts,
        None,
    )
    .unwrap();
    let model = Model { atoms: vec![1] };
    let answer = Some(Ok(Step::Model(model.clone())));
    let build: GpuBuild = Box::new(move |_, completion| {
        assert!(
            completion.db.len() > 0,
            "built from the device's completion"
        );
        let stats = Stats {
            gpu_searches: 3,
            ..Stats::default()
        };
        Ok(Box::new(Fake { answer, stats }) as Box<dyn Engine + Send>)
    });
    r.add_gpu_later(two_models(), crate::nogoods::complete, build, Vec::new())
        .unwrap();
    assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Model(model));
    assert!(r.stats().portfolio.contains("answer from the GPU engine"));
}

#[test]
fn a_host_answer_before_the_device_completion_skips_the_gpu_member() {
    fn never(p: &GroundProgram) -> Completion {
        std::thread::sleep(Duration::from_secs(30));
        crate::nogoods::complete(p)
    }
    let host = opts(Learning::Res, Heuristic::Activity, 1);
    let make = HostCompletion::Make(crate::nogoods::complete);
    let mut r = Race::start(two_models(), make, vec![(host, "base")], None).unwrap();
    let build: GpuBuild = Box::new(|_, _| panic!("the GPU member is not needed"));
    r.add_gpu_later(two_models(), never, build, Vec::new())
        .unwrap();
    let t = Instant::now();
    assert!(matches!(r.next_model(&Limits::none()), Ok(Step::Model(_))));
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "did not wait for the device"
    );
}

#[test]
fn a_failing_gpu_member_leaves_the_answer_to_the_host_member() {
    let mut r = race(Some(Err(())));
    assert!(matches!(r.next_model(&Limits::none()), Ok(Step::Model(_))));
    assert!(r.stats().portfolio.contains("from the CPU engine"));
}

#[test]
fn without_a_gpu_member_the_host_member_answers_alone() {
    let host = opts(Learning::Res, Heuristic::Activity, 1);
    let make = HostCompletion::Make(crate::nogoods::complete);
    let mut r = Race::start(two_models(), make, vec![(host, "base")], None).unwrap();
    assert!(matches!(r.next_model(&Limits::none()), Ok(Step::Model(_))));
    assert!(r.stats().portfolio.is_empty());
}

/// `k` host threads over `p`: decisions on variables with resolution, and on rules with
/// forward learning, in turn, each with its own seed.
fn threads(p: GroundProgram, k: usize) -> Race {
    use crate::engine::cpu::tests::opts_vars;
    let hosts = (0..k as u64)
        .map(|i| match i % 2 {
            0 => (opts_vars(Learning::Res, Heuristic::Activity, 1 + i), "vars"),
            _ => (opts(Learning::Fwd, Heuristic::Jw, 1 + i), "rules-fwd"),
        })
        .collect();
    let completion = HostCompletion::Ready(crate::nogoods::complete_native(&p));
    Race::start(p, completion, hosts, None).unwrap()
}

#[test]
fn host_threads_enumerate_every_model_once() {
    // {a;b;c} with at least one: 7 models, whichever thread answers first.
    for k in [2, 4, 13] {
        let p = prog(vec![
            Rule::choice(&[1, 2, 3], &[]),
            Rule::normal(&[], &[-1, -2, -3]),
        ]);
        let mut r = threads(crate::analyse::analyse(&p).unwrap(), k);
        let limits = Limits::none();
        let mut seen = std::collections::HashSet::new();
        loop {
            match r.next_model(&limits).unwrap() {
                Step::Model(m) => assert!(seen.insert(m.atoms), "a model repeated"),
                Step::Exhausted => break,
                Step::Stopped | Step::Limit => panic!("stopped without limits"),
            }
        }
        assert_eq!(seen.len(), 7, "{k} threads");
        let line = &r.stats().portfolio;
        assert!(line.contains(&format!("({k} threads)")), "{line}");
        assert!(line.contains("answer from CPU thread"), "{line}");
    }
}

#[test]
fn host_threads_prove_unsatisfiability() {
    // Pigeons: 4 into 3 holes (no model), hard enough for some conflicts and sharing.
    let mut rules = Vec::new();
    let var = |p: i32, h: i32| 1 + p * 3 + h;
    for p in 0..4 {
        let holes = [var(p, 0), var(p, 1), var(p, 2)].map(|v| v as u32);
        rules.push(Rule::choice(&holes, &[]));
        rules.push(Rule::normal(&[], &[-var(p, 0), -var(p, 1), -var(p, 2)]));
    }
    for h in 0..3 {
        for p in 0..4 {
            for q in p + 1..4 {
                rules.push(Rule::normal(&[], &[var(p, h), var(q, h)]));
            }
        }
    }
    let g = crate::analyse::analyse(&prog(rules)).unwrap();
    let mut r = threads(g, 6);
    assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Exhausted);
}

#[test]
fn an_interrupt_stops_both_members() {
    // An unsatisfiable program would be proved at once; a stopped race must not wait for
    // the host member beyond the interrupt: the user's flag is set before the race runs.
    let mut r = race(None);
    let limits = Limits::none();
    limits.interrupt.store(true, Ordering::Relaxed);
    let step = r.next_model(&limits).unwrap();
    // The host member may have answered before it saw the stop; either is a right answer.
    assert!(matches!(step, Step::Stopped | Step::Model(_)), "{step:?}");
}

/// `pigeons` into `holes`: no model when there are more pigeons.
fn pigeons(pigeons: i32, holes: i32) -> GroundProgram {
    let var = |p: i32, h: i32| (1 + p * holes + h) as u32;
    let mut rules = Vec::new();
    for p in 0..pigeons {
        let at: Vec<u32> = (0..holes).map(|h| var(p, h)).collect();
        rules.push(Rule::choice(&at, &[]));
        let none: Vec<i32> = at.iter().map(|&v| -(v as i32)).collect();
        rules.push(Rule::normal(&[], &none));
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                rules.push(Rule::normal(&[], &[var(p, h) as i32, var(q, h) as i32]));
            }
        }
    }
    crate::analyse::analyse(&prog(rules)).unwrap()
}

/// The GPU member as the search kernel compiled for the host, 4 searches (seed `seed`).
fn emulated_with(
    g: &GroundProgram,
    c: &Completion,
    seed: u64,
) -> Result<crate::engine::gpu::engine::ManyEngine, String> {
    use crate::engine::gpu::engine::{Backend, ManyEngine};
    let opts = crate::engine::DeviceOptions {
        learning: Learning::Res,
        heuristic: Heuristic::Activity,
        decide: crate::engine::GpuDecide::Vsids,
        seed,
        sums: crate::engine::Sums::Native,
        searches: Some(4),
        cubes: None,
        split: 1000,
        arena_words: crate::engine::gpu::engine::ARENA_WORDS,
        gpu: 0,
        limit: crate::engine::SolveLimit::NONE,
        room: 0,
        own_stream: false,
    };
    ManyEngine::new(g, c, opts, Backend::Emulated).map_err(|e| e.to_string())
}

fn emulated(g: &GroundProgram, c: &Completion) -> Result<Box<dyn Engine + Send>, String> {
    emulated_with(g, c, 1).map(|e| Box::new(e) as Box<dyn Engine + Send>)
}

/// The members of `n` further (emulated) GPUs.
fn further(n: u32) -> Vec<GpuBuild> {
    (1..=n)
        .map(|k| {
            Box::new(move |g: &GroundProgram, c: &Completion| {
                emulated_with(g, c, 1 + u64::from(k)).map(|e| Box::new(e) as Box<dyn Engine + Send>)
            }) as GpuBuild
        })
        .collect()
}

/// A race of one host thread (its completion made by `host`, slowly, so that the GPU member
/// searches first) and the emulated GPU member (its completion by `device`) on `p`.
fn with_emulated_gpu(
    p: GroundProgram,
    host: fn(&GroundProgram) -> Completion,
    device: fn(&GroundProgram) -> Completion,
) -> Race {
    with_emulated_gpus(p, host, device, 0)
}

/// As [`with_emulated_gpu`], with `more` further emulated GPUs.
fn with_emulated_gpus(
    p: GroundProgram,
    host: fn(&GroundProgram) -> Completion,
    device: fn(&GroundProgram) -> Completion,
    more: u32,
) -> Race {
    let hosts = vec![(opts(Learning::Res, Heuristic::Activity, 1), "base")];
    let mut r = Race::start(p.clone(), HostCompletion::Make(host), hosts, None).unwrap();
    r.add_gpu_later(p, device, Box::new(emulated), further(more))
        .unwrap();
    r
}

#[test]
fn the_gpu_member_shares_with_the_host_threads_over_one_completion() {
    fn slow_native(p: &GroundProgram) -> Completion {
        std::thread::sleep(Duration::from_millis(100));
        crate::nogoods::complete_native(p)
    }
    for _ in 0..3 {
        let mut r = with_emulated_gpu(pigeons(8, 7), slow_native, crate::nogoods::complete_native);
        assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Exhausted);
        let line = &r.stats().portfolio;
        assert!(line.contains("4 GPU searches"), "{line}");
        // The GPU member took part in the exchange: both completions are the same.
        assert_eq!(Some(host_space(&r)), r.gpu_space, "{line}");
        if line.contains("answer from the CPU engine") {
            assert!(line.contains("the GPU gave the CPU threads"), "{line}");
        }
    }
}

/// The host threads' `variable_space`, once their completion is made.
fn host_space(r: &Race) -> u64 {
    let t = Instant::now();
    loop {
        if let Some(&h) = r.host_space.get() {
            return h;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "no host completion");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn nothing_crosses_to_a_gpu_member_on_another_completion() {
    // d :- 2 { a; b; c }: translated for the host, native on the device.
    let p = prog(vec![
        Rule::choice(&[1, 2, 3], &[]),
        Rule::sum(&[4], 2, &[(1, 1), (2, 1), (3, 1)]),
        Rule::normal(&[], &[-4]),
    ]);
    let g = crate::analyse::analyse(&p).unwrap();
    let mut r = with_emulated_gpu(g, slow_complete, crate::nogoods::complete_all_native);
    assert!(matches!(r.next_model(&Limits::none()), Ok(Step::Model(_))));
    // The GPU member was built (the host threads were still completing) but its link stays
    // closed: the two completions differ.
    let gpu = r.gpu_space.expect("the GPU member joined");
    assert_ne!(host_space(&r), gpu);
    let line = r.describe(Who::Gpu(0), Some(&Stats::default()));
    assert!(line.contains("no nogoods crossed"), "{line}");
}

#[test]
fn a_further_gpu_s_answer_is_the_race_s() {
    let hosts = vec![(opts(Learning::Res, Heuristic::Activity, 1), "base")];
    let make = HostCompletion::Make(slow_complete);
    let mut r = Race::start(two_models(), make, hosts, None).unwrap();
    // GPU 0's member searches until stopped; GPU 1's answers once built, after GPU 0's (a
    // further GPU that answers before GPU 0's member is built leaves it out of the race).
    let stats = Stats {
        gpu_searches: 5,
        ..Stats::default()
    };
    let gpu0 = stats.clone();
    let build: GpuBuild = Box::new(move |_, _| {
        Ok(Box::new(Fake {
            answer: None,
            stats: gpu0,
        }) as Box<dyn Engine + Send>)
    });
    let model = Model { atoms: vec![2] };
    let answer = Some(Ok(Step::Model(model.clone())));
    let gpu1: GpuBuild = Box::new(move |_, _| {
        std::thread::sleep(Duration::from_millis(100));
        Ok(Box::new(Fake { answer, stats }) as Box<dyn Engine + Send>)
    });
    r.add_gpu_later(two_models(), crate::nogoods::complete, build, vec![gpu1])
        .unwrap();
    assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Model(model));
    let line = &r.stats().portfolio;
    assert!(
        line.contains("answer from the GPU engine on GPU 1"),
        "{line}"
    );
    assert!(line.contains("10 GPU searches on 2 GPUs"), "{line}");
    assert!(
        line.contains("the further GPUs gave 0 nogoods and took 0"),
        "{line}"
    );
}

#[test]
fn several_emulated_gpus_prove_and_enumerate_with_the_host_threads() {
    fn slow_native(p: &GroundProgram) -> Completion {
        std::thread::sleep(Duration::from_millis(100));
        crate::nogoods::complete_native(p)
    }
    for more in [1, 2] {
        let mut r = with_emulated_gpus(
            pigeons(8, 7),
            slow_native,
            crate::nogoods::complete_native,
            more,
        );
        assert_eq!(r.next_model(&Limits::none()).unwrap(), Step::Exhausted);
        // Both models of two_models, each once, whoever answers first.
        let mut r = with_emulated_gpus(two_models(), slow_complete, crate::nogoods::complete, more);
        let mut models = Vec::new();
        loop {
            match r.next_model(&Limits::none()).unwrap() {
                Step::Model(m) => models.push(m.atoms),
                Step::Exhausted => break,
                Step::Stopped | Step::Limit => panic!("stopped without a limit"),
            }
        }
        models.sort();
        assert_eq!(models, vec![vec![1], vec![2]], "{more} further GPUs");
    }
}

#[test]
fn a_race_stopped_by_its_deadline_reports_its_search_time() {
    // Regression: stopped without an answer, the race summed its threads' counts but left
    // the search time at zero, so `--stats` printed every rate as 0.0.
    let mut r = threads(pigeons(12, 11), 2);
    let limits = Limits {
        deadline: Some(Instant::now() + Duration::from_millis(300)),
        ..Limits::none()
    };
    assert_eq!(r.next_model(&limits).unwrap(), Step::Stopped);
    let s = r.stats();
    assert!(s.conflicts > 0, "the threads searched");
    assert!(
        s.search_time >= Duration::from_millis(200),
        "{:?}",
        s.search_time
    );
    assert!(s.per_second(s.conflicts) > 0.0);
}

#[test]
fn a_gpu_member_still_being_built_at_the_deadline_is_left_behind() {
    // Regression: the member was built on the caller's thread, so a build slower than the
    // time left held the race past its deadline until the build ended (seconds, on a program
    // of millions of rules).
    let hosts = vec![(opts(Learning::Res, Heuristic::Activity, 1), "base")];
    let make = HostCompletion::Make(crate::nogoods::complete);
    let mut r = Race::start(pigeons(12, 11), make, hosts, None).unwrap();
    let build: GpuBuild = Box::new(|_, _| {
        std::thread::sleep(Duration::from_secs(20));
        Err("built too late".into())
    });
    r.add_gpu_later(pigeons(12, 11), crate::nogoods::complete, build, Vec::new())
        .unwrap();
    let t = Instant::now();
    let limits = Limits {
        deadline: Some(t + Duration::from_millis(300)),
        ..Limits::none()
    };
    assert_eq!(r.next_model(&limits).unwrap(), Step::Stopped);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}
