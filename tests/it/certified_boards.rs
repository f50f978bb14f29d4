//! The search's certificates on boards drawn here (`search::certify` against the OPB form that
//! `Instance::opb_form` anchors, checked by VeriPB through `proof::check_opb`): random boards
//! with whole diagonals excluded, square and torus, and forged certificates of them.

use queens_sat::board::{check_placement_on, Geometry, MaskedBoard};
use queens_sat::instance::{Instance, Model};
use queens_sat::proof::{check_opb, OpbAnchors, OpbJudgement};
use queens_sat::search::{certify, decide, Answer, Certified, CertifyLimits};

/// A stream of xorshift64 words from a non-zero seed (Marsaglia 2003), for the random boards.
fn random_words(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Whether `p` is a solution of `board`: no two queens attack, each on an allowed cell.
fn solves(board: &MaskedBoard, p: &queens_sat::Placement) -> bool {
    check_placement_on(p, board.geometry()).is_ok()
        && (0..p.n()).all(|r| board.is_allowed(r, p.col(r)))
}

/// The OPB form the certificates are written against, for `board`'s cells.
fn form(
    board: &MaskedBoard,
    placed: &[(usize, usize)],
    forbidden: &[(usize, usize)],
) -> (tempfile::TempDir, OpbAnchors) {
    let model = Model::default().with_redundant("diagonals,sums,moments".parse().unwrap());
    let inst = Instance::new_on(board.n(), model, board.geometry())
        .unwrap()
        .with_cells(placed, forbidden)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(dir.path().join("f.opb")).unwrap();
    inst.write_opb(f, None).unwrap();
    let (_, _, anchors) = inst.opb_form().unwrap();
    (dir, anchors)
}

/// Certifies the board and checks the proof with VeriPB: the answer and the judgement.
fn certified(
    n: usize,
    geometry: Geometry,
    placed: &[(usize, usize)],
    forbidden: &[(usize, usize)],
    edit: impl Fn(&str) -> String,
) -> (Certified, Option<OpbJudgement>) {
    let board = MaskedBoard::with_cells(n, geometry, placed, forbidden).unwrap();
    let (dir, anchors) = form(&board, placed, forbidden);
    let mut proof = Vec::new();
    let answer = certify(&board, &anchors, &mut proof, CertifyLimits::default()).unwrap();
    let judged = matches!(answer, Certified::Unsat(_)).then(|| {
        let text = edit(&String::from_utf8(proof).unwrap());
        std::fs::write(dir.path().join("p.pbp"), text).unwrap();
        check_opb(&dir.path().join("f.opb"), &dir.path().join("p.pbp"))
    });
    (answer, judged)
}

/// The empty boards without solutions (n = 2, 3) are certified and accepted.
#[test]
fn the_empty_boards_without_solutions_are_certified() {
    for n in [2, 3] {
        let (answer, judged) = certified(n, Geometry::Square, &[], &[], str::to_string);
        assert!(matches!(answer, Certified::Unsat(_)), "n={n}");
        assert_eq!(judged, Some(OpbJudgement::Accepted), "n={n}");
    }
}

/// A board of test `k` with whole diagonals excluded (as in the Excluded Diagonals
/// problem) and cells blocked at random: `n` = 6..10 on the square and 5, 7 on the torus.
fn random_board(next: &mut impl FnMut() -> u64, k: u64) -> (usize, Geometry, Vec<(usize, usize)>) {
    let (n, geometry) = match k % 6 {
        5 => (5 + 2 * (k as usize / 6 % 2), Geometry::Toroidal),
        i => (6 + i as usize, Geometry::Square),
    };
    let mut forbidden = Vec::new();
    for _ in 0..next() % 4 {
        let s = (next() % (2 * n as u64 - 1)) as usize;
        let anti = next() % 2 == 1;
        for r in 0..n {
            for c in 0..n {
                let on = if anti { c + n - 1 - r == s } else { r + c == s };
                if on && !forbidden.contains(&(r, c)) {
                    forbidden.push((r, c));
                }
            }
        }
    }
    for r in 0..n {
        for c in 0..n {
            if next().is_multiple_of(9) && !forbidden.contains(&(r, c)) {
                forbidden.push((r, c));
            }
        }
    }
    (n, geometry, forbidden)
}

/// On 60 random boards ([`random_board`]) the certified walk's answer is the search's, and
/// each of its refutations is accepted by VeriPB. Both answers occur, and the bounds'
/// cutting-planes steps are taken.
#[test]
fn every_refutation_of_random_boards_is_accepted() {
    let mut next = random_words(0x5EED_CE27);
    let (mut sat, mut unsat, mut bounds) = (0, 0, 0);
    for k in 0..60u64 {
        let (n, geometry, forbidden) = random_board(&mut next, k);
        let board = MaskedBoard::with_cells(n, geometry, &[], &forbidden).unwrap();
        let expected = decide(&board);
        let (answer, judged) = certified(n, geometry, &[], &forbidden, str::to_string);
        match answer {
            Certified::Sat(p) => {
                assert!(matches!(expected, Answer::Sat(_)), "{k}");
                assert!(solves(&board, &p));
                sat += 1;
            }
            Certified::Unsat(stats) => {
                assert_eq!(expected, Answer::Unsat, "{k}");
                assert_eq!(
                    judged,
                    Some(OpbJudgement::Accepted),
                    "{k}: n={n} {forbidden:?}"
                );
                bounds += stats.bounds;
                unsat += 1;
            }
            Certified::Stopped => panic!("no limit was set"),
        }
    }
    assert!(sat > 5 && unsat > 5, "{sat} SAT, {unsat} UNSAT");
    assert!(bounds > 0, "no bound was needed");
}

/// Forged certificates are rejected: the bounds' steps replaced by tautologies (the ids
/// kept), the conclusion naming a constraint that is no contradiction, the conclusion
/// cut off, and the certificate of a board checked against the form of a satisfiable
/// one (the same board with its excluded cells of one row allowed again).
#[test]
fn forged_certificates_of_random_boards_are_rejected() {
    let mut next = random_words(0x5EED_CE27);
    let (mut forged_bounds, mut forged_formula) = (0, 0);
    for k in 0..60u64 {
        let (n, geometry, forbidden) = random_board(&mut next, k);
        let (answer, judged) = certified(n, geometry, &[], &forbidden, str::to_string);
        let Certified::Unsat(stats) = answer else {
            continue;
        };
        assert_eq!(judged, Some(OpbJudgement::Accepted));
        let rejected = |edit: &dyn Fn(&str) -> String| {
            let (_, judged) = certified(n, geometry, &[], &forbidden, edit);
            matches!(judged, Some(OpbJudgement::Rejected { .. }))
        };
        if stats.bounds > 0 {
            assert!(rejected(&|p: &str| p
                .lines()
                .map(|l| if l.starts_with("pol ") && l.contains('*') {
                    "rup 1 x1 1 ~x1 >= 1 ;"
                } else {
                    l
                })
                .collect::<Vec<_>>()
                .join("\n")));
            forged_bounds += 1;
        }
        assert!(rejected(&|p: &str| {
            let at = p.find("conclusion UNSAT : ").unwrap();
            format!(
                "{}conclusion UNSAT : 1 ;\nend pseudo-Boolean proof ;\n",
                &p[..at]
            )
        }));
        assert!(rejected(
            &|p: &str| p[..p.find("output NONE").unwrap()].to_string()
        ));
        // The same certificate against a satisfiable board: the forbidden cells of the
        // first row that has any allowed again, as long as that makes it satisfiable.
        let Some(&(r0, _)) = forbidden.first() else {
            continue;
        };
        let looser: Vec<(usize, usize)> = forbidden
            .iter()
            .copied()
            .filter(|&(r, _)| r != r0)
            .collect();
        let board = MaskedBoard::with_cells(n, geometry, &[], &looser).unwrap();
        if let Answer::Sat(_) = decide(&board) {
            let strict = MaskedBoard::with_cells(n, geometry, &[], &forbidden).unwrap();
            let (dir, anchors) = form(&strict, &[], &forbidden);
            let mut proof = Vec::new();
            certify(&strict, &anchors, &mut proof, CertifyLimits::default()).unwrap();
            let (other, _) = form(&board, &[], &looser);
            std::fs::write(dir.path().join("p.pbp"), proof).unwrap();
            let j = check_opb(&other.path().join("f.opb"), &dir.path().join("p.pbp"));
            assert!(matches!(j, OpbJudgement::Rejected { .. }), "{k}: {j:?}");
            forged_formula += 1;
        }
    }
    eprintln!("{forged_bounds} forgeries of the bounds, {forged_formula} of the formula");
    assert!(
        forged_bounds >= 1 && forged_formula >= 1,
        "{forged_bounds} forgeries of the bounds, {forged_formula} of the formula"
    );
}
