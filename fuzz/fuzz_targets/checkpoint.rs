//! The checkpoint reader of `count`: no panic on any text for a small board; an accepted
//! checkpoint, written again from the counts it holds, reads back to the same counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::count::{checkpoint_check, checkpoint_text};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the board size (4 ..= 11, where the split is quick), the rest is
    // the file.
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let n = 4 + (first % 8) as usize;
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(done) = checkpoint_check(text, n) else {
        return;
    };
    let again = checkpoint_text(n, &done).expect("n is in range");
    assert_eq!(checkpoint_check(&again, n).as_ref(), Ok(&done), "{again}");
});
