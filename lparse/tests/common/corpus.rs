//! The test corpus: small programs with gringo 5.4.1's output in both formats, pasted in so
//! the snapshot tests need no grounder. `lp` is kept so the agreement test can ground afresh.

pub struct Case {
    pub name: &'static str,
    pub lp: Option<&'static str>,
    pub aspif: Option<&'static str>,
    pub smodels: Option<&'static str>,
}

pub const CASES: &[Case] = &[
    Case {
        name: "normal",
        lp: Some(
            r#"p(1..2). q(X) :- p(X), not r(X). r(2) :- p(2), not s. s :- not r(2). :- q(1), s."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 0 1 1 0 0
1 0 1 2 0 0
1 0 1 3 0 1 -4
1 0 1 4 0 1 -3
1 0 1 5 0 0
1 0 1 6 0 1 -4
1 0 0 0 1 3
4 4 p(1) 0
4 4 p(2) 0
4 4 r(2) 1 4
4 4 q(1) 0
4 4 q(2) 1 6
4 1 s 1 3
0
"#,
        ),
        smodels: Some(
            r#"1 2 0 0
1 3 0 0
1 4 1 1 5
1 5 1 1 4
1 6 0 0
1 7 1 1 5
1 1 1 0 4
1 8 0 0
1 9 0 0
1 10 0 0
0
4 s
5 r(2)
7 q(2)
8 p(1)
9 p(2)
10 q(1)
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "choice",
        lp: Some(r#"{ a; b }. 1 { c; d; e } 2 :- a."#),
        aspif: Some(
            r#"asp 1 0 0
1 1 2 1 2 0 0
1 0 1 3 0 1 1
1 1 3 4 5 6 0 1 3
1 0 1 7 1 1 3 4 1 5 1 6 1
1 0 1 8 1 3 3 4 1 5 1 6 1
1 0 1 9 0 2 7 -8
1 0 0 0 2 3 -9
4 1 a 1 1
4 1 b 1 2
4 1 c 1 6
4 1 d 1 5
4 1 e 1 4
0
"#,
        ),
        smodels: Some(
            r#"3 2 2 3 0 0
1 4 1 0 2
3 3 5 6 7 1 0 4
2 8 3 0 1 5 6 7
2 9 3 0 3 5 6 7
1 10 2 1 9 8
1 1 2 1 10 4
0
2 a
3 b
5 e
6 d
7 c
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "disj",
        lp: Some(r#"a; b :- c. c. a :- b. b :- a, not d. d :- not a."#),
        aspif: Some(
            r#"asp 1 0 0
1 0 1 1 0 0
1 0 2 2 3 0 0
1 0 1 4 0 1 -3
1 0 1 2 0 2 -4 3
1 0 1 3 0 1 2
4 1 c 0
4 1 b 1 2
4 1 a 1 3
4 1 d 1 4
0
"#,
        ),
        smodels: Some(
            r#"1 2 0 0
8 2 3 4 0 0
1 5 1 1 4
1 3 2 1 5 4
1 4 1 0 3
1 6 0 0
0
3 b
4 a
5 d
6 c
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "count",
        lp: Some(r#"{ p(1..3) }. ok :- 2 #count{ X : p(X) }. :- not ok."#),
        aspif: Some(
            r#"asp 1 0 0
1 1 1 1 0 0
1 1 1 2 0 0
1 1 1 3 0 0
1 0 1 4 1 2 3 1 1 2 1 3 1
1 0 1 5 0 1 4
1 0 0 0 1 -5
4 4 p(1) 1 1
4 4 p(2) 1 2
4 4 p(3) 1 3
4 2 ok 1 5
0
"#,
        ),
        smodels: Some(
            r#"3 1 2 0 0
3 1 3 0 0
3 1 4 0 0
2 5 3 0 2 2 3 4
1 6 1 0 5
1 1 1 1 6
0
2 p(1)
3 p(2)
4 p(3)
6 ok
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "sum",
        lp: Some(r#"{ a; b; c }. ok :- #sum{ 2:a; 3:b; 1:not c } >= 3. :- not ok, a."#),
        aspif: Some(
            r#"asp 1 0 0
1 1 3 1 2 3 0 0
1 0 1 4 1 3 3 1 2 2 3 -3 1
1 0 1 5 0 1 4
1 0 0 0 2 1 -5
4 1 a 1 1
4 1 b 1 2
4 1 c 1 3
4 2 ok 1 5
0
"#,
        ),
        smodels: Some(
            r#"3 3 2 3 4 0 0
5 5 3 3 1 4 2 3 1 2 3
1 6 1 0 5
1 1 2 1 6 2
0
2 a
3 b
4 c
6 ok
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "negw",
        lp: Some(
            r#"{ a; b; c }. ok :- #sum{ -2:a; 3:b; -1:c } >= 1. #show ok/0. #show a/0. #show b/0. #show c/0."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 1 3 1 2 3 0 0
1 0 1 4 1 4 3 2 3 -1 2 -3 1
1 0 1 5 0 1 4
4 1 a 1 1
4 1 b 1 2
4 1 c 1 3
4 2 ok 1 5
0
"#,
        ),
        smodels: Some(
            r#"3 3 2 3 4 0 0
5 5 4 3 2 2 4 3 2 1 3
1 6 1 0 5
0
2 a
3 b
4 c
6 ok
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "minimize",
        lp: Some(
            r#"{ p(1..3) }. :- not p(1), not p(2). #minimize{ 1@1,X : p(X) }. #minimize{ 2@2 : p(3); -1@2 : p(2) }."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 1 1 1 0 0
1 1 1 2 0 0
1 1 1 3 0 0
1 0 0 0 2 -2 -1
2 1 3 1 1 2 1 3 1
2 2 2 2 -1 3 2
4 4 p(1) 1 1
4 4 p(2) 1 2
4 4 p(3) 1 3
0
"#,
        ),
        smodels: Some(
            r#"3 1 2 0 0
3 1 3 0 0
3 1 4 0 0
1 1 2 2 3 2
6 0 3 0 2 3 4 1 1 1
6 0 2 1 3 4 1 2
0
2 p(1)
3 p(2)
4 p(3)
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "show",
        lp: Some(
            r#"{ p; q }. t. #show t/0. #show p/0. #show x : p, not q. #show y : not p. #show "lit"."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 0 1 1 0 0
1 1 2 2 3 0 0
4 1 p 1 2
4 1 t 0
4 5 "lit" 1 -4
4 1 y 1 -2
1 0 1 5 0 2 2 -3
4 1 x 1 5
0
"#,
        ),
        smodels: Some(
            r#"1 2 0 0
3 2 3 4 0 0
1 5 0 0
1 6 1 1 7
1 8 1 1 3
1 9 2 1 4 3
0
3 p
5 t
6 "lit"
8 y
9 x
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "ext",
        lp: Some(
            r#"#external a.
#external b. [true]
#external c. [false]
#external d. [free]
#external e. [release]
p :- a, not b.
q :- c; d; e.
#show p/0.
#show q/0.
#show x : p, not q."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
5 1 3
5 2 0
5 3 2
1 0 1 4 0 3 1 2 3
5 5 1
5 6 2
1 0 1 7 0 2 -5 6
4 1 p 1 7
4 1 q 1 4
1 0 1 8 0 2 7 -4
4 1 x 1 8
0
"#,
        ),
        smodels: Some(
            r#"1 5 3 0 2 3 4
1 8 2 1 6 7
1 9 2 1 5 8
92 2
91 3 2
91 4 0
91 6 1
91 7 0
0
5 q
8 p
9 x
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "loop",
        lp: Some(r#"p :- q. q :- p. p :- not r. r :- not p. s :- p, r."#),
        aspif: Some(
            r#"asp 1 0 0
1 0 1 1 0 1 -2
1 0 1 2 0 1 -1
1 0 1 3 0 1 2
1 0 1 2 0 1 3
1 0 1 4 0 2 1 2
4 1 q 1 3
4 1 p 1 2
4 1 r 1 1
4 1 s 1 4
0
"#,
        ),
        smodels: Some(
            r#"1 2 1 1 3
1 3 1 1 2
1 4 1 0 3
1 3 1 0 4
1 5 2 0 2 3
0
2 r
3 p
4 q
5 s
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "choicesum",
        lp: Some(
            r#"{ a; b; c }. { d; e } :- 2 #count{ 1:a; 2:b; 3:c }. f; g :- #sum{ 2:a; 1:b } >= 2."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 1 3 1 2 3 0 0
1 0 1 4 1 2 2 1 2 2 1
1 0 2 5 6 0 1 4
1 0 1 7 1 2 3 1 1 2 1 3 1
1 1 2 8 9 0 1 7
4 1 a 1 1
4 1 b 1 2
4 1 c 1 3
4 1 d 1 8
4 1 e 1 9
4 1 g 1 5
4 1 f 1 6
0
"#,
        ),
        smodels: Some(
            r#"3 3 2 3 4 0 0
5 5 2 2 0 2 3 2 1
8 2 6 7 1 0 5
2 8 3 0 2 2 3 4
3 2 9 10 1 0 8
0
2 a
3 b
4 c
6 g
7 f
9 d
10 e
0
B+
0
B-
1
0
1
"#,
        ),
    },
    Case {
        name: "extras",
        lp: Some(
            r#"{ a; b }. #project a/0. #heuristic a. [2, level] #heuristic b : a. [1, sign] #edge (1,2) : a. #edge (2,1) : b."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 1 2 1 2 0 0
8 0 1 1 2
8 1 0 1 1
7 1 2 1 0 1 1
7 0 1 2 0 0
3 1 1
4 1 a 1 1
4 1 b 1 2
0
"#,
        ),
        smodels: None,
    },
    Case {
        name: "theory",
        lp: Some(
            r#"#theory t { term { }; &d/0 : term, {<=}, term, any }. { p }. &d { 1 : p; x } <= 2 :- p."#,
        ),
        aspif: Some(
            r#"asp 1 0 0
1 1 1 1 0 0
1 0 1 2 0 1 1
9 1 0 1 d
9 0 3 1
9 4 0 1 3 1 1
9 1 4 1 x
9 4 1 1 4 0
9 1 2 2 <=
9 0 1 2
9 6 2 0 2 0 1 2 1
9 2 5 -1 2 3 1
9 5 0 3 0
4 1 p 1 1
0
"#,
        ),
        smodels: None,
    },
    Case {
        name: "misc",
        lp: None,
        aspif: Some(
            r#"asp 1 0 0 incremental
10 a comment line with 1 2 3
1 0 1 1 0 0
1 1 2 2 3 1 -1 2 2 1 3 1
6 2 1 -3
4 0  0
4 3 a b 1 1
5 3 0
3 0
0
"#,
        ),
        smodels: Some(
            r#"90 0
1 2 0 0
2 3 2 1 1 4 2
5 4 3 2 1 5 2 1 2
6 0 2 1 3 2 1 1
91 5 2
0
2 a
3 b
0
B+
2
0
B-
1
0
E
6
0
0
"#,
        ),
    },
];
