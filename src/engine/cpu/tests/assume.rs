//! Search under assumptions (`assume.rs`): models that hold the assumptions, and cores.

use super::*;

/// Search under assumptions (`assume.rs`), every configuration: `{a1;a2;a3;a4}.`,
/// `:- a1, a2.`, `a4 :- a3.`. Assuming a1, a2 and ¬a4 fails with a core of assumptions that
/// cannot hold together (a1 and a2, perhaps ¬a4, never more); assuming a3 and ¬a4 fails with
/// exactly those two; assuming a1 and a3 gives a model holding both; a later search with no
/// assumptions finds every model again.
#[test]
fn assumptions_give_models_or_cores() {
    let p = prog(vec![
        choice(&[1, 2, 3, 4], &[]),
        normal(0, &[1, 2]),
        normal(4, &[3]),
    ]);
    for (l, h) in ALL {
        for o in [opts(l, h, 3), opts_vars(l, h, 3)] {
            let mut e = engine_for(&p, o);
            let limits = Limits::none();
            e.set_assumptions(&[Lit::t(1), Lit::t(2), Lit::f(4)]);
            assert_eq!(e.next_model(&limits).unwrap(), Step::Exhausted);
            let mut core = e.core.clone().expect("a core");
            core.sort();
            assert!(
                core.contains(&Lit::t(1)) && core.contains(&Lit::t(2)),
                "{core:?}"
            );
            assert!(core.len() <= 3, "{core:?}");
            e.set_assumptions(&[Lit::t(3), Lit::f(4)]);
            assert_eq!(e.next_model(&limits).unwrap(), Step::Exhausted);
            let mut core = e.core.clone().expect("a core");
            core.sort();
            assert_eq!(core, vec![Lit::t(3), Lit::f(4)], "{l:?}/{h:?}");
            e.set_assumptions(&[Lit::t(1), Lit::t(3)]);
            match e.next_model(&limits).unwrap() {
                Step::Model(m) => assert!(m.atoms.contains(&1) && m.atoms.contains(&3)),
                s => panic!("{s:?}"),
            }
            let mut fresh = engine_for(&p, o);
            let want = all_models(&mut fresh).len();
            e.set_assumptions(&[]);
            e.block = None; // the model above counts again
            assert_eq!(all_models(&mut e).len(), want, "{l:?}/{h:?}");
        }
    }
}
