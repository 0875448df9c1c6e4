//! Seeded generator of small ground ASP programs, written as gringo input text, for the
//! differential tests against clingo (`tests/differential.rs`) and for the GPU corpus
//! (`gen_program`, `scripts/gen-corpus.sh`).
//!
//! Invariant: `generate(kind, seed)` is a pure function of its arguments (own splitmix64 RNG, no
//! global state), so a seed printed by a failing run reproduces the program exactly. Programs are
//! ground (no variables), use atoms `a1..an`, and are sized so that clingo usually reports between
//! 0 and a few dozen answer sets.

#![allow(dead_code)] // each user of this module (test, example) needs a different part of it

use std::fmt::Write;

/// splitmix64: tiny, fast, and good enough to spread seeds; no dependency needed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }
    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u64) -> bool {
        self.next_u64() % 100 < p
    }
}

/// The program families the acceptance criteria ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Normal rules whose positive bodies only use lower-numbered atoms (no positive cycle).
    Tight,
    /// Normal rules with at least one positive cycle (needs unfounded-set checking).
    NonTight,
    /// Choice rules, plain and bounded, mixed with normal rules and constraints.
    Choice,
    /// `#count` / `#sum` bodies (lower and upper bounds, negative literals) and constraints.
    Aggregate,
    /// Disjunctive heads `a;b :- body.` (some with several bodies, some on positive cycles, so
    /// not head-cycle-free) mixed
    /// with normal rules, and recursive non-monotone sums (negative weights, upper bounds), which
    /// gringo itself writes as disjunctive rules.
    Disjunctive,
    /// A choice, non-tight or aggregate program with `#minimize`/`#maximize` statements:
    /// several priorities, negative and zero weights, tuples repeated across elements. Not in
    /// [`Kind::ALL`] (the device corpus, which cannot optimise yet, is made of those).
    Optimize,
    /// A disjunctive program and one or two of the other kinds over the same atoms (so their
    /// rules interact: choices feeding disjunctions, sums on loops), with an objective on three
    /// in four.
    /// Not in [`Kind::ALL`] (the mode matrix, `scripts/lib/matrix.py`, draws it).
    Mixed,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Tight,
        Kind::NonTight,
        Kind::Choice,
        Kind::Aggregate,
        Kind::Disjunctive,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Tight => "tight",
            Kind::NonTight => "nontight",
            Kind::Choice => "choice",
            Kind::Aggregate => "aggregate",
            Kind::Disjunctive => "disjunctive",
            Kind::Optimize => "optimize",
            Kind::Mixed => "mixed",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .chain([Kind::Optimize, Kind::Mixed])
            .find(|k| k.name() == s)
    }
}

/// The seed of the `i`-th program of a run with base seed `base` (mixed so that neighbouring
/// indices and bases give unrelated programs).
pub fn program_seed(base: u64, kind: Kind, i: u64) -> u64 {
    let mut r = Rng::new(base ^ ((kind as u64) << 56) ^ i.wrapping_mul(0xA076_1D64_78BD_642F));
    r.next_u64() >> 16 // short enough to type on a command line
}

/// One random program of `kind`, as ASP text.
pub fn generate(kind: Kind, seed: u64) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
        n: 0,
        out: String::new(),
    };
    writeln!(
        g.out,
        "% yasmin-rs differential program, kind {}, seed {seed}",
        kind.name()
    )
    .unwrap();
    match kind {
        Kind::Tight => g.tight(),
        Kind::NonTight => g.nontight(),
        Kind::Choice => g.choice(),
        Kind::Aggregate => g.aggregate(),
        Kind::Disjunctive => g.disjunctive(),
        Kind::Optimize => g.optimize(),
        Kind::Mixed => g.mixed(),
    }
    g.out
}

struct Gen {
    rng: Rng,
    /// Atoms are `a1..=an`.
    n: usize,
    out: String,
}

impl Gen {
    fn atom(&mut self) -> usize {
        self.rng.range(1, self.n)
    }

    /// A literal over any atom, negated with probability `neg` percent.
    fn lit(&mut self, neg: u64) -> String {
        let a = self.atom();
        if self.rng.chance(neg) {
            format!("not a{a}")
        } else {
            format!("a{a}")
        }
    }

    /// Normal rule `a<head> :- body.` with `pos` positive atoms drawn from `pos_pool` and up to
    /// two negative literals over any atom.
    fn normal_rule(&mut self, head: usize, pos_pool: &[usize], max_pos: usize) {
        let mut body = Vec::new();
        if !pos_pool.is_empty() {
            for _ in 0..self.rng.range(0, max_pos) {
                let a = pos_pool[self.rng.range(0, pos_pool.len() - 1)];
                body.push(format!("a{a}"));
            }
        }
        for _ in 0..self.rng.range(0, 2) {
            // `a :- not a` acts as a constraint and kills most programs: keep it rare.
            let mut a = self.atom();
            if a == head && !self.rng.chance(10) {
                a = a % self.n + 1;
            }
            body.push(format!("not a{a}"));
        }
        self.emit_rule(&format!("a{head}"), &body);
    }

    fn emit_rule(&mut self, head: &str, body: &[String]) {
        if body.is_empty() {
            writeln!(self.out, "{head}.").unwrap();
        } else if head.is_empty() {
            writeln!(self.out, ":- {}.", body.join(", ")).unwrap();
        } else {
            writeln!(self.out, "{head} :- {}.", body.join(", ")).unwrap();
        }
    }

    /// 0..=max integrity constraints of 1..=3 literals.
    fn constraints(&mut self, max: usize) {
        for _ in 0..self.rng.range(0, max) {
            let k = self.rng.range(2, 3);
            let body: Vec<String> = (0..k).map(|_| self.lit(40)).collect();
            self.emit_rule("", &body);
        }
    }

    /// Even negative loops `x :- not y. y :- not x.` over the pairs of atoms `1..=2g`: the usual
    /// way normal programs get several answer sets (negative dependencies keep a program tight).
    /// Returns the first atom that is free for other rules' heads.
    fn guesses(&mut self, max: usize) -> usize {
        let g = self.rng.range(1, max).min((self.n - 2) / 2); // leave two atoms for other rules
        for p in 0..g {
            let (x, y) = (2 * p + 1, 2 * p + 2);
            writeln!(self.out, "a{x} :- not a{y}.\na{y} :- not a{x}.").unwrap();
        }
        2 * g + 1
    }

    fn tight(&mut self) {
        self.n = self.rng.range(6, 12);
        let first = self.guesses(4);
        for h in first..=self.n {
            if self.rng.chance(8) {
                writeln!(self.out, "a{h}.").unwrap();
                continue;
            }
            let lower: Vec<usize> = (1..h).collect();
            for _ in 0..self.rng.range(0, 3) {
                self.normal_rule(h, &lower, 2);
            }
        }
        self.constraints(1);
    }

    fn nontight(&mut self) {
        self.n = self.rng.range(6, 11);
        let first = self.guesses(3);
        let all: Vec<usize> = (1..=self.n).collect();
        // One guaranteed positive cycle a_c0 <- a_c1 <- ... <- a_c0, sometimes with a second
        // body atom so the loop is only partly closed.
        let len = self.rng.range(2, 4.min(self.n + 1 - first));
        let mut cycle: Vec<usize> = Vec::new();
        while cycle.len() < len {
            let a = self.rng.range(first, self.n);
            if !cycle.contains(&a) {
                cycle.push(a);
            }
        }
        for i in 0..len {
            let mut body = vec![format!("a{}", cycle[(i + 1) % len])];
            if self.rng.chance(25) {
                body.push(self.lit(50));
            }
            self.emit_rule(&format!("a{}", cycle[i]), &body);
        }
        for h in first..=self.n {
            for _ in 0..self.rng.range(0, 2) {
                self.normal_rule(h, &all, 2);
            }
        }
        // The design brief's example shape: a constraint that asks for a loop atom.
        if self.rng.chance(40) {
            writeln!(self.out, ":- not a{}.", cycle[0]).unwrap();
        }
        self.constraints(1);
    }

    fn choice_elements(&mut self, k: usize) -> Vec<String> {
        let mut elems: Vec<usize> = Vec::new();
        while elems.len() < k.min(self.n) {
            let a = self.atom();
            if !elems.contains(&a) {
                elems.push(a);
            }
        }
        elems.iter().map(|a| format!("a{a}")).collect()
    }

    fn choice(&mut self) {
        self.n = self.rng.range(4, 9);
        let all: Vec<usize> = (1..=self.n).collect();
        for _ in 0..self.rng.range(1, 3) {
            let k = self.rng.range(1, 4);
            let elems = self.choice_elements(k).join("; ");
            let head = match self.rng.range(0, 4) {
                0 | 1 => format!("{{{elems}}}"),
                2 => {
                    let lo = self.rng.range(0, k);
                    let hi = self.rng.range(lo, k);
                    format!("{lo} {{{elems}}} {hi}")
                }
                3 => format!("{} {{{elems}}}", self.rng.range(1, k)),
                _ => format!("{{{elems}}} = {}", self.rng.range(0, k)),
            };
            let body: Vec<String> = (0..self.rng.range(0, 2)).map(|_| self.lit(40)).collect();
            self.emit_rule(&head, &body);
        }
        for h in 1..=self.n {
            if self.rng.chance(50) {
                self.normal_rule(h, &all, 2);
            }
        }
        self.constraints(2);
    }

    /// An aggregate body element list over distinct atoms: `w,i:lit` (the tuple id `i` keeps
    /// equal weights from collapsing, except when `collapse` asks for the set semantics case).
    fn agg_elements(&mut self, sum: bool) -> (Vec<String>, i64) {
        let k = self.rng.range(2, 4.min(self.n));
        let atoms: Vec<String> = self.choice_elements(k);
        let collapse = self.rng.chance(10);
        let mut total = 0i64;
        let mut elems = Vec::new();
        for (i, a) in atoms.iter().enumerate() {
            let l = if self.rng.chance(30) {
                format!("not {a}")
            } else {
                a.clone()
            };
            let w = if sum {
                let w = self.rng.range(1, 3) as i64;
                // Recursive sums with negative weights become disjunctive rules in gringo's
                // output (unsupported by yasmin-rs for now): keep them rare.
                if self.rng.chance(4) {
                    -w
                } else {
                    w
                }
            } else {
                1
            };
            total += w.max(0);
            elems.push(if collapse {
                format!("{w}:{l}")
            } else {
                format!("{w},{i}:{l}")
            });
        }
        (elems, total)
    }

    fn aggregate_literal(&mut self) -> String {
        let sum = self.rng.chance(60);
        let (elems, total) = self.agg_elements(sum);
        let f = if sum { "#sum" } else { "#count" };
        let bound = self.rng.range(0, total.max(1) as usize + 1);
        let body = elems.join("; ");
        match self.rng.range(0, 4) {
            0 => format!("{bound} {f}{{{body}}}"),
            1 => format!("{f}{{{body}}} >= {bound}"),
            2 => format!("{f}{{{body}}} <= {bound}"),
            3 => format!("not {f}{{{body}}} >= {bound}"),
            _ => {
                let hi = self.rng.range(bound, total.max(1) as usize + 1);
                format!("{bound} {f}{{{body}}} {hi}")
            }
        }
    }

    fn aggregate(&mut self) {
        self.n = self.rng.range(4, 9);
        // Free atoms to give the aggregates something to count.
        let free = self.rng.range(2, 4.min(self.n));
        let elems = self.choice_elements(free).join("; ");
        writeln!(self.out, "{{{elems}}}.").unwrap();
        let all: Vec<usize> = (1..=self.n).collect();
        for h in 1..=self.n {
            if self.rng.chance(60) {
                let mut body = vec![self.aggregate_literal()];
                if self.rng.chance(40) {
                    body.push(self.lit(50));
                }
                self.emit_rule(&format!("a{h}"), &body);
            } else if self.rng.chance(40) {
                self.normal_rule(h, &all, 1);
            }
        }
        for _ in 0..self.rng.range(0, 1) {
            let body = vec![self.aggregate_literal()];
            self.emit_rule("", &body);
        }
        self.constraints(1);
    }

    /// A program of another kind (disjunctive ones with head cycles among them) with 1..=3
    /// optimisation statements over up to three priorities.
    fn optimize(&mut self) {
        // Disjunctive programs (head cycles among them) two times in five: an objective over a
        // component whose candidates are checked for minimality is where optN lost a model
        // (issue 48).
        match self.rng.range(0, 4) {
            0 => self.choice(),
            1 => self.nontight(),
            2 => self.aggregate(),
            _ => self.disjunctive(),
        }
        self.objective();
    }

    /// A disjunctive program, then one or two of any kind over atoms `a1..an` (the largest `n`
    /// of them), then an objective on three programs in four.
    fn mixed(&mut self) {
        self.disjunctive();
        let mut n = self.n;
        for _ in 0..self.rng.range(1, 2) {
            match self.rng.range(0, 4) {
                0 => self.tight(),
                1 => self.nontight(),
                2 => self.choice(),
                3 => self.aggregate(),
                _ => self.disjunctive(),
            }
            n = n.max(self.n);
        }
        self.n = n;
        if self.rng.chance(75) {
            self.objective();
        }
    }

    /// 1..=3 optimisation statements over up to three priorities: negative and zero weights,
    /// tuples repeated across elements, `#maximize` among them.
    fn objective(&mut self) {
        let levels = self.rng.range(1, 3);
        for _ in 0..self.rng.range(1, 3) {
            let f = if self.rng.chance(25) {
                "#maximize"
            } else {
                "#minimize"
            };
            let elems: Vec<String> = (0..self.rng.range(1, 4))
                .map(|_| {
                    let w = self.rng.range(0, 7) as i64 - 3;
                    let p = self.rng.range(0, levels - 1);
                    // Few tuple ids: equal tuples (in this statement or another) count once.
                    let t = self.rng.range(0, 3);
                    let cond: Vec<String> =
                        (0..self.rng.range(1, 2)).map(|_| self.lit(30)).collect();
                    format!("{w}@{p},{t}:{}", cond.join(", "))
                })
                .collect();
            writeln!(self.out, "{f}{{ {} }}.", elems.join("; ")).unwrap();
        }
    }

    /// `k` distinct atoms joined by `;`.
    fn disjunction(&mut self, k: usize) -> String {
        self.choice_elements(k)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn disjunctive(&mut self) {
        self.n = self.rng.range(5, 9);
        let all: Vec<usize> = (1..=self.n).collect();
        // Disjunctive guesses; positive body atoms from anywhere, so some heads end up on a
        // positive cycle (not head-cycle-free) and some in loops that unfounded-set checks need.
        // Sometimes one head with several bodies, which the analysis of a head-cycle-free
        // program shifts once, over an auxiliary atom.
        for _ in 0..self.rng.range(1, 3) {
            let k = self.rng.range(2, 3);
            let head = self.disjunction(k);
            for _ in 0..self.rng.range(1, 3) {
                let mut body: Vec<String> = Vec::new();
                for _ in 0..self.rng.range(0, 2) {
                    body.push(self.lit(35));
                }
                self.emit_rule(&head, &body);
            }
        }
        for h in 1..=self.n {
            if self.rng.chance(35) {
                self.normal_rule(h, &all, 1);
            }
        }
        // Occasionally a disjunction that closes a positive cycle through both head atoms:
        // `x;y :- z. z :- x. z :- y.` is never head-cycle-free.
        if self.rng.chance(15) {
            let e = self.choice_elements(3);
            writeln!(
                self.out,
                "{}; {} :- {}.\n{} :- {}.\n{} :- {}.",
                e[0], e[1], e[2], e[2], e[0], e[2], e[1]
            )
            .unwrap();
        }
        // Non-monotone sums: negative weights or an upper bound, sometimes over their own head
        // (recursive), which gringo translates with disjunctive rules.
        for _ in 0..self.rng.range(0, 2) {
            let h = self.atom();
            let k = self.rng.range(2, 3.min(self.n));
            let mut elems = self.choice_elements(k);
            if self.rng.chance(50) && !elems.contains(&format!("a{h}")) {
                elems.pop();
                elems.push(format!("a{h}"));
            }
            let elems: Vec<String> = elems
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let w = self.rng.range(1, 3) as i64;
                    let w = if self.rng.chance(50) { -w } else { w };
                    format!("{w},{i}:{a}")
                })
                .collect();
            let bound = self.rng.range(0, 2) as i64 - 1;
            let cmp = if self.rng.chance(50) { ">=" } else { "<=" };
            let body = format!("#sum{{{}}} {cmp} {bound}", elems.join("; "));
            self.emit_rule(&format!("a{h}"), &[body]);
        }
        self.constraints(1);
    }
}
