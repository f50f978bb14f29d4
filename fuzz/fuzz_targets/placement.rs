//! One-line placements (`--place`, `verify --placement`): no panic on any text; an accepted
//! placement's one-line form parses back to the same placement, with and without the size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::board::Placement;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = Placement::parse_one_line(s, None) else {
        return;
    };
    assert!(p.cols().iter().all(|&c| (c as usize) < p.n()));
    let line = p.to_one_line();
    assert_eq!(Placement::parse_one_line(&line, None).as_ref(), Ok(&p));
    assert_eq!(
        Placement::parse_one_line(&line, Some(p.n())).as_ref(),
        Ok(&p)
    );
    // With the size given, the same text gives the same placement.
    assert_eq!(Placement::parse_one_line(s, Some(p.n())).as_ref(), Ok(&p));
});
