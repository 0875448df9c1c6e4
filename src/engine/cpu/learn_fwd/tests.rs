//! The decision-level sets of `Deps` (`--learning=fwd`).

use super::*;

#[test]
fn sets_follow_reasons_and_truncate() {
    let mut st = Store::default();
    let mut a = Assignment::new(6);
    let mut d = Deps::new(true, FwdCut::Decisions);
    // level 1: decide T1; level 2: decide T2; nogood {T1, T2, T3} propagates F3.
    let r = st.add(
        &[Lit::t(1), Lit::t(2), Lit::t(3)],
        super::super::store::Kind::Input,
        0,
    );
    for (lit, reason, new_level) in [
        (Lit::t(1), NO_REASON, true),
        (Lit::t(2), NO_REASON, true),
        (Lit::f(3), r, false),
    ] {
        if new_level {
            a.lim.push(a.trail.len() as u32);
        }
        a.set(lit, reason);
        d.on_assign(&a, &st, lit, reason);
    }
    let mut acc = vec![0u64; 1];
    d.or_into(&a, Lit::f(3), &mut acc);
    assert_eq!(acc[0], 0b11);
    d.truncate(2);
    assert_eq!(d.start.len(), 2);
    assert!(d.usable());
}
