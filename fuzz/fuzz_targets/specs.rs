//! The specifications of encodings: `--amo` (`LineEncodings` and `Amo`), `--domain` and
//! `--constraints`. No panic on any text; an accepted one prints to text that parses back to
//! the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::encode::columns::{Constraints, Domain};
use queens_sat::encode::{Amo, LineEncodings};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(v) = s.parse::<LineEncodings>() {
        assert_eq!(v.to_string().parse::<LineEncodings>(), Ok(v), "{v}");
    }
    if let Ok(v) = s.parse::<Amo>() {
        assert_eq!(v.to_string().parse::<Amo>(), Ok(v), "{v}");
    }
    if let Ok(v) = s.parse::<Domain>() {
        assert_eq!(v.to_string().parse::<Domain>().ok(), Some(v));
    }
    if let Ok(v) = s.parse::<Constraints>() {
        assert_eq!(v.to_string().parse::<Constraints>().ok(), Some(v));
    }
});
