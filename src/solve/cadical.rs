//! A safe wrapper of CaDiCaL 3, the in-process solver of the `cadical` feature, over the raw
//! C interface of the `pindakaas-cadical` crate (which compiles CaDiCaL's vendored sources).
//!
//! [`Cadical`] owns one solver: options by name, checked ([`Cadical::set_option`]), clauses
//! and assumptions as DIMACS integers, a terminate callback ([`Cadical::set_terminate`]), the
//! proof tracer interface ([`ProofTracer`], with LRAT antecedents when asked for) and the
//! IPASIR-UP external propagator interface ([`ExternalPropagator`]). The solver's version
//! comes from the library itself ([`version`]).
//!
//! Callbacks run inside CaDiCaL's C++ code: a panic in one is caught there, the solver is asked
//! to stop, and the panic resumes once [`Cadical::solve`] returns.

pub use super::options::OptionError;
use pindakaas_cadical as ffi;
use std::any::Any;
use std::ffi::{c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

/// The answer of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Satisfiable: [`Cadical::value`] reads the model.
    Sat,
    /// Unsatisfiable (under the assumptions of the call, if any).
    Unsat,
    /// Stopped without an answer (the terminate callback asked for it).
    Unknown,
}

/// The version of the linked CaDiCaL, as the library reports it (`3.0.1`).
pub fn version() -> String {
    // SAFETY: the signature is a static NUL-terminated string of the library.
    let sig = unsafe { CStr::from_ptr(ffi::ccadical_signature()) }.to_string_lossy();
    sig.strip_prefix("cadical-").unwrap_or(&sig).to_string()
}

/// Receives CaDiCaL's proof events (connect it with [`Cadical::connect_proof_tracer`]).
/// Clause identifiers are CaDiCaL's: the original clauses are numbered as they are added, from
/// 1; derived clauses get the next numbers. Literals are DIMACS integers.
pub trait ProofTracer: Send {
    /// An original (input) clause, in the order of [`Cadical::add_clause`].
    fn add_original_clause(&mut self, id: i64, clause: &[i32]);
    /// A derived clause; `antecedents` are the clauses it follows from by unit propagation,
    /// in an order in which each becomes unit or falsified (only when the tracer was connected
    /// with antecedents).
    fn add_derived_clause(&mut self, id: i64, clause: &[i32], antecedents: &[i64]);
    /// A clause is deleted.
    fn delete_clause(&mut self, id: i64, clause: &[i32]);
    /// The proof of unsatisfiability is complete (`ids`: the empty clause, or the clauses
    /// that refute the assumptions).
    fn conclude_unsat(&mut self, _ids: &[i64]) {}
}

/// A tracer shared with the code that started the solve, which takes it back (through its own
/// handle on the mutex) once the solver is done: CaDiCaL owns what it is given.
pub(crate) struct SharedTracer<T>(pub std::sync::Arc<std::sync::Mutex<T>>);

impl<T: ProofTracer> SharedTracer<T> {
    fn tracer(&self) -> std::sync::MutexGuard<'_, T> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl<T: ProofTracer> ProofTracer for SharedTracer<T> {
    fn add_original_clause(&mut self, id: i64, clause: &[i32]) {
        self.tracer().add_original_clause(id, clause)
    }
    fn add_derived_clause(&mut self, id: i64, clause: &[i32], antecedents: &[i64]) {
        self.tracer().add_derived_clause(id, clause, antecedents)
    }
    fn delete_clause(&mut self, id: i64, clause: &[i32]) {
        self.tracer().delete_clause(id, clause)
    }
    fn conclude_unsat(&mut self, ids: &[i64]) {
        self.tracer().conclude_unsat(ids)
    }
}

/// An external propagator (IPASIR-UP): it watches the assignments of observed variables and
/// may propagate, decide and add clauses (see CaDiCaL's documentation of the interface).
/// Literals are DIMACS integers; a return value of 0 means "nothing".
pub trait ExternalPropagator: Send {
    /// `true` when the propagator only checks complete models.
    fn is_lazy(&self) -> bool {
        false
    }
    /// `true` when the reason clauses may be forgotten (the propagator gives them again).
    fn reasons_forgettable(&self) -> bool {
        false
    }
    /// Observed literals that became true.
    fn notify_assignment(&mut self, lits: &[i32]);
    /// A new decision level begins.
    fn notify_new_decision_level(&mut self);
    /// The solver backtracks to `new_level`.
    fn notify_backtrack(&mut self, new_level: usize, restart: bool);
    /// A complete model: `true` to accept it (else add a clause through
    /// [`ExternalPropagator::has_external_clause`]).
    fn check_found_model(&mut self, model: &[i32]) -> bool;
    /// The next decision, or 0 to leave it to the solver.
    fn decide(&mut self) -> i32 {
        0
    }
    /// A literal to propagate, or 0.
    fn propagate(&mut self) -> i32 {
        0
    }
    /// The next literal of the reason clause of `propagated`, 0 at its end.
    fn add_reason_clause_lit(&mut self, _propagated: i32) -> i32 {
        0
    }
    /// `true` when a clause is to be added; set `forgettable` when it may be dropped later.
    fn has_external_clause(&mut self, _forgettable: &mut bool) -> bool {
        false
    }
    /// The next literal of the clause being added, 0 at its end.
    fn add_external_clause_lit(&mut self) -> i32 {
        0
    }
}

/// A callback's state, at a stable address handed to C as `data`.
struct Slot<T: ?Sized> {
    /// The solver, to stop it when a callback panics.
    solver: *mut c_void,
    /// A panic caught in a callback, resumed after the solve.
    panic: Option<Box<dyn Any + Send>>,
    inner: Box<T>,
}

impl<T: ?Sized> Slot<T> {
    /// Runs `f` on the inner value; a panic is kept, the solver asked to stop, and `default`
    /// returned.
    fn call<R>(data: *mut c_void, default: R, f: impl FnOnce(&mut T) -> R) -> R {
        // SAFETY: `data` is the address of a live `Slot<T>` owned by the `Cadical` that
        // registered it; CaDiCaL calls back only while that solver is used, on its thread.
        let slot = unsafe { &mut *(data as *mut Slot<T>) };
        if slot.panic.is_some() {
            return default;
        }
        match catch_unwind(AssertUnwindSafe(|| f(&mut *slot.inner))) {
            Ok(r) => r,
            Err(p) => {
                slot.panic = Some(p);
                // SAFETY: the solver outlives its callbacks; terminate only sets a flag.
                unsafe { ffi::ccadical_terminate(slot.solver) };
                default
            }
        }
    }
}

type Terminate = dyn FnMut() -> bool + Send;

/// One CaDiCaL solver.
pub struct Cadical {
    ptr: NonNull<c_void>,
    /// A clause was added: options and tracers are set before.
    started: bool,
    /// The largest variable in a clause or assumption.
    max_var: i32,
    /// The last solve was satisfiable and nothing was added since (the model can be read).
    sat: bool,
    /// The last solve was unsatisfiable and nothing was added since.
    unsat: bool,
    terminate: Option<Box<Slot<Terminate>>>,
    tracer: Option<Box<Slot<dyn ProofTracer>>>,
    propagator: Option<Box<Slot<dyn ExternalPropagator>>>,
}

// SAFETY: a CaDiCaL solver has no thread-local state; the callbacks it holds are `Send`.
unsafe impl Send for Cadical {}

impl Default for Cadical {
    fn default() -> Self {
        Self::new()
    }
}

impl Cadical {
    /// A new solver with the default options.
    pub fn new() -> Self {
        // SAFETY: init allocates a solver; a null pointer would mean out of memory.
        let ptr = NonNull::new(unsafe { ffi::ccadical_init() }).expect("CaDiCaL: out of memory");
        Cadical {
            ptr,
            started: false,
            max_var: 0,
            sat: false,
            unsat: false,
            terminate: None,
            tracer: None,
            propagator: None,
        }
    }

    fn raw(&self) -> *mut c_void {
        self.ptr.as_ptr()
    }

    /// The current value of an option (0 for an unknown name).
    pub fn get_option(&self, name: &str) -> i32 {
        let Ok(c) = CString::new(name) else { return 0 };
        // SAFETY: a valid solver and a NUL-terminated name.
        unsafe { ffi::ccadical_get_option(self.raw(), c.as_ptr()) }
    }

    /// Sets an option by name (`elim`, `seed`, ...: CaDiCaL's long options without the
    /// dashes), before the first clause. An unknown name, a value outside the option's range
    /// and a late call are errors; the option is then unchanged.
    pub fn set_option(&mut self, name: &str, value: i64) -> Result<(), OptionError> {
        if self.started {
            return Err(OptionError::TooLate(name.into()));
        }
        let Ok(c) = CString::new(name) else {
            return Err(OptionError::Unknown(name.into()));
        };
        let set = |v: i32| {
            // SAFETY: a valid solver still configuring (no clause yet), a NUL-terminated name.
            unsafe { ffi::ccadical_set_option(self.raw(), c.as_ptr(), v) }
        };
        // The C interface does not say whether a name is known: CaDiCaL clips a value to the
        // option's range and reads 0 for an unknown name, so the range is found by setting
        // the extremes, and a known option has a range other than 0..0.
        let old = self.get_option(name);
        set(i32::MIN);
        let low = self.get_option(name);
        set(i32::MAX);
        let high = self.get_option(name);
        set(old);
        if old == 0 && low == 0 && high == 0 {
            return Err(OptionError::Unknown(name.into()));
        }
        if value < i64::from(low) || value > i64::from(high) {
            return Err(OptionError::OutOfRange {
                name: name.into(),
                value,
                low: low.into(),
                high: high.into(),
            });
        }
        set(value as i32);
        Ok(())
    }

    /// Adds a clause (DIMACS literals, no 0).
    pub fn add_clause(&mut self, clause: &[i32]) {
        self.started = true;
        self.sat = false;
        self.unsat = false;
        for &l in clause {
            debug_assert!(l != 0 && l != i32::MIN);
            self.max_var = self.max_var.max(l.abs());
            // SAFETY: a valid solver; a nonzero literal.
            unsafe { ffi::ccadical_add(self.raw(), l) };
        }
        // SAFETY: ends the clause.
        unsafe { ffi::ccadical_add(self.raw(), 0) };
    }

    /// Assumes a literal for the next solve only.
    pub fn assume(&mut self, lit: i32) {
        assert!(lit != 0 && lit != i32::MIN, "not a literal: {lit}");
        self.started = true;
        self.sat = false;
        self.unsat = false;
        self.max_var = self.max_var.max(lit.abs());
        // SAFETY: a valid solver and literal.
        unsafe { ffi::ccadical_assume(self.raw(), lit) };
    }

    /// The largest variable seen in a clause or an assumption.
    pub fn max_var(&self) -> i32 {
        self.max_var
    }

    /// Solves the clauses under the assumptions given since the last solve.
    pub fn solve(&mut self) -> Status {
        self.started = true;
        // SAFETY: a valid solver; callbacks point to slots this solver owns.
        let r = unsafe { ffi::ccadical_solve(self.raw()) };
        self.sat = r == 10;
        self.unsat = r == 20;
        self.resume_panics();
        match r {
            10 => Status::Sat,
            20 => Status::Unsat,
            _ => Status::Unknown,
        }
    }

    fn resume_panics(&mut self) {
        let p = self
            .terminate
            .as_mut()
            .and_then(|s| s.panic.take())
            .or_else(|| self.tracer.as_mut().and_then(|s| s.panic.take()))
            .or_else(|| self.propagator.as_mut().and_then(|s| s.panic.take()));
        if let Some(p) = p {
            resume_unwind(p);
        }
    }

    /// The value of a literal in the model of the last satisfiable solve (`None` for a
    /// variable the solver never saw, or when the last solve was not satisfiable).
    pub fn value(&self, lit: i32) -> Option<bool> {
        if !self.sat || lit == 0 || lit == i32::MIN || lit.abs() > self.max_var {
            return None;
        }
        // SAFETY: a valid solver in the satisfied state (CaDiCaL requires it) and a known
        // variable; CaDiCaL answers `lit` (true) or `-lit` (false).
        let v = unsafe { ffi::ccadical_val(self.raw(), lit) };
        match v {
            0 => None,
            v => Some(v == lit),
        }
    }

    /// Sets (or, with `None`, removes) the terminate callback: polled during the search, the
    /// solve stops with [`Status::Unknown`] once it returns `true`.
    pub fn set_terminate(&mut self, f: Option<Box<Terminate>>) {
        unsafe extern "C" fn call(data: *mut c_void) -> c_int {
            Slot::<Terminate>::call(data, 1, |f| c_int::from(f()))
        }
        match f {
            None => {
                // SAFETY: removes the callback before its slot is dropped.
                unsafe { ffi::ccadical_set_terminate(self.raw(), std::ptr::null_mut(), None) };
                self.terminate = None;
            }
            Some(f) => {
                let mut slot = Box::new(Slot {
                    solver: self.raw(),
                    panic: None,
                    inner: f,
                });
                let data = &mut *slot as *mut Slot<Terminate> as *mut c_void;
                // SAFETY: the slot lives in `self` until replaced, after this call.
                unsafe { ffi::ccadical_set_terminate(self.raw(), data, Some(call)) };
                self.terminate = Some(slot);
            }
        }
    }

    /// Connects a proof tracer, before the first clause (CaDiCaL allows it only then). With
    /// `antecedents`, CaDiCaL runs in its LRAT mode and gives every derived clause its chain
    /// of antecedents. One tracer at a time: a second replaces the first.
    pub fn connect_proof_tracer(
        &mut self,
        tracer: Box<dyn ProofTracer>,
        antecedents: bool,
    ) -> Result<(), OptionError> {
        if self.started {
            return Err(OptionError::TooLate("proof tracing".into()));
        }
        self.disconnect_proof_tracer();
        let mut slot: Box<Slot<dyn ProofTracer>> = Box::new(Slot {
            solver: self.raw(),
            panic: None,
            inner: tracer,
        });
        let data = &mut *slot as *mut Slot<dyn ProofTracer> as *mut c_void;
        let c = tracer_vtable(data);
        // SAFETY: the slot lives in `self` until disconnected; the solver is configuring.
        unsafe { ffi::ccadical_connect_proof_tracer(self.raw(), c, antecedents, false) };
        self.tracer = Some(slot);
        Ok(())
    }

    /// Disconnects the proof tracer and hands it back.
    pub fn disconnect_proof_tracer(&mut self) -> Option<Box<dyn ProofTracer>> {
        let mut slot = self.tracer.take()?;
        let data = &mut *slot as *mut Slot<dyn ProofTracer> as *mut c_void;
        // SAFETY: the tracer was connected with this data pointer.
        unsafe { ffi::ccadical_disconnect_proof_tracer(self.raw(), data) };
        Some(slot.inner)
    }

    /// Connects an external propagator (one at a time: a second replaces the first).
    pub fn connect_external_propagator(&mut self, propagator: Box<dyn ExternalPropagator>) {
        self.disconnect_external_propagator();
        let is_lazy = propagator.is_lazy();
        let forgettable = propagator.reasons_forgettable();
        let mut slot: Box<Slot<dyn ExternalPropagator>> = Box::new(Slot {
            solver: self.raw(),
            panic: None,
            inner: propagator,
        });
        let data = &mut *slot as *mut Slot<dyn ExternalPropagator> as *mut c_void;
        let c = propagator_vtable(data, is_lazy, forgettable);
        // SAFETY: the slot lives in `self` until disconnected.
        unsafe { ffi::ccadical_connect_external_propagator(self.raw(), c) };
        self.propagator = Some(slot);
    }

    /// Disconnects the external propagator and hands it back (the observed variables are
    /// forgotten).
    pub fn disconnect_external_propagator(&mut self) -> Option<Box<dyn ExternalPropagator>> {
        let slot = self.propagator.take()?;
        // SAFETY: a propagator is connected.
        unsafe { ffi::ccadical_disconnect_external_propagator(self.raw()) };
        Some(slot.inner)
    }

    /// Marks a variable as observed by the external propagator (its assignments are
    /// notified; it is not eliminated).
    pub fn add_observed_var(&mut self, var: i32) {
        assert!(var > 0, "not a variable: {var}");
        assert!(
            self.propagator.is_some(),
            "no external propagator is connected"
        );
        self.max_var = self.max_var.max(var);
        // SAFETY: a valid solver with a propagator.
        unsafe { ffi::ccadical_add_observed_var(self.raw(), var) };
    }
}

impl Drop for Cadical {
    fn drop(&mut self) {
        // SAFETY: releases the solver once, before the slots its callbacks point to.
        unsafe { ffi::ccadical_release(self.raw()) };
    }
}

/// A slice from a C pointer and a length (empty for a null pointer).
///
/// # Safety
/// `p` points to `n` valid values, or `n` is 0.
unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}

fn tracer_vtable(data: *mut c_void) -> ffi::CTracer {
    type S = Slot<dyn ProofTracer>;
    unsafe extern "C" fn add_original(
        d: *mut c_void,
        id: i64,
        _redundant: bool,
        c: *const c_int,
        n: usize,
        _restored: bool,
    ) {
        S::call(d, (), |t| t.add_original_clause(id, slice(c, n)))
    }
    #[allow(clippy::too_many_arguments)]
    unsafe extern "C" fn add_derived(
        d: *mut c_void,
        id: i64,
        _redundant: bool,
        _witness: c_int,
        c: *const c_int,
        n: usize,
        a: *const i64,
        m: usize,
    ) {
        S::call(d, (), |t| {
            t.add_derived_clause(id, slice(c, n), slice(a, m))
        })
    }
    unsafe extern "C" fn delete(d: *mut c_void, id: i64, _r: bool, c: *const c_int, n: usize) {
        S::call(d, (), |t| t.delete_clause(id, slice(c, n)))
    }
    unsafe extern "C" fn weaken_minus(_: *mut c_void, _: i64, _: *const c_int, _: usize) {}
    unsafe extern "C" fn strengthen(_: *mut c_void, _: i64) {}
    unsafe extern "C" fn report_status(_: *mut c_void, _: c_int, _: i64) {}
    unsafe extern "C" fn finalize(_: *mut c_void, _: i64, _: *const c_int, _: usize) {}
    unsafe extern "C" fn begin_proof(_: *mut c_void, _: i64) {}
    unsafe extern "C" fn solve_query(_: *mut c_void) {}
    unsafe extern "C" fn add_assumption(_: *mut c_void, _: c_int) {}
    unsafe extern "C" fn add_constraint(_: *mut c_void, _: *const c_int, _: usize) {}
    unsafe extern "C" fn reset_assumptions(_: *mut c_void) {}
    unsafe extern "C" fn add_assumption_clause(
        _: *mut c_void,
        _: i64,
        _: *const c_int,
        _: usize,
        _: *const i64,
        _: usize,
    ) {
    }
    unsafe extern "C" fn conclude_unsat(d: *mut c_void, _kind: u8, ids: *const i64, n: usize) {
        S::call(d, (), |t| t.conclude_unsat(slice(ids, n)))
    }
    unsafe extern "C" fn conclude_sat(_: *mut c_void, _: *const c_int, _: usize) {}
    unsafe extern "C" fn conclude_unknown(_: *mut c_void, _: *const c_int, _: usize) {}
    unsafe extern "C" fn demote(_: *mut c_void, _: i64, _: *const c_int, _: usize) {}
    ffi::CTracer {
        data,
        add_original_clause: add_original,
        add_derived_clause: add_derived,
        delete_clause: delete,
        weaken_minus,
        strengthen,
        report_status,
        finalize_clause: finalize,
        begin_proof,
        solve_query,
        add_assumption,
        add_constraint,
        reset_assumptions,
        add_assumption_clause,
        conclude_unsat,
        conclude_sat,
        conclude_unknown,
        demote_clause: demote,
    }
}

fn propagator_vtable(
    data: *mut c_void,
    is_lazy: bool,
    are_reasons_forgettable: bool,
) -> ffi::CExternalPropagator {
    type S = Slot<dyn ExternalPropagator>;
    unsafe extern "C" fn notify_assignment(d: *mut c_void, lits: *const c_int, n: usize) {
        S::call(d, (), |p| p.notify_assignment(slice(lits, n)))
    }
    unsafe extern "C" fn notify_new_decision_level(d: *mut c_void) {
        S::call(d, (), |p| p.notify_new_decision_level())
    }
    unsafe extern "C" fn notify_backtrack(d: *mut c_void, level: usize, restart: bool) {
        S::call(d, (), |p| p.notify_backtrack(level, restart))
    }
    unsafe extern "C" fn check_found_model(d: *mut c_void, m: *const c_int, n: usize) -> bool {
        S::call(d, true, |p| p.check_found_model(slice(m, n)))
    }
    unsafe extern "C" fn decide(d: *mut c_void) -> c_int {
        S::call(d, 0, |p| p.decide())
    }
    unsafe extern "C" fn propagate(d: *mut c_void) -> c_int {
        S::call(d, 0, |p| p.propagate())
    }
    unsafe extern "C" fn add_reason_clause_lit(d: *mut c_void, lit: c_int) -> c_int {
        S::call(d, 0, |p| p.add_reason_clause_lit(lit))
    }
    unsafe extern "C" fn has_external_clause(d: *mut c_void, forgettable: *mut bool) -> bool {
        S::call(d, false, |p| {
            let mut f = false;
            let r = p.has_external_clause(&mut f);
            if !forgettable.is_null() {
                // SAFETY: CaDiCaL passes a valid out-parameter.
                unsafe { *forgettable = f };
            }
            r
        })
    }
    unsafe extern "C" fn add_external_clause_lit(d: *mut c_void) -> c_int {
        S::call(d, 0, |p| p.add_external_clause_lit())
    }
    ffi::CExternalPropagator {
        data,
        is_lazy,
        are_reasons_forgettable,
        notify_assignment,
        notify_new_decision_level,
        notify_backtrack,
        check_found_model,
        decide,
        propagate,
        add_reason_clause_lit,
        has_external_clause,
        add_external_clause_lit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn the_wrapper_solves_under_assumptions() {
        let mut s = Cadical::new();
        s.add_clause(&[1, 2]);
        s.add_clause(&[-1]);
        assert_eq!(s.solve(), Status::Sat);
        assert_eq!(s.value(2), Some(true));
        s.assume(2);
        s.assume(-2);
        assert_eq!(s.solve(), Status::Unsat);
    }

    #[test]
    fn version_is_three() {
        assert!(version().starts_with("3."), "{}", version());
    }

    #[test]
    fn options_are_checked() {
        let mut s = Cadical::new();
        assert_eq!(s.set_option("elim", 0), Ok(()));
        assert_eq!(s.get_option("elim"), 0);
        assert!(matches!(
            s.set_option("nope", 1),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            s.set_option("elim", 7),
            Err(OptionError::OutOfRange {
                low: 0,
                high: 1,
                ..
            })
        ));
        s.set_option("seed", 42).unwrap();
        assert_eq!(s.get_option("seed"), 42);
        s.add_clause(&[1]);
        assert!(matches!(
            s.set_option("seed", 1),
            Err(OptionError::TooLate(_))
        ));
    }

    #[test]
    fn terminate_stops_and_panics_resume() {
        let mut s = Cadical::new();
        // Pigeonhole 9 into 8: hard enough to reach the callback.
        let v = |p: i32, h: i32| p * 8 + h + 1;
        for p in 0..9 {
            s.add_clause(&(0..8).map(|h| v(p, h)).collect::<Vec<_>>());
        }
        for h in 0..8 {
            for p in 0..9 {
                for q in p + 1..9 {
                    s.add_clause(&[-v(p, h), -v(q, h)]);
                }
            }
        }
        s.set_terminate(Some(Box::new(|| true)));
        assert_eq!(s.solve(), Status::Unknown);
        s.set_terminate(Some(Box::new(|| panic!("from the callback"))));
        let r = catch_unwind(AssertUnwindSafe(|| s.solve()));
        assert!(r.is_err());
    }

    #[derive(Default)]
    struct Log {
        original: Vec<i64>,
        derived: Vec<(i64, Vec<i32>, usize)>,
        concluded: bool,
    }

    struct Shared(Arc<Mutex<Log>>);

    impl ProofTracer for Shared {
        fn add_original_clause(&mut self, id: i64, _clause: &[i32]) {
            self.0.lock().unwrap().original.push(id);
        }
        fn add_derived_clause(&mut self, id: i64, clause: &[i32], antecedents: &[i64]) {
            self.0
                .lock()
                .unwrap()
                .derived
                .push((id, clause.to_vec(), antecedents.len()));
        }
        fn delete_clause(&mut self, _id: i64, _clause: &[i32]) {}
        fn conclude_unsat(&mut self, _ids: &[i64]) {
            self.0.lock().unwrap().concluded = true;
        }
    }

    #[test]
    fn tracer_sees_original_and_derived_clauses() {
        let log = Arc::new(Mutex::new(Log::default()));
        let mut s = Cadical::new();
        s.connect_proof_tracer(Box::new(Shared(log.clone())), true)
            .unwrap();
        for c in [[1, 2], [-1, 2], [1, -2], [-1, -2]] {
            s.add_clause(&c);
        }
        assert_eq!(s.solve(), Status::Unsat);
        assert!(s.disconnect_proof_tracer().is_some());
        let log = log.lock().unwrap();
        assert_eq!(log.original, vec![1, 2, 3, 4]);
        let last = log.derived.last().unwrap();
        assert!(last.1.is_empty() && last.2 > 0, "{:?}", log.derived);
    }

    /// Allows at most one of variables 1..=4 true, lazily: a model with two is refused with
    /// a clause.
    struct AtMostOne {
        pending: Vec<i32>,
    }

    impl ExternalPropagator for AtMostOne {
        fn is_lazy(&self) -> bool {
            true
        }
        fn notify_assignment(&mut self, _lits: &[i32]) {}
        fn notify_new_decision_level(&mut self) {}
        fn notify_backtrack(&mut self, _level: usize, _restart: bool) {}
        fn check_found_model(&mut self, model: &[i32]) -> bool {
            let on: Vec<i32> = model.iter().copied().filter(|&l| l > 0 && l <= 4).collect();
            if on.len() <= 1 {
                return true;
            }
            self.pending = vec![0, -on[0], -on[1]];
            false
        }
        fn has_external_clause(&mut self, _forgettable: &mut bool) -> bool {
            !self.pending.is_empty()
        }
        fn add_external_clause_lit(&mut self) -> i32 {
            self.pending.pop().unwrap_or(0)
        }
    }

    #[test]
    fn a_lazy_propagator_refuses_models() {
        let mut s = Cadical::new();
        s.connect_external_propagator(Box::new(AtMostOne {
            pending: Vec::new(),
        }));
        for v in 1..=4 {
            s.add_observed_var(v);
        }
        s.add_clause(&[1, 2, 3, 4]);
        s.add_clause(&[1, 2]);
        s.add_clause(&[3, 4]);
        // Two of 1..4 must be true: the propagator makes it unsatisfiable.
        assert_eq!(s.solve(), Status::Unsat);
        assert!(s.disconnect_external_propagator().is_some());
    }
}
