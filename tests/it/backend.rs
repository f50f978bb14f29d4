//! The embedded backends side by side: varisat and CaDiCaL give the published counts under
//! every model, the same answers on family instances, stop at a time limit, and the CLI's
//! `--backend` flag works.

use crate::common::{bin, run, spawn, stderr, stdout, wait_bounded, REFERENCE};
use queens_sat::encode::{Amo, ColumnOptions, Constraints, Domain, EncodeOptions, LineEncodings};
use queens_sat::family::{generate, CompletionMode, Density, Recipe};
use queens_sat::instance::{Instance, Model};
use queens_sat::solve::{
    solve_model_within, solve_with, verify_placement, Backend, Budget, Enumeration, SolveError,
    Stop,
};
use std::time::{Duration, Instant};

fn models() -> Vec<Model> {
    let mut v: Vec<Model> = Amo::all()
        .into_iter()
        .map(|amo| {
            Model::cells(EncodeOptions {
                amo: LineEncodings::uniform(amo),
                ..EncodeOptions::default()
            })
        })
        .collect();
    for domain in Domain::all() {
        v.push(Model::columns(ColumnOptions {
            domain,
            constraints: Constraints::CONFLICT,
            ..ColumnOptions::default()
        }));
    }
    v
}

#[test]
fn the_default_backend_is_cadical_when_built_in() {
    let expected = if cfg!(feature = "cadical") {
        Backend::Cadical
    } else {
        Backend::Varisat
    };
    assert_eq!(Backend::default(), expected);
    assert_eq!("cadical".parse::<Backend>(), Ok(Backend::Cadical));
    assert_eq!(Backend::Varisat.to_string(), "varisat");
    assert!("glucose".parse::<Backend>().is_err());
    // One solve: varisat for the empty square board, the default for everything else.
    let empty = Instance::new(50, Model::default()).unwrap();
    assert_eq!(Backend::for_formula(&empty), Backend::Varisat);
    let forbid = empty.clone().with_cells(&[], &[(0, 0)]).unwrap();
    assert_eq!(Backend::for_formula(&forbid), expected);
    let torus =
        Instance::new_on(7, Model::default(), queens_sat::board::Geometry::Toroidal).unwrap();
    assert_eq!(Backend::for_formula(&torus), expected);
}

#[test]
fn both_backends_count_the_published_totals_under_every_model() {
    for backend in Backend::available() {
        // A backend that is not incremental solves again from scratch after each solution
        // (Kissat: 20 times CaDiCaL's time for n = 10): up to n = 8, 92 solutions.
        let largest = if backend.is_incremental() { 10 } else { 8 };
        for model in models() {
            for &(n, _, total) in REFERENCE.iter().filter(|r| r.0 <= largest) {
                let inst = Instance::new(n, model).unwrap();
                let got = Enumeration::new(inst)
                    .backend(backend)
                    .count(|_| {})
                    .unwrap();
                assert_eq!(got, total, "{backend} {model:?} n={n}");
            }
        }
    }
}

#[test]
fn both_backends_agree_on_family_instances() {
    let mut sat = 0;
    let mut unsat = 0;
    for seed in 0..12u64 {
        let recipes = [
            Recipe::Blocked {
                density: Density::Probability(0.6),
            },
            Recipe::Blocked {
                density: Density::Probability(0.8),
            },
            Recipe::Completion {
                k: 6,
                mode: CompletionMode::Random,
            },
            Recipe::Completion {
                k: 12,
                mode: CompletionMode::Random,
            },
        ];
        for recipe in &recipes {
            let spec = generate(20, recipe, seed).unwrap();
            let inst = spec.instance(Model::default()).unwrap();
            let answers: Vec<bool> = Backend::available()
                .into_iter()
                .map(|b| match solve_with(&inst, b).unwrap() {
                    Some(p) => {
                        assert!(
                            verify_placement(&inst, &p).unwrap().is_ok(),
                            "{b} seed {seed}"
                        );
                        true
                    }
                    None => false,
                })
                .collect();
            assert!(
                answers.iter().all(|&a| a == answers[0]),
                "seed {seed} {recipe:?}: {answers:?}"
            );
            if answers[0] {
                sat += 1;
            } else {
                unsat += 1;
            }
        }
    }
    // The draw covers both answers.
    assert!(sat > 0 && unsat > 0, "sat {sat}, unsat {unsat}");
}

/// A blocked n = 60 instance that takes CaDiCaL seconds to minutes and varisat minutes.
fn hard_instance() -> Instance {
    let spec = generate(
        60,
        &Recipe::Blocked {
            density: Density::Probability(0.85),
        },
        3,
    )
    .unwrap();
    spec.instance(Model::default()).unwrap()
}

/// Writes the blocked n = 60, p = 0.85 instance of `seed` (hard for both backends) with
/// `queens-sat generate` into `dir`.
pub fn hard_instance_file(dir: &std::path::Path, seed: u64) -> std::path::PathBuf {
    let path = dir.join(format!("hard-{seed}.txt"));
    let o = run(&[
        "generate",
        "blocked",
        "60",
        "--p",
        "0.85",
        "--seed",
        &seed.to_string(),
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    path
}

#[test]
fn a_time_limit_stops_a_hard_instance() {
    let inst = hard_instance();
    for backend in Backend::available() {
        let start = Instant::now();
        let r = solve_model_within(&inst, backend, Budget::time_limit(Duration::from_secs(1)));
        let took = start.elapsed();
        assert!(
            matches!(r, Err(SolveError::Stopped(Stop::Timeout(_)))),
            "{backend}: {:?}",
            r.map(|m| m.map(|m| m.placement.to_one_line()))
        );
        assert!(took < Duration::from_millis(2500), "{backend}: {took:?}");
    }
}

#[test]
fn a_time_limit_stops_an_enumeration() {
    for backend in Backend::available() {
        let start = Instant::now();
        let r = Enumeration::new(Instance::new(14, Model::default()).unwrap())
            .backend(backend)
            .time_limit(Some(Duration::from_millis(300)))
            .count(|_| {});
        assert!(
            matches!(r, Err(SolveError::Stopped(Stop::Timeout(_)))),
            "{backend}: {r:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(2), "{backend}");
    }
}

#[test]
fn the_cli_takes_the_backend() {
    for name in Backend::available().iter().map(|b| b.name()) {
        let o = run(&["solve", "8", "--count", "--backend", name]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "92");
        let o = run(&["solve", "9", "--format", "line", "--backend", name]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let o = run(&["solve", "3", "--backend", name, "--timeout", "5"]);
        assert!(stdout(&o).contains("no solution exists"), "{name}");
        let o = run(&["check", "--n", "6", "--amo", "pairwise", "--backend", name]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    }
}

#[test]
fn a_bad_backend_name_is_a_one_line_usage_error() {
    let o = run(&["solve", "8", "--backend", "glucose"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("glucose") && err.contains("varisat"), "{err}");
}

#[test]
fn the_cli_time_limit_stops_the_embedded_solver() {
    let dir = tempfile::tempdir().unwrap();
    let path = hard_instance_file(dir.path(), 3);
    for name in Backend::available().iter().map(|b| b.name()) {
        let start = Instant::now();
        let o = run(&[
            "solve",
            "--instance",
            path.to_str().unwrap(),
            "--backend",
            name,
            "--timeout",
            "1",
        ]);
        assert!(start.elapsed() < Duration::from_millis(2500), "{name}");
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(stderr(&o).contains("time limit"), "{name}: {}", stderr(&o));
    }
}

/// Ctrl-C (SIGINT) stops an in-process solve and an in-process count promptly: the interrupt
/// handler ends the process with status 130 and says so, whatever the backend is doing.
#[test]
fn ctrl_c_stops_an_in_process_solve() {
    let dir = tempfile::tempdir().unwrap();
    let path = hard_instance_file(dir.path(), 1);
    for name in Backend::available().iter().map(|b| b.name()) {
        let solve = [
            "solve",
            "--instance",
            path.to_str().unwrap(),
            "--backend",
            name,
        ];
        let count = ["solve", "15", "--count", "--backend", name];
        for args in [&solve[..], &count[..]] {
            let child = spawn(
                bin()
                    .args(args)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped()),
            );
            // Long enough to be inside the search (the instance takes CaDiCaL over a minute,
            // the count tens of seconds).
            std::thread::sleep(Duration::from_millis(1500));
            let sent = Instant::now();
            unsafe {
                libc::kill(child.id() as i32, libc::SIGINT);
            }
            let o = wait_bounded(child, Duration::from_secs(10));
            assert!(sent.elapsed() < Duration::from_secs(2), "{name} {args:?}");
            assert_eq!(
                o.status.code(),
                Some(130),
                "{name} {args:?}: {}",
                stderr(&o)
            );
            assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        }
    }
}

#[cfg(feature = "cadical")]
#[test]
fn compare_runs_the_embedded_cadical() {
    let o = run(&[
        "compare",
        "--n",
        "6,8",
        "--amo",
        "pairwise",
        "--solver",
        "varisat,cadical-lib",
        "--repeat",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("cadical-lib"), "{}", stdout(&o));
}
