//! The writers' translations of what a format cannot say directly (negative weights, sum bodies
//! under choice/disjunctive heads or in constraints, outputs with general conditions), checked
//! against a hand-translated program by comparing clingo's answer sets (optimal ones here).

mod common;

use common::{answer_sets, to_aspif, to_smodels};
use lparse::{Body, Head, HeadKind, Minimize, Output, Program, ProgramBuilder, Rule, WLit};

fn w(lit: i32, weight: i64) -> WLit {
    WLit { lit, weight }
}

fn rule(kind: HeadKind, atoms: &[u32], body: Body) -> Rule {
    Rule {
        head: Head {
            kind,
            atoms: atoms.to_vec(),
        },
        body,
    }
}

/// The program with negative weights (`normalised = false`) or its hand translation.
fn program(normalised: bool) -> Program {
    use HeadKind::*;
    let mut p = Program::default();
    p.rule(rule(Choice, &[1, 2, 3], Body::Normal(vec![])));
    p.rule(rule(
        Disjunctive,
        &[4],
        if normalised {
            Body::Sum {
                lower: 4,
                lits: vec![w(-1, 2), w(2, 3), w(3, 1)],
            }
        } else {
            Body::Sum {
                lower: 1,
                lits: vec![w(1, -2), w(2, 3), w(-3, -1)],
            }
        },
    ));
    p.rule(rule(
        Disjunctive,
        &[],
        Body::Sum {
            lower: 3,
            lits: vec![w(1, 1), w(2, 1), w(3, 1)],
        },
    ));
    p.rule(rule(
        Choice,
        &[5],
        if normalised {
            Body::Sum {
                lower: 2,
                lits: vec![w(4, 2), w(-1, 1)],
            }
        } else {
            Body::Sum {
                lower: 1,
                lits: vec![w(4, 2), w(1, -1)],
            }
        },
    ));
    p.rule(rule(
        Disjunctive,
        &[6, 7],
        Body::Sum {
            lower: 1,
            lits: vec![w(5, 1), w(2, 2)],
        },
    ));
    p.rule(rule(Disjunctive, &[], Body::Normal(vec![6, -2])));
    p.minimize(Minimize {
        priority: 5,
        lits: if normalised {
            vec![w(-1, 1), w(2, 2)]
        } else {
            vec![w(1, -1), w(2, 2)]
        },
    });
    p.minimize(Minimize {
        priority: 1,
        lits: vec![w(3, 1)],
    });
    for a in 1..=7 {
        p.output(Output {
            name: format!("a{a}"),
            condition: vec![a],
        });
    }
    p.output(Output {
        name: "x".into(),
        condition: vec![1, -2],
    });
    p.output(Output {
        name: "y".into(),
        condition: vec![],
    });
    p.output(Output {
        name: "z".into(),
        condition: vec![-3],
    });
    p
}

#[test]
fn negative_weights_and_aux_atoms_keep_answer_sets() {
    let reference = program(true);
    let negative = program(false);
    for optimize in [false, true] {
        let Some(expected) = answer_sets(&to_aspif(&reference), optimize) else {
            return;
        };
        assert!(!expected.is_empty());
        // Through the smodels writer (aux atoms, false atom, normalised weights) ...
        let sm = to_smodels(&negative);
        let back = lparse::read(&sm, "written.smodels").unwrap();
        assert!(back.max_atom > negative.max_atom, "aux atoms were expected");
        let got = answer_sets(&sm, optimize).unwrap();
        assert_eq!(got, expected, "{}", String::from_utf8_lossy(&sm));
        assert_eq!(answer_sets(&to_aspif(&back), optimize).unwrap(), expected);
        // ... and through the aspif writer, which must normalise negative sum weights too.
        let asp = to_aspif(&negative);
        let got = answer_sets(&asp, optimize).unwrap();
        assert_eq!(got, expected, "{}", String::from_utf8_lossy(&asp));
    }
}

#[test]
fn unwritable_statements_are_invalid_input() {
    let mut p = Program::default();
    p.project(vec![]);
    let e = lparse::write_smodels(&p, &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(e.to_string().contains("projection"), "{e}");
    let mut p = Program::default();
    p.theory();
    assert!(lparse::write_aspif(&p, &mut Vec::new())
        .unwrap_err()
        .to_string()
        .contains("theory"));
    // An atom above the declared max_atom is refused, not silently clashing with aux atoms.
    let mut out = Vec::new();
    let mut writer = lparse::SmodelsWriter::new(&mut out, 2);
    writer.rule(rule(HeadKind::Disjunctive, &[3], Body::Normal(vec![])));
    assert!(writer
        .finish()
        .unwrap_err()
        .to_string()
        .contains("max_atom"));
    // Weights outside 32 bits cannot be written.
    let mut p = Program::default();
    p.rule(rule(
        HeadKind::Disjunctive,
        &[1],
        Body::Sum {
            lower: 0,
            lits: vec![w(2, 1 << 40)],
        },
    ));
    assert!(lparse::write_smodels(&p, &mut Vec::new()).is_err());
    assert!(lparse::write_aspif(&p, &mut Vec::new()).is_err());
}
