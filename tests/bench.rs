//! The benchmark tool's own tests (`scripts/lib/test_bench.py`: configuration forms, verdicts
//! against clingo's answers, list selection and chunks, smodels facts of the manifest, the
//! report's counts and PAR-2, and `scripts/bench run` end to end with stand-in solvers), run
//! here so that `cargo test` covers `scripts/bench` too. Needs python3 (standard library only).

use std::process::Command;

#[test]
fn bench_scripts_unit_tests() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "scripts/lib"])
        .args(["-p", "test_*.py"])
        .current_dir(root)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "scripts/lib tests failed:\n{text}");
    assert!(text.contains("OK"), "{text}");
}
