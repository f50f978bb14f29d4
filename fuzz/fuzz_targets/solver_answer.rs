//! `parse_solver_answer`: no panic on any text; an accepted answer is consistent (a model
//! names only variables it was given) and, written back in either format, reads back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::solve::{parse_solver_answer, AnswerFormat, SolverAnswer};

fn competition(a: &SolverAnswer) -> String {
    match a {
        SolverAnswer::Sat(m) => {
            let mut s = String::from("s SATISFIABLE\nv");
            for l in m.lits() {
                s.push_str(&format!(" {}", l.to_dimacs()));
            }
            s.push_str(" 0\n");
            s
        }
        SolverAnswer::Unsat => "s UNSATISFIABLE\n".into(),
        SolverAnswer::Unknown => "s UNKNOWN\n".into(),
    }
}

fn minisat(a: &SolverAnswer) -> String {
    match a {
        SolverAnswer::Sat(m) => {
            let mut s = String::from("SAT\n");
            for l in m.lits() {
                s.push_str(&format!("{} ", l.to_dimacs()));
            }
            s.push_str("0\n");
            s
        }
        SolverAnswer::Unsat => "UNSAT\n".into(),
        SolverAnswer::Unknown => "INDET\n".into(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((answer, _)) = parse_solver_answer(text) else {
        return;
    };
    if let SolverAnswer::Sat(m) = &answer {
        let lits = m.lits();
        assert!(lits
            .iter()
            .all(|l| m.value(l.var()) == Some(l.is_positive())));
        assert_eq!(m.max_var(), lits.last().map_or(0, |l| l.var().index() + 1));
    }
    for (again, format) in [
        (competition(&answer), AnswerFormat::Competition),
        (minisat(&answer), AnswerFormat::MiniSat),
    ] {
        let back = parse_solver_answer(&again).expect("a written answer reads back");
        assert_eq!(back, (answer.clone(), format), "{again:?}");
    }
});
