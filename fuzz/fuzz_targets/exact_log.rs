//! Exact's proof logs put in VeriPB's format (`proof::exact_to_veripb`): no panic on any
//! bytes; a log that translates gives a proof with the header, as many copies of formula
//! constraints as the log loads, a conclusion past the formula's ids, and the end line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::proof::exact_to_veripb;

/// The formula's constraints the logs are translated against.
const FORMULA: u64 = 7;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let Ok(stats) = exact_to_veripb(data, &mut out, FORMULA) else {
        return;
    };
    let text = String::from_utf8(out).expect("the translation of text is text");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first(), Some(&"pseudo-Boolean proof version 3.0"));
    assert_eq!(lines.last(), Some(&"end pseudo-Boolean proof ;"));
    let mut loads = 0;
    for l in &lines {
        if let Some(id) = l.strip_prefix("pol ").and_then(|r| r.strip_suffix(" ;")) {
            // A load keeps the formula's id; a one-id derivation moves past the formula.
            if id
                .parse::<u64>()
                .is_ok_and(|id| (1..=FORMULA).contains(&id))
            {
                loads += 1;
            }
        }
        if let Some(id) = l.strip_prefix("conclusion UNSAT : ") {
            let id: u64 = id.trim_end_matches(" ;").parse().expect("a number");
            assert!(id > FORMULA, "{l}");
        }
    }
    assert_eq!(loads, stats.loads);
});
