//! `encode N --cubes K`: iCNF for cube-and-conquer. The cubes are disjoint and cover every
//! solution (against the counter's own listing), their projected counts (Ganak) sum to the
//! table for models with and without auxiliary variables, and CaDiCaL solves the file.

use crate::common::{ganak_counts, published_total, require, run, run_external, run_ok, stderr};

/// The clauses (DIMACS lines), the cubes (literals) and the header lines of an iCNF file.
fn read_icnf(text: &str) -> (Vec<String>, Vec<Vec<i64>>, Vec<String>) {
    let (mut clauses, mut cubes, mut header) = (Vec::new(), Vec::new(), Vec::new());
    let mut seen_p = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("a ") {
            let lits: Vec<i64> = rest
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            assert_eq!(lits.last(), Some(&0), "{line}");
            cubes.push(lits[..lits.len() - 1].to_vec());
        } else if line.starts_with('c') {
            header.push(line.to_string());
        } else if line == "p inccnf" {
            seen_p = true;
        } else {
            assert!(seen_p && cubes.is_empty(), "clause after cubes: {line}");
            clauses.push(line.to_string());
        }
    }
    assert!(seen_p, "no p inccnf line");
    (clauses, cubes, header)
}

#[test]
fn cubes_are_disjoint_and_cover_every_solution() {
    for n in 4..=10usize {
        let solutions: Vec<Vec<usize>> = run_ok(&["count", &n.to_string(), "--list"])
            .lines()
            .map(|l| l.split(' ').map(|t| t.parse().unwrap()).collect())
            .collect();
        assert_eq!(solutions.len() as u64, published_total(n));
        for k in [1, 2, 3] {
            let text = run_ok(&["encode", &n.to_string(), "--cubes", &k.to_string()]);
            let (_, cubes, _) = read_icnf(&text);
            // Cell model: a cube is k positive cell variables, one per row of the first k.
            let mut seen = std::collections::HashSet::new();
            for cube in &cubes {
                assert_eq!(cube.len(), k);
                let rows: Vec<usize> = cube.iter().map(|&v| (v as usize - 1) / n).collect();
                assert_eq!(rows, (0..k).collect::<Vec<_>>(), "{cube:?}");
                assert!(seen.insert(cube.clone()), "cube {cube:?} twice");
            }
            for s in &solutions {
                let holds = |cube: &Vec<i64>| {
                    cube.iter().all(|&v| {
                        let (r, c) = ((v as usize - 1) / n, (v as usize - 1) % n);
                        s[r] == c + 1
                    })
                };
                let matching = cubes.iter().filter(|c| holds(c)).count();
                assert_eq!(
                    matching, 1,
                    "n = {n}, k = {k}: solution {s:?} in {matching} cubes"
                );
            }
        }
    }
}

#[test]
fn projected_counts_of_the_cubes_sum_to_the_table() {
    if !require("pyganak") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for model in [
        vec!["--amo", "pairwise"],
        vec!["--amo", "sequential"],
        vec!["--model", "columns", "--domain", "order"],
        vec!["--model", "columns", "--domain", "log"],
    ] {
        for n in [4usize, 6, 8] {
            let ns = n.to_string();
            let mut args = vec!["encode", ns.as_str()];
            args.extend(&model);
            // The projection declared by the plain export.
            let plain = run_ok(&args);
            let show = plain.lines().find(|l| l.starts_with("c p show"));
            args.extend(["--cubes", "2"]);
            let (clauses, cubes, _) = read_icnf(&run_ok(&args));
            let vars = plain
                .lines()
                .find_map(|l| l.strip_prefix("p cnf "))
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string();
            let mut files = Vec::new();
            for (i, cube) in cubes.iter().enumerate() {
                let mut text = String::from(if show.is_some() {
                    "c t pmc\n"
                } else {
                    "c t mc\n"
                });
                text.push_str(&format!("p cnf {vars} {}\n", clauses.len() + cube.len()));
                if let Some(s) = show {
                    text.push_str(s);
                    text.push('\n');
                }
                for c in &clauses {
                    text.push_str(c);
                    text.push('\n');
                }
                for l in cube {
                    text.push_str(&format!("{l} 0\n"));
                }
                let f = dir.path().join(format!("cube-{n}-{i}.cnf"));
                std::fs::write(&f, text).unwrap();
                files.push(f);
            }
            let counts = ganak_counts(&files, false);
            let sum: u128 = files.iter().map(|f| counts[f].1).sum();
            assert_eq!(sum, published_total(n) as u128, "{model:?}, n = {n}");
        }
    }
}

#[test]
fn cadical_solves_the_cube_file() {
    if !require("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (n, sat) in [(8usize, true), (3, false), (10, true)] {
        let f = dir.path().join(format!("q{n}.icnf"));
        let o = run(&[
            "encode",
            &n.to_string(),
            "--cubes",
            "2",
            "-o",
            f.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        // `s UNSATISFIABLE` with exit 20, or `s SATISFIABLE` with exit 10 and the model.
        let answer = run_external("cadical", &f);
        if !sat {
            assert!(answer.is_none(), "cadical: a model for n = {n}");
            continue;
        }
        let lits = answer.unwrap_or_else(|| panic!("cadical: no model for n = {n}"));
        // The true cell variables form a solution (checked by `verify`).
        let mut cols = vec![0usize; n];
        for &l in lits.iter().filter(|&&l| l > 0 && l <= (n * n) as i64) {
            let v = l as usize - 1;
            cols[v / n] = v % n + 1;
        }
        let line: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
        let answer = dir.path().join(format!("q{n}.txt"));
        std::fs::write(&answer, line.join(" ")).unwrap();
        let o = run(&["verify", &n.to_string(), answer.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", line.join(" "), stderr(&o));
    }
}

#[test]
fn bad_cube_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.icnf");
    for k in ["0", "9", "-1", "x"] {
        let o = run(&["encode", "8", "--cubes", k, "-o", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{k}: {}", stderr(&o));
        assert!(!f.exists());
    }
    // Too many cubes: refused before anything is written.
    let o = run(&["encode", "30", "--cubes", "8", "-o", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("more than"), "{}", stderr(&o));
    assert!(!f.exists());
}
