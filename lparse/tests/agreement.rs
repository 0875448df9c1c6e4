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

/// clingo 5.8 as a grounder (`python3 -m clingo --mode=gringo`) tags its aspif `incremental` and
/// starts its smodels with `90 0`; both read, and agree with gringo 5.4's output.
#[test]
fn clingo_5_8_output_reads_and_agrees() {
    use std::process::{Command, Stdio};
    let available = Command::new("python3")
        .args(["-c", "import clingo"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !available {
        eprintln!("note: python3 -m clingo not available, skipped");
        return;
    }
    let ground = |lp: &str, smodels: bool| -> Vec<u8> {
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "clingo", "--mode=gringo"]);
        if smodels {
            cmd.arg("--output=smodels");
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), lp.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "clingo 5.8 failed on {lp}");
        out.stdout
    };
    // A few cases only: each call starts a Python interpreter.
    let picked = ["minimize", "ext", "show", "choicesum"];
    for c in CASES.iter().filter(|c| picked.contains(&c.name)) {
        let (Some(lp), Some(_)) = (c.lp, c.smodels) else {
            continue;
        };
        let a = ground(lp, false);
        let s = ground(lp, true);
        assert!(a.starts_with(b"asp 1 0 0 incremental"), "{}", c.name);
        assert!(s.starts_with(b"90 0\n"), "{}", c.name);
        let pa = lparse::read(&a, "clingo58.aspif").unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let ps = lparse::read(&s, "clingo58.smodels").unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let reference = lparse::read(c.smodels.unwrap().as_bytes(), "gringo54").unwrap();
        let opt = !reference.minimize.is_empty();
        let Some(expected) = answer_sets(&to_aspif(&reference), opt) else {
            return;
        };
        assert_eq!(
            answer_sets(&to_aspif(&pa), opt).unwrap(),
            expected,
            "{}: aspif",
            c.name
        );
        assert_eq!(
            answer_sets(&to_aspif(&ps), opt).unwrap(),
            expected,
            "{}: smodels",
            c.name
        );
    }
}
