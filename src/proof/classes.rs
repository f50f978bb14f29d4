//! The colour classes' argument as cutting-planes steps: the certificate of a conflict of the
//! propagator's colour classes (`solve::propagator`, option `classes`) against the OPB form
//! with the counts, sums and moments.
//!
//! A queen on a cell of colour `(r + c) mod 2` stands on a `/` diagonal of index `r + c` and
//! a `\` diagonal of index `r - c + n - 1`, whose class (the index's parity, or its parity plus
//! `n - 1`) is the cell's colour. With `K` the number of occupied `/` diagonals of class 0 (the
//! queens on colour 0), the argument is a case split on `K`: for each `k` from 0 to the number
//! of such diagonals, either `n - k` is odd (the queens' `r + c` add up to an even number, so
//! those on colour 1 are even in number), or the occupied and free diagonals cannot give `k`
//! queens to class 0 and `n - k` to class 1 with the sums and moments of the form.
//!
//! The proof writes the split with order variables `k0geK` (`K >= k`), each introduced by two
//! redundance steps (`red`, its definition both ways), and the equality of the classes' counts
//! of both directions (from the occupancies' definitions: both are the number of queens on
//! colour 0). Then each case is one cutting-planes step ([`ClassStep`]) that says: `K >= k`
//! implies `K >= k + 1`, under the assignment of the conflict. The conflict's clause then
//! follows by unit propagation: the steps, from `k = 0`, propagate each order variable in turn
//! to the last, which fails.

use super::OpbAnchors;

/// Why `k` queens on colour 0 do not fit, in the units of the OPB form: one case of the colour
/// classes' split. The thresholds `t` are indexed by class (0, 1) and, for the moments, first
/// by direction (`/`, `\`); a threshold of 0 leaves its class out of the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassStep {
    /// `n - k` is odd.
    Parity {
        /// The number of queens on colour 0.
        k: usize,
    },
    /// Class `class` of direction `dir` cannot have its number of occupied diagonals (`k` for
    /// class 0, `n - k` for class 1): too few occupied and free (`low`), or too many
    /// occupied.
    Count {
        /// The number of queens on colour 0.
        k: usize,
        /// The direction (0: `/`, 1: `\`).
        dir: usize,
        /// The class.
        class: usize,
        /// Too few (`true`) or too many.
        low: bool,
    },
    /// The sum of the indices of direction `dir`: the occupied diagonals and the lightest free
    /// ones of each class (`low`) exceed the target, or the heaviest fall short; `t` the
    /// threshold of each class (the last free one taken).
    Sum {
        /// The number of queens on colour 0.
        k: usize,
        /// The direction.
        dir: usize,
        /// Low (`true`) or high.
        low: bool,
        /// The thresholds, by class.
        t: [i64; 2],
    },
    /// The second moments of both directions, as the sums.
    Moment {
        /// The number of queens on colour 0.
        k: usize,
        /// Low (`true`) or high.
        low: bool,
        /// The thresholds, by direction and class.
        t: [[i64; 2]; 2],
    },
}

impl ClassStep {
    /// The number of queens on colour 0 of the case.
    pub fn k(self) -> usize {
        match self {
            ClassStep::Parity { k }
            | ClassStep::Count { k, .. }
            | ClassStep::Sum { k, .. }
            | ClassStep::Moment { k, .. } => k,
        }
    }
}

/// The definitions of a colour-class proof, written once per proof: the order variables and
/// the equality of the classes' counts.
#[derive(Clone, Debug)]
pub struct ClassProof {
    /// The occupancy variables of class 0, by direction.
    class0: [Vec<u64>; 2],
    /// `a[k]`: `k ~y_k + K >= k` (`y_k` implies `K >= k`), for `k = 1..=m`.
    a: Vec<u64>,
    /// `b[k]`: `(m - k + 1) y_k + sum ~o >= m - k + 1` (`K <= k - 1` unless `y_k`).
    b: Vec<u64>,
    /// `K` of `\` at least that of `/`, and at most.
    e: [u64; 2],
}

/// The class of the diagonal of index `i` (0-based, as [`OpbAnchors::occupancy`]) of
/// direction `dir` on an `n` x `n` board.
pub fn class_of(n: usize, dir: usize, i: usize) -> usize {
    if dir == 0 {
        i % 2
    } else {
        (i + n - 1) % 2
    }
}

impl ClassProof {
    /// The name of the order variable `K >= k`.
    fn y(k: usize) -> String {
        format!("k0ge{k}")
    }

    /// The definitions' rules (each one line without ` ;`) for a proof whose next constraint
    /// id is `next`, and what names them; `None` when the form lacks an occupancy or a
    /// definition the steps need.
    pub fn define(anchors: &OpbAnchors, n: usize, next: u64) -> Option<(ClassProof, Vec<String>)> {
        let mut class0: [Vec<u64>; 2] = Default::default();
        for (d, vars) in class0.iter_mut().enumerate() {
            // The square's 2n - 1 diagonals of the direction.
            for i in (0..2 * n - 1).filter(|&i| class_of(n, d, i) == 0) {
                vars.push((*anchors.occupancy[d].get(i)?)?);
            }
        }
        let m = class0[0].len();
        let mut lines = Vec::new();
        let mut id = next;
        let mut take = |line: String, lines: &mut Vec<String>| {
            lines.push(line);
            id += 1;
            id - 1
        };
        let (mut a, mut b) = (vec![0], vec![0]);
        let pos: String = class0[0].iter().map(|o| format!(" 1 x{o}")).collect();
        let neg: String = class0[0].iter().map(|o| format!(" 1 ~x{o}")).collect();
        for k in 1..=m {
            let y = Self::y(k);
            a.push(take(
                format!("red {k} ~{y}{pos} >= {k} : {y} -> 0"),
                &mut lines,
            ));
            let g = m - k + 1;
            b.push(take(
                format!("red {g} {y}{neg} >= {g} : {y} -> 1"),
                &mut lines,
            ));
        }
        // Each occupancy of class 0 is the sum of its cells (its definition; a diagonal of
        // one cell is the cell): the cells of class 0 of both directions are the same, those
        // of colour 0.
        let mut halves = [Vec::new(), Vec::new()];
        for (d, vars) in class0.iter().enumerate() {
            for o in vars {
                if let Some(&def) = anchors.definitions.get(o) {
                    // `cells - o >= 0` at `def`, `o - cells >= 0` at `def + 1`: `\` minus `/`.
                    halves[0].push(if d == 0 { def } else { def + 1 });
                    halves[1].push(if d == 0 { def + 1 } else { def });
                }
            }
        }
        let mut e = [0; 2];
        for (side, ids) in halves.iter().enumerate() {
            let (first, rest) = ids.split_first()?;
            let mut line = format!("pol {first}");
            for i in rest {
                line.push_str(&format!(" {i} +"));
            }
            e[side] = take(line, &mut lines);
        }
        Some((ClassProof { class0, a, b, e }, lines))
    }

    /// The sum of the literal axioms `o >= 0` (or `~o >= 0`) of class 0 of direction `dir`, in
    /// reverse Polish notation: `K >= 0` (or `K <= m`).
    fn axioms(&self, dir: usize, negated: bool) -> String {
        let neg = if negated { "~" } else { "" };
        let mut s = String::new();
        for (j, o) in self.class0[dir].iter().enumerate() {
            s.push_str(&format!("{}{neg}x{o}", if j == 0 { "" } else { " " }));
            if j > 0 {
                s.push_str(" +");
            }
        }
        s
    }

    /// The constraint (reverse Polish notation) that the number of occupied diagonals of
    /// class `class` of direction `dir` is at least (`low`) or at most its share of the case
    /// `k` (`k` for class 0, `n - k` for class 1): given `y_k` (at least `k` for class 0, at
    /// most `n - k` for class 1) or unless `y_(k+1)` (at most `k`, at least `n - k`).
    fn share(&self, anchors: &OpbAnchors, k: usize, dir: usize, class: usize, low: bool) -> String {
        let m = self.class0[0].len();
        let counts = anchors.counts[dir].unwrap_or(0);
        if class == 1 {
            // The other class of the direction with the direction's count: at least
            // `n - k` is "exactly n" (its `>=` half) less "at most k" of class 0.
            let (half, other) = if low {
                (counts, false)
            } else {
                (counts + 1, true)
            };
            return format!("{half} {} +", self.share(anchors, k, dir, 0, other));
        }
        if low {
            // At least k: `y_k` (`K >= 0` for k = 0, the axioms); `\` by the equality.
            return match (k, dir) {
                (0, _) => self.axioms(dir, false),
                (_, 0) => self.a[k].to_string(),
                _ => format!("{} {} +", self.a[k], self.e[0]),
            };
        }
        // At most k: unless `y_(k+1)` (`K <= m` for k = m, the axioms).
        let slash = if k >= m {
            self.axioms(0, true)
        } else {
            self.b[k + 1].to_string()
        };
        if dir == 0 {
            slash
        } else {
            format!("{slash} {} +", self.e[1])
        }
    }

    /// Whether the case `k` is beyond the order variables (`K` cannot exceed the number of
    /// diagonals of class 0): no step needed.
    pub fn beyond(&self, step: ClassStep) -> bool {
        step.k() > self.class0[0].len()
    }

    /// The cutting-planes step (`pol ...`, without ` ;`) of one case: with the conflict's
    /// assignment and `K >= k` it propagates `K >= k + 1`.
    pub fn step(&self, anchors: &OpbAnchors, step: ClassStep) -> Option<String> {
        let body = match step {
            ClassStep::Parity { k } => {
                // The sum of `/` indices (even target) with the count and `K >= k`, halved
                // (rounded up: `n - k` is odd), plus the same from the other side.
                let s = anchors.sums[0]?;
                let c = anchors.counts[0]?;
                let low = self.share(anchors, k, 0, 0, true);
                let high = self.share(anchors, k, 0, 0, false);
                format!("{s} {} + {low} + 2 d {} {c} + {high} + 2 d +", c + 1, s + 1)
            }
            ClassStep::Count { k, dir, class, low } => self.share(anchors, k, dir, class, low),
            ClassStep::Sum { k, dir, low, t } => {
                let s = anchors.sums[dir]?;
                let base = if low { s + 1 } else { s };
                self.bound(anchors, base, k, low, &[(dir, t)])
            }
            ClassStep::Moment { k, low, t } => {
                let s = anchors.moments?;
                let base = if low { s + 1 } else { s };
                self.bound(anchors, base, k, low, &[(0, t[0]), (1, t[1])])
            }
        };
        Some(format!("pol {body}"))
    }

    /// The form's constraint `base` (a sum or the moments, `<=` half for a low bound) plus,
    /// for each direction and class, `|t|` times its share: at least for a positive threshold
    /// of a low bound (at most for a negative one), the other way for a high bound.
    fn bound(
        &self,
        anchors: &OpbAnchors,
        base: u64,
        k: usize,
        low: bool,
        parts: &[(usize, [i64; 2])],
    ) -> String {
        let mut s = base.to_string();
        for &(dir, t) in parts {
            for (class, &t) in t.iter().enumerate() {
                if t == 0 {
                    continue;
                }
                let at_least = (t > 0) == low;
                let share = self.share(anchors, k, dir, class, at_least);
                s.push_str(&format!(" {share} {} * +", t.abs()));
            }
        }
        s
    }
}
