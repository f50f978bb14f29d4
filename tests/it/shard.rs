//! Sharded counts: `count N --shard I/K -o FILE` and `count --merge FILE...`. The merged counts
//! equal the published table and an unsharded run; every way a set of shard files can be wrong
//! is refused with the file named and exit 2.

use crate::common::{run, stderr, stdout, REFERENCE};
use std::path::{Path, PathBuf};

/// Counts every shard of `n` into `dir`, returning the files.
fn shards(dir: &Path, n: usize, k: usize) -> Vec<PathBuf> {
    (1..=k)
        .map(|i| {
            let f = dir.join(format!("n{n}-part-{i}-of-{k}.txt"));
            let o = run(&[
                "count",
                &n.to_string(),
                "--shard",
                &format!("{i}/{k}"),
                "-o",
                f.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            f
        })
        .collect()
}

fn merge(files: &[PathBuf]) -> std::process::Output {
    let mut args = vec!["count".to_string(), "--merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

#[test]
fn merged_shards_give_the_table_and_the_unsharded_output() {
    let dir = tempfile::tempdir().unwrap();
    for n in 8..=12 {
        let (_, fundamental, total) = REFERENCE[n - 1];
        let whole = run(&["count", &n.to_string()]);
        assert!(whole.status.success());
        for k in [1, 3, 8] {
            let files = shards(dir.path(), n, k);
            let o = merge(&files);
            assert!(o.status.success(), "n = {n}, K = {k}: {}", stderr(&o));
            let text = stdout(&o);
            assert!(text.contains(&format!("solutions: {total}\n")), "{text}");
            assert!(
                text.contains(&format!("fundamental solutions: {fundamental}\n")),
                "{text}"
            );
            assert_eq!(text, stdout(&whole), "n = {n}, K = {k}");
            // The order of the files does not matter.
            let mut rev = files.clone();
            rev.reverse();
            assert_eq!(stdout(&merge(&rev)), text);
        }
    }
}

/// The shards' own totals add up, and each shard holds a similar share of the work.
#[test]
fn each_shard_holds_a_part_and_json_merges_too() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 13, 4);
    let o = run(&[
        "count",
        "--merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        files[2].to_str().unwrap(),
        files[3].to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["total"], REFERENCE[12].2);
    assert_eq!(v["fundamental"], REFERENCE[12].1);
    let mut sum = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let done = text.lines().last().unwrap();
        let fields: Vec<&str> = done.split(' ').collect();
        assert_eq!(fields[0], "done", "{done}");
        let total: u64 = fields[5].parse().unwrap();
        // The residues the file carries are those of its total.
        assert_eq!(fields[6], (total % 13).to_string());
        assert_eq!(fields[7], (total % 15).to_string());
        assert!(total > 0);
        sum += total;
    }
    assert_eq!(sum, REFERENCE[12].2);
}

fn refused(files: &[PathBuf], needle: &str) {
    let o = merge(files);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(stdout(&o), "", "nothing is printed for a refused merge");
}

#[test]
fn merge_refuses_missing_duplicated_foreign_and_edited_shards() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 10, 4);
    // A missing shard.
    refused(&files[..3], "missing shard 4 of 4");
    // A duplicated shard (the same file twice, or a copy).
    let copy = dir.path().join("copy.txt");
    std::fs::copy(&files[1], &copy).unwrap();
    let mut dup = files.clone();
    dup.push(copy.clone());
    refused(&dup, "shard 2/4 is given twice");
    // A shard of another n, or of another K.
    let other_n = shards(dir.path(), 11, 4);
    let mut mixed = files[..3].to_vec();
    mixed.push(other_n[3].clone());
    refused(&mixed, "belong to different counts");
    let other_k = shards(dir.path(), 10, 5);
    let mut mixed = files[..3].to_vec();
    mixed.push(other_k[3].clone());
    refused(&mixed, "belong to different counts");
    // A file of another version.
    let edit = |name: &str, f: &dyn Fn(String) -> String| {
        let p = dir.path().join(name);
        std::fs::write(&p, f(std::fs::read_to_string(&files[3]).unwrap())).unwrap();
        let mut v = files[..3].to_vec();
        v.push(p);
        v
    };
    let version = edit("version.txt", &|t| t.replacen("tool ", "tool 9.", 1));
    refused(&version, "tool version");
    // An edited count in a record: its checksum no longer holds.
    let record = edit("record.txt", &|t| {
        let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
        let i = lines
            .iter()
            .position(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                f.len() == 5 && f[1] != "0"
            })
            .expect("a record with solutions");
        let mut f: Vec<String> = lines[i].split(' ').map(str::to_string).collect();
        f[1] = (f[1].parse::<u64>().unwrap() + 1).to_string();
        lines[i] = f.join(" ");
        lines.join("\n") + "\n"
    });
    refused(&record, "damaged or was edited");
    // An edited total in the summary line.
    let summary = edit("summary.txt", &|t| {
        let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
        let last = lines.pop().unwrap();
        let mut f: Vec<String> = last.split(' ').map(str::to_string).collect();
        f[5] = (f[5].parse::<u64>().unwrap() + 8).to_string();
        lines.push(f.join(" "));
        lines.join("\n") + "\n"
    });
    refused(&summary, "line");
    // A record removed: the summary no longer matches, or the shard is incomplete.
    let removed = edit("removed.txt", &|t| {
        let mut lines: Vec<&str> = t.lines().collect();
        lines.remove(6);
        lines.join("\n") + "\n"
    });
    refused(&removed, "line");
    // No summary line: the shard did not finish.
    let unfinished = edit("unfinished.txt", &|t| {
        let mut lines: Vec<&str> = t.lines().collect();
        lines.pop();
        lines.join("\n") + "\n"
    });
    refused(&unfinished, "is incomplete");
    // Not a shard file at all, a directory, a missing file.
    let junk = edit("junk.txt", &|_| "hello\n".into());
    refused(&junk, "not a queens-sat count shard file");
    let ckpt = dir.path().join("ckpt.txt");
    assert!(
        run(&["count", "10", "--checkpoint", ckpt.to_str().unwrap()])
            .status
            .success()
    );
    refused(&[ckpt], "not a queens-sat count shard file");
    refused(&[dir.path().to_path_buf()], "is a directory");
    refused(&[dir.path().join("nothing.txt")], "cannot open");
}

#[test]
fn a_shard_rerun_on_its_file_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 11, 2);
    let full = std::fs::read_to_string(&files[0]).unwrap();
    // Keep the header and a few records, and cut the last record short, as a killed run
    // leaves it.
    let lines: Vec<&str> = full.lines().collect();
    let mut cut = lines[..9].join("\n");
    cut.push_str("\n12 3");
    std::fs::write(&files[0], &cut).unwrap();
    let o = run(&[
        "count",
        "11",
        "--shard",
        "1/2",
        "-o",
        files[0].to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let again = std::fs::read_to_string(&files[0]).unwrap();
    // The records kept stay first; the rest is counted again.
    assert!(again.starts_with(&(lines[..9].join("\n") + "\n")));
    let o = merge(&files);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(&format!("solutions: {}\n", REFERENCE[10].2)));
    // Running a finished shard again changes nothing.
    let o = run(&[
        "count",
        "11",
        "--shard",
        "1/2",
        "-o",
        files[0].to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), again);
    // A shard file given to another shard is refused, and left as it was.
    let o = run(&[
        "count",
        "11",
        "--shard",
        "2/2",
        "-o",
        files[0].to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("shard 1/2"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), again);
}

#[test]
fn bad_shard_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    let f = f.to_str().unwrap();
    for (args, needle) in [
        (vec!["count", "10", "--shard", "1/4"], "--output"),
        (
            vec!["count", "10", "--shard", "0/4", "-o", f],
            "shards count from 1",
        ),
        (vec!["count", "10", "--shard", "5/4", "-o", f], "1 to 4"),
        (vec!["count", "10", "--shard", "x", "-o", f], "not a shard"),
        (vec!["count", "3", "--shard", "1/2", "-o", f], "not split"),
        (
            vec!["count", "8", "--shard", "1/1000", "-o", f],
            "fewer than",
        ),
        (
            vec!["count", "10", "--shard", "1/2", "--list", "-o", f],
            "cannot be used",
        ),
        (vec!["count", "9", "--merge"], "--merge"),
        // A merge writes the counts: no list settings.
        (
            vec!["count", "--merge", f, "--fundamental"],
            "--fundamental goes with --list",
        ),
        (
            vec!["count", "--merge", f, "--format", "svg"],
            "--format svg goes with --list",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!Path::new(f).exists(), "{args:?} left a file");
    }
    // N given with --merge must agree with the files.
    let files = shards(dir.path(), 9, 2);
    let o = run(&[
        "count",
        "10",
        "--merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("disagrees"), "{}", stderr(&o));
}
