//! `gen_program`: writes the differential-test programs to files, so that they can be ground and
//! solved elsewhere (scripts/gen-corpus.sh builds the GPU corpus with it).
//!
//! Invariant: the program written for (kind, seed) is byte-identical to the one the differential
//! test generates for the same pair (both call `gen::generate`).
//!
//! Usage:
//!   gen_program --kind KIND --seed S             print one program on stdout
//!   gen_program --out DIR --count N [--seed B] [--kinds K1,K2,...]
//!                                                write DIR/NNNN.lp for N programs, kinds in
//!                                                turn, and DIR/index.tsv (id, kind, seed)

#[path = "mod.rs"]
mod gen;

use gen::{generate, program_seed, Kind};
use std::io::Write;
use std::path::PathBuf;
use std::process::exit;

fn usage(msg: &str) -> ! {
    eprintln!("gen_program: {msg}");
    eprintln!(
        "usage: gen_program --kind tight|nontight|choice|aggregate|disjunctive|optimize|mixed --seed S"
    );
    eprintln!("       gen_program --out DIR --count N [--seed BASE] [--kinds K1,K2,...]");
    exit(2);
}

fn main() {
    let mut kind = None;
    let mut seed: Option<u64> = None;
    let mut out: Option<PathBuf> = None;
    let mut count: Option<u64> = None;
    let mut kinds: Vec<Kind> = CORPUS_KINDS.to_vec();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--kind" => {
                let v = val();
                kind = Some(Kind::from_name(&v).unwrap_or_else(|| usage(&format!("no kind {v}"))));
            }
            "--seed" => seed = Some(val().parse().unwrap_or_else(|_| usage("bad --seed"))),
            "--out" => out = Some(PathBuf::from(val())),
            "--count" => count = Some(val().parse().unwrap_or_else(|_| usage("bad --count"))),
            "--kinds" => {
                kinds = val()
                    .split(',')
                    .map(|v| Kind::from_name(v).unwrap_or_else(|| usage(&format!("no kind {v}"))))
                    .collect()
            }
            _ => usage(&format!("unknown argument {a}")),
        }
    }
    match (out, kind) {
        (None, Some(k)) => {
            let s = seed.unwrap_or_else(|| usage("--kind needs --seed"));
            print!("{}", generate(k, s));
        }
        (Some(dir), None) => {
            let n = count.unwrap_or_else(|| usage("--out needs --count"));
            let base = seed.unwrap_or(1);
            if let Err(e) = write_corpus(&dir, n, base, &kinds) {
                eprintln!("gen_program: writing {}: {e}", dir.display());
                exit(1);
            }
        }
        _ => usage("give either --kind and --seed, or --out and --count"),
    }
}

/// The kinds a corpus cycles through by default: not `Disjunctive`, whose programs that are not
/// head-cycle-free yasmin-rs rejects (exit 66), which `scripts/bench corpus check` would count as
/// failures (`examples/gpu_batch.rs` counts them as unsupported; give `--kinds` to include them);
/// and keeping four kinds keeps earlier corpora's numbering.
const CORPUS_KINDS: [Kind; 4] = [Kind::Tight, Kind::NonTight, Kind::Choice, Kind::Aggregate];

fn write_corpus(dir: &PathBuf, n: u64, base: u64, kinds: &[Kind]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut index = std::fs::File::create(dir.join("index.tsv"))?;
    writeln!(index, "id\tkind\tseed")?;
    for i in 0..n {
        let kind = kinds[(i % kinds.len() as u64) as usize];
        let s = program_seed(base, kind, i / kinds.len() as u64);
        let id = format!("{i:04}");
        std::fs::write(dir.join(format!("{id}.lp")), generate(kind, s))?;
        writeln!(index, "{id}\t{}\t{s}", kind.name())?;
    }
    Ok(())
}
