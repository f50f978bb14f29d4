//! Generic tests: every entry of [`CATALOGUE`], every kind, every bound.

use super::extensions::count_extensions;
use super::*;
use crate::cnf::{Cnf, CountingSink};

fn inputs(m: usize) -> Vec<Lit> {
    (0..m).map(|i| Lit::from_index(i, true)).collect()
}

/// Encodes into memory; the auxiliaries are the variables `m .. used`.
fn encoded(
    enc: &dyn Cardinality,
    m: usize,
    k: usize,
    kind: Kind,
) -> Result<(Cnf, usize), CardError> {
    let mut alloc = VarAlloc::starting_at(m);
    let mut f = Cnf::new();
    enc.encode(&inputs(m), k, kind, &mut alloc, &mut f)?;
    Ok((f, alloc.used() - m))
}

/// For m = 0..=8, k = 0..=m+1, each kind and every assignment of the m literals: the clauses
/// have a model extending the assignment exactly when the count satisfies the bound (the
/// definition as the oracle); the number of models over all variables equals the number over
/// the literals for every bound when the encoding claims it does, and differs for some bound
/// when it does not. Bounds above m for at least and exactly are refused with nothing
/// emitted.
#[test]
fn semantics_and_model_counts_for_every_bound() {
    let mut extended_twice = Vec::new();
    for &enc in CATALOGUE {
        for m in 0..=8usize {
            for k in 0..=m + 1 {
                for kind in Kind::ALL {
                    let what = format!("{} {kind} {k} of {m}", enc.name());
                    if kind != Kind::AtMost && k > m {
                        let mut alloc = VarAlloc::starting_at(m);
                        let mut f = Cnf::new();
                        let e = enc.encode(&inputs(m), k, kind, &mut alloc, &mut f);
                        assert!(
                            matches!(e, Err(CardError::Bound(BoundError::AboveLength { .. }))),
                            "{what}: {e:?}"
                        );
                        assert!(f.is_empty() && alloc.used() == m, "{what}");
                        assert!(enc.size(m, k, kind).is_err(), "{what}");
                        continue;
                    }
                    let (f, aux) = encoded(enc, m, k, kind).unwrap();
                    assert!(f.max_var() <= m + aux, "{what}");
                    let (mut projected, mut capped) = (0u64, 0u64);
                    for bits in 0u32..(1 << m) {
                        let fixed: Vec<bool> = (0..m).map(|i| bits >> i & 1 == 1).collect();
                        // 0, 1, or 2 for "more than one".
                        let ext = count_extensions(&f, m + aux, &fixed, 2);
                        let expected = kind.holds(bits.count_ones() as usize, k);
                        assert_eq!(ext > 0, expected, "{what}, inputs {bits:0m$b}");
                        projected += u64::from(ext > 0);
                        capped += ext;
                    }
                    // `capped` equals `projected` exactly when no model of the literals has
                    // two extensions, i.e. when the unprojected count equals the projected.
                    if capped != projected {
                        assert!(aux > 0, "{what}");
                        extended_twice.push((enc.name(), kind, what));
                    }
                }
            }
        }
    }
    check_count_claims(&extended_twice);
}

/// Every (encoding, kind) that claims to preserve model counts has no case in
/// `extended_twice` (cases where a model of the literals extends twice); every one that does
/// not claim it has one, so that the claim is neither wrong nor weaker than the truth.
fn check_count_claims(extended_twice: &[(&str, Kind, String)]) {
    for &enc in CATALOGUE {
        for kind in Kind::ALL {
            let cases: Vec<&str> = extended_twice
                .iter()
                .filter(|(name, k, _)| *name == enc.name() && *k == kind)
                .map(|(_, _, what)| what.as_str())
                .collect();
            if enc.preserves_count(kind) {
                assert!(cases.is_empty(), "claimed to keep counts: {cases:#?}");
            } else {
                assert!(!cases.is_empty(), "{} {kind}: every count kept", enc.name());
            }
        }
    }
}

/// Longer lists, where the modulo totalizer's modulus reaches 4 and 5 and the cardinality
/// network's blocks 16 and 32: for every bound and kind, assignments with `k - 1`, `k` and
/// `k + 1` true literals (a few of each, drawn by a fixed generator) extend to a model exactly
/// when the count satisfies the bound (varisat with the literals as assumptions: the small
/// counter above is too slow here).
#[test]
fn semantics_on_longer_lists() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for &enc in CATALOGUE {
        for m in [9usize, 12, 16, 17, 25, 33] {
            for k in 1..m {
                for kind in Kind::ALL {
                    let (f, _) = encoded(enc, m, k, kind).unwrap();
                    let mut solver = varisat::Solver::new();
                    solver.add_formula(&f.to_varisat());
                    for count in [k - 1, k, k + 1] {
                        for _ in 0..4 {
                            // `count` true literals at random places (partial Fisher-Yates).
                            let mut order: Vec<usize> = (0..m).collect();
                            for i in 0..count {
                                let j = i + (next() % (m - i) as u64) as usize;
                                order.swap(i, j);
                            }
                            let mut fixed = inputs(m).into_iter().map(|x| !x).collect::<Vec<_>>();
                            for &i in &order[..count] {
                                fixed[i] = !fixed[i];
                            }
                            solver.assume(&fixed);
                            assert_eq!(
                                solver.solve().unwrap(),
                                kind.holds(count, k),
                                "{} {kind} {k} of {m}, {count} true: {fixed:?}",
                                enc.name()
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The counts themselves for small m: unprojected (every variable) against projected (the
/// literals), both counted; equal for every bound when the encoding claims it. (That a claim
/// of `false` is not too weak is checked by the test above, on up to 8 literals.)
#[test]
fn projected_and_unprojected_counts() {
    for &enc in CATALOGUE {
        for m in 2..=5usize {
            for k in 1..m {
                for kind in Kind::ALL {
                    let (f, aux) = encoded(enc, m, k, kind).unwrap();
                    let projected = (0u32..(1 << m))
                        .filter(|b| kind.holds(b.count_ones() as usize, k))
                        .count() as u64;
                    let unprojected = count_extensions(&f, m + aux, &[], u64::MAX);
                    assert!(unprojected >= projected, "{} {kind} {k} of {m}", enc.name());
                    if enc.preserves_count(kind) {
                        assert_eq!(unprojected, projected, "{} {kind} {k} of {m}", enc.name());
                    }
                }
            }
        }
    }
}

/// The stated size equals what is emitted (auxiliaries taken, clauses, literals) for m up to
/// 200 and bounds across the range, and the auxiliaries are one block after the inputs.
#[test]
fn size_matches_emitted() {
    for &enc in CATALOGUE {
        for m in 0..=200usize {
            let mut bounds = vec![0, 1, 2, 3, 4, 5, 7, 8, m / 3, m / 2, m.saturating_sub(1), m];
            bounds.extend([m + 1, usize::MAX]);
            bounds.sort_unstable();
            bounds.dedup();
            for &k in &bounds {
                for kind in Kind::ALL {
                    let what = format!("{} {kind} {k} of {m}", enc.name());
                    let size = enc.size(m, k, kind);
                    let mut alloc = VarAlloc::starting_at(m);
                    let mut count = CountingSink::default();
                    let emitted = enc.encode(&inputs(m), k, kind, &mut alloc, &mut count);
                    let Ok(size) = size else {
                        assert!(kind != Kind::AtMost && k > m, "{what}");
                        assert!(emitted.is_err() && count.clauses == 0, "{what}");
                        continue;
                    };
                    emitted.unwrap();
                    assert_eq!(size.vars, (alloc.used() - m) as u64, "{what}: variables");
                    assert_eq!(size.clauses, count.clauses, "{what}: clauses");
                    assert_eq!(size.literals, count.literals, "{what}: literals");
                    assert!(count.max_var as usize <= alloc.used(), "{what}");
                }
            }
        }
    }
}

/// Trivial bounds are the same for every encoding: no clause, or one unit per literal.
#[test]
fn trivial_bounds() {
    for &enc in CATALOGUE {
        for m in 0..=6usize {
            for (k, kind, units) in [
                (m, Kind::AtMost, None),
                (m + 3, Kind::AtMost, None),
                (usize::MAX, Kind::AtMost, None),
                (0, Kind::AtLeast, None),
                (0, Kind::AtMost, Some(false)),
                (0, Kind::Exactly, Some(false)),
                (m, Kind::AtLeast, Some(true)),
                (m, Kind::Exactly, Some(true)),
            ] {
                let what = format!("{} {kind} {k} of {m}", enc.name());
                let (f, aux) = encoded(enc, m, k, kind).unwrap();
                assert_eq!(aux, 0, "{what}");
                let expected: Vec<Vec<Lit>> = match units {
                    None => Vec::new(),
                    Some(v) => inputs(m)
                        .into_iter()
                        .map(|x| vec![if v { x } else { !x }])
                        .collect(),
                };
                let got: Vec<Vec<Lit>> = f.iter().map(<[Lit]>::to_vec).collect();
                assert_eq!(got, expected, "{what}");
            }
        }
    }
}

#[test]
fn bound_errors() {
    assert_eq!(bound_from_signed(3), Ok(3));
    assert_eq!(bound_from_signed(-1), Err(BoundError::Negative(-1)));
    assert_eq!(
        check(4, 5, Kind::AtLeast),
        Err(BoundError::AboveLength {
            kind: Kind::AtLeast,
            k: 5,
            m: 4
        })
    );
    assert!(check(4, usize::MAX, Kind::Exactly).is_err());
    assert!(check(4, usize::MAX, Kind::AtMost).is_ok());
    assert!(check(0, 0, Kind::Exactly).is_ok());
    assert_eq!(
        BoundError::AboveLength {
            kind: Kind::Exactly,
            k: 5,
            m: 4
        }
        .to_string(),
        "exactly 5 of 4 literals cannot hold: the bound is larger than the number of literals"
    );
    assert_eq!(
        BoundError::Negative(-2).to_string(),
        "a cardinality bound must be at least 0, got -2"
    );
    let e: io::Error = CardError::from(BoundError::Negative(-1)).into();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    // Sizes of absurd lists saturate rather than overflow or panic.
    for &enc in CATALOGUE {
        for kind in Kind::ALL {
            for (m, k) in [
                (usize::MAX / 2, 3),
                (1 << 40, 1 << 39),
                (usize::MAX, usize::MAX - 1),
            ] {
                let _ = enc.size(m, k, kind);
            }
        }
    }
}

#[test]
fn modulus_is_the_ceiling_square_root() {
    for k in 0..2000usize {
        let p = mtotalizer::modulus(k);
        assert!(
            p >= 2 && p * p > k && (p == 2 || (p - 1) * (p - 1) <= k),
            "k={k}"
        );
    }
    assert_eq!(mtotalizer::modulus(usize::MAX), 1 << 32);
}

#[test]
fn catalogue_names() {
    let names: Vec<&str> = CATALOGUE.iter().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "totalizer",
            "mtotalizer",
            "seqcounter",
            "sortnet",
            "cardnet"
        ]
    );
    for &enc in CATALOGUE {
        assert_eq!(by_name(enc.name()).map(|e| e.name()), Some(enc.name()));
        assert!(!enc.summary().is_empty());
    }
    assert!(by_name("nope").is_none());
}

#[test]
fn pairs_upto_closed_form() {
    for a in 0..12u64 {
        for b in 0..12u64 {
            for t in 0..30u64 {
                let brute = (0..=a)
                    .flat_map(|i| (0..=b).map(move |j| (i, j)))
                    .filter(|(i, j)| i + j <= t)
                    .count() as u64;
                assert_eq!(pairs_upto(a, b, t), brute, "a={a} b={b} t={t}");
            }
        }
    }
}

/// The documented closed forms: Sinz's clause count, the sorter's comparators for powers of
/// two, the cardinality network's for multiples of the block.
#[test]
fn documented_formulas() {
    for m in 2..60usize {
        for k in 1..m {
            let s = seqcounter::size(m, k, Kind::AtMost).unwrap();
            let (mu, ku) = (m as u64, k as u64);
            assert_eq!(s.clauses, 2 * mu * ku + mu - 3 * ku - 1, "m={m} k={k}");
            assert_eq!(s.vars, (mu - 1) * ku);
        }
    }
    for t in 1..=10u32 {
        let m = 1usize << t;
        let t = t as u64;
        assert_eq!(
            sortnet::comparators(m),
            (m as u64 / 4) * t * (t - 1) + m as u64 - 1,
            "m={m}"
        );
    }
    assert_eq!(sortnet::comparators(8), 19);
    for kb in [1usize, 2, 4, 8, 16] {
        let lg = kb.trailing_zeros() as u64;
        let sorter = sortnet::comparators(kb);
        let smerge = (kb as u64 / 2) * lg + kb as u64;
        for blocks in 1..=6usize {
            assert_eq!(
                cardnet::comparators(blocks * kb, kb),
                blocks as u64 * sorter + (blocks as u64 - 1) * smerge,
                "K={kb} blocks={blocks}"
            );
        }
    }
    // At most one (k = 1): the closed forms the at-most-one modules state.
    for m in 2..300usize {
        let mu = m as u64;
        let size = |e: &dyn Cardinality| e.size(m, 1, Kind::AtMost).unwrap();
        assert_eq!(
            size(&cardnet::CardNet),
            sz(4 * mu - 6, 6 * mu - 8, 14 * mu - 20),
            "m={m}"
        );
        assert_eq!(size(&totalizer::Totalizer).vars, 2 * (mu - 1), "m={m}");
        assert_eq!(
            size(&mtotalizer::ModuloTotalizer).vars,
            3 * (mu - 1),
            "m={m}"
        );
        let c = sortnet::comparators(m);
        assert_eq!(
            size(&sortnet::SortNet),
            sz(2 * c, 3 * c + 1, 7 * c + 1),
            "m={m}"
        );
    }
}
