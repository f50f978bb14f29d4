//! The LRAT reader and checker: no panic on any bytes; every step read from a text proof,
//! written back as text, reads back the same; and checking against a small formula ends in a
//! verdict or a typed error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::cnf::{Cnf, Lit};
use queens_sat::proof::{check_lrat, LratReader, LratStep, ProofSyntax};

fn text(step: &LratStep) -> String {
    let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
    match step {
        LratStep::Add { id, clause, hints } => {
            let mut lits = clause.iter().map(|x| x.to_string());
            let mut hints = hints.iter().map(|x| x.to_string());
            let (l, h) = (join(&mut lits), join(&mut hints));
            format!("{id} {l}{}0 {h}{}0\n", sp(&l), sp(&h))
        }
        LratStep::Delete { id, ids } => {
            let mut ids = ids.iter().map(|x| x.to_string());
            let d = join(&mut ids);
            format!("{} d {d}{}0\n", (*id).max(1), sp(&d))
        }
    }
}

fn sp(s: &str) -> &'static str {
    if s.is_empty() {
        ""
    } else {
        " "
    }
}

fuzz_target!(|data: &[u8]| {
    // (1 2) (-1 2) (1 -2) (-1 -2) over 3 variables.
    let cnf: Cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
        .iter()
        .map(|c| c.map(Lit::from_dimacs))
        .collect();
    let _ = check_lrat(&cnf, 3, data, 1 << 20);
    let Ok(mut r) = LratReader::new(data, 100, 1 << 20) else {
        return;
    };
    let format = r.format();
    let mut steps = Vec::new();
    while let Ok(Some((step, _))) = r.next_step() {
        steps.push(step);
        if steps.len() > 1000 {
            break;
        }
    }
    if format != ProofSyntax::Text {
        return;
    }
    // A text proof written back from its steps reads back the same (deletions keep ids >= 1).
    let again: String = steps.iter().map(text).collect();
    let mut r = LratReader::new(again.as_bytes(), 100, 1 << 20).expect("reads");
    for s in &steps {
        let (back, _) = r.next_step().expect("parses").expect("a step");
        match (s, &back) {
            (LratStep::Delete { ids, .. }, LratStep::Delete { ids: b, .. }) => assert_eq!(ids, b),
            _ => assert_eq!(s, &back, "{again}"),
        }
    }
});
