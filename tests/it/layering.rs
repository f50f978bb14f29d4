//! The CNF layer is plain SAT plumbing: nothing under `src/cnf/` may use the board-level
//! modules (`encode`, `board`, `check`, `instance`) or anything above them.

#[test]
fn cnf_layer_uses_no_board_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cnf");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        files += 1;
        for module in [
            "encode",
            "board",
            "check",
            "instance",
            "solve",
            "explain",
            "crosscheck",
            "count",
        ] {
            let needle = format!("crate::{module}");
            assert!(!text.contains(&needle), "{} uses {needle}", path.display());
        }
    }
    assert!(files >= 2, "src/cnf has its files");
}
