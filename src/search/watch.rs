//! What every thread of one search watches ([`Watch`]): the node count, the time limit, the
//! stop flag and condition, the progress callback, and the halt raised when a solution ends a
//! decision. Each walker adds its nodes and looks at the watch every [`TICK`] nodes.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Why a walk was halted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// The time limit passed.
    TimeLimit,
    /// The stop flag or the stop condition was raised.
    Interrupted,
    /// A visitor ended the walk (a decision found its solution).
    Done,
}

type ProgressFn<'a> = Box<dyn Fn(u64, Duration) + Send + Sync + 'a>;
type StopFn<'a> = Box<dyn Fn() -> bool + Send + Sync + 'a>;

/// What every thread of one search watches: the node count, the time limit, the stop flag
/// and condition, the progress callback, and the halt.
pub(crate) struct Watch<'a> {
    start: Instant,
    deadline: Option<Instant>,
    stop_flag: Option<&'a AtomicBool>,
    stop_when: Option<StopFn<'a>>,
    progress: Option<ProgressFn<'a>>,
    progress_every: Duration,
    nodes: AtomicU64,
    /// Nanoseconds from the start to the last progress report.
    reported: AtomicU64,
    halted: Mutex<Option<Halt>>,
    halt: AtomicBool,
}

/// Nodes a thread visits between two looks at the [`Watch`].
pub(super) const TICK: u64 = 1024;

impl<'a> Watch<'a> {
    pub fn new() -> Watch<'a> {
        Watch {
            start: Instant::now(),
            deadline: None,
            stop_flag: None,
            stop_when: None,
            progress: None,
            progress_every: Duration::from_millis(200),
            nodes: AtomicU64::new(0),
            reported: AtomicU64::new(0),
            halted: Mutex::new(None),
            halt: AtomicBool::new(false),
        }
    }

    pub fn time_limit(&mut self, limit: Duration) {
        // A limit past the end of time is no limit.
        self.deadline = self.start.checked_add(limit);
    }

    pub fn stop_flag(&mut self, flag: &'a AtomicBool) {
        self.stop_flag = Some(flag);
    }

    pub fn stop_when(&mut self, f: StopFn<'a>) {
        self.stop_when = Some(f);
    }

    pub fn progress(&mut self, f: ProgressFn<'a>, every: Duration) {
        self.progress = Some(f);
        self.progress_every = every;
    }

    /// Nodes visited so far (as last reported by the threads).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Why the search was halted, if it was.
    pub fn halted(&self) -> Option<Halt> {
        *self.halted.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn is_halted(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }

    /// Halts every thread, for `why` (the first reason is kept).
    pub fn halt(&self, why: Halt) {
        let mut h = self.halted.lock().unwrap_or_else(|e| e.into_inner());
        h.get_or_insert(why);
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Adds `k` visited nodes, without looking at the stop conditions (a walker handing over
    /// the nodes of its last, partial tick).
    pub(super) fn add_nodes(&self, k: u64) {
        self.nodes.fetch_add(k, Ordering::Relaxed);
    }

    /// Checks the stop conditions before any search; `Break` when the search must not start.
    pub fn check(&self) -> ControlFlow<()> {
        self.tick(0)
    }

    /// Adds `k` visited nodes, checks the stop conditions and reports progress; `Break` when
    /// the search must end.
    pub(super) fn tick(&self, k: u64) -> ControlFlow<()> {
        let nodes = self.nodes.fetch_add(k, Ordering::Relaxed) + k;
        if self.is_halted() {
            return ControlFlow::Break(());
        }
        if self.stop_flag.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.stop_when.as_ref().is_some_and(|f| f())
        {
            self.halt(Halt::Interrupted);
            return ControlFlow::Break(());
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.halt(Halt::TimeLimit);
            return ControlFlow::Break(());
        }
        if let Some(f) = &self.progress {
            let at = now.duration_since(self.start);
            let at_ns = u64::try_from(at.as_nanos()).unwrap_or(u64::MAX);
            let last = self.reported.load(Ordering::Relaxed);
            let every = u64::try_from(self.progress_every.as_nanos()).unwrap_or(u64::MAX);
            if at_ns.saturating_sub(last) >= every
                && self
                    .reported
                    .compare_exchange(last, at_ns, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                f(nodes, at);
            }
        }
        ControlFlow::Continue(())
    }
}
