//! JSON output (`--outf=2`) beside clingo 5.8's: `Input`, the early-stop keys, and the `Stats`
//! objects a script reads.

mod common;
use common::bin::{yasmin, Run, ROOT};
use common::clingo::{clingo58, source};

const CHOICE: &str = "{a;b}. :- a, b. #show a/0. #show b/0.";

/// JSON (`--outf=2`) names every input as clingo does (`Input`: a list, `-` as given) and says
/// how an early stop came (`"TIME LIMIT": 1`): the same keys and values as clingo 5.8's.
#[test]
fn json_inputs_and_early_stops_are_clingos() {
    let a = source("json-a.lp", CHOICE);
    let b = source("json-b.lp", "c.");
    let json = |r: &Run| -> serde_json::Value {
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    };
    let ours = json(&yasmin(&[&a, &b, "-", "--outf=2"], Some(b"d.")));
    let theirs = json(&clingo58(&[&a, &b, "-", "--outf=2"], b"d."));
    assert_eq!(ours["Input"], theirs["Input"]);
    assert_eq!(ours["Input"].as_array().map(Vec::len), Some(3));
    // A search far too long for one second (pigeonhole, 13 pigeons in 12 holes).
    let hard = source(
        "json-hard.lp",
        "p(1..13). h(1..12). 1 {in(P,H) : h(H)} 1 :- p(P). :- in(P,H), in(Q,H), P < Q.",
    );
    let ours = json(&yasmin(
        &[
            &hard,
            "--outf=2",
            "--time-limit=1",
            "--engine=cpu",
            "-t",
            "1",
        ],
        None,
    ));
    let theirs = json(&clingo58(&[&hard, "--outf=2", "--time-limit=1"], b""));
    for key in ["Result", "TIME LIMIT"] {
        assert_eq!(ours[key], theirs[key], "{key}");
    }
    assert_eq!(ours["TIME LIMIT"], 1);
}

#[test]
fn json_stats_have_clingos_objects_and_keys() {
    // The keys a script reads from clingo's `Stats` (`--outf=2 --stats`) are there, with the
    // same kind of value, and the counts of the program read agree with clingo's.
    let file = format!("{ROOT}/examples/queens.lp");
    let json = |r: &Run| -> serde_json::Value {
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    };
    let ours = json(&yasmin(
        &[&file, "--outf=2", "--stats", "-n", "0", "--engine=cpu"],
        None,
    ));
    let theirs = json(&clingo58(&[&file, "--outf=2", "--stats", "-n", "0"], b""));
    let at =
        |v: &serde_json::Value, path: &str| path.split('.').fold(v.clone(), |v, k| v[k].clone());
    for path in [
        "Stats.Core.Choices",
        "Stats.Core.Conflicts",
        "Stats.Core.Restarts",
        "Stats.More.Models",
        "Stats.More.Lemma.Sum",
        "Stats.More.Lemma.Deleted",
        "Stats.LP.Rules.Original",
        "Stats.LP.Rules.Choice.Original",
        "Stats.LP.Atoms",
        "Stats.LP.Bodies.Original",
        "Stats.LP.Tight",
        "Stats.Problem.Variables",
        "Stats.Problem.Constraints.Sum",
        "Stats.Problem.Constraints.Binary",
        "Stats.Problem.Constraints.Ternary",
    ] {
        let (o, t) = (at(&ours, path), at(&theirs, path));
        assert!(
            !o.is_null() && !t.is_null(),
            "{path}: ours {o}, clingo's {t}"
        );
        assert_eq!(o.is_u64(), t.is_u64(), "{path}: ours {o}, clingo's {t}");
    }
    for path in [
        "Stats.More.Models",
        "Stats.LP.Rules.Original",
        "Stats.LP.Atoms",
        "Stats.LP.Tight",
    ] {
        assert_eq!(at(&ours, path), at(&theirs, path), "{path}");
    }
    let types = |v: &serde_json::Value| -> Vec<String> {
        at(v, "Stats.More.Lemma.Type")
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|t| t["Type"].as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    for t in types(&ours) {
        assert!(
            types(&theirs).contains(&t),
            "lemma type {t} is not clingo's"
        );
    }
}
