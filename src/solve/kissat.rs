//! A safe wrapper of Kissat 4, the in-process solver of the `kissat` feature, over the raw C
//! interface of the `pindakaas-kissat` crate (which compiles Kissat's vendored sources).
//!
//! [`Kissat`] owns one solver: options by name, checked against Kissat's own option table
//! ([`Kissat::set_option`]), clauses as DIMACS integers, a terminate callback, and a DRAT proof
//! (text or binary) written by Kissat's own proof tracer to a file ([`Kissat::write_proof`]).
//! Kissat is not incremental: one [`Kissat::solve`] per solver, and no assumptions.

pub use super::options::OptionError;
use pindakaas_kissat as ffi;
use std::any::Any;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::Path;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

/// Kissat's option record (`struct opt` of its `options.h`): the leading fields read here.
#[repr(C)]
struct Opt {
    name: *const c_char,
    value: c_int,
    low: c_int,
    high: c_int,
}

/// Kissat's file record (`struct file` of its `file.h`), which its proof tracer writes to.
#[repr(C)]
struct KFile {
    file: *mut libc::FILE,
    close: bool,
    reading: bool,
    compressed: bool,
    path: *const c_char,
    bytes: u64,
}

extern "C" {
    // Kissat's own functions, compiled into the library though not in its public header.
    fn kissat_options_has(name: *const c_char) -> *const Opt;
    fn kissat_init_proof(solver: *mut c_void, file: *mut KFile, binary: bool);
    fn kissat_release_proof(solver: *mut c_void);
}

/// The answer of [`Kissat::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveOnce {
    /// Satisfiable: [`Kissat::value`] reads the model.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// Stopped without an answer (the terminate callback asked for it).
    Unknown,
}

/// Why Kissat refuses a call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KissatError {
    /// Kissat solves once per solver.
    #[error("kissat solves a formula once (it is not incremental): make a new solver")]
    NotIncremental,
    /// The proof file could not be opened.
    #[error("cannot write the proof to {path}: {reason}")]
    ProofFile {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// Proofs are set up before the first clause.
    #[error("the proof must be set up before any clause is added")]
    TooLate,
}

/// The version of the linked Kissat, as the library reports it (`4.0.4`).
pub fn version() -> String {
    // SAFETY: a static NUL-terminated string of the library.
    unsafe { CStr::from_ptr(ffi::kissat_version()) }
        .to_string_lossy()
        .into_owned()
}

type Terminate = dyn FnMut() -> bool + Send;

/// How often the watchdog of [`Kissat::solve`] asks the terminate callback whether to stop.
const WATCHDOG_PERIOD: std::time::Duration = std::time::Duration::from_millis(5);

/// A solver's address, handed to the watchdog thread.
#[derive(Clone, Copy)]
struct SolverPtr(*mut c_void);

// SAFETY: the watchdog only calls `kissat_terminate`, which sets a flag.
unsafe impl Send for SolverPtr {}

/// The terminate callback's state, at a stable address.
struct TerminateSlot {
    f: Box<Terminate>,
    panic: Option<Box<dyn Any + Send>>,
}

/// One Kissat solver.
pub struct Kissat {
    ptr: NonNull<c_void>,
    started: bool,
    solved: bool,
    /// The solve found a model.
    sat: bool,
    max_var: i32,
    terminate: Option<Box<TerminateSlot>>,
    proof: Option<Box<KFile>>,
}

// SAFETY: a Kissat solver has no thread-local state; its callback is `Send`.
unsafe impl Send for Kissat {}

impl Default for Kissat {
    fn default() -> Self {
        Self::new()
    }
}

impl Kissat {
    /// A new solver with the default options.
    pub fn new() -> Self {
        // SAFETY: init allocates a solver.
        let ptr = NonNull::new(unsafe { ffi::kissat_init() }).expect("Kissat: out of memory");
        Kissat {
            ptr,
            started: false,
            solved: false,
            sat: false,
            max_var: 0,
            terminate: None,
            proof: None,
        }
    }

    fn raw(&self) -> *mut c_void {
        self.ptr.as_ptr()
    }

    /// Checks an option name and value against Kissat's table: its range.
    pub fn check_option(name: &str, value: i64) -> Result<(), OptionError> {
        let Ok(c) = CString::new(name) else {
            return Err(OptionError::Unknown(name.into()));
        };
        // SAFETY: a NUL-terminated name; the table is static.
        let o = unsafe { kissat_options_has(c.as_ptr()) };
        // SAFETY: a non-null result points into Kissat's static option table.
        let Some(o) = (unsafe { o.as_ref() }) else {
            return Err(OptionError::Unknown(name.into()));
        };
        let (low, high) = (i64::from(o.low), i64::from(o.high));
        if value < low || value > high {
            return Err(OptionError::OutOfRange {
                name: name.into(),
                value,
                low,
                high,
            });
        }
        Ok(())
    }

    /// The current value of an option (0 for an unknown name).
    #[cfg(test)]
    pub fn get_option(&self, name: &str) -> i32 {
        let Ok(c) = CString::new(name) else { return 0 };
        // SAFETY: a valid solver and a NUL-terminated name.
        unsafe { ffi::kissat_get_option(self.raw(), c.as_ptr()) }
    }

    /// Sets an option by name (`eliminate`, `seed`, ...: Kissat's long options without the
    /// dashes), before the first clause; an unknown name or a value outside the option's
    /// range is an error.
    pub fn set_option(&mut self, name: &str, value: i64) -> Result<(), OptionError> {
        if self.started {
            return Err(OptionError::TooLate(name.into()));
        }
        Self::check_option(name, value)?;
        let c = CString::new(name).map_err(|_| OptionError::Unknown(name.into()))?;
        // SAFETY: a valid solver, a known option, a value in range.
        unsafe { ffi::kissat_set_option(self.raw(), c.as_ptr(), value as c_int) };
        Ok(())
    }

    /// Writes a DRAT proof (binary or text) to `path` as the solver runs, with Kissat's own
    /// proof tracer; before the first clause. The file is complete once the solver is dropped.
    pub fn write_proof(&mut self, path: &Path, binary: bool) -> Result<(), KissatError> {
        if self.started || self.proof.is_some() {
            return Err(KissatError::TooLate);
        }
        let fail = |reason: String| KissatError::ProofFile {
            path: path.display().to_string(),
            reason,
        };
        use std::os::unix::ffi::OsStrExt;
        let c = CString::new(path.as_os_str().as_bytes()).map_err(|e| fail(e.to_string()))?;
        // SAFETY: a NUL-terminated path and mode.
        let file = unsafe { libc::fopen(c.as_ptr(), c"w".as_ptr()) };
        if file.is_null() {
            return Err(fail(std::io::Error::last_os_error().to_string()));
        }
        let mut record = Box::new(KFile {
            file,
            close: true,
            reading: false,
            compressed: false,
            path: std::ptr::null(),
            bytes: 0,
        });
        // SAFETY: a valid solver without a proof; the record lives until the proof is released.
        unsafe { kissat_init_proof(self.raw(), &mut *record, binary) };
        self.proof = Some(record);
        Ok(())
    }

    /// Adds a clause (DIMACS literals, no 0).
    pub fn add_clause(&mut self, clause: &[i32]) {
        self.started = true;
        for &l in clause {
            debug_assert!(l != 0 && l != i32::MIN);
            self.max_var = self.max_var.max(l.abs());
            // SAFETY: a valid solver; a nonzero literal.
            unsafe { ffi::kissat_add(self.raw(), l) };
        }
        // SAFETY: ends the clause.
        unsafe { ffi::kissat_add(self.raw(), 0) };
    }

    /// The largest variable seen in a clause.
    pub fn max_var(&self) -> i32 {
        self.max_var
    }

    /// Solves the clauses: once per solver (a second call is refused).
    pub fn solve(&mut self) -> Result<SolveOnce, KissatError> {
        if self.solved {
            return Err(KissatError::NotIncremental);
        }
        self.solved = true;
        self.started = true;
        // Kissat 4 stores the terminate callback but never calls it: it only checks the flag
        // that `kissat_terminate` sets, which is safe to set from another thread. So a watchdog
        // thread polls the callback while the solve runs and sets the flag when it says stop.
        let raw = SolverPtr(self.raw());
        let slot = self.terminate.as_deref_mut();
        let done = AtomicBool::new(false);
        let r = std::thread::scope(|scope| {
            if let Some(slot) = slot {
                let done = &done;
                scope.spawn(move || {
                    let raw = raw;
                    while !done.load(Ordering::Acquire) {
                        let stop = match catch_unwind(AssertUnwindSafe(|| (slot.f)())) {
                            Ok(stop) => stop,
                            Err(p) => {
                                slot.panic = Some(p);
                                true
                            }
                        };
                        if stop {
                            // SAFETY: the solver lives until the scope ends; the call only
                            // sets a flag the search polls.
                            unsafe { ffi::kissat_terminate(raw.0) };
                            return;
                        }
                        std::thread::sleep(WATCHDOG_PERIOD);
                    }
                });
            }
            // SAFETY: a valid solver, solved once; the callback's slot is used only by the
            // watchdog during the solve.
            let r = unsafe { ffi::kissat_solve(raw.0) };
            done.store(true, Ordering::Release);
            r
        });
        self.sat = r == 10;
        if let Some(p) = self.terminate.as_mut().and_then(|s| s.panic.take()) {
            resume_unwind(p);
        }
        Ok(match r {
            10 => SolveOnce::Sat,
            20 => SolveOnce::Unsat,
            _ => SolveOnce::Unknown,
        })
    }

    /// The value of a literal in the model (`None` for a variable the solver never saw, or
    /// unless the solve was satisfiable).
    pub fn value(&self, lit: i32) -> Option<bool> {
        if !self.sat || lit == 0 || lit == i32::MIN || lit.abs() > self.max_var {
            return None;
        }
        // SAFETY: a valid solver after its solve and a valid literal.
        match unsafe { ffi::kissat_value(self.raw(), lit) } {
            0 => None,
            v => Some(v == lit),
        }
    }

    /// Sets (or removes) the terminate callback: polled during the search (every few
    /// milliseconds, from a watchdog thread), the solve stops with [`SolveOnce::Unknown`] once
    /// it returns `true`.
    pub fn set_terminate(&mut self, f: Option<Box<Terminate>>) {
        // Not registered with Kissat (which would not call it): the watchdog of `solve` polls
        // it, so only one thread ever runs it.
        self.terminate = f.map(|f| Box::new(TerminateSlot { f, panic: None }));
    }

    /// Flushes and closes the proof file (also done on drop).
    pub fn close_proof(&mut self) {
        if let Some(record) = self.proof.take() {
            // SAFETY: the proof was set up with this record; release flushes Kissat's buffer.
            unsafe {
                kissat_release_proof(self.raw());
                libc::fclose(record.file);
            }
        }
    }
}

impl Drop for Kissat {
    fn drop(&mut self) {
        self.close_proof();
        // SAFETY: releases the solver once, before the terminate slot.
        unsafe { ffi::kissat_release(self.raw()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_solves_once() {
        let mut s = Kissat::new();
        s.add_clause(&[1, 2]);
        s.add_clause(&[-1]);
        assert_eq!(s.solve(), Ok(SolveOnce::Sat));
        assert_eq!(s.value(2), Some(true));
        assert!(s.solve().is_err(), "one solve per solver");
    }

    #[test]
    fn version_is_four() {
        assert!(version().starts_with("4."), "{}", version());
    }

    #[test]
    fn options_are_checked() {
        let mut s = Kissat::new();
        s.set_option("eliminate", 0).unwrap();
        assert_eq!(s.get_option("eliminate"), 0);
        assert!(matches!(
            s.set_option("nope", 1),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            s.set_option("eliminate", 5),
            Err(OptionError::OutOfRange { .. })
        ));
    }

    #[test]
    fn writes_a_drat_proof() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        let mut s = Kissat::new();
        s.write_proof(&path, false).unwrap();
        for c in [[1, 2], [-1, 2], [1, -2], [-1, -2]] {
            s.add_clause(&c);
        }
        assert_eq!(s.solve(), Ok(SolveOnce::Unsat));
        drop(s);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().any(|l| l.trim() == "0"), "{text}");
    }
}
