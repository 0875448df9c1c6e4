//! `--stats` end to end: it is printed when asked, the GPU engine's bus bytes count the search
//! only, and an optimisation race of several threads reports its rates.

mod common;

use common::bin::{example, yasmin};

/// The number `text` starts with (after blanks).
fn leading_number(text: &str) -> f64 {
    let t: String = text
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    t.parse()
        .unwrap_or_else(|_| panic!("no number at {text:?}"))
}

/// The number after the colon of the line of `stdout` that starts with `label`.
fn number_after(stdout: &str, label: &str) -> f64 {
    let line = stdout.lines().find(|l| l.starts_with(label));
    let line = line.unwrap_or_else(|| panic!("no {label} in\n{stdout}"));
    leading_number(line.split_once(':').unwrap().1)
}

#[test]
fn stats_are_printed_when_asked() {
    let r = yasmin(&[&example("queens.aspif"), "-n", "0", "--stats"], None);
    for label in [
        "Choices      : ",
        "Conflicts    : ",
        "Lemmas       : ",
        "Restarts     : ",
    ] {
        assert!(r.stdout.contains(label), "{label}\n{}", r.stdout);
    }
}

/// The GPU engine's `Device->Host` in `--stats` is traffic during search: a solve that ends at
/// its first model reads that model and the flags, not the per-search counters read for
/// `--stats` after the search (`C_WORDS` 8-byte words a search; the host emulation of the
/// kernel, `--engine=emu`, counts the bytes the device backend would move).
#[test]
fn device_traffic_leaves_out_the_counters_read_after_the_search() {
    let r = yasmin(&[&example("queens.aspif"), "--engine=emu", "--stats"], None);
    assert_eq!(r.code, Some(10), "{}", r.stderr);
    let searches = number_after(&r.stdout, "GPU searches") as u64;
    let from = number_after(&r.stdout, "Device->Host") as u64;
    let counters = 8 * yasmin_rs::engine::gpu::layout::C_WORDS as u64 * searches;
    assert!(searches > 0 && from > 0, "{}", r.stdout);
    assert!(
        from < counters,
        "{from} bytes from the device, counters {counters}"
    );
}

/// The optimisation race of several host threads reports the time it searched: its rates in
/// `--stats` are not 0 when it made choices.
#[test]
fn an_optimisation_race_reports_its_search_rates() {
    let r = yasmin(&[&example("cover.aspif"), "-t", "2", "--stats", "-q"], None);
    assert_eq!(r.code, Some(30), "{}", r.stderr);
    let line = r.stdout.lines().find(|l| l.starts_with("Choices"));
    let line = line.unwrap_or_else(|| panic!("no Choices line in\n{}", r.stdout));
    let choices = leading_number(line.split_once(':').unwrap().1);
    let rate = leading_number(line.split_once("Per second:").unwrap().1);
    assert!(choices > 0.0 && rate > 0.0, "{line}");
}

/// A small program's searches get a learned arena sized to it (`layout::ARENA_PER_WORD`):
/// `Device memory` in `--stats` under the host emulation, whose four searches took 3 MB each
/// whatever the program (12.1 MB in all for an 8-variable one) before.
#[test]
fn a_small_program_takes_little_device_memory_a_search() {
    let r = yasmin(&[&example("cover.aspif"), "--engine=emu", "--stats"], None);
    let mb = number_after(&r.stdout, "Device memory");
    let n = number_after(&r.stdout, "GPU searches");
    assert!(n >= 1.0 && mb / n < 1.0, "{mb} MB, {n} searches");
}
