//! The command line's parsing, its clingo spellings, and `--help` against README.md's option table.

use super::*;

fn parse(args: &str) -> Result<Config, String> {
    Config::try_from_args(
        format!("yasmin-rs {args}")
            .split_whitespace()
            .map(OsString::from),
    )
    .map_err(|e| e.to_string())
}

#[test]
fn clingos_model_count_and_option_spellings_parse() {
    let models = |args: &str| parse(args).unwrap().models;
    // The number among the files (`clingo [number] [options] [files]`), before or after.
    assert_eq!(models("p.lp 0"), Some(0));
    assert_eq!(models("3 p.lp"), Some(3));
    assert_eq!(models("p.lp"), None);
    // A number that is an option's value stays its value.
    assert_eq!(models("p.lp --seed 5"), None);
    assert_eq!(parse("p.lp --seed 5").unwrap().seed, 5);
    assert_eq!(models("p.lp -t 2 0"), Some(0));
    assert_eq!(parse("p.lp -t 2 0").unwrap().files.len(), 1);
    // After `--` everything is a file.
    assert_eq!(parse("-- 0").unwrap().files, vec![PathBuf::from("0")]);
    // `'-n 0'` in one argument.
    let one = Config::try_from_args(["yasmin-rs", "p.lp", "-n 0"].map(OsString::from));
    assert_eq!(one.unwrap().models, Some(0));
    // `-e` and clingo's enumeration names.
    let e = |args: &str| parse(args).unwrap().enum_mode;
    assert_eq!(e("-e cautious"), EnumMode::Cautious);
    assert_eq!(e("-e bt"), EnumMode::Auto);
    assert_eq!(e("--enum-mode=domRec"), EnumMode::Record);
}

#[test]
fn clingos_levels_parse() {
    let q = |args: &str| parse(args).unwrap().quiet;
    assert_eq!(
        q(""),
        Quiet {
            models: 0,
            costs: 0
        }
    );
    assert_eq!(
        q("-q"),
        Quiet {
            models: 2,
            costs: 2
        }
    );
    assert_eq!(
        q("-q1"),
        Quiet {
            models: 1,
            costs: 1
        }
    );
    assert_eq!(
        q("-q0,1"),
        Quiet {
            models: 0,
            costs: 1
        }
    );
    assert_eq!(
        q("--quiet=2,0"),
        Quiet {
            models: 2,
            costs: 0
        }
    );
    assert_eq!(
        q("-q1,0,2"),
        Quiet {
            models: 1,
            costs: 0
        }
    );
    // `-q` before a file does not take the file as its level.
    let c = parse("-q a.lp").unwrap();
    assert_eq!((c.quiet.models, c.files.len()), (2, 1));
    let v = |args: &str| parse(args).unwrap().verbose;
    assert_eq!((v(""), v("-V0"), v("-V"), v("--verbose=2")), (1, 0, 2, 2));
    let c = parse("-V a.lp").unwrap();
    assert_eq!((c.verbose, c.files.len()), (2, 1));
    assert!(parse("-q3").unwrap_err().contains("not a quiet level"));
    assert!(parse("-V7").is_err());
    // After `--`, a file may be called -q1.
    assert_eq!(parse("-- -q1").unwrap().files, [PathBuf::from("-q1")]);
}

#[test]
fn version_is_long_or_v_not_capital_v() {
    let e = parse("--version").unwrap_err();
    assert!(e.contains("yasmin-rs "), "{e}");
    assert!(parse("-v").unwrap_err().contains("yasmin-rs "));
}

#[test]
fn a_fractional_time_limit_is_rejected_as_clingo_does() {
    assert!(parse("--time-limit=1.5").is_err());
    assert_eq!(parse("--time-limit=2").unwrap().time_limit, 2);
}

#[test]
fn solve_limits_parse_as_clasps() {
    let limit = |args: &str| parse(args).map(|c| c.solve_limit);
    let l = |conflicts, restarts| SolveLimit {
        conflicts,
        restarts,
    };
    assert_eq!(limit(""), Ok(SolveLimit::NONE));
    assert_eq!(limit("--solve-limit=100"), Ok(l(Some(100), None)));
    assert_eq!(limit("--solve-limit 100,3"), Ok(l(Some(100), Some(3))));
    assert_eq!(limit("--solve-limit=umax,0"), Ok(l(None, Some(0))));
    assert_eq!(limit("--solve-limit=-1,4294967295"), Ok(SolveLimit::NONE));
    for bad in ["100,", ",3", "1,2,3", "-2", "4294967296", "UMAX", "1.5"] {
        assert!(limit(&format!("--solve-limit={bad}")).is_err(), "{bad}");
    }
    let reached = l(Some(10), Some(2));
    assert!(!reached.reached(9, 1));
    assert!(reached.reached(10, 0) && reached.reached(0, 2));
    assert_eq!(reached.after(4, 5), l(Some(6), Some(0)));
    assert_eq!(SolveLimit::NONE.after(4, 5), SolveLimit::NONE);
}

#[test]
fn text_output_is_refused() {
    let e = parse("--text p.lp").unwrap_err();
    assert!(e.contains("--text") && e.contains("not supported"), "{e}");
}

#[test]
fn configurations_are_the_tables_rows() {
    assert_eq!(parse("").unwrap().configuration.name, "auto");
    assert_eq!(
        parse("--configuration=tuned").unwrap().configuration.name,
        "tuned"
    );
    assert!(parse("--configuration=nope").is_err());
}

/// The README's option table, as (first cell, default cell) by row.
fn readme_rows() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = readme
        .find("| option | default |")
        .expect("README has the option table");
    readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("| **"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let clean = |c: &str| {
                c.trim_matches(|c| c == '|' || c == ' ' || c == '`')
                    .to_string()
            };
            (clean(cells[0]), clean(cells.get(1).copied().unwrap_or("")))
        })
        .collect()
}

#[test]
fn help_and_the_readme_table_agree() {
    use clap::CommandFactory;
    let cmd = Config::command();
    let rows = readme_rows();
    let row = |long: &str| {
        rows.iter().find(|(names, _)| {
            names
                .split([',', ' ', '['])
                .any(|n| n == format!("--{long}"))
        })
    };
    let mut shown = Vec::new();
    for arg in cmd.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if arg.is_hide_set() {
            assert!(
                row(long).is_none(),
                "--{long} is hidden but in the README table"
            );
            continue;
        }
        shown.push(long);
        let (_, default) =
            row(long).unwrap_or_else(|| panic!("--{long} is not in the README table"));
        let flag = matches!(arg.get_action(), clap::ArgAction::SetTrue);
        let want: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        match &want[..] {
            [v] if flag => {
                assert_eq!((v.as_str(), default.as_str()), ("false", "off"), "--{long}")
            }
            [v] => assert!(
                default == v || default.starts_with(&format!("{v} ")),
                "--{long}: --help's default is {v}, the README's {default}"
            ),
            _ => assert!(!default.is_empty(), "--{long}: the README gives no default"),
        }
    }
    // And no row names an option --help does not show.
    for (names, _) in &rows {
        let long = names
            .split([',', ' ', '['])
            .find_map(|n| n.strip_prefix("--"))
            .unwrap_or_else(|| panic!("a README row without a long option: {names}"));
        assert!(
            shown.contains(&long),
            "README lists --{long}, --help does not"
        );
    }
    // Hidden switches and values stay out of the help text.
    let help = cmd.clone().render_long_help().to_string();
    for hidden in [
        "emu",
        "all-native",
        "decide-turn",
        "gpu-arena-words",
        "emulated-gpus",
    ] {
        assert!(!help.contains(hidden), "--help shows {hidden}");
    }
    for group in [BASIC, SOLVING, OUTPUT] {
        assert!(help.contains(group), "--help has no group {group}");
    }
}
