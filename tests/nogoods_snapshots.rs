//! Snapshots of the completion of small programs, one nogood per line with its origin, after a
//! legend of what each variable stands for. Reviewed by hand when first written; a change in
//! any of them must be read and justified.

mod nogoods_common;

use nogoods_common::parse;
use yasmin_rs::analyse::analyse;
use yasmin_rs::nogoods::{complete, render::render};

/// The completion of `text`, with equivalence preprocessing (`eq`) or without (`--eq=0`).
fn completion(text: &str, eq: bool) -> String {
    let m = parse(text);
    let mut g = analyse(&m.program).expect("supported program");
    if !eq {
        g = g.without_equivalences();
    }
    let c = complete(&g);
    format!("{}\n{}", text.trim(), render(&g, &c, &|a| m.name(a)))
}

/// Snapshot `name` is the completion without equivalences, `name_eq` the one with them.
fn check(name: &str, text: &str) {
    insta::assert_snapshot!(name, completion(text, false));
    insta::assert_snapshot!(format!("{name}_eq"), completion(text, true));
}

#[test]
fn normal_rules() {
    check("normal_rules", "a :- b, not c. b :- not a. c :- a.");
}

#[test]
fn facts() {
    check("facts", "a. b :- a. c.");
}

#[test]
fn choice() {
    check("choice", "{a; b} :- c. c. d :- a, b.");
}

#[test]
fn constraint() {
    check("constraint", "{a; b}. :- a, not b. :- .");
}

#[test]
fn cardinality() {
    check("cardinality", "{a; b; c}. h :- 2 {1:a; 1:b; 1:c}.");
}

#[test]
fn weight_with_negative_weight() {
    check(
        "weight_with_negative_weight",
        "{a; b; c}. h :- 1 {2:a; -1:b; 1:not c}.",
    );
}

#[test]
fn externals() {
    check(
        "externals",
        "#external e. #external t=true. #external f=false. #external r=free. #external r=release. \
         #external d=true. d :- e. x :- e, t, f, r.",
    );
}

#[test]
fn shared_body() {
    check(
        "shared_body",
        "{q}. a :- q, not r. b :- not r, q. {c} :- q, not r. r :- not q.",
    );
}

#[test]
fn non_tight_atoms_keep_their_bodies() {
    // p, q on a positive cycle: p's only body is not merged with p; q's body `{p}` is p.
    check("non_tight", "{r}. p :- q, r. q :- p. q :- not r.");
}

#[test]
fn colouring_chain() {
    // one-literal bodies, atoms with one rule, constraint-only bodies sharing one variable
    check(
        "colouring_chain",
        "{c}. a :- not b. b :- c. b :- not a, d. d :- a. :- not a, not c. :- d, c.",
    );
}
