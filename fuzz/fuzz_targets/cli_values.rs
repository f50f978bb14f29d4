//! The values typed on the command line: board sizes, lists and ranges of sizes (`--n`), cells
//! (`--place`, `--forbid`). No panic on any text; memory bounded by the size limit given; an
//! accepted list prints back (`format_n_list`) to text that parses to the same list; an
//! accepted cell prints back to the same cell.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::input::{format_n_list, parse_cell, parse_n, parse_n_list};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(n) = parse_n(s) {
        assert_eq!(parse_n(&n.to_string()), Ok(n));
    }
    let too_large = |n| format!("{n} too large");
    if let Ok(ns) = parse_n_list(s, 100_000, too_large) {
        assert!(ns.windows(2).all(|w| w[0] < w[1]), "not sorted: {ns:?}");
        let text = format_n_list(&ns);
        assert_eq!(
            parse_n_list(&text, 100_000, too_large).as_ref(),
            Ok(&ns),
            "{text}"
        );
    }
    if let Ok((r, c)) = parse_cell(s) {
        assert_eq!(parse_cell(&format!("{},{}", r + 1, c + 1)), Ok((r, c)));
    }
});
