//! The cell-map reader of `grade`: no panic on any text; an accepted map gives every cell one
//! variable, no variable twice, and, written again in another order, reads back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::grade::CellMap;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the board size (1 ..= 10), the rest is the map.
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let n = 1 + (first % 10) as usize;
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(map) = CellMap::parse(text, n) else {
        return;
    };
    let mut seen = std::collections::HashSet::new();
    assert_eq!(map.vars().len(), n * n);
    assert!(
        map.vars().iter().all(|v| seen.insert(*v)),
        "a variable twice"
    );
    let mut again = String::from("# reversed\n");
    for r in (0..n).rev() {
        for c in (0..n).rev() {
            again.push_str(&format!(
                "{} {} {}\n",
                r + 1,
                c + 1,
                map.var(r, c).to_dimacs()
            ));
        }
    }
    let back = CellMap::parse(&again, n).expect("a written map reads back");
    assert_eq!(back.vars(), map.vars());
    let max = map.vars().iter().map(|v| v.index() + 1).max().unwrap_or(0);
    assert!(map.check_vars(max).is_ok());
    assert!(max == 0 || map.check_vars(max - 1).is_err());
});
