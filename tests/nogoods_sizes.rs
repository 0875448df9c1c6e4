//! Size of the completion on real ground programs (not a correctness test; ignored by default).
//!
//! `NOGOODS_SIZES="sokoban/*.aspif …" cargo test --release --test nogoods_sizes
//! -- --ignored --nocapture` prints one markdown row per file: atoms, rules, distinct bodies
//! (conjunctions / sums), variables (atoms / bodies / aggregate auxiliaries), nogoods by length
//! partition, literals, the share of aggregate nogoods, and analyse + complete times. Plain aspif
//! files: `scripts/bench prepare` keeps them xz-compressed under its cache (`unxz -k` them).

use std::time::Instant;
use yasmin_rs::analyse::{analyse, BodyDef};
use yasmin_rs::nogoods::{complete, Origin};

#[test]
#[ignore]
fn completion_sizes() {
    let files = std::env::var("NOGOODS_SIZES").unwrap_or_default();
    println!(
        "| instance | atoms | rules | bodies conj/sum | sum lits | vars atoms/bodies/aux | \
         nogoods 1/2/3/>3 | nogoods | literals | aggregate nogoods/lits | sums as adders | device MB | analyse s | complete s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for path in files.split_whitespace() {
        let bytes = std::fs::read(path).expect("readable file");
        let program = match lparse::read(&bytes, path) {
            Ok(p) => p,
            Err(e) => {
                println!("| {path} | read error: {e} |");
                continue;
            }
        };
        eprintln!("{path}: read");
        let t = Instant::now();
        let g = match analyse(&program) {
            Ok(g) => g,
            Err(e) => {
                println!("| {path} | {e} |");
                continue;
            }
        };
        let t_analyse = t.elapsed().as_secs_f64();
        eprintln!("{path}: analysed in {t_analyse:.2} s");
        let t = Instant::now();
        let c = complete(&g);
        let t_complete = t.elapsed().as_secs_f64();
        let sums: Vec<&BodyDef> = g
            .bodies
            .iter()
            .filter(|b| matches!(b, BodyDef::Sum { .. }))
            .collect();
        let sum_lits: usize = sums
            .iter()
            .map(|b| match b {
                BodyDef::Sum { lits, .. } => lits.len(),
                _ => 0,
            })
            .sum();
        let (mut agg_ng, mut agg_lits) = (0usize, 0usize);
        for i in 0..c.db.len() {
            if c.db.origins[i] == Origin::Aggregate {
                agg_ng += 1;
                agg_lits += c.db.nogood(i).len();
            }
        }
        let p = c.partition_sizes();
        let name = path.rsplit('/').take(2).collect::<Vec<_>>();
        println!(
            "| {}/{} | {} | {} | {}/{} | {} | {}/{}/{} | {}/{}/{}/{} | {} | {} | {}/{} | {} | {:.1} | {:.2} | {:.2} |",
            name[1],
            name[0],
            g.num_atoms,
            g.rules.len(),
            g.bodies.len() - sums.len(),
            sums.len(),
            sum_lits,
            g.num_atoms,
            c.body_var.len(),
            c.db.num_vars - c.first_aux,
            p[0],
            p[1],
            p[2],
            p[3],
            c.db.len(),
            c.db.lits.len(),
            agg_ng,
            agg_lits,
            c.sums_as_adders,
            c.db.device_bytes() as f64 / 1e6,
            t_analyse,
            t_complete
        );
    }
}
