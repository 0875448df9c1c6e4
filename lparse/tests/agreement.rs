//! aspif and smodels agree: the same program grounded by gringo in both formats reads into
//! programs with the same shown symbols and the same answer sets (compared by clingo on the
//! shown atoms after writing both as aspif with our writer).

mod common;

use common::corpus::CASES;
use common::{answer_sets, gringo, to_aspif};
use std::collections::BTreeSet;

#[test]
fn aspif_and_smodels_agree() {
    let mut compared = 0;
    for c in CASES {
        let (Some(lp), Some(_)) = (c.lp, c.smodels) else {
            continue;
        };
        let (Some(a), Some(s)) = (gringo(lp, None), gringo(lp, Some("smodels"))) else {
            return;
        };
        let pa = lparse::read(&a, "aspif").unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let ps = lparse::read(&s, "smodels").unwrap_or_else(|e| panic!("{}: {e}", c.name));

        let names = |p: &lparse::Program| -> BTreeSet<String> {
            p.outputs.iter().map(|o| o.name.clone()).collect()
        };
        assert_eq!(names(&pa), names(&ps), "{}: shown symbols", c.name);
        assert_eq!(
            pa.minimize.len(),
            ps.minimize.len(),
            "{}: minimize statements",
            c.name
        );
        assert_eq!(
            pa.externals.len(),
            ps.externals.len(),
            "{}: externals",
            c.name
        );

        let opt = !pa.minimize.is_empty();
        let (Some(ma), Some(ms)) = (
            answer_sets(&to_aspif(&pa), opt),
            answer_sets(&to_aspif(&ps), opt),
        ) else {
            return;
        };
        assert!(
            !ma.is_empty(),
            "{}: expected at least one answer set",
            c.name
        );
        assert_eq!(ma, ms, "{}: answer sets differ", c.name);
        compared += 1;
    }
    assert!(
        compared >= 10 || !common::have("clingo"),
        "only {compared} programs compared"
    );
}
