//! The DIMACS reader of `grade`: no panic on any bytes; an accepted file has every literal
//! within its variables and, written again, reads back to the same formula; a small accepted
//! file can be graded as 3-queens without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::grade::{grade, read_dimacs, CellMap};

fuzz_target!(|data: &[u8]| {
    let Ok(cnf) = read_dimacs(data) else {
        return;
    };
    let mut text = format!("p cnf {} {}\n", cnf.vars, cnf.clauses.len());
    for c in &cnf.clauses {
        for l in c {
            assert!(l.index() < cnf.vars, "literal beyond the header");
            text.push_str(&format!("{} ", l.to_dimacs()));
        }
        text.push_str("0\n");
    }
    let again = read_dimacs(text.as_bytes()).expect("a written formula reads back");
    assert_eq!(again.vars, cnf.vars);
    assert_eq!(again.clauses, cnf.clauses, "{text}");
    if cnf.vars >= 9 && cnf.vars <= 64 && cnf.clauses.len() <= 200 {
        let g = grade(3, &cnf, &CellMap::standard(3)).expect("grades");
        // 3-queens has no solution: complete, and sound exactly when no model exists.
        assert!(g.is_complete());
        assert_eq!(g.is_sound(), g.projected == 0);
    }
});
