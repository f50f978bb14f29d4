//! The integration tests, built as one test binary (one link instead of one per file): a
//! module per subject, the helpers they share in [`common`].
//!
//! All the tests run in this one process, in parallel. None of them changes the process's
//! environment, current folder, umask or signal handlers: each sets what it needs on the
//! commands it starts (`Command::env`, `current_dir`, `pre_exec`), and every file it writes is
//! in a temporary folder of its own. External programs are asked for with
//! [`common::require`], which skips loudly (or fails under `CI=true`) when one is missing;
//! `./test.sh` installs them.
//!
//! Run one subject with `cargo test --release --test it MODULE::`, e.g.
//! `cargo test --release --test it encode::`.

mod common;

mod architecture;
mod backend;
mod browser;
mod certificates;
mod certified_boards;
mod chain;
mod checkpoint;
mod cluster;
mod columns;
mod compare;
mod compare_shard;
mod construct;
mod count;
mod coursework;
mod crosscheck;
mod cubes;
mod docs;
mod encode;
mod encodings;
mod engine;
mod expected;
mod explain;
mod external;
mod family;
mod forged;
mod frontier_models;
mod ganak;
mod gbd;
mod global;
mod grade;
mod grade_hard;
mod guards;
mod instance_sets;
mod layering;
mod literature;
mod lrat;
mod masked;
mod measured;
mod oracle;
mod output;
mod pictures;
mod proof;
mod propagator;
mod published;
mod search;
mod shard;
mod shuffle;
mod solve;
mod symmetry;
mod toy_encoding;
mod trace;
mod verify;
mod why;
