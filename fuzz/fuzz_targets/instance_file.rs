//! The instance-file reader: no panic on any text; an accepted file, printed again, reads back
//! to the same instance, and its instance can be built under the default model when small.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::family::InstanceSpec;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(spec) = InstanceSpec::parse(text) else {
        return;
    };
    let again = spec.to_text();
    assert_eq!(InstanceSpec::parse(&again).as_ref(), Ok(&spec), "{again}");
    if spec.n <= 64 {
        // Every accepted file describes a valid instance.
        spec.instance(Default::default())
            .unwrap_or_else(|e| panic!("accepted but refused by the instance core: {e}\n{text}"));
    }
});
