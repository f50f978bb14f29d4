//! A DRAT checker written for the tests only, as plainly as the definition reads, to judge
//! the library's checkers: no watched literals, no occurrence lists, no hints; unit
//! propagation by going over every clause until nothing changes. Slow, and meant for small
//! formulas.
//!
//! The semantics are drat-trim's (and the library's, as documented in `src/proof/`):
//! * a lemma is accepted when it is a tautology, or RUP (the negation of its literals and
//!   unit propagation reach a conflict), or RAT on its first literal `p` (every resolvent
//!   with a clause holding `-p`, tautologies aside, is a tautology or RUP);
//! * a deletion removes one clause with the same set of literals, unless that clause is unit
//!   under the top-level assignment (exactly one literal true, the others false), which is
//!   kept; a clause not present is nothing to delete;
//! * the proof is verified once unit propagation alone refutes the clauses: at the start (the
//!   formula), after an accepted lemma, or at an empty lemma (which is then RUP).
//!
//! Also here: [`brute_force_sat`], the truth of small formulas by trying every assignment.

/// A step of a DRAT proof: a lemma or a deletion, DIMACS literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Lemma(Vec<i64>),
    Delete(Vec<i64>),
}

/// The oracle's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Refuted: the formula alone, or after the step with this 1-based number.
    Verified(Option<usize>),
    /// The step with this number is neither RUP nor RAT (or an empty lemma without a
    /// refutation).
    Failed(usize),
    /// Every step checked, and no refutation.
    Unfinished,
}

impl Verdict {
    pub fn verified(&self) -> bool {
        matches!(self, Verdict::Verified(_))
    }
}

/// Literals without repeats, the first occurrence of each kept in place.
fn normal(c: &[i64]) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for &l in c {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

fn tautology(c: &[i64]) -> bool {
    c.iter().any(|l| c.contains(&-l))
}

/// Unit propagation from the assumptions (literals made true): the assignment (literals
/// true), or `None` on a conflict.
fn propagate(clauses: &[Vec<i64>], assumed: &[i64]) -> Option<Vec<i64>> {
    let mut trail: Vec<i64> = Vec::new();
    for &a in assumed {
        if trail.contains(&-a) {
            return None;
        }
        if !trail.contains(&a) {
            trail.push(a);
        }
    }
    loop {
        let mut changed = false;
        for c in clauses {
            if c.iter().any(|l| trail.contains(l)) {
                continue;
            }
            let open: Vec<i64> = c.iter().copied().filter(|l| !trail.contains(&-l)).collect();
            match open.len() {
                0 => return None,
                1 => {
                    trail.push(open[0]);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return Some(trail);
        }
    }
}

fn rup(clauses: &[Vec<i64>], lemma: &[i64]) -> bool {
    let negated: Vec<i64> = lemma.iter().map(|l| -l).collect();
    propagate(clauses, &negated).is_none()
}

fn rat(clauses: &[Vec<i64>], lemma: &[i64]) -> bool {
    let Some(&p) = lemma.first() else {
        return false;
    };
    clauses
        .iter()
        .filter(|d| d.contains(&-p) && !tautology(d))
        .all(|d| {
            let mut r = lemma.to_vec();
            r.extend(d.iter().copied().filter(|&l| l != -p));
            let r = normal(&r);
            tautology(&r) || rup(clauses, &r)
        })
}

/// The same set of literals.
fn same(a: &[i64], b: &[i64]) -> bool {
    let (a, b) = (normal(a), normal(b));
    a.len() == b.len() && a.iter().all(|l| b.contains(l))
}

/// Checks `proof` against `formula` as drat-trim does (see the module's documentation).
pub fn check(formula: &[Vec<i64>], proof: &[Step]) -> Verdict {
    let mut clauses: Vec<Vec<i64>> = formula.iter().map(|c| normal(c)).collect();
    if propagate(&clauses, &[]).is_none() {
        return Verdict::Verified(None);
    }
    for (k, step) in proof.iter().enumerate() {
        let number = k + 1;
        match step {
            Step::Delete(c) => {
                let Some(at) = clauses.iter().position(|d| same(d, c)) else {
                    continue;
                };
                let top = propagate(&clauses, &[]).expect("not refuted here");
                let d = &clauses[at];
                let trues = d.iter().filter(|l| top.contains(l)).count();
                let falses = d.iter().filter(|l| top.contains(&-**l)).count();
                if trues == 1 && falses == d.len() - 1 {
                    continue;
                }
                clauses.remove(at);
            }
            Step::Lemma(c) => {
                let c = normal(c);
                if c.is_empty() {
                    return Verdict::Failed(number);
                }
                if !(tautology(&c) || rup(&clauses, &c) || rat(&clauses, &c)) {
                    return Verdict::Failed(number);
                }
                clauses.push(c);
                if propagate(&clauses, &[]).is_none() {
                    return Verdict::Verified(Some(number));
                }
            }
        }
    }
    Verdict::Unfinished
}

/// Reads a text DRAT proof (lemmas, `d` deletions, `c` comments; one step a line).
pub fn parse(text: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        let (delete, rest) = match t.strip_prefix('d') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let lits: Vec<i64> = rest
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .take_while(|&x| x != 0)
            .collect();
        steps.push(if delete {
            Step::Delete(lits)
        } else {
            Step::Lemma(lits)
        });
    }
    steps
}

/// Writes steps as a text DRAT proof.
pub fn text(steps: &[Step]) -> String {
    let mut out = String::new();
    for s in steps {
        let (prefix, lits) = match s {
            Step::Lemma(l) => ("", l),
            Step::Delete(l) => ("d ", l),
        };
        out.push_str(prefix);
        for l in lits {
            out.push_str(&format!("{l} "));
        }
        out.push_str("0\n");
    }
    out
}

/// Steps as a binary DRAT proof: `a` or `d`, each literal `x` as the variable-length number
/// `2|x| + (x < 0)`, then 0.
pub fn binary(steps: &[Step]) -> Vec<u8> {
    let mut out = Vec::new();
    for s in steps {
        let (tag, lits) = match s {
            Step::Lemma(l) => (b'a', l),
            Step::Delete(l) => (b'd', l),
        };
        out.push(tag);
        for &l in lits {
            let mut x = 2 * l.unsigned_abs() + u64::from(l < 0);
            loop {
                let b = (x & 0x7f) as u8;
                x >>= 7;
                if x == 0 {
                    out.push(b);
                    break;
                }
                out.push(b | 0x80);
            }
        }
        out.push(0);
    }
    out
}

/// The clauses of a DIMACS file.
pub fn read_cnf(text: &str) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') || t.starts_with('p') {
            continue;
        }
        for tok in t.split_whitespace() {
            let x: i64 = tok.parse().unwrap();
            if x == 0 {
                out.push(std::mem::take(&mut cur));
            } else {
                cur.push(x);
            }
        }
    }
    out
}

/// The oracle's verdict on a text DRAT proof file against a DIMACS file: `true` verified.
pub fn check_files(cnf: &std::path::Path, proof: &std::path::Path) -> bool {
    let clauses = read_cnf(&std::fs::read_to_string(cnf).unwrap());
    let steps = parse(&std::fs::read_to_string(proof).unwrap());
    check(&clauses, &steps).verified()
}

/// `true` when some assignment of the variables satisfies every clause (every assignment
/// tried: at most 24 variables).
pub fn brute_force_sat(clauses: &[Vec<i64>]) -> bool {
    let vars = clauses
        .iter()
        .flatten()
        .map(|l| l.unsigned_abs())
        .max()
        .unwrap_or(0) as u32;
    assert!(vars <= 24, "brute force is for small formulas");
    (0u64..1 << vars).any(|bits| {
        clauses.iter().all(|c| {
            c.iter().any(|&l| {
                let v = l.unsigned_abs() - 1;
                ((bits >> v) & 1 == 1) == (l > 0)
            })
        })
    })
}

#[test]
fn the_oracle_on_known_cases() {
    let f = |v: &[&[i64]]| v.iter().map(|c| c.to_vec()).collect::<Vec<_>>();
    let two = f(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
    assert_eq!(check(&two, &parse("2 0\n0\n")), Verdict::Verified(Some(1)));
    assert_eq!(check(&two, &parse("0\n")), Verdict::Failed(1));
    assert_eq!(check(&two, &parse("")), Verdict::Unfinished);
    // The defect's proofs are not accepted.
    let one = f(&[&[1]]);
    assert_eq!(
        check(&one, &parse("-2 -1 0\nd -2 -1 0\n2 0\n0\n")),
        Verdict::Failed(3)
    );
    assert!(brute_force_sat(&one) && !brute_force_sat(&two));
    assert_eq!(check(&f(&[&[1], &[-1]]), &[]), Verdict::Verified(None));
}
