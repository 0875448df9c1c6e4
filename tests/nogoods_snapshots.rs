//! Snapshots of the completion of small programs, one nogood per line with its origin, after a
//! legend of what each variable stands for. Reviewed by hand when first written; a change in
//! any of them must be read and justified.

mod nogoods_common;

use nogoods_common::parse;
use yasmin_rs::ground::analyse;
use yasmin_rs::nogoods::{complete, render::render};

fn completion(text: &str) -> String {
    let m = parse(text);
    let g = analyse(&m.program).expect("supported program");
    let c = complete(&g);
    format!("{}\n{}", text.trim(), render(&g, &c, &|a| m.name(a)))
}

#[test]
fn normal_rules() {
    insta::assert_snapshot!(completion("a :- b, not c. b :- not a. c :- a."));
}

#[test]
fn facts() {
    insta::assert_snapshot!(completion("a. b :- a. c."));
}

#[test]
fn choice() {
    insta::assert_snapshot!(completion("{a; b} :- c. c. d :- a, b."));
}

#[test]
fn constraint() {
    insta::assert_snapshot!(completion("{a; b}. :- a, not b. :- ."));
}

#[test]
fn cardinality() {
    insta::assert_snapshot!(completion("{a; b; c}. h :- 2 {1:a; 1:b; 1:c}."));
}

#[test]
fn weight_with_negative_weight() {
    insta::assert_snapshot!(completion("{a; b; c}. h :- 1 {2:a; -1:b; 1:not c}."));
}

#[test]
fn externals() {
    insta::assert_snapshot!(completion(
        "#external e. #external t=true. #external f=false. #external r=free. #external r=release. \
         #external d=true. d :- e. x :- e, t, f, r."
    ));
}

#[test]
fn shared_body() {
    insta::assert_snapshot!(completion(
        "{q}. a :- q, not r. b :- not r, q. {c} :- q, not r. r :- not q."
    ));
}
