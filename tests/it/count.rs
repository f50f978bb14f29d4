//! The backtracking counter against the reference table, against the plain enumeration, across
//! thread counts and interruptions, and through the command line.

use crate::common::{bin, output, run, stderr, stdout, REFERENCE};
use queens_sat::board::is_solution;
use queens_sat::count::{self, Counter, Outcome};
use queens_sat::Placement;
use std::collections::BTreeSet;

#[test]
fn counts_match_reference_table_up_to_15() {
    for &(n, u, d) in REFERENCE.iter().filter(|t| t.0 <= 15) {
        let c = count::count(n).unwrap();
        assert_eq!((c.n, c.total, c.fundamental), (n, d, u), "n = {n}");
        let k = c.classes;
        assert_eq!(8 * k.of8 + 4 * k.of4 + 2 * k.of2 + k.of1, d, "n = {n}");
        assert_eq!(k.of8 + k.of4 + k.of2 + k.of1, u, "n = {n}");
    }
}

#[test]
fn prefix_split_kernel_matches_reference_table_up_to_15() {
    for &(n, u, d) in REFERENCE.iter().filter(|t| t.0 <= 15) {
        let c = count::count_by_prefix_split(n).unwrap();
        assert_eq!((c.n, c.total, c.fundamental), (n, d, u), "n = {n}");
        let k = c.classes;
        assert_eq!(8 * k.of8 + 4 * k.of4 + 2 * k.of2 + k.of1, d, "n = {n}");
        assert_eq!(k.of8 + k.of4 + k.of2 + k.of1, u, "n = {n}");
        // The class split agrees with the other kernel's.
        assert_eq!(c.classes, count::count(n).unwrap().classes, "n = {n}");
    }
}

#[test]
#[ignore = "slow: n = 16 and 17 (run with --ignored)"]
fn counts_match_reference_table_16_17() {
    for &(n, u, d) in REFERENCE.iter().filter(|t| t.0 >= 16) {
        let c = count::count(n).unwrap();
        assert_eq!((c.total, c.fundamental), (d, u), "n = {n}");
    }
}

/// Solutions for n <= 10 from the plain enumeration: valid, distinct, closed under the
/// 8 symmetries; representatives pairwise inequivalent, one per class.
#[test]
fn listed_solutions_are_valid_distinct_and_closed() {
    for &(n, u, d) in REFERENCE.iter().filter(|t| t.0 <= 10) {
        let all: Vec<Placement> = queens_sat::board::solutions(n).collect();
        assert_eq!(all.len() as u64, d, "n = {n}");
        let set: BTreeSet<Placement> = all.iter().cloned().collect();
        assert_eq!(set.len(), all.len(), "duplicates for n = {n}");
        for s in &all {
            assert!(is_solution(s), "invalid {s} for n = {n}");
            for img in s.images().unwrap() {
                assert!(set.contains(&img), "image {img} of {s} missing, n = {n}");
            }
        }
        let reps: Vec<Placement> = queens_sat::board::fundamental_solutions(n).collect();
        assert_eq!(reps.len() as u64, u, "n = {n}");
        let canon: BTreeSet<Placement> = reps.iter().map(|r| r.canonical().unwrap()).collect();
        assert_eq!(
            canon.len(),
            reps.len(),
            "equivalent representatives, n = {n}"
        );
        // Every solution's class has a representative.
        for s in &all {
            assert!(canon.contains(&s.canonical().unwrap()));
        }
        // The counter's class split agrees with the classes seen in the enumeration.
        let mut by_size = [0u64; 9];
        for r in &reps {
            by_size[r.class_size().unwrap()] += 1;
        }
        let c = count::count(n).unwrap().classes;
        assert_eq!(
            (c.of8, c.of4, c.of2, c.of1),
            (by_size[8], by_size[4], by_size[2], by_size[1]),
            "n = {n}"
        );
    }
}

#[test]
fn class_split_matches_enumeration_for_11_and_12() {
    for n in [11, 12] {
        let mut by_size = [0u64; 9];
        for r in queens_sat::board::fundamental_solutions(n) {
            by_size[r.class_size().unwrap()] += 1;
        }
        let c = count::count(n).unwrap().classes;
        assert_eq!((c.of8, c.of4, c.of2), (by_size[8], by_size[4], by_size[2]));
    }
}

fn run_counter(c: Counter) -> Outcome {
    c.run().unwrap()
}

#[test]
fn same_counts_whatever_the_threads() {
    for n in [9, 12, 13] {
        let one = run_counter(Counter::new(n).unwrap().threads(1));
        for k in [2, 3, 8] {
            assert_eq!(
                run_counter(Counter::new(n).unwrap().threads(k)),
                one,
                "n = {n}, k = {k}"
            );
        }
    }
}

#[test]
fn interrupted_and_resumed_run_gives_the_reference_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c13.ckpt");
    let (_, u, d) = REFERENCE[12];
    let subs = count::sub_problem_count(13).unwrap();
    assert!(subs > 20);
    // Stop after a few sub-problems, twice, then finish.
    for (k, threads) in [(7, 1), (11, 2)] {
        match run_counter(
            Counter::new(13)
                .unwrap()
                .threads(threads)
                .checkpoint(&path)
                .stop_after(k),
        ) {
            Outcome::Stopped(p) => assert!(p.done < p.total),
            other => panic!("expected a stop, got {other:?}"),
        }
    }
    // The stopped runs recorded 7 + 11 sub-problems: 18 records after the 6 header lines.
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 5 + 18);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let out = Counter::new(13)
        .unwrap()
        .checkpoint(&path)
        .on_progress(|p| {
            done.fetch_max(p.done, std::sync::atomic::Ordering::Relaxed);
        })
        .run()
        .unwrap();
    match out {
        Outcome::Complete(c) => assert_eq!((c.total, c.fundamental), (d, u)),
        other => panic!("{other:?}"),
    }
    assert_eq!(done.into_inner(), subs);
    // A rerun on the complete file solves nothing and gives the same totals.
    let again = count::Counter::new(13)
        .unwrap()
        .checkpoint(&path)
        .stop_after(0)
        .run();
    match again.unwrap() {
        Outcome::Complete(c) => assert_eq!((c.total, c.fundamental), (d, u)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn damaged_or_mismatched_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ckpt");
    let _ = Counter::new(11)
        .unwrap()
        .checkpoint(&path)
        .stop_after(5)
        .run()
        .unwrap();
    let good = std::fs::read_to_string(&path).unwrap();
    // Another n.
    let err = Counter::new(12)
        .unwrap()
        .checkpoint(&path)
        .run()
        .unwrap_err();
    assert!(err.to_string().contains("n = 11"), "{err}");
    // An edited count.
    let lines: Vec<&str> = good.lines().collect();
    let last = lines[lines.len() - 1];
    let mut fields: Vec<String> = last.split(' ').map(String::from).collect();
    fields[1] = (fields[1].parse::<u64>().unwrap() + 1).to_string();
    let edited = format!(
        "{}\n{}\n",
        lines[..lines.len() - 1].join("\n"),
        fields.join(" ")
    );
    std::fs::write(&path, &edited).unwrap();
    let err = Counter::new(11)
        .unwrap()
        .checkpoint(&path)
        .run()
        .unwrap_err();
    assert!(err.to_string().contains("damaged or was edited"), "{err}");
    // An edited header.
    std::fs::write(&path, good.replacen("n 11", "n 12", 1)).unwrap();
    let err = Counter::new(11)
        .unwrap()
        .checkpoint(&path)
        .run()
        .unwrap_err();
    assert!(err.to_string().contains("header is damaged"), "{err}");
    // Not a checkpoint at all: refused, and left untouched.
    std::fs::write(&path, "hello\n").unwrap();
    assert!(Counter::new(11).unwrap().checkpoint(&path).run().is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello\n");
    // A last line cut short by a crash is dropped and its sub-problem solved again.
    std::fs::write(&path, &good[..good.len() - 7]).unwrap();
    match Counter::new(11).unwrap().checkpoint(&path).run().unwrap() {
        Outcome::Complete(c) => assert_eq!((c.total, c.fundamental), (2_680, 341)),
        other => panic!("{other:?}"),
    }
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = run(args);
    (out.status.code().unwrap_or(-1), stdout(&out), stderr(&out))
}

#[test]
fn cli_counts_in_text_and_json() {
    let (code, out, _) = cli(&["count", "12"]);
    assert_eq!(code, 0);
    assert!(out.contains("solutions: 14200"), "{out}");
    assert!(out.contains("fundamental solutions: 1787"), "{out}");
    let (code, out, _) = cli(&["count", "10", "--format", "json", "--threads", "2"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"], 724);
    assert_eq!(v["fundamental"], 92);
    let k = &v["classes"];
    let d =
        8 * k["8"].as_u64().unwrap() + 4 * k["4"].as_u64().unwrap() + 2 * k["2"].as_u64().unwrap();
    assert_eq!(d, 724);
}

#[test]
fn cli_lists_solutions() {
    let (code, out, _) = cli(&["count", "8", "--list"]);
    assert_eq!(code, 0);
    let sols: Vec<Placement> = out
        .lines()
        .map(|l| Placement::parse_one_line(l, Some(8)).unwrap())
        .collect();
    assert_eq!(sols.len(), 92);
    assert!(sols.iter().all(is_solution));
    let (code, out, _) = cli(&["count", "8", "--list", "--fundamental"]);
    assert_eq!(code, 0);
    let reps: BTreeSet<Placement> = out
        .lines()
        .map(|l| {
            Placement::parse_one_line(l, Some(8))
                .unwrap()
                .canonical()
                .unwrap()
        })
        .collect();
    assert_eq!(reps.len(), 12);
    assert_eq!(out.lines().count(), 12);
}

#[test]
fn cli_checkpoint_resume_and_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ckpt");
    let p = path.to_str().unwrap();
    let (code, out, _) = cli(&["count", "11", "--checkpoint", p, "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["total"].as_u64(), v["fundamental"].as_u64()),
        (Some(2_680), Some(341))
    );
    let (code, out2, _) = cli(&["count", "11", "--checkpoint", p, "--format", "json"]);
    assert_eq!((code, out2), (0, out));
    let (code, out, err) = cli(&["count", "12", "--checkpoint", p]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: checkpoint") && err.contains("n = 11"),
        "{err}"
    );
}

#[test]
fn cli_bad_input() {
    for (args, needle) in [
        (&["count", "0"][..], "at least 1"),
        (&["count", "33"][..], "at most 32"),
        (&["count", "-3"][..], "positive integer"),
        (&["count", "x"][..], "positive integer"),
        (&["count", "8", "--threads", "0"][..], "--threads"),
        (&["count", "8", "--fundamental"][..], "--list"),
    ] {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    assert!(matches!(count::count(0), Err(count::CountError::Zero)));
    assert!(matches!(
        count::count(40),
        Err(count::CountError::TooLarge(40))
    ));
}

/// A value of `QUEENS_SAT_COUNT_KERNEL` that is not UTF-8 text names no kernel: refused as
/// an unknown name is, on one line (its bytes escaped, as a name with a line break is), with
/// exit 2 and nothing counted.
#[test]
fn cli_a_kernel_name_that_is_not_text_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let cases: [(&[u8], &str); 3] = [
        (
            b"\xffavx2",
            "QUEENS_SAT_COUNT_KERNEL=\\xffavx2: not a kernel",
        ),
        (
            b"depth-first\xc3",
            "QUEENS_SAT_COUNT_KERNEL=depth-first\\xc3: not a kernel",
        ),
        (b"avx2\nx", "QUEENS_SAT_COUNT_KERNEL=avx2\\nx: not a kernel"),
    ];
    for (value, needle) in cases {
        let o = output(
            bin()
                .env(count::KERNEL_VARIABLE, std::ffi::OsStr::from_bytes(value))
                .args(["count", "8"]),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{value:?}: {err}");
        assert!(stdout(&o).is_empty(), "{value:?}");
        assert_eq!(err.lines().count(), 1, "{value:?}: {err}");
        assert!(err.contains(needle), "{value:?}: {err}");
    }
}

/// Every counting kernel `QUEENS_SAT_COUNT_KERNEL` chooses gives the reference table's counts
/// (n = 8..14, where the vector kernels take the interiors); one this processor cannot run is
/// refused with one line (and reported here loudly), a name that is no kernel too.
#[test]
fn cli_each_kernel_gives_the_reference_counts() {
    let with = |kernel: &str, n: usize| {
        let o = output(bin().env(count::KERNEL_VARIABLE, kernel).args([
            "count",
            &n.to_string(),
            "--format",
            "json",
        ]));
        (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
    };
    let mut ran = 0;
    for kernel in ["depth-first", "avx2", "avx512"] {
        for &(n, u, d) in REFERENCE.iter().filter(|t| (8..=14).contains(&t.0)) {
            let (code, out, err) = with(kernel, n);
            if code == 2 && err.contains("this processor cannot run that kernel") {
                assert_ne!(kernel, "depth-first");
                eprintln!("\n*** SKIPPED: {err} ***\n");
                break;
            }
            assert_eq!(code, 0, "{kernel}, n = {n}: {err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(
                (v["total"].as_u64(), v["fundamental"].as_u64()),
                (Some(d), Some(u)),
                "{kernel}, n = {n}"
            );
            ran += 1;
        }
    }
    assert!(ran >= 7, "{ran} counts");
    let (code, out, err) = with("fastest", 8);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("QUEENS_SAT_COUNT_KERNEL=fastest: not a kernel"),
        "{err}"
    );
    // Refused before anything is written: no heatmap is left behind.
    let dir = tempfile::tempdir().unwrap();
    let heatmap = dir.path().join("heatmap.svg");
    let o = output(
        bin()
            .env(count::KERNEL_VARIABLE, "fastest")
            .args(["count", "6", "--heatmap"])
            .arg(&heatmap),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!heatmap.exists());
}

/// The library's refusals say what is asked in its own terms, with no command-line flag; the
/// command line words the same refusals with its flags (exit 2, one line).
#[test]
fn refusals_speak_library_terms_and_the_cli_names_its_flags() {
    use queens_sat::command::count::{
        count as run_count, Board, CountRequest, Format, ListFormat, Listing,
    };
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part.txt");
    let part_arg = part.to_str().unwrap();
    let cases: [(CountRequest, &[&str], &str); 3] = [
        (
            CountRequest::Count {
                n: 15,
                threads: None,
                checkpoint: None,
                heatmap: Some(dir.path().join("h.svg")),
                format: Format::Text,
                output: None,
            },
            &["count", "15", "--heatmap", "/dev/null"],
            "--heatmap counts the solutions once per cell",
        ),
        (
            CountRequest::List {
                listing: Listing::Every(Board::Empty(11)),
                format: ListFormat::Svg,
                output: None,
            },
            &["count", "11", "--list", "--format", "svg"],
            "--format svg draws at most 1000 boards",
        ),
        (
            CountRequest::Shard {
                n: 3,
                shard: count::parse_shard("1/2").unwrap(),
                file: part.clone(),
                threads: None,
            },
            &["count", "3", "--shard", "1/2", "-o", part_arg],
            "count it without --shard",
        ),
    ];
    for (req, args, words) in cases {
        let err = run_count(&req, &mut Vec::new(), &mut Vec::new(), &()).unwrap_err();
        assert!(!err.to_string().contains("--"), "{req:?}: {err}");
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    assert!(!part.exists() && !dir.path().join("h.svg").exists());
}
