//! `--heuristic=domain` (clingo's domain heuristic: `#heuristic` directives steer the host
//! engine's decisions): the first model follows the directives' signs and levels on programs
//! where the unsteered search goes elsewhere, and on generated programs with random
//! directives (conditions, every modifier) the answer sets of `-n 0` are still clingo's —
//! steering changes the order, never the answers. Without the option the directives are
//! ignored with a notice.
//!
//! Needs gringo and clingo on PATH; fails, not skips, without them.

mod common;
#[path = "gen/mod.rs"]
mod gen;

use common::bin::{gringo, yasmin};
use common::Rng;
use std::io::Write;
use std::process::{Command, Stdio};

fn first_model(text: &str, args: &[&str]) -> Vec<String> {
    let r = yasmin(args, Some(&gringo(text, &[])));
    let sets = common::answer_sets(&r.stdout);
    assert_eq!(sets.len(), 1, "{}\n{}", r.stdout, r.stderr);
    sets.into_keys().next().unwrap()
}

#[test]
fn signs_and_levels_steer_the_first_model() {
    // Unsteered, atoms are decided false first: the empty model.
    let free = "{a; b; c}.\n";
    assert!(first_model(free, &["--engine=cpu"]).is_empty());
    let steered = format!("{free}#heuristic b. [1, true]\n");
    assert_eq!(first_model(&steered, &["--heuristic=domain"]), ["b"]);
    // Exactly one of three: the level decides which one is tried (true) first.
    for x in ["a", "b", "c"] {
        let text =
            format!("1 {{a; b; c}} 1.\n#heuristic {x}. [3, level]\n#heuristic {x}. [1, sign]\n");
        assert_eq!(first_model(&text, &["--heuristic=domain"]), [x], "{x}");
    }
    // A condition: c's sign applies only once a holds.
    let text = "{a; b; c}.\n:- not a.\n#heuristic c : a. [1, true]\n";
    assert_eq!(first_model(text, &["--heuristic=domain"]), ["a", "c"]);
    let text = "{a; b; c}.\n:- a.\n#heuristic c : a. [1, true]\n";
    assert!(first_model(text, &["--heuristic=domain"]).is_empty());
}

#[test]
fn ignored_with_a_notice_and_host_only() {
    let aspif = gringo("{a}.\n#heuristic a. [1, true]\n", &[]);
    let r = yasmin(&["--engine=cpu"], Some(&aspif));
    assert!(
        r.stderr.contains("1 #heuristic directive(s) ignored"),
        "{}",
        r.stderr
    );
    let r = yasmin(&["--heuristic=domain"], Some(&aspif));
    assert!(!r.stderr.contains("ignored"), "{}", r.stderr);
    let r = yasmin(&["--heuristic=domain", "--engine=gpu"], Some(&aspif));
    assert_eq!(r.code, Some(64), "{}", r.stderr);
    let r = yasmin(&["--heuristic=domain", "--decide=rules"], Some(&aspif));
    assert_eq!(r.code, Some(64), "{}", r.stderr);
}

#[test]
fn steering_keeps_clingos_answer_sets() {
    let mut rng = Rng(0xd0_4a1b);
    let mods = ["level", "sign", "true", "false", "init", "factor"];
    let mut compared = 0;
    for kind in gen::Kind::ALL {
        for i in 0..25 {
            let seed = gen::program_seed(3, kind, i);
            let mut text = gen::generate(kind, seed);
            let n = (1..=12)
                .filter(|k| text.contains(&format!("a{k}")))
                .max()
                .unwrap_or(1) as u64;
            for _ in 0..1 + rng.below(4) {
                let a = 1 + rng.below(n);
                let cond = if rng.chance(30) {
                    format!(" : a{}", 1 + rng.below(n))
                } else {
                    String::new()
                };
                let bias = rng.range(-2, 3);
                let m = mods[rng.below(mods.len() as u64) as usize];
                text.push_str(&format!(
                    "#heuristic a{a}{cond}. [{bias}@{}, {m}]\n",
                    rng.below(3)
                ));
            }
            let aspif = gringo(&text, &[]);
            let mut child = Command::new("clingo")
                .args(["--mode=clasp", "-n", "0"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("clingo must be installed");
            child.stdin.take().unwrap().write_all(&aspif).unwrap();
            let want = common::answer_sets(&String::from_utf8_lossy(
                &child.wait_with_output().unwrap().stdout,
            ));
            let r = yasmin(&["-n", "0", "--heuristic=domain"], Some(&aspif));
            assert_eq!(
                common::answer_sets(&r.stdout),
                want,
                "{kind:?} seed {seed}\n{text}\n{}",
                r.stderr
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 125);
}
