//! Running a program under control: in its own process group, with a time limit, with bounded
//! output, and stoppable from outside.
//!
//! [`run_bounded`] is the one place where the crate starts external programs (solvers and their
//! `--version` probe). The program gets a null stdin and its own process group, so that on a
//! timeout, on too much output, or when queens-sat itself is interrupted, the whole group
//! (a wrapper script and every child it started) is killed, not only the first process.
//! Standard output is read on a thread and kept up to a bound; of standard error only a short
//! tail is kept. When the program exits but something it left behind still holds the pipes,
//! reading stops after a short grace period.
//!
//! A library installs no signal handlers: a program that wants interrupted runs cleaned up calls
//! [`kill_running`] from its own handler. It kills the process groups running now and removes
//! the temporary folders registered with [`TempDirGuard`].

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::measure::{self, LimitHit, Sampler, Usage};

/// The process groups and temporary folders that [`kill_running`] cleans up.
#[derive(Default)]
struct Registry {
    groups: Vec<i32>,
    dirs: Vec<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    dirs: Vec::new(),
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every process group started by [`run_bounded`] that is still running and removes
/// every folder registered with [`TempDirGuard`]. Meant for a program's interrupt handler
/// (Ctrl-C, SIGTERM), just before it exits; calling it at any other time kills the runs in
/// progress, which then end as if stopped at their time limit.
pub fn kill_running() {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut reg = registry();
    for &g in &reg.groups {
        kill_group(g);
    }
    for d in reg.dirs.drain(..) {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Set by [`kill_running`]: the solvers were killed on purpose, so their deaths are not
/// failures to report.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `true` once [`kill_running`] has run (the process is being interrupted).
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Clears the flag [`kill_running`] sets, so that later solves run again. For a front end
/// that survives an interruption (an interactive interpreter, where Ctrl-C stops one call
/// and the session goes on): it calls [`kill_running`] to stop the work in progress, waits
/// for that work to end, then calls this.
pub fn clear_interrupted() {
    INTERRUPTED.store(false, std::sync::atomic::Ordering::SeqCst);
}

/// Registers a temporary folder for removal by [`kill_running`] while the guard lives.
#[derive(Debug)]
pub struct TempDirGuard(PathBuf);

impl TempDirGuard {
    /// Creates a temporary folder (`prefix` then random characters, in the system's temporary
    /// folder) registered while the returned guard lives. The folder itself is removed when
    /// the [`tempfile::TempDir`] is dropped, as usual.
    pub fn create(prefix: &str) -> io::Result<(tempfile::TempDir, TempDirGuard)> {
        // Created under the lock, so an interruption in between still finds it.
        let mut reg = registry();
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        reg.dirs.push(dir.path().to_path_buf());
        let guard = TempDirGuard(dir.path().to_path_buf());
        Ok((dir, guard))
    }

    /// Registers an existing folder.
    pub fn register(path: &Path) -> TempDirGuard {
        registry().dirs.push(path.to_path_buf());
        TempDirGuard(path.to_path_buf())
    }
}

impl Drop for TempDirGuard {
    fn drop(&mut self) {
        registry().dirs.retain(|d| d != &self.0);
    }
}

fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: killpg only sends a signal; a group that no longer exists gives ESRCH.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

/// Bounds of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop the program after this long (`None`: no limit).
    pub timeout: Option<Duration>,
    /// Stop the program once it and its processes have used this much CPU time, user + system
    /// (`None`: no limit; [`super::measure`]).
    pub cpu: Option<Duration>,
    /// Stop the program once it and its processes together hold more than this many bytes of
    /// memory (resident set; `None`: no limit; [`super::measure`]).
    pub memory: Option<u64>,
    /// Most bytes of standard output kept; more is an error ([`ProcessError::OutputTooLarge`]).
    pub stdout_max: usize,
    /// Bytes kept from the end of standard error.
    pub stderr_tail: usize,
    /// How long to wait, once the program has exited or been killed, for whatever it left
    /// behind to close the pipes.
    pub grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: None,
            cpu: None,
            memory: None,
            stdout_max: 64 << 20,
            stderr_tail: 4096,
            grace: Duration::from_millis(500),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The exit status (`None` when it was killed at a limit).
    pub status: Option<ExitStatus>,
    /// The limit that stopped it, if one did.
    pub hit: Option<LimitHit>,
    /// From the start to the exit (or to the kill).
    pub elapsed: Duration,
    /// CPU time and peak memory of the program and its processes ([`super::measure`]).
    pub usage: Usage,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// The end of standard error (at most [`Limits::stderr_tail`] bytes).
    pub stderr_tail: Vec<u8>,
}

impl Finished {
    /// Stopped at a time limit, wall-clock or CPU.
    pub fn timed_out(&self) -> bool {
        matches!(self.hit, Some(LimitHit::Wall | LimitHit::Cpu))
    }

    /// Whether the run ran out of memory: stopped at the memory limit, or, under a memory
    /// limit, ended in failure after holding at least half of it or saying so on standard
    /// error (an allocation the kernel's bound refused).
    pub fn out_of_memory(&self, limit: Option<u64>) -> bool {
        if self.hit == Some(LimitHit::Memory) {
            return true;
        }
        let Some(limit) = limit else {
            return false;
        };
        if self.timed_out() || self.status.is_some_and(|s| s.success()) {
            return false;
        }
        let tail = String::from_utf8_lossy(&self.stderr_tail).to_ascii_lowercase();
        self.usage.max_rss >= limit / 2
            || ["memory", "bad_alloc", "alloc"]
                .iter()
                .any(|w| tail.contains(w))
    }

    /// The last non-empty line of standard error, with control characters escaped.
    pub fn stderr_last_line(&self) -> Option<String> {
        String::from_utf8_lossy(&self.stderr_tail)
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(|l| escape(l, 200))
    }
}

/// Why a program could not be run to the end.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    /// It could not be started.
    #[error("cannot run '{program}'{}", spawn_hint(.source))]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It printed more than [`Limits::stdout_max`] bytes and was stopped.
    #[error("'{program}' was stopped: solver output exceeds {limit} bytes")]
    OutputTooLarge {
        /// The program.
        program: String,
        /// The bound.
        limit: usize,
    },
    /// Waiting for it failed.
    #[error("waiting for '{program}' failed")]
    Wait {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// The error's cause goes with it as its source; a missing program gets a hint.
fn spawn_hint(e: &io::Error) -> &'static str {
    if e.kind() == io::ErrorKind::NotFound {
        " (not found: is it installed and on PATH?)"
    } else {
        ""
    }
}

/// An error and its causes, joined by ": ".
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

pub use crate::input::escape;

enum Event {
    /// The first process exited (it is still a zombie, not reaped).
    Exited(Instant),
    /// A pipe reached its end.
    Eof,
    /// Standard output went over its bound.
    Overflow,
}

/// Reads `pipe` into `buf`, keeping at most `max` bytes: the first ones (`keep_tail` false,
/// then more is an overflow) or the last ones (`keep_tail` true).
fn read_pipe(
    mut pipe: impl Read,
    buf: Arc<Mutex<Vec<u8>>>,
    max: usize,
    keep_tail: bool,
    stop: Arc<AtomicBool>,
    tx: mpsc::Sender<Event>,
) {
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(k) => {
                let mut b = buf.lock().unwrap_or_else(|e| e.into_inner());
                if keep_tail {
                    b.extend_from_slice(&chunk[..k]);
                    if b.len() > max {
                        let cut = b.len() - max;
                        b.drain(..cut);
                    }
                } else if b.len() + k > max {
                    drop(b);
                    let _ = tx.send(Event::Overflow);
                    return;
                } else {
                    b.extend_from_slice(&chunk[..k]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Waits until `pid` has exited without reaping it, so that its process group id cannot be
/// reused while the group is killed.
fn wait_exit_no_reap(pid: i32) -> io::Result<()> {
    loop {
        // SAFETY: a zeroed siginfo_t is a valid output buffer for waitid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Runs `cmd` (labelled `program` in errors) within `limits` and returns how it ended. The
/// command gets a null stdin, piped stdout and stderr and its own process group; whatever is
/// left of that group after the first process exits is killed.
pub fn run_bounded(
    mut cmd: Command,
    program: &str,
    limits: &Limits,
) -> Result<Finished, ProcessError> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let rlimits = measure::rlimits(limits.cpu, limits.memory);
    if !rlimits.is_empty() {
        // SAFETY: the closure only calls setrlimit, which is safe between fork and exec.
        unsafe {
            cmd.pre_exec(move || measure::apply_rlimits(&rlimits));
        }
    }
    let start;
    let mut child: Child;
    {
        // Spawned and registered under the lock: an interrupt handler calling kill_running
        // waits for the registration and then finds the group.
        let mut reg = registry();
        start = Instant::now();
        child = cmd.spawn().map_err(|source| ProcessError::Spawn {
            program: program.to_string(),
            source,
        })?;
        reg.groups.push(child.id() as i32);
    }
    let pgid = child.id() as i32;
    let result = supervise(&mut child, pgid, start, program, limits);
    kill_group(pgid);
    let reaped = reap(pgid);
    registry().groups.retain(|&g| g != pgid);
    let mut fin = result?;
    match reaped {
        Ok((status, usage)) => {
            fin.usage = fin.usage.max(usage);
            if fin.hit.is_none() && cpu_limit_struck(&status, &fin.usage, limits) {
                fin.hit = Some(LimitHit::Cpu);
            }
            if fin.hit.is_none() {
                fin.status = Some(status);
            }
        }
        Err(source) => {
            return Err(ProcessError::Wait {
                program: program.to_string(),
                source,
            })
        }
    }
    Ok(fin)
}

/// Whether the CPU limit ended a run that the sampler saw end on its own: the kernel's bound
/// struck first (the program died of SIGXCPU, or of SIGKILL at the hard bound), or the
/// kernel's final account reaches the limit (the last interval between samples), as BenchExec
/// counts a run past its CPU time as a time-out whatever it printed.
fn cpu_limit_struck(status: &ExitStatus, usage: &Usage, limits: &Limits) -> bool {
    use std::os::unix::process::ExitStatusExt;
    let Some(cpu) = limits.cpu else {
        return false;
    };
    matches!(status.signal(), Some(libc::SIGXCPU))
        || (status.signal() == Some(libc::SIGKILL) && usage.cpu + Duration::from_secs(2) >= cpu)
        || usage.cpu >= cpu
}

/// Reaps the child `pid`: its exit status and the kernel's account of its cost (it and the
/// descendants it waited for).
fn reap(pid: i32) -> io::Result<(ExitStatus, Usage)> {
    use std::os::unix::process::ExitStatusExt;
    loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid output buffer for wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, writing into the two buffers above.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((ExitStatus::from_raw(status), measure::rusage_usage(&usage)));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn supervise(
    child: &mut Child,
    pgid: i32,
    start: Instant,
    program: &str,
    limits: &Limits,
) -> Result<Finished, ProcessError> {
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let out_buf = Arc::new(Mutex::new(Vec::new()));
    let err_buf = Arc::new(Mutex::new(Vec::new()));
    let mut pipes = 0;
    if let Some(p) = child.stdout.take() {
        let (b, s, t, max) = (out_buf.clone(), stop.clone(), tx.clone(), limits.stdout_max);
        std::thread::spawn(move || read_pipe(p, b, max, false, s, t));
        pipes += 1;
    }
    if let Some(p) = child.stderr.take() {
        let (b, s, t, max) = (
            err_buf.clone(),
            stop.clone(),
            tx.clone(),
            limits.stderr_tail,
        );
        std::thread::spawn(move || read_pipe(p, b, max, true, s, t));
        pipes += 1;
    }
    {
        let t = tx.clone();
        let pid = pgid;
        std::thread::spawn(move || {
            let _ = wait_exit_no_reap(pid);
            let _ = t.send(Event::Exited(Instant::now()));
        });
    }
    drop(tx);
    let mut deadline = limits.timeout.and_then(|t| start.checked_add(t));
    let mut hit = None;
    let mut overflow = false;
    let mut eofs = 0;
    // The group is sampled at 10 ms, then less and less often, at least every 100 ms.
    let mut sampler = Sampler::new(pgid);
    let mut every = Duration::from_millis(10);
    let mut next_sample = start + every;
    let exited_at = loop {
        let wake = match deadline {
            Some(d) if hit.is_none() => d.min(next_sample),
            _ => next_sample,
        };
        match rx.recv_timeout(wake.saturating_duration_since(Instant::now())) {
            Ok(Event::Exited(at)) => break at,
            Ok(Event::Eof) => eofs += 1,
            Ok(Event::Overflow) => {
                overflow = true;
                kill_group(pgid);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                if hit.is_none() && deadline.is_some_and(|d| now >= d) {
                    hit = Some(LimitHit::Wall);
                    deadline = None;
                    kill_group(pgid);
                }
                if now >= next_sample {
                    let usage = sampler.sample();
                    if hit.is_none() {
                        if limits.cpu.is_some_and(|c| usage.cpu >= c) {
                            hit = Some(LimitHit::Cpu);
                            kill_group(pgid);
                        } else if limits.memory.is_some_and(|m| usage.max_rss > m) {
                            hit = Some(LimitHit::Memory);
                            kill_group(pgid);
                        }
                    }
                    every = (every * 3 / 2).min(Duration::from_millis(100));
                    next_sample = now + every;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break Instant::now(),
        }
    };
    // The last look at the group before it is reaped: the exited program is still there (not
    // reaped), with every second of CPU it used.
    sampler.sample();
    let elapsed = exited_at.duration_since(start);
    // The pipes may still be held by processes the program left behind: wait a little, kill
    // them, wait a little more, then stop reading.
    for round in 0..2 {
        let until = Instant::now() + limits.grace;
        while eofs < pipes {
            match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(Event::Eof) => eofs += 1,
                Ok(Event::Overflow) => overflow = true,
                Ok(Event::Exited(_)) => {}
                Err(_) => break,
            }
        }
        if eofs == pipes {
            break;
        }
        if round == 0 {
            kill_group(pgid);
        }
    }
    stop.store(true, Ordering::Relaxed);
    if overflow {
        return Err(ProcessError::OutputTooLarge {
            program: program.to_string(),
            limit: limits.stdout_max,
        });
    }
    let take =
        |b: &Arc<Mutex<Vec<u8>>>| std::mem::take(&mut *b.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Finished {
        status: None,
        hit,
        elapsed,
        usage: sampler.last,
        stdout: take(&out_buf),
        stderr_tail: take(&err_buf),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    /// `script` run by `sh` within `limits`.
    fn run_sh(script: &str, limits: &Limits) -> Finished {
        run_bounded(sh(script), "sh", limits).unwrap()
    }

    #[test]
    fn captures_output_and_status() {
        let f = run_sh("echo out; echo err >&2; exit 3", &Limits::default());
        assert_eq!(f.stdout, b"out\n");
        assert_eq!(f.stderr_last_line().as_deref(), Some("err"));
        assert_eq!(f.status.and_then(|s| s.code()), Some(3));
        assert!(!f.timed_out());
    }

    /// A program that the kernel's CPU bound ends (SIGXCPU) before the sampler sees the limit
    /// is a time-out under a CPU limit, and a failure by a signal without one.
    #[test]
    fn a_kernel_cpu_signal_is_the_cpu_limit() {
        let limits = Limits {
            cpu: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let f = run_sh("kill -XCPU $$", &limits);
        assert_eq!(f.hit, Some(LimitHit::Cpu), "{f:?}");
        assert!(f.timed_out());
        let f = run_sh("kill -XCPU $$", &Limits::default());
        assert!(!f.timed_out(), "{f:?}");
        assert!(f.status.is_some_and(|s| !s.success()), "{f:?}");
    }

    #[test]
    fn stops_at_the_time_limit() {
        let limits = Limits {
            timeout: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let t = Instant::now();
        let f = run_sh("sleep 30 & sleep 30; wait", &limits);
        assert!(f.timed_out());
        assert!(t.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn stops_the_group_at_the_cpu_limit_and_measures_its_cpu() {
        // Two busy loops in two processes: the group's sum reaches the limit when neither
        // process alone has (the kernel's per-process bound is a second later).
        let limits = Limits {
            timeout: Some(Duration::from_secs(120)),
            cpu: Some(Duration::from_millis(600)),
            ..Limits::default()
        };
        let f = run_sh("while :; do :; done & while :; do :; done & wait", &limits);
        assert_eq!(f.hit, Some(LimitHit::Cpu), "{f:?}");
        assert!(f.timed_out());
        assert!(f.usage.cpu >= Duration::from_millis(600), "{:?}", f.usage);
        assert!(f.usage.cpu < Duration::from_secs(60), "{:?}", f.usage);
    }

    #[test]
    fn stops_the_group_at_the_memory_limit() {
        // tail keeps the one endless line of /dev/zero in memory.
        let limit = 64 << 20;
        let limits = Limits {
            timeout: Some(Duration::from_secs(120)),
            memory: Some(limit),
            ..Limits::default()
        };
        let f = run_sh("tail /dev/zero", &limits);
        assert!(f.out_of_memory(Some(limit)), "{f:?}");
        assert!(!f.timed_out());
        assert!(!f.status.is_some_and(|s| s.success()), "{f:?}");
        // Without the limit in mind, the same run is not called out of memory unless the
        // sampler stopped it.
        assert_eq!(f.out_of_memory(None), f.hit == Some(LimitHit::Memory));
    }

    #[test]
    fn measures_memory_and_cpu_of_a_finished_run() {
        // 32 MiB held by a shell variable, then a second of busy loop in a child process.
        let f = run_sh(
            "x=$(head -c 33554432 /dev/zero | tr '\\0' a); sh -c 'end=$(($(date +%s)+1)); while [ $(date +%s) -lt $end ]; do :; done'; echo ${#x}",
            &Limits::default(),
        );
        assert_eq!(f.stdout, b"33554432\n");
        assert_eq!(f.hit, None);
        assert!(f.usage.max_rss >= 32 << 20, "{:?}", f.usage);
        assert!(f.usage.cpu > Duration::ZERO, "{:?}", f.usage);
        assert!(!f.out_of_memory(Some(1 << 40)));
    }

    #[test]
    fn bounds_the_output() {
        let limits = Limits {
            stdout_max: 1 << 20,
            ..Limits::default()
        };
        let e = run_bounded(sh("yes"), "yes", &limits).unwrap_err();
        assert!(e.to_string().contains("exceeds 1048576 bytes"), "{e}");
    }

    #[test]
    fn keeps_the_tail_of_stderr() {
        let limits = Limits {
            stderr_tail: 10,
            ..Limits::default()
        };
        let f = run_sh("seq 1 100000 >&2", &limits);
        assert_eq!(f.stderr_tail.len(), 10);
        assert_eq!(f.stderr_last_line().as_deref(), Some("100000"));
    }

    #[test]
    fn escapes_control_characters() {
        assert_eq!(escape("a\u{1b}[31mb\n", 100), "a\\u{1b}[31mb\\n");
        assert_eq!(escape("abcdef", 3), "abc...");
    }
}
