//! The instance counter ([`queens_sat::count::count_masked`]) on empty boards against the
//! published tables, and its refusal of sizes it cannot hold. Its timings are a benchmark:
//! `cargo bench --bench masked` (benches/masked.rs).

use queens_sat::board::{Geometry, MaskedBoard, MaskedError};
use queens_sat::count::{self, count_masked, solutions_masked};

/// OEIS A000170: solutions of n-queens on the n x n board, n = 1 ..= 13.
const A000170: [u64; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

/// OEIS A051906: solutions of n-queens on the n x n toroidal board, n = 1 ..= 13
/// (nonzero exactly when gcd(n, 6) = 1).
const A051906: [u64; 13] = [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524];

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn empty_square_boards_match_a000170() {
    for n in 1..=13 {
        let b = MaskedBoard::new(n, Geometry::Square).unwrap();
        let got = count_masked(&b);
        assert_eq!(got, A000170[n - 1], "n = {n}");
        assert_eq!(got, count::count(n).unwrap().total, "n = {n}");
    }
}

#[test]
fn empty_toroidal_boards_match_a051906() {
    for n in 1..=13 {
        let b = MaskedBoard::new(n, Geometry::Toroidal).unwrap();
        let got = count_masked(&b);
        assert_eq!(got, A051906[n - 1], "n = {n}");
        assert_eq!(got > 0, gcd(n, 6) == 1, "n = {n}");
    }
}

#[test]
fn first_solutions_are_the_lexicographically_smallest() {
    let b = MaskedBoard::new(8, Geometry::Square).unwrap();
    let first = solutions_masked(&b, 2);
    assert_eq!(first.len(), 2);
    assert_eq!(first[0].cols(), [0, 4, 7, 5, 2, 6, 1, 3]);
    assert_eq!(first[1].cols(), [0, 5, 7, 2, 6, 3, 1, 4]);
    let b = MaskedBoard::new(5, Geometry::Toroidal).unwrap();
    assert_eq!(solutions_masked(&b, 1)[0].cols(), [0, 2, 4, 1, 3]);
    assert!(solutions_masked(&b, 0).is_empty());
    assert_eq!(solutions_masked(&b, 100).len(), 10);
}

#[test]
fn sizes_outside_1_to_64_are_refused() {
    for n in [0, 65, 1000] {
        let e = MaskedBoard::new(n, Geometry::Square).unwrap_err();
        assert_eq!(e, MaskedError::Size(n));
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("n = {n}")) && msg.contains("1..=64"),
            "{msg}"
        );
        assert!(MaskedBoard::new(n, Geometry::Toroidal).is_err());
    }
    for n in [1, 64] {
        let b = MaskedBoard::new(n, Geometry::Toroidal).unwrap();
        assert_eq!(b.n(), n);
        assert_eq!(b.geometry(), Geometry::Toroidal);
        assert_eq!(b.allowed(n - 1).count_ones() as usize, n);
    }
}
