//! The catalogue of models: their names, help texts, which options apply to each, how each
//! builds its [`Encoding`], and the model variants that `check` and `compare` run
//! (`--models`). The command line, the experiments and the checks read it; no other code
//! matches on model names.
//!
//! A new model is a file implementing [`Encoding`] plus a [`ModelEntry`] in [`MODELS`]; a new
//! at-most-one encoding is an entry of [`super::amo::CATALOGUE`], a new domain or constraint
//! encoding of the column model an entry of [`super::columns::DOMAINS`] or
//! [`super::columns::CONSTRAINTS`]. [`variants`] derives the `--models` list from them, so
//! the checks and the generic tests pick up every new entry.
//!
//! ```
//! use queens_sat::encode::{Model, ModelOptions};
//! let m = Model::from_names("columns", &ModelOptions {
//!     domain: "order".parse().unwrap(),
//!     ..ModelOptions::default()
//! }).unwrap();
//! assert_eq!(m.to_string(), "columns-order");
//! assert_eq!(m.encoder(8).unwrap().size().vars, 8 * 7);
//! ```

use super::redundant::{RedundantSet, WithRedundant};
use super::{
    Amo, ColumnEncoder, ColumnOptions, Constraints, Domain, EncodeError, EncodeOptions, Encoding,
    LineEncodings, QueensEncoder,
};
use crate::board::Geometry;
use crate::vocabulary::Param;
use std::fmt;
use std::sync::Arc;

/// An option that chooses part of a model's encoding, as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModelOption {
    /// `--amo`: the at-most-one encoding, one per kind of line.
    AmoPerLine,
    /// `--amo`: one at-most-one encoding (where the encoding uses one).
    Amo,
    /// `--column-alo`: the redundant column at-least-one clauses.
    ColumnAlo,
    /// `--domain`: how each row's integer is encoded.
    Domain,
    /// `--constraints`: how the all-different constraints are written.
    Constraints,
    /// `--alldiff`: the all-different decomposition, pairwise (`--constraints`) or Hall
    /// intervals (`--constraints hall`).
    Alldiff,
}

impl ModelOption {
    /// The option as messages name it.
    pub fn param(self) -> Param {
        match self {
            ModelOption::AmoPerLine | ModelOption::Amo => Param::Amo,
            ModelOption::ColumnAlo => Param::ColumnAlo,
            ModelOption::Domain => Param::Domain,
            ModelOption::Constraints => Param::Constraints,
            ModelOption::Alldiff => Param::Alldiff,
        }
    }
}

/// The options of every model, as the command line gives them: each model reads those its
/// [`ModelEntry::options`] lists and ignores the rest ([`Model::new`] resets them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ModelOptions {
    /// At-most-one encodings, per kind of line (default pairwise everywhere).
    pub amo: LineEncodings,
    /// The redundant column at-least-one clauses.
    pub column_alo: bool,
    /// The domain encoding of the column model (default direct).
    pub domain: Domain,
    /// The constraint encoding of the column model (default conflict).
    pub constraints: Constraints,
    /// Redundant global constraints added to the model, whichever it is (default none).
    pub redundant: RedundantSet,
}

/// How a catalogue entry builds its encoding of the `n` x `n` board.
type Builder = fn(usize, &ModelOptions, Geometry) -> Result<Arc<dyn Encoding>, EncodeError>;

/// A model of n-queens in the catalogue.
pub struct ModelEntry {
    /// The command-line name (`--model NAME`).
    pub name: &'static str,
    /// What it is called in messages (`the cell model`).
    pub title: &'static str,
    /// One line on the model, for help texts.
    pub summary: &'static str,
    /// The options it reads.
    pub options: &'static [ModelOption],
    /// Checks the options it reads (beyond each option's own parsing).
    check: fn(&ModelOptions) -> Result<(), String>,
    /// The short name of an encoding of the model, for reports and file names.
    label: fn(&ModelOptions) -> String,
    /// Builds the encoding of the `n` x `n` board.
    build: Builder,
}

impl fmt::Debug for ModelEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Every model, the default first: what `--model` accepts.
pub static MODELS: &[ModelEntry] = &[
    ModelEntry {
        name: "cells",
        title: "cell model",
        summary: "one Boolean per cell",
        options: &[ModelOption::AmoPerLine, ModelOption::ColumnAlo],
        check: |_| Ok(()),
        label: |o| cell_options(o).label(),
        build: |n, o, g| Ok(Arc::new(QueensEncoder::new_on(n, cell_options(o), g)?)),
    },
    ModelEntry {
        name: "columns",
        title: "column model",
        summary: "one integer per row",
        options: &[
            ModelOption::Amo,
            ModelOption::Domain,
            ModelOption::Constraints,
            ModelOption::Alldiff,
        ],
        check: |o| {
            if !o.amo.is_uniform() {
                Err(format!("the column model takes one {} encoding (for the direct domain's rows), not one per line kind", Param::Amo))
            } else if o.amo.rows != Amo::PAIRWISE && !o.domain.encoding().uses_amo() {
                Err(format!(
                    "{amo} {} is unknown to the {} domain, whose rows need no at-most-one encoding (valid: {amo} with {} direct, or no {amo})",
                    o.amo.rows,
                    o.domain.name(),
                    Param::Domain,
                    amo = Param::Amo
                ))
            } else {
                Ok(())
            }
        },
        label: |o| column_options(o).label(),
        build: |n, o, g| Ok(Arc::new(ColumnEncoder::new_on(n, column_options(o), g)?)),
    },
];

fn cell_options(o: &ModelOptions) -> EncodeOptions {
    EncodeOptions {
        amo: o.amo,
        column_alo: o.column_alo,
    }
}

fn column_options(o: &ModelOptions) -> ColumnOptions {
    ColumnOptions {
        domain: o.domain,
        constraints: o.constraints,
        amo: o.amo.rows,
    }
}

/// A model with the options of its encoding: what `--model`, `--amo`, `--domain`, ... choose.
/// Equal models build the same formula.
#[derive(Clone, Copy)]
pub struct Model {
    entry: &'static ModelEntry,
    options: ModelOptions,
}

impl Model {
    /// The model of `entry` with `options`, those it does not read reset to their defaults;
    /// fails when an option it reads is out of range for it.
    pub fn new(entry: &'static ModelEntry, options: &ModelOptions) -> Result<Model, String> {
        let reads = |o: ModelOption| entry.options.contains(&o);
        let default = ModelOptions::default();
        let options = ModelOptions {
            amo: if reads(ModelOption::AmoPerLine) || reads(ModelOption::Amo) {
                options.amo
            } else {
                default.amo
            },
            column_alo: reads(ModelOption::ColumnAlo) && options.column_alo,
            domain: if reads(ModelOption::Domain) {
                options.domain
            } else {
                default.domain
            },
            constraints: if reads(ModelOption::Constraints) {
                options.constraints
            } else {
                default.constraints
            },
            redundant: options.redundant,
        };
        (entry.check)(&options)?;
        Ok(Model { entry, options })
    }

    /// The model named `name` ([`MODELS`]) with `options`, as [`Model::new`].
    pub fn from_names(name: &str, options: &ModelOptions) -> Result<Model, String> {
        Model::new(entry(name)?, options)
    }

    /// The cell model with `options`.
    pub fn cells(options: EncodeOptions) -> Model {
        Model {
            entry: &MODELS[0],
            options: ModelOptions {
                amo: options.amo,
                column_alo: options.column_alo,
                ..ModelOptions::default()
            },
        }
    }

    /// The column model with `options`.
    pub fn columns(options: ColumnOptions) -> Model {
        Model {
            entry: &MODELS[1],
            options: ModelOptions {
                amo: LineEncodings::uniform(options.amo),
                domain: options.domain,
                constraints: options.constraints,
                ..ModelOptions::default()
            },
        }
    }

    /// The catalogue entry.
    pub fn entry(&self) -> &'static ModelEntry {
        self.entry
    }

    /// The options (those the model does not read at their defaults).
    pub fn options(&self) -> &ModelOptions {
        &self.options
    }

    /// The same model with or without the redundant column clauses, where it reads them.
    pub fn with_column_alo(self, on: bool) -> Model {
        Model {
            options: ModelOptions {
                column_alo: on && self.entry.options.contains(&ModelOption::ColumnAlo),
                ..self.options
            },
            ..self
        }
    }

    /// The encoding of the `n` x `n` square board.
    pub fn encoder(&self, n: usize) -> Result<Arc<dyn Encoding>, EncodeError> {
        self.encoder_on(n, Geometry::Square)
    }

    /// The same model with the redundant constraints of `set` (replacing those it had).
    pub fn with_redundant(self, set: RedundantSet) -> Model {
        Model {
            options: ModelOptions {
                redundant: set,
                ..self.options
            },
            ..self
        }
    }

    /// The encoding of the `n` x `n` board of `geometry` (with its redundant constraints,
    /// [`WithRedundant`], when it has any).
    pub fn encoder_on(
        &self,
        n: usize,
        geometry: Geometry,
    ) -> Result<Arc<dyn Encoding>, EncodeError> {
        let model = (self.entry.build)(n, &self.options, geometry)?;
        if self.options.redundant.is_empty() {
            return Ok(model);
        }
        Ok(Arc::new(WithRedundant::new(model, self.options.redundant)?))
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::cells(EncodeOptions::default())
    }
}

impl PartialEq for Model {
    fn eq(&self, other: &Model) -> bool {
        self.entry.name == other.entry.name && self.options == other.options
    }
}

impl Eq for Model {}

impl std::hash::Hash for Model {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.entry.name.hash(state);
        self.options.hash(state);
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model({})", self)
    }
}

impl fmt::Display for Model {
    /// The short name used in reports and file names: `pairwise`, `sequential+column-alo`,
    /// `columns-order`, `columns-direct-pairwise`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&(self.entry.label)(&self.options))?;
        for r in self.options.redundant.iter() {
            write!(f, "+{}", r.name())?;
        }
        Ok(())
    }
}

/// The catalogue entry named `name`, or a message listing the models.
pub fn entry(name: &str) -> Result<&'static ModelEntry, String> {
    MODELS.iter().find(|m| m.name == name).ok_or_else(|| {
        format!(
            "unknown model '{name}' (models: {})",
            MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
        )
    })
}

/// Refuses options given on the command line that `entry` does not read (`given` lists
/// them), naming the model that reads each.
pub fn refuse_foreign_options(
    entry: &'static ModelEntry,
    given: &[ModelOption],
) -> Result<(), String> {
    for &option in given {
        let reads = |m: &ModelEntry| {
            m.options.contains(&option)
                || (option == ModelOption::Amo && m.options.contains(&ModelOption::AmoPerLine))
        };
        if reads(entry) {
            continue;
        }
        let owners: Vec<&ModelEntry> = MODELS.iter().filter(|m| reads(m)).collect();
        let names = owners.iter().map(|m| m.name).collect::<Vec<_>>();
        let title = owners.first().map_or("no model", |m| m.title);
        return Err(format!(
            "{} belongs to the {title} ({model} {})",
            option.param(),
            names.join(&format!(" or {} ", Param::Model)),
            model = Param::Model
        ));
    }
    Ok(())
}

/// A model variant of `--models` (as `check` and `compare` take them).
#[derive(Clone, Debug)]
pub struct Variant {
    /// The name in `--models`.
    pub name: String,
    /// What it is, for help texts.
    pub summary: String,
    /// The model.
    model: &'static ModelEntry,
    /// Its options; the at-most-one is replaced by each of `--amo`'s when `per_amo`.
    options: ModelOptions,
    /// One model per `--amo` encoding (per line kind for the cell model, uniform ones only
    /// otherwise); pairwise alone when `false`.
    per_amo: bool,
}

/// The variants `--models` accepts, derived from the catalogues: `cells` (one model per
/// `--amo` encoding), then for each domain of the column model its name (with the default
/// constraint encoding; one model per uniform `--amo` encoding where the domain uses one),
/// then for each other constraint encoding its name (with the first domain it accepts).
pub fn variants() -> Vec<Variant> {
    let columns = &MODELS[1];
    let mut v = vec![Variant {
        name: "cells".into(),
        summary: format!("the cell model, {}", MODELS[0].summary),
        model: &MODELS[0],
        options: ModelOptions::default(),
        per_amo: true,
    }];
    for domain in Domain::all() {
        v.push(Variant {
            name: domain.name().into(),
            summary: format!("the column model, {} domain", domain),
            model: columns,
            options: ModelOptions {
                domain,
                ..ModelOptions::default()
            },
            per_amo: domain.encoding().uses_amo(),
        });
    }
    for constraints in Constraints::all() {
        if constraints == Constraints::default() {
            continue;
        }
        let Some(domain) = Domain::all().into_iter().find(|&d| constraints.accepts(d)) else {
            continue;
        };
        v.push(Variant {
            name: constraints.name().into(),
            summary: format!("the column model, {domain} domain, {constraints} constraints"),
            model: columns,
            options: ModelOptions {
                domain,
                constraints,
                ..ModelOptions::default()
            },
            per_amo: false,
        });
    }
    v
}

/// The models that `--models` names: each variant of [`variants`] named (`all` for every one),
/// with each of `encs` where the variant takes one model per at-most-one encoding, and the
/// redundant column clauses where the model reads them and `column_alo` is set.
pub fn models(
    names: &[String],
    encs: &[LineEncodings],
    column_alo: bool,
) -> Result<Vec<Model>, String> {
    let all = variants();
    let mut out = Vec::new();
    for name in names.iter().map(|s| s.trim()) {
        let chosen: Vec<&Variant> = all
            .iter()
            .filter(|v| name == "all" || v.name == name)
            .collect();
        if chosen.is_empty() {
            return Err(format!(
                "{}: unknown model '{name}' (known: {}, all)",
                Param::Models,
                all.iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for v in chosen {
            let per_line = v.model.options.contains(&ModelOption::AmoPerLine);
            let amos: Vec<LineEncodings> = if v.per_amo {
                encs.iter()
                    .filter(|e| per_line || e.is_uniform())
                    .copied()
                    .collect()
            } else {
                vec![LineEncodings::uniform(Amo::PAIRWISE)]
            };
            for amo in amos {
                let options = ModelOptions {
                    amo,
                    column_alo,
                    ..v.options
                };
                out.push(Model::new(v.model, &options)?);
            }
        }
    }
    Ok(out)
}
