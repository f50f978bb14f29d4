//! The reader of a sweep's CSV (`compare --csv` resuming): no panic on any content, memory
//! bounded. When accepted: the file cut to `keep` (what a resumed sweep does) reads back with
//! no torn row and the same rows, and the rows written again by `CsvAppender` read back the
//! same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::experiment::report::{read_for_resume, CsvAppender};
use queens_sat::experiment::Row;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("queens-sat-fuzz-{}-{name}.csv", std::process::id()))
}

/// The rows as CSV text (compared as text: a NaN is not equal to itself).
fn text(rows: &[(u64, Row)]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for (_, r) in rows {
        w.serialize(r).unwrap();
    }
    w.into_inner().unwrap()
}

fuzz_target!(|data: &[u8]| {
    let input = scratch("in");
    std::fs::write(&input, data).unwrap();
    let fresh = read_for_resume(&input, true);
    let Ok(file) = read_for_resume(&input, false) else {
        return;
    };
    // A file a sweep can resume is one it may start afresh.
    let fresh = fresh.expect("resumable but refused with fresh");
    assert!(fresh.rows.is_empty() && fresh.torn_line.is_none());
    let keep = file.keep.expect("an existing file");
    assert!(keep <= data.len() as u64);
    assert_eq!(file.torn_line.is_some(), keep < data.len() as u64);
    // Cut to `keep`, as `CsvAppender::open` does: nothing torn left, the same rows.
    std::fs::write(&input, &data[..keep as usize]).unwrap();
    let cut = read_for_resume(&input, false).expect("the kept part reads back");
    assert_eq!(cut.torn_line, None);
    assert_eq!(text(&cut.rows), text(&file.rows));
    // Written again: the same rows.
    let output = scratch("out");
    let _ = std::fs::remove_file(&output);
    let mut w = CsvAppender::open(&output, None).unwrap();
    for (_, r) in &file.rows {
        w.append(r).unwrap();
    }
    drop(w);
    let again = read_for_resume(&output, false).expect("written rows read back");
    assert_eq!(again.torn_line, None);
    assert_eq!(text(&again.rows), text(&file.rows));
});
