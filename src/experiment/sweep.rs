//! What a sweep measures: the [`SweepConfig`] (sizes, models, solvers, repeats, time limit,
//! shards, shuffled copies) and its points, the empty boards or the instances a
//! [`FamilySweep`] draws.

use super::{machine_description, model_name, solver_version, tool_version, Metadata, SolverSpec};
use crate::encode::{EncodeOptions, LineEncodings};
use crate::family::{generate, Family, InstanceSpec, Recipe};
use crate::instance::{Instance, InstanceError, Model};
use crate::symmetry_breaking::SymmetryBreaking;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::time::Duration;

/// Why a sweep could not run.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The encoder refused a board size.
    #[error("n = {n}, {encoding}: {source}")]
    Encode {
        /// Board size.
        n: usize,
        /// The encoding.
        encoding: String,
        /// Why.
        source: InstanceError,
    },
    /// The parameters do not make a recipe of the family (an unknown or missing parameter, a
    /// value that is not a number of the right kind).
    #[error("{message}")]
    Recipe {
        /// The family.
        family: Family,
        /// Why.
        message: String,
    },
    /// An instance could not be drawn (a parameter out of range, or the generator gave up).
    #[error("cannot draw {family} n = {n}, {value}, seed {seed}: {message}")]
    Draw {
        /// The family.
        family: Family,
        /// Board size.
        n: usize,
        /// The swept parameter and its value, `p = 0.3` (or `no parameter`).
        value: String,
        /// The seed.
        seed: u64,
        /// Why.
        message: String,
    },
    /// More instances than [`MAX_POINTS`].
    #[error("{points} instances ({ns} n x {values} values x {seeds} seeds) are more than the {max} a sweep may draw", max = MAX_POINTS)]
    TooManyPoints {
        /// Instances asked for.
        points: u128,
        /// Board sizes.
        ns: usize,
        /// Parameter values.
        values: usize,
        /// Seeds.
        seeds: usize,
    },
    /// A temporary file could not be written.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

/// Whose generator draws a family sweep's instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compatible {
    /// queens-sat's own ([`generate`]).
    Own,
    /// The JAIR paper's, reproduced ([`crate::family::jair`]).
    Jair,
}

/// The most instances a family sweep draws (board sizes x values x seeds).
pub const MAX_POINTS: u128 = 100_000;

/// A sweep over instances of a family: one parameter takes several values, each drawn with
/// several seeds, the other parameters stay fixed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilySweep {
    /// The family.
    #[serde(with = "family_name")]
    pub family: Family,
    /// The swept parameter; empty when every parameter is fixed (or there is none).
    pub parameter: String,
    /// Its values, in order (one empty value when `parameter` is empty).
    pub values: Vec<String>,
    /// The fixed parameters, `(name, value)`.
    pub fixed: Vec<(String, String)>,
    /// The seeds each value is drawn with.
    pub seeds: Vec<u64>,
}

mod family_name {
    use crate::family::Family;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(f: &Family, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(f.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Family, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl FamilySweep {
    /// The parameters of the instances drawn for `value`: the swept one, then the fixed ones.
    pub fn parameters(&self, value: &str) -> Vec<(String, String)> {
        let mut v = Vec::with_capacity(self.fixed.len() + 1);
        if !self.parameter.is_empty() {
            v.push((self.parameter.clone(), value.to_string()));
        }
        v.extend(self.fixed.iter().cloned());
        v
    }

    /// The recipe of the instances of `value` at board size `n`, and whose generator draws
    /// them: `compatible=jair` asks for the paper's generators (CSPLib problem 079), and a
    /// number of diagonals `d=0.9n` is a fraction of n (rounded to the nearest whole number).
    fn recipe(&self, n: usize, value: &str) -> Result<(Recipe, Compatible), SweepError> {
        let recipe_error = |message: String| SweepError::Recipe {
            family: self.family,
            message,
        };
        let mut compatible = Compatible::Own;
        let mut params = Vec::new();
        for (name, v) in self.parameters(value) {
            match (name.as_str(), v.strip_suffix('n')) {
                ("compatible", _) if v == "jair" => compatible = Compatible::Jair,
                ("compatible", _) => {
                    return Err(recipe_error(format!(
                        "compatible = '{v}': the only generators reproduced are the paper's, compatible=jair"
                    )))
                }
                ("d", Some(f)) if self.family == crate::family::Family::ExcludedDiagonals => {
                    let d = f
                        .parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite() && *f >= 0.0)
                        .ok_or_else(|| {
                            recipe_error(format!(
                                "d = '{v}' is neither a number of diagonals nor a fraction of n (0.9n)"
                            ))
                        })?;
                    params.push((name, format!("{}", (d * n as f64).round() as usize)));
                }
                _ => params.push((name, v)),
            }
        }
        let recipe = Recipe::from_parameters(self.family, &params).map_err(recipe_error)?;
        Ok((recipe, compatible))
    }

    /// The fixed parameters as a row records them: `mode=random min-free=2`.
    pub fn fixed_text(&self) -> String {
        self.fixed
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `p = 0.3`, or `no parameter` when nothing is swept.
    fn value_text(&self, value: &str) -> String {
        if self.parameter.is_empty() {
            "no parameter".to_string()
        } else {
            format!("{} = {value}", self.parameter)
        }
    }

    /// Draws every instance, for each n, each value, each seed in that order; refuses the
    /// first recipe or instance that cannot be made, and more than [`MAX_POINTS`] instances.
    pub fn draw(&self, ns: &[usize]) -> Result<Vec<Point>, SweepError> {
        let points = ns.len() as u128 * self.values.len() as u128 * self.seeds.len() as u128;
        if points > MAX_POINTS {
            return Err(SweepError::TooManyPoints {
                points,
                ns: ns.len(),
                values: self.values.len(),
                seeds: self.seeds.len(),
            });
        }
        let mut out = Vec::with_capacity(points as usize);
        for &n in ns {
            for value in &self.values {
                let (recipe, compatible) = self.recipe(n, value)?;
                for &seed in &self.seeds {
                    let drawn = match compatible {
                        Compatible::Own => generate(n, &recipe, seed),
                        Compatible::Jair => crate::family::jair::spec_of(n, &recipe, seed),
                    };
                    let spec = drawn.map_err(|e| SweepError::Draw {
                        family: self.family,
                        n,
                        value: self.value_text(value),
                        seed,
                        message: e.to_string(),
                    })?;
                    out.push(Point {
                        n,
                        spec: Some(spec),
                        value: value.clone(),
                    });
                }
            }
        }
        Ok(out)
    }
}

/// One point of a sweep: the empty board of size n, or an instance drawn from a family.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Board size.
    pub n: usize,
    /// The drawn instance; `None` for the empty board.
    pub spec: Option<InstanceSpec>,
    /// The swept parameter's value (empty for the empty board).
    pub value: String,
}

impl Point {
    /// The empty board of size `n`.
    pub fn empty(n: usize) -> Point {
        Point {
            n,
            spec: None,
            value: String::new(),
        }
    }

    /// The instance to encode under `model`.
    pub fn instance(&self, model: Model) -> Result<Instance, InstanceError> {
        match &self.spec {
            None => Instance::new(self.n, model),
            Some(spec) => spec.instance(model),
        }
    }
}

/// What a sweep measures.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Board sizes.
    pub ns: Vec<usize>,
    /// The models, each with its encoding (a row's `encoding` is [`model_name`]).
    pub models: Vec<Model>,
    /// The redundant column at-least-one clauses were added to the cell models (recorded in
    /// every row; [`SweepConfig::cells`] builds cell models with it).
    pub column_alo: bool,
    /// Solvers, each a command reading a DIMACS file.
    pub solvers: Vec<SolverSpec>,
    /// Runs per combination; the median is reported.
    pub repeats: usize,
    /// Time limit of one run.
    pub timeout: Duration,
    /// CPU time limit of one run (user + system of the solver and its processes).
    pub cpu_limit: Option<Duration>,
    /// Memory limit of one run, in bytes (the solver and its processes together).
    pub memory_limit: Option<u64>,
    /// Instances of a family instead of empty boards.
    pub family: Option<FamilySweep>,
    /// The symmetry breaking modes, each a configuration with every model (empty: none only);
    /// a row's `encoding` carries the mode as a suffix ([`sweep_name`](super::sweep_name)).
    pub symmetry_breaking: Vec<SymmetryBreaking>,
    /// Run only this shard of the grid ([`in_shard`]); `None` runs all of it.
    pub shard: Option<crate::count::Shard>,
    /// Solve this many shuffled copies of each formula ([`shuffle`](super::shuffle)) instead of the formula
    /// as encoded; 0 for the formula itself.
    pub shuffle: usize,
    /// Certify every refutation ([`super::certificate`]): the stage that refutes writes its
    /// certificate (the search on one thread), VeriPB checks it against the instance's OPB
    /// form with the counts, sums and moments, and the row records the certificate's size,
    /// the check's time and the verdict. Every solver must write certificates (the search,
    /// Exact, chains of them).
    pub certify: bool,
}

/// The most shuffled copies of a formula a sweep takes.
pub const MAX_SHUFFLE: usize = 1000;

/// `true` when run `unit` (0-based, counting the (point, configuration, solver) combinations
/// of a sweep in the order [`run_sweep`](super::run_sweep) visits them) belongs to `shard`: the units are dealt
/// round-robin, so that each shard gets every K-th one, spread over the sizes, values and
/// seeds. A sharded sweep runs every combination of its share (no combination is skipped
/// because a smaller n timed out, as that n may be another shard's), so the shards together
/// give the rows of an unsharded sweep run without skipping.
pub fn in_shard(unit: usize, shard: crate::count::Shard) -> bool {
    unit % shard.of == shard.index - 1
}

/// The longest time limit of one run a sweep takes: a week ([`crate::input::MAX_TIMEOUT_SECS`]).
pub const MAX_TIMEOUT_S: f64 = crate::input::MAX_TIMEOUT_SECS;

/// The shortest time limit of one run a sweep takes: a millisecond
/// ([`crate::input::MIN_TIMEOUT_SECS`]).
pub const MIN_TIMEOUT_S: f64 = crate::input::MIN_TIMEOUT_SECS;

impl SweepConfig {
    /// The points of the sweep: the empty boards of [`SweepConfig::ns`], or every instance of
    /// the family sweep drawn (see [`FamilySweep::draw`]).
    pub fn points(&self) -> Result<Vec<Point>, SweepError> {
        match &self.family {
            None => Ok(self.ns.iter().map(|&n| Point::empty(n)).collect()),
            Some(f) => f.draw(&self.ns),
        }
    }

    /// Draws the points and checks that every one can be encoded with every encoding, so that
    /// a sweep does not stop half-way on a size the encoder refuses or an instance that cannot
    /// be drawn. Returns the points, for [`run_sweep`](super::run_sweep).
    pub fn validate(&self) -> Result<Vec<Point>, SweepError> {
        let points = self.points()?;
        let mut seen = HashSet::new();
        for p in &points {
            // The encoder's limits depend on n alone.
            if !seen.insert(p.n) {
                continue;
            }
            for &model in &self.models {
                p.instance(model).map_err(|source| SweepError::Encode {
                    n: p.n,
                    encoding: model_name(&model),
                    source,
                })?;
            }
        }
        Ok(points)
    }

    /// A row of this sweep with the settings every row records filled in (the redundant
    /// clauses, the repeats and limits, the tool and the machine of `meta`, the shard), the
    /// rest left empty.
    pub(super) fn row(&self, meta: &Metadata) -> super::Row {
        super::Row {
            column_alo: self.column_alo,
            repeats: self.repeats,
            timeout_s: meta.timeout_s,
            cpu_limit_s: meta.cpu_limit_s,
            memory_limit_mib: meta.memory_limit_mib,
            tool_version: meta.tool_version.clone(),
            machine: meta.machine.clone(),
            shard: self.shard.map(|s| s.to_string()).unwrap_or_default(),
            ..super::Row::default()
        }
    }

    /// The cell models of `encodings`, with the redundant column clauses when `column_alo`.
    pub fn cells(encodings: &[LineEncodings], column_alo: bool) -> Vec<Model> {
        encodings
            .iter()
            .map(|&amo| Model::cells(EncodeOptions { amo, column_alo }))
            .collect()
    }

    /// What this sweep records about itself: asks every solver its version (a solver that
    /// cannot be run is listed as missing).
    pub fn metadata(&self) -> Metadata {
        let mut solvers = Vec::new();
        let mut missing = Vec::new();
        for s in &self.solvers {
            match solver_version(s) {
                Some(v) => solvers.push((s.name.clone(), v)),
                None => missing.push(s.name.clone()),
            }
        }
        Metadata {
            tool_version: tool_version(),
            machine: machine_description(),
            solvers,
            missing_solvers: missing,
            repeats: self.repeats,
            timeout_s: self.timeout.as_secs_f64(),
            cpu_limit_s: self.cpu_limit.map(|c| c.as_secs_f64()),
            memory_limit_mib: self
                .memory_limit
                .map(|m| crate::solve::measure::MemorySize(m).mib()),
            load_at_start: crate::solve::measure::load_average(),
            column_alo: self.column_alo,
            family: self.family.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep(parameter: &str, values: &[&str], fixed: &[(&str, &str)]) -> FamilySweep {
        FamilySweep {
            family: Family::Completion,
            parameter: parameter.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
            fixed: fixed
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            seeds: vec![4, 5],
        }
    }

    #[test]
    fn family_sweeps_draw_every_n_value_and_seed_in_order() {
        let s = sweep("k", &["0", "2"], &[("mode", "random")]);
        assert_eq!(s.fixed_text(), "mode=random");
        let points = s.draw(&[6, 8]).unwrap();
        let got: Vec<(usize, &str, Option<u64>, usize)> = points
            .iter()
            .map(|p| {
                let spec = p.spec.as_ref().unwrap();
                (p.n, p.value.as_str(), spec.seed, spec.placed.len())
            })
            .collect();
        assert_eq!(
            got,
            [
                (6, "0", Some(4), 0),
                (6, "0", Some(5), 0),
                (6, "2", Some(4), 2),
                (6, "2", Some(5), 2),
                (8, "0", Some(4), 0),
                (8, "0", Some(5), 0),
                (8, "2", Some(4), 2),
                (8, "2", Some(5), 2),
            ]
        );
        let e = sweep("k", &["1", "9"], &[]).draw(&[8]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot draw completion n = 8, k = 9, seed 4: k = 9"),
            "{e}"
        );
        let e = sweep("q", &["1"], &[]).draw(&[8]).unwrap_err();
        assert!(matches!(e, SweepError::Recipe { .. }), "{e}");
        let many = FamilySweep {
            seeds: (0..50_001).collect(),
            ..sweep("k", &["1"], &[])
        };
        assert!(matches!(
            many.draw(&[8, 9]),
            Err(SweepError::TooManyPoints {
                points: 100_002,
                ..
            })
        ));
    }
}
