//! The ground program both readers produce and both writers consume.
//!
//! Invariant: a `Program` holds exactly what the input said, in aspif's vocabulary (atoms are
//! positive integers, a literal is a non-zero `i32` whose sign is default negation), with no
//! simplification. Reader-specific artefacts are translated once, here, into that vocabulary:
//! smodels' compute statement `B+`/`B-` becomes integrity constraints, its type-2 cardinality
//! bodies become sum bodies with weight 1, and each smodels `#minimize` statement gets the
//! priority of its position (the last one is the most important), as gringo wrote them.

/// An atom: a positive integer, as in aspif and smodels.
pub type Atom = u32;

/// A literal: `a` or `-a` for atom `a` (negative = default negation). Never 0.
pub type Lit = i32;

/// A literal with an integer weight (sum bodies, minimize).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WLit {
    pub lit: Lit,
    pub weight: i64,
}

/// Disjunction (`a;b :- …`, one atom = a normal rule, none = integrity constraint) or choice
/// (`{a;b} :- …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeadKind {
    Disjunctive,
    Choice,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Head {
    pub kind: HeadKind,
    pub atoms: Vec<Atom>,
}

/// A conjunction of literals, or `lower <= sum of weights of true literals` (cardinality bodies
/// are sums with weight 1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    Normal(Vec<Lit>),
    Sum { lower: i64, lits: Vec<WLit> },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub head: Head,
    pub body: Body,
}

impl Rule {
    /// `head :- body.`: a disjunction of `head` (one atom: a normal rule; none: an integrity
    /// constraint) over a conjunction of literals.
    pub fn normal(head: &[Atom], body: &[Lit]) -> Rule {
        Rule {
            head: Head {
                kind: HeadKind::Disjunctive,
                atoms: head.to_vec(),
            },
            body: Body::Normal(body.to_vec()),
        }
    }

    /// `{head} :- body.`
    pub fn choice(head: &[Atom], body: &[Lit]) -> Rule {
        Rule {
            head: Head {
                kind: HeadKind::Choice,
                atoms: head.to_vec(),
            },
            body: Body::Normal(body.to_vec()),
        }
    }

    /// `head :- lower <= #sum{w: l; ...}` with `(l, w)` pairs, under a disjunctive head.
    pub fn sum(head: &[Atom], lower: i64, lits: &[(Lit, i64)]) -> Rule {
        Rule {
            head: Head {
                kind: HeadKind::Disjunctive,
                atoms: head.to_vec(),
            },
            body: Body::Sum {
                lower,
                lits: lits
                    .iter()
                    .map(|&(lit, weight)| WLit { lit, weight })
                    .collect(),
            },
        }
    }

    /// An integrity constraint: a disjunctive rule with an empty head.
    pub fn is_constraint(&self) -> bool {
        self.head.kind == HeadKind::Disjunctive && self.head.atoms.is_empty()
    }
}

/// One `#minimize` statement: minimise the sum of weights of true literals at `priority`
/// (higher priority = more important, as in aspif).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimize {
    pub priority: i32,
    pub lits: Vec<WLit>,
}

/// A shown symbol: `name` is shown in a model when every literal of `condition` holds
/// (an empty condition = always shown, as gringo writes shown facts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub name: String,
    pub condition: Vec<Lit>,
}

/// The truth value an `#external` atom is given (aspif `5 a v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExternalValue {
    Free,
    True,
    False,
    Release,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct External {
    pub atom: Atom,
    pub value: ExternalValue,
}

/// `#heuristic` directives (aspif statement 7), kept so they are not silently lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicModifier {
    Level,
    Sign,
    Factor,
    Init,
    True,
    False,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heuristic {
    pub modifier: HeuristicModifier,
    pub atom: Atom,
    pub bias: i32,
    pub priority: u32,
    pub condition: Vec<Lit>,
}

/// An `#edge` directive (aspif statement 8): acyclicity constraint between nodes `u` and `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub u: i32,
    pub v: i32,
    pub condition: Vec<Lit>,
}

/// A ground program, in the order the input gave its statements.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub rules: Vec<Rule>,
    pub minimize: Vec<Minimize>,
    pub outputs: Vec<Output>,
    pub externals: Vec<External>,
    /// `#project` atoms; `None` when the input has no projection statement.
    pub projection: Option<Vec<Atom>>,
    pub assumptions: Vec<Lit>,
    pub heuristics: Vec<Heuristic>,
    pub edges: Vec<Edge>,
    /// Theory statements (aspif 9): counted, since the solver rejects programs that have any.
    pub theory_statements: usize,
    /// The highest atom id mentioned anywhere (0 for an empty program).
    pub max_atom: Atom,
}

impl Program {
    /// Raise `max_atom` to cover `atom`.
    pub fn note_atom(&mut self, atom: Atom) {
        self.max_atom = self.max_atom.max(atom);
    }

    /// Raise `max_atom` to cover the atom of `lit`.
    pub fn note_lit(&mut self, lit: Lit) {
        self.note_atom(lit.unsigned_abs());
    }
}

/// What the readers call for each statement they read, and the writers implement — so that
/// read → write → read round-trips test both sides (libpotassco's `AbstractProgram`).
pub trait ProgramBuilder {
    fn rule(&mut self, rule: Rule);
    fn minimize(&mut self, minimize: Minimize);
    fn output(&mut self, output: Output);
    fn external(&mut self, external: External);
    fn project(&mut self, atoms: Vec<Atom>);
    fn assume(&mut self, lits: Vec<Lit>);
    fn heuristic(&mut self, heuristic: Heuristic);
    fn edge(&mut self, edge: Edge);
    fn theory(&mut self);
}

impl ProgramBuilder for Program {
    fn rule(&mut self, rule: Rule) {
        for &a in &rule.head.atoms {
            self.note_atom(a);
        }
        match &rule.body {
            Body::Normal(lits) => lits.iter().for_each(|&l| self.note_lit(l)),
            Body::Sum { lits, .. } => lits.iter().for_each(|w| self.note_lit(w.lit)),
        }
        self.rules.push(rule);
    }
    fn minimize(&mut self, minimize: Minimize) {
        minimize.lits.iter().for_each(|w| self.note_lit(w.lit));
        self.minimize.push(minimize);
    }
    fn output(&mut self, output: Output) {
        output.condition.iter().for_each(|&l| self.note_lit(l));
        self.outputs.push(output);
    }
    fn external(&mut self, external: External) {
        self.note_atom(external.atom);
        self.externals.push(external);
    }
    fn project(&mut self, atoms: Vec<Atom>) {
        atoms.iter().for_each(|&a| self.note_atom(a));
        self.projection.get_or_insert_with(Vec::new).extend(atoms);
    }
    fn assume(&mut self, lits: Vec<Lit>) {
        lits.iter().for_each(|&l| self.note_lit(l));
        self.assumptions.extend(lits);
    }
    fn heuristic(&mut self, heuristic: Heuristic) {
        self.note_atom(heuristic.atom);
        heuristic.condition.iter().for_each(|&l| self.note_lit(l));
        self.heuristics.push(heuristic);
    }
    fn edge(&mut self, edge: Edge) {
        edge.condition.iter().for_each(|&l| self.note_lit(l));
        self.edges.push(edge);
    }
    fn theory(&mut self) {
        self.theory_statements += 1;
    }
}
