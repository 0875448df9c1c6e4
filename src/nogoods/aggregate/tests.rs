//! Tests of the sum encodings (`super`).

use super::*;

/// Under the assignment `bits` (bit v - 1: variable v true): the sum of `lits` and
/// whether no nogood of `db` is violated.
pub(crate) fn sum_and_ok(
    db: &crate::nogoods::db::NogoodDb,
    lits: &[(i32, i64)],
    bits: u32,
) -> (i64, bool) {
    let holds = |l: Lit| (bits >> (l.var() - 1) & 1 == 1) == l.is_true();
    let sum = lits
        .iter()
        .filter(|&&(l, _)| holds(crate::lit::holds(l)))
        .map(|&(_, w)| w)
        .sum();
    let ok = (0..db.len()).all(|i| !db.nogood(i).iter().all(|&c| holds(Lit(c))));
    (sum, ok)
}

/// The disjunction and conjunction forms say exactly `b ↔ Σ ≥ lower`: over every
/// assignment of the literals' atoms and `b`, no nogood is violated iff `b` has the sum's
/// value. Negative literals included; a sum that is neither form is not taken.
#[test]
fn clauses_and_conjunctions_are_the_sum() {
    let cases: [(i64, &[(i32, i64)], bool); 6] = [
        (1, &[(1, 1), (-2, 1), (3, 2)], true), // 1 {a; not b; c=2}: a clause
        (2, &[(1, 3), (-2, 2), (3, 5)], true), // every weight reaches 2
        (4, &[(1, 1), (-2, 1), (3, 2)], true), // the total: a conjunction
        (6, &[(1, 3), (2, 3)], true),          // the total again
        (2, &[(1, 1), (2, 1), (3, 1)], false), // 2 of 3: neither
        (3, &[(1, 1), (2, 2)], true),          // conjunction
    ];
    for (lower, lits, form) in cases {
        let mut nb = NogoodDbBuilder::new();
        nb.reserve_vars(3);
        let b = nb.new_var();
        assert_eq!(
            clause_or_conjunction(&mut nb, b, lower, lits),
            form,
            "{lits:?} >= {lower}"
        );
        if !form {
            continue;
        }
        let db = nb.build();
        for bits in 0..16u32 {
            let (sum, ok) = sum_and_ok(&db, lits, bits);
            let b_holds = bits >> (b - 1) & 1 == 1; // atoms 1..=3, b = 4
            assert_eq!(
                ok,
                b_holds == (sum >= lower),
                "{lits:?} >= {lower}, bits {bits:04b}"
            );
        }
    }
}

/// Sums whose diagrams cannot fit: after `GIVE_UP_AFTER` given up in a row, the class skips
/// them but probes one in `PROBE_EVERY`; a class of another size still tries; a diagram that
/// fits resets its class.
#[test]
fn a_class_that_never_fits_stops_trying() {
    let mut nb = NogoodDbBuilder::new();
    let mut agg = Aggregates::with_budget(8, 0);
    // 40 literals of distinct odd weights, bound in the middle: a wide diagram.
    let wide = |shift: i32| -> Vec<(i32, i64)> {
        (1..=40).map(|i| (i + shift, 2 * i as i64 + 1)).collect()
    };
    let n = 100u32;
    for k in 0..n {
        let b = nb.new_var();
        agg.encode(&mut nb, b, 400, &wide(40 * k as i32), false);
    }
    let skipped = (n - GIVE_UP_AFTER) - (n - GIVE_UP_AFTER) / PROBE_EVERY;
    assert_eq!(agg.skipped_diagrams(), skipped as usize);
    assert_eq!(agg.adder_bodies(), n as usize);
    // Another size class (3 literals) still tries, and fits.
    let b = nb.new_var();
    agg.encode(&mut nb, b, 2, &[(9001, 1), (9002, 1), (9003, 1)], false);
    assert_eq!(agg.adder_bodies(), n as usize);
    assert_eq!(agg.skipped_diagrams(), skipped as usize);
}

/// With native sums, a small count with bound 2 or more (the device's: 3 or more) takes no
/// variable (the propagator has it), one with a weight above 1 gets its diagram's nodes, and a
/// count past `SMALL_COUNT_LITERALS` literals follows the diagram budget.
#[test]
fn small_counts_stay_native() {
    let count = |n: i32, w: i64| -> Vec<(i32, i64)> { (1..=n).map(|i| (i, w)).collect() };
    let with = |mut agg: Aggregates, lower: i64, lits: &[(i32, i64)]| {
        let mut nb = NogoodDbBuilder::new();
        for _ in 0..lits.len() {
            nb.new_var();
        }
        let b = nb.new_var();
        let fresh = agg.encode(&mut nb, b, lower, lits, false);
        (fresh, agg.finish(&mut nb).len())
    };
    let fresh = |lower: i64, lits: &[(i32, i64)]| with(Aggregates::native(), lower, lits);
    assert_eq!(fresh(3, &count(8, 1)), (0, 1));
    assert_eq!(fresh(4, &count(9, 1)), (0, 1));
    assert_eq!(fresh(2, &count(8, 1)), (0, 1));
    // The device engine's completion leaves bound 2 to the diagram, bound 3 to its counter.
    let (nodes, native) = with(Aggregates::native_device(), 2, &count(8, 1));
    assert!(nodes > 0 && native == 0);
    assert_eq!(with(Aggregates::native_device(), 3, &count(8, 1)), (0, 1));
    let (nodes, native) = fresh(3, &count(8, 2));
    assert!(nodes > 0 && native == 0);
    let (nodes, native) = fresh(3, &count(SMALL_COUNT_LITERALS as i32 + 1, 1));
    assert!(nodes > 0 && native == 0);
}
