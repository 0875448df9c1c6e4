//! No input makes the reader panic: thousands of mutations of the corpus (byte flips,
//! truncations, token swaps, number replacements, garbage) go through `read`, and whatever
//! reads is written back by both writers (which must not panic either; aspif must round-trip).

mod common;

use common::corpus::CASES;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// xorshift64*: a tiny deterministic generator, so failures reproduce from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "90",
    "91",
    "92",
    "10",
    "9",
    "2147483647",
    "-2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "99999999999999999999",
    "-",
    "B+",
    "B-",
    "E",
    "asp",
    "incremental",
];

fn tokens(text: &[u8]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let s = i;
        while i < text.len() && !text[i].is_ascii_whitespace() {
            i += 1;
        }
        v.push((s, i));
    }
    v
}

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut t = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let toks = tokens(&t);
        match rng.below(8) {
            0 if !t.is_empty() => {
                let i = rng.below(t.len());
                t[i] = rng.next() as u8;
            }
            1 => t.truncate(rng.below(t.len() + 1)),
            2 if toks.len() >= 2 => {
                let (a, b) = (toks[rng.below(toks.len())], toks[rng.below(toks.len())]);
                let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
                if a.1 <= b.0 {
                    let mut u = t[..a.0].to_vec();
                    u.extend_from_slice(&t[b.0..b.1]);
                    u.extend_from_slice(&t[a.1..b.0]);
                    u.extend_from_slice(&t[a.0..a.1]);
                    u.extend_from_slice(&t[b.1..]);
                    t = u;
                }
            }
            3 if !toks.is_empty() => {
                let (s, e) = toks[rng.below(toks.len())];
                let n = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
                t.splice(s..e, n.iter().copied());
            }
            4 => {
                let at = rng.below(t.len() + 1);
                let junk: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
                t.splice(at..at, junk);
            }
            5 if !toks.is_empty() => {
                // Delete a token (a count now disagrees with its list).
                let (s, e) = toks[rng.below(toks.len())];
                t.drain(s..e);
            }
            6 => {
                // Duplicate a line.
                let lines: Vec<&[u8]> = t.split_inclusive(|&b| b == b'\n').collect();
                if !lines.is_empty() {
                    let l = lines[rng.below(lines.len())].to_vec();
                    let at = rng.below(lines.len());
                    let mut u: Vec<u8> = lines[..at].concat();
                    u.extend_from_slice(&l);
                    u.extend_from_slice(&lines[at..].concat());
                    t = u;
                }
            }
            _ if !toks.is_empty() => {
                // Replace a token by a random small or huge number.
                let (s, e) = toks[rng.below(toks.len())];
                let v = match rng.below(3) {
                    0 => rng.below(12) as i64,
                    1 => -(rng.below(12) as i64),
                    _ => rng.next() as i64,
                };
                t.splice(s..e, v.to_string().into_bytes());
            }
            _ => {}
        }
    }
    t
}

#[test]
fn mutated_inputs_never_panic() {
    let seeds: Vec<&str> = CASES
        .iter()
        .flat_map(|c| c.aspif.into_iter().chain(c.smodels))
        .collect();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut ok, mut bad) = (0, 0);
    for case in 0..20000 {
        let seed = seeds[rng.below(seeds.len())].as_bytes();
        let input = mutate(&mut rng, seed);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let r = lparse::read(&input, "fuzz");
            if let Ok(p) = &r {
                let mut a = Vec::new();
                if lparse::write_aspif(p, &mut a).is_ok() {
                    assert_eq!(&lparse::read(&a, "again").expect("written aspif reads"), p);
                }
                let _ = lparse::write_smodels(p, &mut Vec::new());
            }
            r.is_ok()
        }));
        match result {
            Ok(true) => ok += 1,
            Ok(false) => bad += 1,
            Err(_) => panic!(
                "case {case} panicked on input {:?}",
                String::from_utf8_lossy(&input)
            ),
        }
    }
    // The mutations must actually exercise both outcomes.
    assert!(bad > 5000 && ok > 500, "ok {ok}, rejected {bad}");
    eprintln!("fuzz: {ok} inputs read, {bad} rejected, none panicked");
}

#[test]
fn random_garbage_never_panics() {
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let n = rng.below(64);
        let mut input: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        if rng.below(2) == 0 {
            input.splice(0..0, b"asp 1 0 0\n".iter().copied());
        }
        let r = catch_unwind(|| lparse::read(&input, "garbage").map(|_| ()));
        assert!(r.is_ok(), "panicked on {input:?}");
    }
}
