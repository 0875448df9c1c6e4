//! Snapshots of every format, with fixed times so that they are reproducible.

use super::*;
use crate::engine::stats::{GpuSetup, GpuTime};
use crate::engine::Stats;
use lparse::{Output, Program, ProgramBuilder};

fn run(format: Format, quiet: bool, models: &[&[&str]], summary: Summary) -> String {
    let level = 2 * quiet as u8;
    let quiet = Quiet {
        models: level,
        costs: level,
    };
    run_with(format, quiet, 1, models, summary)
}

/// A run with `-q` and `-V` levels.
fn run_with(
    format: Format,
    quiet: Quiet,
    verbose: u8,
    models: &[&[&str]],
    summary: Summary,
) -> String {
    let mut p = Printer::new(Vec::new(), format, quiet, "queens.aspif")
        .with_version("0.0.0")
        .with_verbose(verbose);
    p.header().unwrap();
    p.times(Duration::from_millis(12), Duration::from_millis(34))
        .unwrap();
    p.solving().unwrap();
    for m in models {
        p.model(m, None).unwrap();
    }
    p.finish(&summary).unwrap();
    String::from_utf8(p.into_inner()).unwrap()
}

fn summary(outcome: Outcome, models: u64, stats: Option<&Stats>) -> Summary<'_> {
    Summary {
        outcome,
        models,
        total: Duration::from_millis(1234),
        solving: Duration::from_millis(1000),
        first_model: (models > 0).then(|| Duration::from_millis(250)),
        unsat: Duration::from_millis(500),
        cpu: Duration::from_millis(1100),
        stats,
        problem: stats.map(|_| &PROBLEM),
        opt: None,
        cons: None,
    }
}

const PROBLEM: Problem = Problem {
    rules: 248,
    choice_rules: 6,
    atoms: 72,
    bodies: 231,
    tight: true,
    variables: 352,
    nogoods: 755,
    binary: 458,
    ternary: 90,
};

fn stats() -> Stats {
    Stats {
        decisions: 1000,
        conflicts: 400,
        propagations: 25000,
        learned: 380,
        learned_lits: 3040,
        learned_short: 0,
        loop_nogoods: 7,
        fwd_fallbacks: 12,
        fwd_lits_unknown: 0,
        unfounded_sets: 0,
        restarts: 3,
        deleted: 100,
        models: 2,
        bytes_to_device: 8000,
        bytes_from_device: 16000,
        kernel_launches: 6000,
        search_time: Duration::from_millis(500),
        device_mem: crate::engine::stats::DeviceMem {
            nogoods: 3 << 20,
            learned: 1 << 20,
            rules: 1 << 19,
            state: 1 << 19,
            driver_used: 6 << 20,
        },
        kernel_image: "cached",
        device_setup_time: Duration::from_millis(250),
        gpu_setup: GpuSetup {
            context: Duration::from_millis(200),
            image: Duration::from_millis(10),
            module: Duration::from_millis(2),
            memory: Duration::from_millis(38),
        },
        gpu_searches: 4,
        gpu_deepest: 1234,
        gpu_portfolio: "asp-luby100×2, asp-luby256-occ×2".into(),
        shared_out: 30,
        shared_in: 90,
        gpu_cubes: 64,
        gpu_cubes_refuted: 17,
        gpu_cube_splits: 5,
        gpu_bytes_per_search: 3 << 20,
        gpu_native_sums: 1,
        minimality_checks: 9,
        minimality_failed: 4,
        minimality_nogoods: 16,
        minimality_time: std::time::Duration::from_millis(300),
        gpu_bound_updates: 5,
        gpu_bound_resets: 1,
        gpu_time: GpuTime {
            run: 1000,
            propagate: 700,
            short: 400,
            resolve: 150,
            unfounded: 50,
            restart: 20,
            steps: 5000,
        },
        portfolio: "answer from the CPU engine, beside 4 GPU searches".into(),
    }
}

const TWO: &[&[&str]] = &[&["q(1,2)", "q(2,4)"], &[]];

#[test]
fn text_formats() {
    insta::assert_snapshot!(
        "text_all",
        run(
            Format::Text,
            false,
            TWO,
            summary(Outcome::Exhausted, 2, None)
        )
    );
    insta::assert_snapshot!(
        "text_enough",
        run(
            Format::Text,
            false,
            &TWO[..1],
            summary(Outcome::Enough, 1, None)
        )
    );
    insta::assert_snapshot!(
        "text_unsat",
        run(
            Format::Text,
            false,
            &[],
            summary(Outcome::Exhausted, 0, None)
        )
    );
    insta::assert_snapshot!(
        "text_timeout",
        run(
            Format::Text,
            false,
            &[],
            summary(Outcome::TimeLimit, 0, None)
        )
    );
    insta::assert_snapshot!(
        "text_interrupted_quiet",
        run(
            Format::Text,
            true,
            TWO,
            summary(Outcome::Interrupted, 2, None)
        )
    );
    let s = stats();
    insta::assert_snapshot!(
        "text_stats",
        run(
            Format::Text,
            false,
            &TWO[..1],
            summary(Outcome::Enough, 1, Some(&s))
        )
    );
}

#[test]
fn competition_formats() {
    insta::assert_snapshot!(
        "comp_all",
        run(
            Format::Competition,
            false,
            TWO,
            summary(Outcome::Exhausted, 2, None)
        )
    );
    insta::assert_snapshot!(
        "comp_one",
        run(
            Format::Competition,
            false,
            &TWO[..1],
            summary(Outcome::Enough, 1, None)
        )
    );
    insta::assert_snapshot!(
        "comp_unsat",
        run(
            Format::Competition,
            false,
            &[],
            summary(Outcome::Exhausted, 0, None)
        )
    );
    insta::assert_snapshot!(
        "comp_timeout",
        run(
            Format::Competition,
            false,
            &[],
            summary(Outcome::TimeLimit, 0, None)
        )
    );
}

#[test]
fn json_formats() {
    insta::assert_snapshot!(
        "json_all",
        run(
            Format::Json,
            false,
            TWO,
            summary(Outcome::Exhausted, 2, None)
        )
    );
    insta::assert_snapshot!(
        "json_unsat",
        run(
            Format::Json,
            false,
            &[],
            summary(Outcome::Exhausted, 0, None)
        )
    );
    let s = stats();
    insta::assert_snapshot!(
        "json_stats",
        run(
            Format::Json,
            false,
            &TWO[..1],
            summary(Outcome::Enough, 1, Some(&s))
        )
    );
}

#[test]
fn results_and_exit_codes_follow_clasp() {
    let cases = [
        (Outcome::Exhausted, 0, "UNSATISFIABLE", 20),
        (Outcome::Exhausted, 3, "SATISFIABLE", 30),
        (Outcome::Enough, 1, "SATISFIABLE", 10),
        (Outcome::TimeLimit, 0, "UNKNOWN", 1),
        (Outcome::TimeLimit, 2, "SATISFIABLE", 11),
        (Outcome::Interrupted, 0, "UNKNOWN", 1),
        (Outcome::Interrupted, 1, "SATISFIABLE", 11),
    ];
    for (outcome, models, result, code) in cases {
        let s = summary(outcome, models, None);
        assert_eq!(
            (s.result(), s.exit_code()),
            (result, code),
            "{outcome:?} {models}"
        );
    }
}

#[test]
fn shown_order_matches_clasp() {
    // The program of `{z;a;m(3);m(1);b}. q :- z.` with `#show m(7). #show x.` as gringo 5.4
    // writes it (outputs in this order); clingo 5.4 prints `m(7) x z a m(3) m(1) b q` for the
    // model with every atom true.
    let mut p = Program::default();
    for (name, cond) in [
        ("a", vec![2]),
        ("b", vec![5]),
        ("q", vec![6]),
        ("z", vec![1]),
        ("m(3)", vec![3]),
        ("m(1)", vec![4]),
        ("m(7)", vec![]),
        ("x", vec![]),
    ] {
        p.output(Output {
            name: name.into(),
            condition: cond,
        });
    }
    let t = ShownTable::new(&p);
    assert_eq!(
        t.shown(&[1, 2, 3, 4, 5, 6]),
        ["m(7)", "x", "z", "a", "m(3)", "m(1)", "b", "q"]
    );
    assert_eq!(t.shown(&[1, 6]), ["m(7)", "x", "z", "q"]);
    // Negative and multi-literal conditions.
    let mut p = Program::default();
    p.output(Output {
        name: "both".into(),
        condition: vec![1, 2],
    });
    p.output(Output {
        name: "not_a".into(),
        condition: vec![-1],
    });
    let t = ShownTable::new(&p);
    assert_eq!(t.shown(&[]), ["not_a"]);
    assert_eq!(t.shown(&[1]), Vec::<&str>::new());
    assert_eq!(t.shown(&[1, 2]), ["both"]);
}

#[test]
fn json_strings_are_escaped() {
    assert_eq!(json_str("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
}

/// Three models with costs, the last optimal (`opt`), or two improving ones and two optimal
/// ones (`optN`): what clingo 5.8 prints for them, times aside.
fn run_opt(format: Format, opt_n: bool, outcome: Outcome) -> String {
    run_opt_q(format, opt_n, outcome, Quiet::default(), 1)
}

fn run_opt_q(format: Format, opt_n: bool, outcome: Outcome, quiet: Quiet, verbose: u8) -> String {
    let mut p = Printer::new(Vec::new(), format, quiet, "b.lp")
        .with_version("0.0.0")
        .with_verbose(verbose);
    p.header().unwrap();
    p.solving().unwrap();
    p.model(&["b"], Some(&[0, 1])).unwrap();
    p.model(&["b", "d"], Some(&[-1, 1])).unwrap();
    let mut models = 2;
    let proved = outcome == Outcome::Exhausted;
    if opt_n && proved {
        p.optimal_models();
        p.model(&["b", "d"], Some(&[-1, 1])).unwrap();
        p.model(&["a", "d"], Some(&[-1, 1])).unwrap();
        models = 4;
    }
    let mut s = summary(outcome, models, None);
    s.opt = Some(OptSummary {
        costs: vec![-1, 1],
        optimum: proved,
        optimal: match (opt_n, proved) {
            (true, true) => 2,
            (false, true) => 1,
            _ => 0,
        },
        optimize: true,
    });
    p.finish(&s).unwrap();
    String::from_utf8(p.into_inner()).unwrap()
}

#[test]
fn optimisation_formats() {
    for (name, format) in [
        ("text", Format::Text),
        ("comp", Format::Competition),
        ("json", Format::Json),
    ] {
        insta::assert_snapshot!(
            format!("{name}_opt"),
            run_opt(format, false, Outcome::Exhausted)
        );
        insta::assert_snapshot!(
            format!("{name}_opt_n"),
            run_opt(format, true, Outcome::Exhausted)
        );
        insta::assert_snapshot!(
            format!("{name}_opt_timeout"),
            run_opt(format, false, Outcome::TimeLimit)
        );
    }
}

#[test]
fn optimum_is_a_result_with_clasps_exit_codes() {
    let opt = |optimum| OptSummary {
        costs: vec![3],
        optimum,
        optimal: 1,
        optimize: true,
    };
    let cases = [
        (Outcome::Exhausted, true, "OPTIMUM FOUND", 30),
        // optN stopped by -n among the optimal models.
        (Outcome::Enough, true, "OPTIMUM FOUND", 10),
        (Outcome::Enough, false, "SATISFIABLE", 10),
        (Outcome::TimeLimit, false, "SATISFIABLE", 11),
        (Outcome::Interrupted, false, "SATISFIABLE", 11),
    ];
    for (outcome, optimum, result, code) in cases {
        let mut s = summary(outcome, 2, None);
        s.opt = Some(opt(optimum));
        assert_eq!((s.result(), s.exit_code()), (result, code), "{outcome:?}");
    }
    // No model: the optimisation part does not count.
    let mut s = summary(Outcome::Exhausted, 0, None);
    s.opt = Some(opt(true));
    assert_eq!((s.result(), s.exit_code()), ("UNSATISFIABLE", 20));
}

/// clingo's `-q` levels and `-V` levels (compared with clingo 5.8 by hand: `-q1` prints the last
/// model again at the end; `-q0,1` every model without costs, then the last with them; `-V0`
/// no `Answer:` lines and no summary; `-V2` the preparation times and a rule before the result).
#[test]
fn quiet_and_verbosity_levels() {
    let q = |models, costs| Quiet { models, costs };
    let s = || summary(Outcome::Exhausted, 2, None);
    insta::assert_snapshot!("text_q1", run_with(Format::Text, q(1, 1), 1, TWO, s()));
    insta::assert_snapshot!("text_v0", run_with(Format::Text, q(0, 0), 0, TWO, s()));
    insta::assert_snapshot!("text_v2", run_with(Format::Text, q(0, 0), 2, TWO, s()));
    insta::assert_snapshot!(
        "comp_q2",
        run_with(Format::Competition, q(2, 2), 1, TWO, s())
    );
    insta::assert_snapshot!(
        "comp_v0",
        run_with(Format::Competition, q(0, 0), 0, TWO, s())
    );
    insta::assert_snapshot!("json_q1", run_with(Format::Json, q(1, 1), 1, TWO, s()));
    let e = Outcome::Exhausted;
    insta::assert_snapshot!(
        "text_opt_q0_1",
        run_opt_q(Format::Text, false, e, q(0, 1), 1)
    );
    insta::assert_snapshot!(
        "text_opt_q1_0",
        run_opt_q(Format::Text, false, e, q(1, 0), 1)
    );
    insta::assert_snapshot!(
        "text_opt_q2_v0",
        run_opt_q(Format::Text, false, e, q(2, 0), 0)
    );
}

/// `--enum-mode=brave|cautious`: each answer is the consequences so far with clasp's estimate;
/// the summary says `Brave`/`Cautious` and the final count (`+` when not exhausted).
fn run_cons(format: Format, brave: bool, outcome: Outcome) -> String {
    let mut p =
        Printer::new(Vec::new(), format, Quiet::default(), "queens.aspif").with_version("0.0.0");
    p.header().unwrap();
    p.solving().unwrap();
    let steps: &[(&[&str], u64, u64)] = if brave {
        &[(&["a"], 1, 3), (&["a", "c"], 2, 3)]
    } else {
        &[(&["a", "c"], 0, 2), (&["a"], 1, 1)]
    };
    for &(shown, lo, hi) in steps {
        p.model(shown, None).unwrap();
        p.consequences(lo, hi).unwrap();
    }
    let mut s = summary(outcome, 2, None);
    // The run makes the estimate exact once every answer set is accounted for.
    let &(_, lower, upper) = steps.last().unwrap();
    let upper = if outcome == Outcome::Exhausted {
        lower
    } else {
        upper
    };
    s.cons = Some(ConsSummary {
        brave,
        lower,
        upper,
    });
    p.finish(&s).unwrap();
    String::from_utf8(p.into_inner()).unwrap()
}

#[test]
fn consequence_formats() {
    for (name, format) in [
        ("text", Format::Text),
        ("comp", Format::Competition),
        ("json", Format::Json),
    ] {
        insta::assert_snapshot!(
            format!("{name}_brave"),
            run_cons(format, true, Outcome::Exhausted)
        );
        insta::assert_snapshot!(
            format!("{name}_cautious_enough"),
            run_cons(format, false, Outcome::Enough)
        );
    }
}

#[test]
fn json_writes_each_witness_when_the_next_one_comes() {
    // The document is written as the witnesses come (memory flat in their number, a closed
    // pipe noticed at once), and is the same document as one written at the end.
    let mut p = Printer::new(Vec::new(), Format::Json, Quiet::default(), "queens.aspif")
        .with_version("0.0.0");
    p.header().unwrap();
    p.solving().unwrap();
    for k in 0..5 {
        p.model(&[&format!("a{k}")], None).unwrap();
        p.consequences(k, 5).unwrap();
    }
    let before_finish = String::from_utf8(p.out.clone()).unwrap();
    assert!(before_finish.contains("\"a3\""), "{before_finish}");
    assert!(
        !before_finish.contains("\"a4\""),
        "the last is held for its estimate"
    );
    assert_eq!(p.held.len(), 1);
    p.finish(&summary(Outcome::Exhausted, 5, None)).unwrap();
    let streamed = String::from_utf8(p.into_inner()).unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&streamed).expect("one JSON document");
    let w = &parsed["Call"][0]["Witnesses"];
    assert_eq!(w.as_array().map(Vec::len), Some(5));
    assert_eq!(w[2]["Consequences"]["True"], 2);
    assert_eq!(w[4]["Value"][0], "a4");
}
