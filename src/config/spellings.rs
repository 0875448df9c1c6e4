//! The command line as clingo's users write it, rewritten to what clap reads, in one pass over
//! the arguments (up to `--`; the program name and each option's separate value left alone):
//! - clingo's spellings: short options with an attached level (`-q1`, `-q0,1`, `-V0`) as clap
//!   reads an optional value (`-q=1`; clap takes a short option's optional value only after
//!   `=`, so that `-q file.lp` does not read the file name as a level); the model count as a
//!   number among the files (`clingo prog.lp 0`, clingo's `clingo [number] [options] [files]`)
//!   as `--models`; an option and its value in one argument (`'-n 0'`) as two; `--pre` alone
//!   as `--pre=aspif` and `--help=N` as `--help`, as clingo reads them;
//! - clasp's options and values that change how the search goes and never which answers it
//!   gives, and that have no counterpart here: a clingo user's scripts pass them, so they are
//!   dropped or mapped to the nearest value here, each named once in a `*** Warn` line (not
//!   under `-V0`), instead of failing.
//!
//! Invariant: only options whose effect is on the search (signs, randomisation, restarts,
//! preprocessing of the ground program, the portfolio preset, the decision heuristic, the
//! optimisation tactic) are dropped or mapped; an option that changes the answers or the output
//! (such as `--text`, refused with its own message by `Config::try_from_args`) is not, and
//! stays an error until it is implemented.

use std::ffi::OsString;

/// Options dropped with their value (`--name=v` or `--name v`).
const DROPPED_WITH_VALUE: [&str; 2] = ["--sign-def", "--rand-freq"];
/// Options dropped, with a value only when attached (`--name` or `--name=v`: clasp's optional
/// values, so `--sat-prepro prog.lp` keeps the file).
const DROPPED_FLAGS: [&str; 4] = [
    "--restart-on-model",
    "--keep-facts",
    "--sat-prepro",
    "--backprop",
];
/// clasp's portfolio presets: the search options of `--configuration`.
const PRESETS: [&str; 7] = [
    "trendy", "tweety", "frumpy", "crafty", "jumpy", "handy", "many",
];
/// Options whose clasp values `map_value` maps (the value attached or the next argument).
const MAPPED: [&str; 4] = ["--configuration", "--heuristic", "--opt-strategy", "-t"];
/// clasp's decision heuristics that have none here.
const HEURISTICS: [&str; 4] = ["berkmin", "vmtf", "unit", "none"];

/// `args` (the program name first) rewritten as the module doc says, and what was done with
/// clasp's options, one note per option (for the `*** Warn` lines). `takes_value(flag)`: the
/// option `-x` / `--long` takes its value from the next argument.
pub fn rewrite(
    args: impl IntoIterator<Item = OsString>,
    takes_value: impl Fn(&str) -> bool,
) -> (Vec<OsString>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut note = |n: String| {
        if !notes.contains(&n) {
            notes.push(n);
        }
    };
    let mut it = args.into_iter().enumerate().peekable();
    let mut options = true;
    let mut value_next = false;
    while let Some((i, a)) = it.next() {
        let Some(s) = a.to_str().filter(|_| options && i > 0 && !value_next) else {
            value_next = false;
            out.push(a);
            continue;
        };
        let s = s.to_owned();
        if s == "--" {
            options = false;
            out.push(a);
            continue;
        }
        let (name, value) = match s.split_once('=') {
            Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
            None => (s.clone(), None),
        };
        let next_is_value = |it: &mut std::iter::Peekable<_>| {
            it.peek()
                .is_some_and(|(_, v): &(usize, OsString)| !v.to_string_lossy().starts_with('-'))
        };
        if DROPPED_WITH_VALUE.contains(&name.as_str()) {
            if value.is_none() && next_is_value(&mut it) {
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
        // clasp's restart schedules (`--restarts=L,100`, `F,500`, `x,100,1.5`, `+,100,100`,
        // `D,100,0.7`, `no`): this engine's own restarts run instead (its names, `luby`,
        // `dynamic`, `local`, are read as they are).
        if name == "--restarts" {
            let v = value.clone().or_else(|| {
                it.peek()
                    .map(|(_, v): &(usize, OsString)| v.to_string_lossy().into_owned())
            });
            if let Some(v) = v.filter(|v| v.contains(',') || v == "no" || v == "0") {
                if value.is_none() {
                    it.next();
                }
                note(format!("--restarts={v}: clasp's restart schedule is not read here; the engine's own restarts run (it changes the search, not the answers)"));
                continue;
            }
        }
        let (mapped_value, separate) = match &value {
            Some(v) => (Some(v.clone()), false),
            None if MAPPED.contains(&name.as_str()) => (
                it.peek().map(|(_, v)| v.to_string_lossy().into_owned()),
                true,
            ),
            None => (None, false),
        };
        if let Some((new, why)) = mapped_value.as_deref().and_then(|v| map_value(&name, v)) {
            if separate {
                it.next();
            }
            note(why);
            out.push(format!("{name}={new}").into());
            continue;
        }
        // clingo's `--pre` alone prints aspif; `--help=2|3` asks for more of the help, which
        // is one page here.
        if s == "--pre" {
            out.push("--pre=aspif".into());
            continue;
        }
        if name == "--help" && value.is_some() {
            out.push("--help".into());
            continue;
        }
        // `'-n 0'` as one argument (a script's quoting): the option and its value.
        if let Some((flag, v)) = s.split_once(' ').filter(|(f, _)| takes_value(f)) {
            out.push(flag.into());
            out.push(v.trim().into());
            continue;
        }
        // clingo's `clingo [number] [options] [files]`: a number among the files is `-n`.
        if !s.starts_with('-') && !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            out.push(format!("--models={s}").into());
            continue;
        }
        value_next = takes_value(&s);
        let attached = |flag: &str| {
            s.strip_prefix(flag)
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                .map(|rest| OsString::from(format!("{flag}={rest}")))
        };
        out.push(attached("-q").or_else(|| attached("-V")).unwrap_or(a));
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

    /// `args` after the program name, rewritten with clap's table of options.
    fn run(args: &[&str]) -> (Vec<String>, usize) {
        let all = std::iter::once("yasmin-rs").chain(args.iter().copied());
        let cmd = <super::super::Config as clap::CommandFactory>::command();
        let takes = |flag: &str| super::super::takes_value(&cmd, flag);
        let (out, notes) = rewrite(all.map(OsString::from), takes);
        let out = out
            .into_iter()
            .skip(1)
            .map(|a| a.into_string().unwrap())
            .collect();
        (out, notes.len())
    }

    #[test]
    fn pre_alone_is_aspif_and_help_levels_are_help() {
        assert_eq!(run(&["p.lp", "--pre"]).0, ["p.lp", "--pre=aspif"]);
        // clingo reads a value of --pre only after '=': `--pre aspif` names a file.
        assert_eq!(run(&["--pre", "aspif"]).0, ["--pre=aspif", "aspif"]);
        assert_eq!(run(&["--pre=smodels"]).0, ["--pre=smodels"]);
        assert_eq!(run(&["--help=3"]).0, ["--help"]);
        assert_eq!(run(&["--help"]).0, ["--help"]);
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
        // clasp's restart schedules are dropped, this engine's names kept; `--backprop` dropped.
        let (args, notes) = run(&["--restarts=L,100", "--restarts", "x,100,1.5", "--backprop"]);
        assert!(args.is_empty(), "{args:?}");
        assert_eq!(notes, 3);
        assert_eq!(
            run(&["--restarts=luby"]),
            (vec!["--restarts=luby".to_string()], 0)
        );
        assert_eq!(
            run(&["--restarts", "local"]),
            (vec!["--restarts".to_string(), "local".to_string()], 0)
        );
        // An optional value only attached: the next argument stays.
        assert_eq!(
            run(&["--sat-prepro", "p.lp", "--sat-prepro=2"]),
            (vec!["p.lp".to_string()], 1)
        );
    }
}
