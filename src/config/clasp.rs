//! clasp's options and values that change how the search goes and never which answers it
//! gives, and that have no counterpart here: a clingo user's scripts pass them, so they are
//! accepted, each named once in a `*** Warn` line (not under `-V0`), instead of failing.
//!
//! Invariant: only options whose effect is on the search (signs, randomisation, restarts,
//! preprocessing of the ground program, the portfolio preset, the decision heuristic, the
//! optimisation tactic) are here; an option that changes the answers or the output (such as
//! `--solve-limit` or `--text`) is not, and stays an error until it is implemented.

use std::ffi::OsString;

/// Options dropped with their value (`--name=v` or `--name v`).
const DROPPED_WITH_VALUE: [&str; 2] = ["--sign-def", "--rand-freq"];
/// Options dropped, with a value only when attached (`--name` or `--name=v`: clasp's optional
/// values, so `--sat-prepro prog.lp` keeps the file).
const DROPPED_FLAGS: [&str; 3] = ["--restart-on-model", "--keep-facts", "--sat-prepro"];
/// clasp's portfolio presets: the search options of `--configuration`.
const PRESETS: [&str; 7] = [
    "trendy", "tweety", "frumpy", "crafty", "jumpy", "handy", "many",
];
/// clasp's decision heuristics that have none here.
const HEURISTICS: [&str; 4] = ["berkmin", "vmtf", "unit", "none"];

/// `args` with clasp's search-only options dropped or mapped to the nearest value here, and
/// what was done, one note per option (for the `*** Warn` lines).
pub fn rewrite(args: Vec<OsString>) -> (Vec<OsString>, Vec<String>) {
    let mut out = Vec::with_capacity(args.len());
    let mut notes: Vec<String> = Vec::new();
    let mut note = |n: String| {
        if !notes.contains(&n) {
            notes.push(n);
        }
    };
    let mut it = args.into_iter().peekable();
    let mut options = true;
    while let Some(a) = it.next() {
        let Some(s) = a.to_str().filter(|_| options).map(str::to_owned) else {
            out.push(a);
            continue;
        };
        if s == "--" {
            options = false;
            out.push(a);
            continue;
        }
        let (name, value) = match s.split_once('=') {
            Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
            None => (s.clone(), None),
        };
        if DROPPED_WITH_VALUE.contains(&name.as_str()) {
            if value.is_none()
                && it
                    .peek()
                    .is_some_and(|v| !v.to_string_lossy().starts_with('-'))
            {
                it.next();
            }
            note(format!("{name}: clasp's option has no counterpart here and is ignored (it changes the search, not the answers)"));
            continue;
        }
        if DROPPED_FLAGS.contains(&name.as_str()) && (value.is_none() || name == "--sat-prepro") {
            note(match name.as_str() {
                "--keep-facts" => "--keep-facts: gringo's option (facts kept in the ground program it prints) is ignored: it changes no answer".to_string(),
                _ => format!("{name}: clasp's option has no counterpart here and is ignored (it changes the search, not the answers)"),
            });
            continue;
        }
        let (value, separate) = match value {
            Some(v) => (Some(v), false),
            None if [
                "--configuration",
                "--heuristic",
                "--opt-strategy",
                "--parallel-mode",
                "-t",
            ]
            .contains(&name.as_str()) =>
            {
                (it.peek().map(|v| v.to_string_lossy().into_owned()), true)
            }
            None => (None, false),
        };
        let mapped = value.as_deref().and_then(|v| map_value(&name, v));
        match mapped {
            Some((new, why)) => {
                if separate {
                    it.next();
                }
                note(why);
                out.push(format!("{name}={new}").into());
            }
            None => out.push(a),
        }
    }
    (out, notes)
}

/// The nearest value here of clasp's value `v` of option `name`, with the note saying so.
fn map_value(name: &str, v: &str) -> Option<(String, String)> {
    let lower = v.to_ascii_lowercase();
    match name {
        "--configuration" if PRESETS.contains(&lower.as_str()) => Some((
            "auto".into(),
            format!("--configuration={v}: clasp's preset has no counterpart here; the default portfolio (auto) runs"),
        )),
        "--heuristic" if HEURISTICS.contains(&lower.as_str()) => Some((
            "activity".into(),
            format!("--heuristic={v}: clasp's heuristic has no counterpart here; activity (clasp's Vsids) decides"),
        )),
        "--opt-strategy" => {
            let mut parts = lower.split(',');
            let (strategy, tactic) = (parts.next()?, parts.next()?);
            match (strategy, tactic) {
                ("bb", "hier" | "inc" | "dec") => Some((
                    "bb".into(),
                    format!("--opt-strategy={v}: branch and bound runs its one tactic here (bb,lin)"),
                )),
                ("usc", "one" | "k" | "pmres") => Some((
                    "usc".into(),
                    format!("--opt-strategy={v}: core-guided optimisation runs its one tactic here (usc,oll)"),
                )),
                _ => None,
            }
        }
        "--parallel-mode" | "-t" => {
            let (n, mode) = v.split_once(',')?;
            (mode == "split" && n.bytes().all(|b| b.is_ascii_digit())).then(|| {
                (
                    n.to_string(),
                    format!("-t {v}: the threads compete here (clasp's split mode is not there)"),
                )
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> (Vec<String>, usize) {
        let (out, notes) = rewrite(args.iter().map(OsString::from).collect());
        let out = out.into_iter().map(|a| a.into_string().unwrap()).collect();
        (out, notes.len())
    }

    #[test]
    fn search_options_are_dropped_or_mapped_once_each() {
        assert_eq!(
            run(&[
                "p.lp",
                "--sign-def",
                "pos",
                "--rand-freq=0.1",
                "--restart-on-model"
            ]),
            (vec!["p.lp".to_string()], 3)
        );
        assert_eq!(
            run(&["--configuration", "trendy", "--heuristic=Berkmin", "p.lp"]),
            (
                vec![
                    "--configuration=auto".into(),
                    "--heuristic=activity".into(),
                    "p.lp".into()
                ],
                2
            )
        );
        assert_eq!(run(&["-t", "4,split"]), (vec!["-t=4".to_string()], 1));
        assert_eq!(
            run(&["--opt-strategy=usc,k,4", "--opt-strategy=bb,hier"]),
            (
                vec![
                    "--opt-strategy=usc".to_string(),
                    "--opt-strategy=bb".to_string()
                ],
                2
            )
        );
        // What it does not know, and everything after `--`, it leaves alone.
        assert_eq!(
            run(&["--configuration=tuned", "-t", "4", "--", "--sign-def"]),
            (
                vec![
                    "--configuration=tuned".into(),
                    "-t".into(),
                    "4".into(),
                    "--".into(),
                    "--sign-def".into()
                ],
                0
            )
        );
        // The same option twice is named once.
        assert_eq!(run(&["--sign-def=pos", "--sign-def=neg"]).1, 1);
        // An optional value only attached: the next argument stays.
        assert_eq!(
            run(&["--sat-prepro", "p.lp", "--sat-prepro=2"]),
            (vec!["p.lp".to_string()], 1)
        );
    }
}
