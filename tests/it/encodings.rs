//! The at-most-one encodings, each checked the same way: one set of test bodies run for every
//! encoding of the catalogue (and parameter variants), so that a new encoding is tested with no
//! new test code.
//!
//! Oracles: the definition of at-most-one (counting true literals), the table of solution
//! counts in the reference document, the placement checker ([`queens_sat::board::check_placement`]), and
//! varisat's DIMACS parser, which checks the header counts.

use crate::common::*;

use queens_sat::board::{is_solution, Line, LineKind};
use queens_sat::cnf::{Cnf, CountingSink, Lit, Var};
use queens_sat::encode::{Amo, EncodeOptions, LineEncodings, QueensEncoder, VarAlloc};
use queens_sat::Placement;
use varisat::{ExtendFormula, Solver};

/// For m = 0..=8 and every assignment of the m literals (as solver assumptions, the
/// auxiliaries left to the solver): satisfiable exactly when at most one literal is true.
/// Literals are used with both polarities (even-indexed positive, odd-indexed negated).
fn semantics_with_solver(amo: Amo) {
    for m in 0..=8usize {
        let lits: Vec<Lit> = (0..m)
            .map(|i| Lit::from_var(Var::from_index(i), i % 2 == 0))
            .collect();
        let mut alloc = VarAlloc::starting_at(m);
        let mut solver = Solver::new();
        amo.encode(&lits, &mut alloc, &mut solver).unwrap();
        assert_eq!(alloc.used() - m, amo.size(m).vars as usize, "{amo} m={m}");
        for bits in 0u32..(1 << m) {
            // bit i set: literal i is true
            let assumptions: Vec<Lit> = lits
                .iter()
                .enumerate()
                .map(|(i, &l)| if bits >> i & 1 == 1 { l } else { !l })
                .collect();
            solver.assume(&assumptions);
            let sat = solver.solve().unwrap();
            assert_eq!(sat, bits.count_ones() <= 1, "{amo} m={m} bits={bits:b}");
        }
    }
}

/// The size formula equals what is emitted, m = 0..=300, and the auxiliaries used are exactly
/// the block the allocator handed out.
fn size_matches_emitted(amo: Amo) {
    for m in 0..=300usize {
        let lits: Vec<Lit> = (0..m).map(|i| Var::from_index(i).positive()).collect();
        let mut alloc = VarAlloc::starting_at(m);
        let mut count = CountingSink::default();
        amo.encode(&lits, &mut alloc, &mut count).unwrap();
        let size = amo.size(m);
        assert_eq!(size.clauses, count.clauses, "{amo} m={m}");
        assert_eq!(size.literals, count.literals, "{amo} m={m}");
        assert_eq!(size.vars, (alloc.used() - m) as u64, "{amo} m={m}");
        if size.vars > 0 {
            assert_eq!(
                count.max_var,
                alloc.used() as u64,
                "{amo} m={m}: last aux unused"
            );
        }
    }
}

/// Enumerates every model of the n-queens formula, blocking on the n*n cell variables only;
/// checks each decoded placement and returns the number of distinct placements.
fn count_solutions(n: usize, options: EncodeOptions) -> usize {
    let enc = QueensEncoder::new(n, options).unwrap();
    let mut solver = Solver::new();
    enc.encode(&mut solver).unwrap();
    let mut count = 0;
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let mut value = vec![false; n * n];
        for l in &model {
            if l.index() < n * n {
                value[l.index()] = l.is_positive();
            }
        }
        let mut cols = Vec::with_capacity(n);
        for r in 0..n {
            let row: Vec<usize> = (0..n).filter(|&c| value[r * n + c]).collect();
            assert_eq!(
                row.len(),
                1,
                "n={n} {}: row {} has {row:?}",
                options.amo,
                r + 1
            );
            cols.push(row[0]);
        }
        let p = Placement::from_cols(&cols);
        assert!(
            is_solution(&p),
            "n={n} {}: {}",
            options.amo,
            p.to_one_line()
        );
        count += 1;
        let block: Vec<Lit> = (0..n * n)
            .map(|i| Lit::from_var(Var::from_index(i), !value[i]))
            .collect();
        solver.add_clause(&block);
        assert!(
            count <= published_total(n) as usize,
            "n={n} {}: too many",
            options.amo
        );
    }
    count
}

fn options(amo: LineEncodings, column_alo: bool) -> EncodeOptions {
    EncodeOptions { amo, column_alo }
}

/// n = 1..=8: the number of solutions equals the reference table, with and without the
/// redundant column clauses.
fn queens_counts(amo: Amo) {
    for n in 1..=8 {
        for column_alo in [false, true] {
            let got = count_solutions(n, options(LineEncodings::uniform(amo), column_alo));
            assert_eq!(
                got,
                published_total(n) as usize,
                "{amo} n={n} column_alo={column_alo}"
            );
        }
    }
}

/// The DIMACS text of the whole model, n = 1..=12, parses with varisat's parser (which checks
/// the header's variable and clause counts) into exactly the clauses the encoder emits.
fn dimacs_round_trip(amo: Amo) {
    for n in 1..=12 {
        let enc = QueensEncoder::new(n, options(LineEncodings::uniform(amo), n % 2 == 0)).unwrap();
        let text = enc.write_dimacs(Vec::new(), None).unwrap();
        let parsed = varisat_dimacs::DimacsParser::parse(&text[..])
            .unwrap_or_else(|e| panic!("{amo} n={n}: {e}"));
        let size = enc.size();
        assert_eq!(parsed.var_count() as u64, size.vars, "{amo} n={n}");
        assert_eq!(parsed.len() as u64, size.clauses, "{amo} n={n}");
        let header = String::from_utf8(text.clone()).unwrap();
        let p_line = format!("p cnf {} {}", size.vars, size.clauses);
        assert!(header.lines().any(|l| l == p_line), "{amo} n={n}");
        let mut mem = Cnf::new();
        enc.encode(&mut mem).unwrap();
        assert!(parsed.iter().eq(mem.iter()), "{amo} n={n}: clauses differ");
    }
}

/// The `c aux A..B = ENC at-most-one of LINE` comments are right: the blocks tile
/// n*n+1..=V in order, and every clause that mentions an auxiliary of a block mentions only
/// that block's auxiliaries and cells of that line.
fn aux_comments_are_right(amo: LineEncodings) {
    for n in 1..=12 {
        let enc = QueensEncoder::new(n, options(amo, false)).unwrap();
        let text = String::from_utf8(enc.write_dimacs(Vec::new(), None).unwrap()).unwrap();
        let mut lines_by_name = std::collections::HashMap::new();
        for kind in LineKind::ALL {
            for line in enc.lines(kind) {
                lines_by_name.insert(line.describe(n), line);
            }
        }
        // owner[v - n*n - 1] = the line (and encoding name) of auxiliary DIMACS variable v
        let mut owner: Vec<(Line, String)> = Vec::new();
        for l in text.lines().filter_map(|l| l.strip_prefix("c aux ")) {
            let (range, rest) = l.split_once(" = ").unwrap();
            let (first, last) = range.split_once("..").unwrap();
            let (first, last): (usize, usize) = (first.parse().unwrap(), last.parse().unwrap());
            let (name, line) = rest.split_once(" at-most-one of ").unwrap();
            let line = line.split_once("; named ").map_or(line, |(l, _)| l);
            let line = lines_by_name[line];
            assert_eq!(first, n * n + owner.len() + 1, "{amo} n={n}: {l}");
            assert_eq!(name, amo.for_kind(line.kind).name(), "{amo} n={n}: {l}");
            assert_eq!(
                (last + 1 - first) as u64,
                amo.for_kind(line.kind).size(line.len(n)).vars,
                "{amo} n={n}: {l}"
            );
            owner.extend((first..=last).map(|_| (line, name.to_string())));
        }
        assert_eq!((n * n + owner.len()) as u64, enc.size().vars, "{amo} n={n}");
        let mut mem = Cnf::new();
        enc.encode(&mut mem).unwrap();
        for clause in mem.iter() {
            let Some(aux) = clause.iter().find(|l| l.index() >= n * n) else {
                continue;
            };
            let (line, _) = &owner[aux.index() - n * n];
            let cells: Vec<(usize, usize)> = line.cells(n).collect();
            for l in clause {
                let i = l.index();
                if i >= n * n {
                    assert_eq!(&owner[i - n * n].0, line, "{amo} n={n}: {clause:?}");
                } else {
                    assert!(cells.contains(&(i / n, i % n)), "{amo} n={n}: {clause:?}");
                }
            }
        }
    }
}

/// The whole model's closed-form size equals a count of what is emitted, n = 1..=40.
fn model_size_matches_emitted(amo: LineEncodings) {
    for n in 1..=40 {
        let enc = QueensEncoder::new(n, options(amo, true)).unwrap();
        let mut count = CountingSink::default();
        enc.encode(&mut count).unwrap();
        let size = enc.size();
        assert_eq!(
            (size.clauses, size.literals),
            (count.clauses, count.literals),
            "{amo} n={n}"
        );
        assert!(count.max_var <= size.vars);
    }
}

/// Every at-most-one encoding of the catalogue with its default parameter, and the encodings
/// that take a parameter also with the four smallest values allowed: a new entry of
/// `amo::CATALOGUE` is tested with no new test code.
fn variants() -> Vec<Amo> {
    let mut v = Amo::all();
    for &e in queens_sat::encode::amo::CATALOGUE {
        if let Some(p) = e.parameter() {
            for value in p.min..p.min + 4 {
                let amo = Amo::with_param(e, value).unwrap();
                if !v.contains(&amo) {
                    v.push(amo);
                }
            }
        }
    }
    v
}

/// The variants cover the catalogue and the parameters the older per-encoding list had.
#[test]
fn variants_cover_the_catalogue() {
    let v = variants();
    for name in Amo::names() {
        assert!(v.iter().any(|a| a.encoding().name() == name), "{name}");
    }
    for spec in [
        "commander:2",
        "commander:5",
        "bimander:2",
        "bimander:3",
        "bimander:4",
    ] {
        assert!(v.contains(&spec.parse().unwrap()), "{spec}");
    }
}

#[test]
fn every_encoding_semantics_with_solver() {
    variants().into_iter().for_each(semantics_with_solver);
}

#[test]
fn every_encoding_size_matches_emitted() {
    variants().into_iter().for_each(size_matches_emitted);
}

#[test]
fn every_encoding_queens_counts() {
    variants().into_iter().for_each(queens_counts);
}

#[test]
fn every_encoding_dimacs_round_trip() {
    variants().into_iter().for_each(dimacs_round_trip);
}

#[test]
fn every_encoding_aux_comments_are_right() {
    for amo in variants() {
        aux_comments_are_right(LineEncodings::uniform(amo));
    }
}

#[test]
fn every_encoding_model_size_matches_emitted() {
    for amo in variants() {
        model_size_matches_emitted(LineEncodings::uniform(amo));
    }
}

/// Mixed per-line settings, as the `--amo` option spells them.
const MIXED: [&str; 5] = [
    "rows=sequential,diagonals=product",
    "rows=ladder,columns=binary,slash=commander:2,backslash=bimander:3",
    "rows=product,columns=commander,diagonals=ladder",
    "all=bimander,rows=pairwise,backslash=sequential",
    "columns=sequential,slash=binary",
];

#[test]
fn mixed_queens_counts() {
    for spec in MIXED {
        let amo: LineEncodings = spec.parse().unwrap();
        assert!(!amo.is_uniform(), "{spec}");
        for n in 1..=8 {
            assert_eq!(
                count_solutions(n, options(amo, n % 2 == 1)),
                published_total(n) as usize,
                "{spec} n={n}"
            );
        }
    }
}

#[test]
fn mixed_aux_comments_and_sizes() {
    for spec in MIXED {
        let amo: LineEncodings = spec.parse().unwrap();
        aux_comments_are_right(amo);
        model_size_matches_emitted(amo);
    }
}

#[test]
fn mixed_dimacs_round_trip() {
    for spec in MIXED {
        let amo: LineEncodings = spec.parse().unwrap();
        for n in 1..=12 {
            let enc = QueensEncoder::new(n, options(amo, false)).unwrap();
            let text = enc.write_dimacs(Vec::new(), None).unwrap();
            let parsed = varisat_dimacs::DimacsParser::parse(&text[..])
                .unwrap_or_else(|e| panic!("{spec} n={n}: {e}"));
            assert_eq!(parsed.var_count() as u64, enc.size().vars);
            assert_eq!(parsed.len() as u64, enc.size().clauses);
        }
    }
}

/// n = 9 and 10 with every encoding (a few seconds in a release build).
#[test]
fn queens_counts_9_10() {
    for amo in Amo::all() {
        for n in 9..=10 {
            let got = count_solutions(n, options(LineEncodings::uniform(amo), false));
            assert_eq!(got, published_total(n) as usize, "{amo} n={n}");
        }
    }
}

/// Runs `solver` (cadical or minisat) on the DIMACS of the model and returns the placement it
/// finds, or `None` if it reports unsatisfiable (its exit status checked too).
fn external_solve(solver: &str, n: usize, amo: LineEncodings) -> Option<Placement> {
    let enc = QueensEncoder::new(n, options(amo, false)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("q.cnf");
    std::fs::write(&cnf, enc.write_dimacs(Vec::new(), None).unwrap()).unwrap();
    let model = run_external(solver, &cnf)?;
    let mut value = vec![false; n * n];
    for &lit in &model {
        if lit > 0 && (lit as usize) <= n * n {
            value[lit as usize - 1] = true;
        }
    }
    let cols: Vec<usize> = (0..n)
        .map(|r| (0..n).find(|&c| value[r * n + c]).unwrap())
        .collect();
    Some(Placement::from_cols(&cols))
}

/// An external solver agrees: n = 2, 3 unsatisfiable, and the model it finds for n = 1, 4,
/// 12, 30 is a solution, for every encoding and one mixed setting, with cadical and minisat.
#[test]
fn external_solvers_agree() {
    let settings: Vec<LineEncodings> = Amo::all()
        .into_iter()
        .map(LineEncodings::uniform)
        .chain(std::iter::once(MIXED[1].parse().unwrap()))
        .collect();
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        for &amo in &settings {
            for n in [1, 2, 3, 4, 12, 30] {
                match external_solve(solver, n, amo) {
                    None => assert!(
                        n < 4 && published_total(n) as usize == 0,
                        "{solver} {amo} n={n}"
                    ),
                    Some(p) => {
                        assert!(is_solution(&p), "{solver} {amo} n={n}: {}", p.to_one_line())
                    }
                }
            }
        }
    }
}

#[test]
fn cli_writes_every_encoding() {
    for name in Amo::names().into_iter().chain([
        "commander:4",
        "bimander:2",
        "rows=sequential,diagonals=product",
    ]) {
        let out = run(&["encode", "10", "--amo", name]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let enc = QueensEncoder::new(10, options(name.parse().unwrap(), false)).unwrap();
        let parsed = varisat_dimacs::DimacsParser::parse(&out.stdout[..]).unwrap();
        assert_eq!(parsed.var_count() as u64, enc.size().vars, "{name}");
        assert_eq!(parsed.len() as u64, enc.size().clauses, "{name}");
    }
}

#[test]
fn cli_refuses_bad_encodings() {
    for bad in [
        "nope",
        "commander:1",
        "commander:x",
        "bimander:0",
        "binary:2",
        "rows=",
        "rows=foo",
    ] {
        let out = run(&["encode", "8", "--amo", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{bad}: {err}");
    }
}

/// A pairwise formula too large to write is refused with a pointer to the sequential counter
/// and its size; nothing is written.
#[test]
fn cli_refusal_suggests_a_linear_encoding() {
    let out = run(&["encode", "5000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    let seq = QueensEncoder::new(
        5000,
        options(LineEncodings::uniform(Amo::SEQUENTIAL), false),
    )
    .unwrap();
    assert!(err.contains("--amo sequential"), "{err}");
    assert!(err.contains(&seq.size().clauses.to_string()), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The whole-model formulas of docs/encodings.md, derived by hand from the per-line formulas
/// (rows and columns have length n; each diagonal direction has lengths 1..n-1 twice and n
/// once): sequential `12(n-1)^2 + n` clauses, `2(2n-1)(n-1)` auxiliaries, `24(n-1)^2 + n^2`
/// literals; ladder `4(4n+1)(n-1) + n` clauses, `4n^2 - 4` auxiliaries,
/// `6(6n+1)(n-1) + n^2` literals.
#[test]
fn documented_model_formulas() {
    for n in 1..=200u64 {
        let size = |amo| {
            QueensEncoder::new(n as usize, options(LineEncodings::uniform(amo), false))
                .unwrap()
                .size()
        };
        let (s, l) = (size(Amo::SEQUENTIAL), size(Amo::LADDER));
        assert_eq!(s.clauses, 12 * (n - 1) * (n - 1) + n, "n={n}");
        assert_eq!(s.vars - n * n, 2 * (2 * n - 1) * (n - 1), "n={n}");
        assert_eq!(s.literals, 24 * (n - 1) * (n - 1) + n * n, "n={n}");
        assert_eq!(l.clauses, 4 * (4 * n + 1) * (n - 1) + n, "n={n}");
        assert_eq!(l.vars - n * n, 4 * n * n - 4, "n={n}");
        assert_eq!(l.literals, 6 * (6 * n + 1) * (n - 1) + n * n, "n={n}");
    }
}
