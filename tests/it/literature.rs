//! The literature's benchmark of n-Queens Completion (Gent, Jefferson and Nightingale, JAIR 59,
//! 2017; CSPLib problem 079), against its published files in tests/data/csplib-prob079: every
//! published Excluded Diagonals instance is reproduced byte for byte by the reproduced
//! generator; a seeded sample of the paper's recorded answers agrees with the toolkit's
//! counter; the parameter files are read by every command, imported, and refused when
//! malformed with the file, the line and the problem.

use crate::common::{is_valid_placement, output, run, stderr, stdout, BIN};
use flate2::read::GzDecoder;
use queens_sat::board::MaskedBoard;
use queens_sat::count::solutions_masked;
use queens_sat::family::rng::SplitMix64;
use queens_sat::family::{jair, read_instance_text, InstanceSpec};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079")
        .join(name)
}

/// The parameter files of `diag-N.tar.gz`: (file name, contents).
fn published(n: usize) -> Vec<(String, String)> {
    let file = std::fs::File::open(data(&format!("diag-{n}.tar.gz"))).unwrap();
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let mut out = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().into_owned();
        if path.extension().is_some_and(|e| e == "param") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, text));
        }
    }
    out
}

/// `diag-N-M-S.param` -> (N, M, S).
fn name_parts(name: &str) -> (usize, usize, u64) {
    let parts: Vec<&str> = name
        .strip_prefix("diag-")
        .and_then(|s| s.strip_suffix(".param"))
        .unwrap()
        .split('-')
        .collect();
    (
        parts[0].parse().unwrap(),
        parts[1].parse().unwrap(),
        parts[2].parse().unwrap(),
    )
}

#[test]
fn published_parameter_files_are_reproduced_byte_for_byte() {
    let dir = data("params");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 5, "{names:?}");
    for name in names {
        let (n, m, s) = name_parts(&name);
        let o = run(&[
            "generate",
            "excluded-diagonals",
            &n.to_string(),
            "--min-free",
            &m.to_string(),
            "--seed",
            &s.to_string(),
            "--compatible",
            "jair",
            "--format",
            "jair",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(o.stdout, std::fs::read(dir.join(&name)).unwrap(), "{name}");
    }
}

#[test]
fn every_published_instance_is_reproduced() {
    for n in 8..=21 {
        let files = published(n);
        assert_eq!(files.len(), 1000, "diag-{n}.tar.gz");
        for (name, text) in files {
            let (file_n, m, s) = name_parts(&name);
            assert_eq!(file_n, n);
            let ours = jair::excluded_diagonals(n, m, s).unwrap().to_text();
            assert_eq!(ours, text, "{name}");
        }
    }
}

/// One line of the results file: n, D, the parameter file's name, whether solved, time.
struct Recorded {
    n: usize,
    d: usize,
    file: String,
    satisfiable: bool,
    seconds: f64,
}

/// Parses a line of `run-diags-shiftqueens-processed.txt.gz` (results/columns.txt: "n
/// numblocks/diags mininrow id filename numsols text nodes text timeout text time(s)"; the
/// file name and `Solutions:` share a field).
fn recorded(line: &str) -> Recorded {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 12, "{line}");
    let (n, d, min_free, id): (usize, usize, usize, u64) = (
        f[0].parse().unwrap(),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        f[3].parse().unwrap(),
    );
    let result = f[4].strip_suffix(":Solutions:").expect(line);
    let file = format!("diag-{n}-{min_free}-{id}.param");
    assert!(
        result.ends_with(&format!("/{file}-{d}.shiftqueens.result")),
        "{line}"
    );
    let satisfiable = match f[5] {
        "0" => false,
        "1" => true,
        other => panic!("numsols {other}: {line}"),
    };
    assert_eq!(
        (f[6], f[8], f[9], f[10]),
        ("Nodes:", "Timeout:", "0", "Time:")
    );
    Recorded {
        n,
        d,
        file,
        satisfiable,
        seconds: f[11].parse().unwrap(),
    }
}

/// `true` when no queen stands on one of the first `d` diagonals of the parameter file (read
/// here from the raw pairs, independently of the toolkit's reader).
fn avoids_diagonals(text: &str, n: usize, d: usize, queens: &[(usize, usize)]) -> bool {
    let list = &text[text.find("\ndiags =").unwrap() + 8..];
    let numbers: Vec<i64> = list
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    numbers.chunks(2).take(d).all(|pair| {
        let (k, t) = (pair[0], pair[1]);
        queens.iter().all(|&(r, c)| {
            let (r, c) = (r as i64, c as i64);
            if t == 1 {
                r + c != k
            } else {
                r - c + n as i64 - 1 != k
            }
        })
    })
}

#[test]
fn recorded_answers_agree_with_the_counter() {
    let gz = std::fs::File::open(data("run-diags-shiftqueens-processed.txt.gz")).unwrap();
    let lines: Vec<String> = BufReader::new(GzDecoder::new(gz))
        .lines()
        .map(Result::unwrap)
        .collect();
    assert_eq!(lines.len(), 319_000);
    // A seeded sample over n = 10..21 of the instances the paper's solver answered within
    // 0.1 s (the hard n = 21 ones take it minutes), 200 of them: a second or two here.
    let mut rng = SplitMix64::new(79);
    let mut sample = Vec::new();
    while sample.len() < 200 {
        let r = recorded(&lines[rng.index(lines.len())]);
        if r.seconds <= 0.1 {
            sample.push(r);
        }
    }
    let mut archives: std::collections::HashMap<usize, std::collections::HashMap<String, String>> =
        std::collections::HashMap::new();
    let (mut sat, mut unsat) = (0, 0);
    let mut ns = std::collections::BTreeSet::new();
    for r in &sample {
        let files = archives
            .entry(r.n)
            .or_insert_with(|| published(r.n).into_iter().collect());
        let text = &files[&r.file];
        let spec = read_instance_text(text, &r.file, Some(r.d)).unwrap();
        assert_eq!(spec.excluded.len(), r.d);
        let mut board = MaskedBoard::new(spec.n, spec.geometry).unwrap();
        for (r, c) in spec.forbidden_cells() {
            board.block(r, c);
        }
        let found = solutions_masked(&board, 1);
        let what = format!("{} with d = {}", r.file, r.d);
        assert_eq!(!found.is_empty(), r.satisfiable, "{what}");
        if let Some(p) = found.first() {
            let queens: Vec<(usize, usize)> = p
                .cols()
                .iter()
                .enumerate()
                .map(|(r, &c)| (r, c as usize))
                .collect();
            assert!(is_valid_placement(r.n, &queens), "{what}: {queens:?}");
            assert!(
                avoids_diagonals(text, r.n, r.d, &queens),
                "{what}: {queens:?}"
            );
            sat += 1;
        } else {
            unsat += 1;
        }
        ns.insert(r.n);
    }
    // The sample covers both answers and most sizes.
    assert!(sat >= 40 && unsat >= 40, "{sat} SAT, {unsat} UNSAT");
    assert!(ns.len() >= 10, "{ns:?}");

    // The command line gives the same answers: count --instance FILE --diagonals D, on boards
    // small enough for an exact count to be quick.
    let dir = tempfile::tempdir().unwrap();
    for r in sample.iter().filter(|r| r.n <= 13).take(6) {
        let path = dir.path().join(&r.file);
        std::fs::write(&path, &archives[&r.n][&r.file]).unwrap();
        let o = run(&[
            "count",
            "--instance",
            path.to_str().unwrap(),
            "--diagonals",
            &r.d.to_string(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let total: u64 = out
            .lines()
            .find_map(|l| l.strip_prefix("solutions: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(total > 0, r.satisfiable, "{} d = {}: {out}", r.file, r.d);
    }
}

#[test]
fn import_records_the_source_and_reads_back_to_the_same_instance() {
    let dir = tempfile::tempdir().unwrap();
    let source = data("params/diag-10-4-1.param");
    let out = dir.path().join("inst.txt");
    let o = run(&[
        "import",
        source.to_str().unwrap(),
        "--diagonals",
        "9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("\nfamily excluded-diagonals\n"), "{text}");
    assert!(text.contains("\nparameters d=9 numdiags=14\n"), "{text}");
    assert!(
        text.contains("\ngenerator diag-10-4-1.param, an Excluded Diagonals parameter file"),
        "{text}"
    );
    let spec = InstanceSpec::parse(&text).unwrap();
    let direct = read_instance_text(
        &std::fs::read_to_string(&source).unwrap(),
        "diag-10-4-1.param",
        Some(9),
    )
    .unwrap();
    assert_eq!(spec, direct);
    // The recorded answer: "10 9 4 1 ... diag-10-4-1.param-9 ... Solutions: 0" (the example of
    // the Info file, unsatisfiable), by the file and by its import alike.
    for args in [
        vec!["count", "--instance", out.to_str().unwrap()],
        vec![
            "count",
            "--instance",
            source.to_str().unwrap(),
            "--diagonals",
            "9",
        ],
    ] {
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("\nsolutions: 0\n"), "{}", stdout(&o));
        assert!(stdout(&o).starts_with("instance: excluded-diagonals n=10 d=9 numdiags=14\n"));
    }
    // Without --diagonals, all 14 diagonals.
    let o = run(&["import", source.to_str().unwrap()]);
    assert!(stdout(&o).contains("\nparameters d=14 numdiags=14\n"));

    // Essence' completion files as queens-gen-fast.py prints them (`python3 queens-gen-fast.py
    // 12 4 1` and `12 6 3` under CPython 3.11.7), read by every command.
    let essence = dir.path().join("completion-12-4-1.param");
    std::fs::write(
        &essence,
        "letting n =  12\nletting init =  [[2, 9], [1, 4], [10, 7], [7, 11]]\n",
    )
    .unwrap();
    let o = run(&["import", essence.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("\nfamily completion\n") && text.contains("\nparameters k=4\n"));
    assert!(text.contains("\nplaced 3,10 2,5 11,8 8,12\n"), "{text}");
    let o = run(&[
        "solve",
        "--instance",
        essence.to_str().unwrap(),
        "--format",
        "line",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cols: Vec<usize> = stdout(&o)
        .split_whitespace()
        .map(|c| c.parse::<usize>().unwrap() - 1)
        .collect();
    let queens: Vec<(usize, usize)> = cols.iter().copied().enumerate().collect();
    assert!(is_valid_placement(12, &queens));
    for q in [(2, 9), (1, 4), (10, 7), (7, 11)] {
        assert!(queens.contains(&q), "{q:?} in {queens:?}");
    }
    // Placed at random, the queens of `12 6 3` leave no completion.
    std::fs::write(
        &essence,
        "letting n =  12\nletting init =  [[3, 9], [8, 2], [7, 11], [1, 0], [9, 4], [4, 1]]\n",
    )
    .unwrap();
    let o = run(&["count", "--instance", essence.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\nsolutions: 0\n"), "{}", stdout(&o));
}

#[test]
fn generate_compatible_matches_the_scripts_and_the_published_prefixes() {
    // `python3 queens-gen-fast.py 12 6 3` (CPython 3.11.7) prints this.
    let o = run(&[
        "generate",
        "completion",
        "12",
        "--k",
        "6",
        "--seed",
        "3",
        "--compatible",
        "jair",
        "--format",
        "jair",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "letting n =  12\nletting init =  [[3, 9], [8, 2], [7, 11], [1, 0], [9, 4], [4, 1]]\n"
    );
    // The instance file with --d D is the published file's first D diagonals.
    let o = run(&[
        "generate",
        "excluded-diagonals",
        "21",
        "--min-free",
        "4",
        "--seed",
        "163",
        "--compatible",
        "jair",
        "--d",
        "23",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let generated = InstanceSpec::parse(&stdout(&o)).unwrap();
    assert_eq!(generated.seed, Some(163));
    assert_eq!(
        generated.parameters_text(),
        "d=23 min-free=4 numdiags=47 compatible=jair"
    );
    let text = std::fs::read_to_string(data("params/diag-21-4-163.param")).unwrap();
    let published = read_instance_text(&text, "diag-21-4-163.param", Some(23)).unwrap();
    assert_eq!(generated.excluded, published.excluded);
    // Where the script gives up, or the prefix is longer than the list.
    for (args, msg) in [
        (
            &["completion", "8", "--k", "8", "--seed", "1"][..],
            "queens-gen-fast.py gives up with seed 1",
        ),
        (
            &[
                "excluded-diagonals",
                "10",
                "--min-free",
                "4",
                "--seed",
                "1",
                "--d",
                "15",
            ][..],
            "keeps 14 diagonals",
        ),
        (
            &[
                "excluded-diagonals",
                "10",
                "--seed",
                "1",
                "--d",
                "3",
                "--format",
                "jair",
            ][..],
            "--format jair writes every diagonal",
        ),
    ] {
        let mut full = vec!["generate"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--compatible", "jair"]);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(msg), "{args:?}: {}", stderr(&o));
    }
    let o = run(&["generate", "blocked", "8", "--p", "0.1", "--format", "jair"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&[
        "generate",
        "completion",
        "8",
        "--k",
        "2",
        "--format",
        "jair",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("goes with --compatible jair"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn malformed_parameter_files_name_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.param");
    let p = path.to_str().unwrap();
    let edp = "n =  10\nnumdiags =  2\n";
    let cases: [(String, &[&str], usize, &str); 11] = [
        (
            format!("{edp}diags =  [[4, 1],\n [2, 0]\n"),
            &[],
            4,
            "the file ends inside the list opened on line 3",
        ),
        (
            format!("{edp}diags =  [[4, 1], [2, 3]]\n"),
            &[],
            3,
            "the type 3 is neither 1",
        ),
        (
            format!("{edp}diags =  [[4, 1],\n [19, 0]]\n"),
            &[],
            4,
            "the index 19 is outside 0..=18",
        ),
        (
            format!("{edp}diags =  [[4, 1], [2, 0]]\n"),
            &["--diagonals", "3"],
            2,
            "the first 3 diagonals cannot be taken: the file lists numdiags = 2",
        ),
        (
            format!("{edp}diags =  [[4, 1]]\n"),
            &[],
            2,
            "numdiags = 2, but diags lists 1 diagonals",
        ),
        (
            "letting n = 8\nletting init = [[0, 0], [8, 1]]\n".into(),
            &[],
            2,
            "cell [8, 1] is outside the 8 x 8 board",
        ),
        (
            "language ESSENCE' 1.0\nletting n = 8\nletting init = [[0, 0],\n [3, 3]]\n".into(),
            &[],
            4,
            "placed queens [0, 0] (line 3) and [3, 3] share a \\ diagonal",
        ),
        (
            "letting n = 8\nletting init = [[0, 1]]\n".into(),
            &["--diagonals", "1"],
            1,
            "can be taken only from an Excluded Diagonals parameter file",
        ),
        (
            "queens-sat instance 1\nn 8\nboard square\nfamily custom\nend\n".into(),
            &["--diagonals", "0"],
            1,
            "and this is a queens-sat instance file",
        ),
        (
            "c a DIMACS file\np cnf 1 1\n".into(),
            &[],
            1,
            "not an instance file: expected 'queens-sat instance 1', an Excluded Diagonals parameter file",
        ),
        (
            "n = 4\nnumdiags = 0\ndiags = []\nsize = 4\n".into(),
            &[],
            4,
            "unknown name 'size'",
        ),
    ];
    for (text, extra, line, msg) in &cases {
        std::fs::write(&path, text).unwrap();
        for cmd in ["encode", "solve", "count", "check", "import"] {
            let mut args = vec![cmd];
            if cmd == "import" {
                args.push(p);
            } else {
                args.extend_from_slice(&["--instance", p]);
            }
            args.extend_from_slice(extra);
            let o = run(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {text:?}: {err}");
            assert!(
                err.starts_with(&format!("error: {p}: line {line}: ")) && err.contains(msg),
                "{cmd} {text:?}: {err}"
            );
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(o.stdout.is_empty());
        }
    }
    // --diagonals without --instance.
    for args in [
        &["count", "--diagonals", "2", "8"][..],
        &["solve", "--diagonals", "2", "8"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("--instance"), "{}", stderr(&o));
    }
}

/// A parameter file of tens of megabytes is refused at its first impossible item, as it is
/// read: here a diagonal listed twice, followed by millions more and a malformed end that a
/// reader going on would report instead. The run has 1 GiB of address space (a reader that
/// kept the whole list needed more than that for this file).
#[test]
fn a_huge_parameter_file_is_refused_at_its_first_impossible_item() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "big.param",
            "n =  8\nnumdiags =  14\ndiags =  [[1, 1], ",
            "[1,1], ",
            "line 3: diagonal [1, 1] listed twice (also on line 3)",
        ),
        (
            "big-init.param",
            "letting n =  8\nletting init =  [[1, 1], ",
            "[1,1], ",
            "line 2: cell [1, 1] listed twice (also on line 2)",
        ),
    ];
    for (name, head, item, message) in cases {
        let path = dir.path().join(name);
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(head.as_bytes()).unwrap();
        // About 56 MB, under the 64 MiB that an instance file may hold.
        for _ in 0..8_000_000 {
            f.write_all(item.as_bytes()).unwrap();
        }
        f.write_all(b"@ never closed\n").unwrap();
        drop(f);
        for cmd in [&["encode", "--instance"][..], &["import"]] {
            let o = output(
                std::process::Command::new("sh")
                    .args(["-c", "ulimit -v 1048576 && exec \"$0\" \"$@\"", BIN])
                    .args(cmd)
                    .arg(&path),
            );
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{name}, {cmd:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{name}, {cmd:?}: {err}");
            assert!(
                err.contains(&format!("{name}: {message}")),
                "{name}, {cmd:?}: {err}"
            );
            assert!(stdout(&o).is_empty(), "{name}, {cmd:?}");
        }
    }
}
