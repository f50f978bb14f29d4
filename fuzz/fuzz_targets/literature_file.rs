//! The readers of the literature's parameter files (Excluded Diagonals, Essence' n-Queens
//! Completion) and the format detection of `--instance`: no panic on any text; a parameter file
//! accepted prints back (as its generator prints it) to the same file; an instance read from any
//! format, printed as an instance file, reads back to the same instance; the first D diagonals
//! of an Excluded Diagonals file are accepted exactly for D <= numdiags and are a prefix.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_sat::family::edp::EdpFile;
use queens_sat::family::essence::EssenceCompletion;
use queens_sat::family::{read_instance_text, InstanceSpec, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(f) = EdpFile::parse(text) {
        assert_eq!(EdpFile::parse(&f.to_text()).as_ref(), Ok(&f), "{text}");
    }
    if let Ok(f) = EssenceCompletion::parse(text) {
        assert_eq!(
            EssenceCompletion::parse(&f.to_text()).as_ref(),
            Ok(&f),
            "{text}"
        );
    }
    let Ok(spec) = read_instance_text(text, "fuzz.param", None) else {
        return;
    };
    let again = spec.to_text();
    assert_eq!(InstanceSpec::parse(&again).as_ref(), Ok(&spec), "{again}");
    if spec.n <= 64 {
        spec.instance(Default::default())
            .unwrap_or_else(|e| panic!("accepted but refused by the instance core: {e}\n{text}"));
    }
    if SourceFormat::detect(text) == Ok(SourceFormat::ExcludedDiagonals) {
        let k = spec.excluded.len();
        for d in [0, k / 2, k, k + 1] {
            match read_instance_text(text, "fuzz.param", Some(d)) {
                Ok(prefix) => {
                    assert!(d <= k);
                    assert_eq!(prefix.excluded, spec.excluded[..d]);
                }
                Err(_) => assert!(d > k),
            }
        }
    } else {
        assert!(read_instance_text(text, "fuzz.param", Some(0)).is_err());
    }
});
