//! What a run costs, measured and bounded: CPU time (user + system) and peak memory of a program
//! and every process it starts, as BenchExec and runsolver measure them, for the runs of
//! [`super::process::run_bounded`].
//!
//! * **Sampling.** While the program runs, its process group is read from `/proc` every few
//!   milliseconds (10 ms at first, then less often, at most every 100 ms): the CPU time of each
//!   process (its own and that of the children it has waited for) and its resident set. The
//!   group's CPU time and resident set are the sums over its processes; the peak is the largest
//!   sum seen.
//! * **At the end.** The kernel's own account of the program, from `wait4` (the program and
//!   the descendants it waited for: exact for a program that runs alone), is taken when it is
//!   larger than the last sample.
//! * **Limits.** The kernel bounds each process (`RLIMIT_CPU` one second past the CPU limit,
//!   `RLIMIT_DATA` at one and a half times the memory limit), and the sampler stops the whole
//!   group as soon as its sums pass a limit: so a program that forks cannot escape either
//!   bound, and a run stopped for memory is known as such ([`LimitHit::Memory`]). A run that
//!   ends between two samples with the CPU limit reached, or that the kernel's bound ended
//!   (SIGXCPU), is stopped at the CPU limit too ([`LimitHit::Cpu`]), whatever it printed.
//!
//! Where `/proc` cannot be read (not Linux), only the kernel's account at the end is measured
//! and only the kernel's per-process limits apply.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Which limit stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// The wall-clock time limit.
    Wall,
    /// The CPU time limit.
    Cpu,
    /// The memory limit.
    Memory,
}

/// The cost of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU time, user + system, of the program and its processes.
    pub cpu: Duration,
    /// The largest resident set of the program and its processes together, in bytes.
    pub max_rss: u64,
}

impl Usage {
    /// The larger of each measure.
    pub fn max(self, other: Usage) -> Usage {
        Usage {
            cpu: self.cpu.max(other.cpu),
            max_rss: self.max_rss.max(other.max_rss),
        }
    }
}

/// A memory size as a user gives it: a number with a unit, `512M`, `2G`, `1.5GiB`, `2GB`
/// (`K`, `M`, `G`, `T` and `KiB` ... `TiB` are powers of 1024; `KB` ... `TB` powers of 1000;
/// `B` bytes); a number alone is MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MemorySize(pub u64);

impl MemorySize {
    /// The size in bytes.
    pub fn bytes(self) -> u64 {
        self.0
    }

    /// The size in MiB.
    pub fn mib(self) -> f64 {
        self.0 as f64 / (1u64 << 20) as f64
    }

    /// Reads a size as a user gives it (see [`MemorySize`]).
    pub fn parse(s: &str) -> Result<Self, MemorySizeError> {
        let err = || MemorySizeError(crate::input::escape(s, 40));
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let number: f64 = number.parse().map_err(|_| err())?;
        let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "m" | "mib" => (1u64 << 20) as f64,
            "b" => 1.0,
            "k" | "kib" => 1024.0,
            "g" | "gib" => (1u64 << 30) as f64,
            "t" | "tib" => (1u64 << 40) as f64,
            "kb" => 1e3,
            "mb" => 1e6,
            "gb" => 1e9,
            "tb" => 1e12,
            _ => return Err(err()),
        };
        let bytes = number * scale;
        if !bytes.is_finite() || bytes < (1u64 << 20) as f64 || bytes > u64::MAX as f64 / 2.0 {
            return Err(err());
        }
        Ok(MemorySize(bytes as u64))
    }
}

impl FromStr for MemorySize {
    type Err = MemorySizeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MemorySize::parse(s)
    }
}

/// Why a memory size cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a memory size: give a number and a unit, such as 512M, 2G or 1.5GiB (a number alone is MiB), of at least 1 MiB")]
pub struct MemorySizeError(pub String);

impl fmt::Display for MemorySize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = self.mib();
        if mib >= 1024.0 && (mib / 1024.0).fract() == 0.0 {
            write!(f, "{}GiB", mib / 1024.0)
        } else if mib.fract() == 0.0 {
            write!(f, "{mib}MiB")
        } else {
            write!(f, "{}B", self.0)
        }
    }
}

/// The kernel's per-process bounds for a run with these limits: `(resource, soft, hard)`.
pub(crate) fn rlimits(cpu: Option<Duration>, memory: Option<u64>) -> Vec<(i32, u64, u64)> {
    let mut v = Vec::new();
    if let Some(c) = cpu {
        // The sampler stops the group at the limit; the kernel a second later (SIGXCPU), and
        // for good a second after that (SIGKILL).
        let soft = c.as_secs_f64().ceil() as u64 + 1;
        v.push((libc::RLIMIT_CPU as i32, soft, soft + 1));
    }
    if let Some(m) = memory {
        let data = m.saturating_add(m / 2);
        v.push((libc::RLIMIT_DATA as i32, data, data));
    }
    v
}

/// Applies [`rlimits`] in a child before it runs the program: only `setrlimit`, which is safe
/// between `fork` and `exec`.
pub(crate) fn apply_rlimits(limits: &[(i32, u64, u64)]) -> std::io::Result<()> {
    for &(resource, soft, hard) in limits {
        let r = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: setrlimit reads the struct and changes this process's limits only.
        if unsafe { libc::setrlimit(resource as _, &r) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The kernel's account of a reaped child (and the descendants it waited for).
pub(crate) fn rusage_usage(r: &libc::rusage) -> Usage {
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Usage {
        cpu: tv(r.ru_utime) + tv(r.ru_stime),
        // Linux gives ru_maxrss in KiB.
        max_rss: r.ru_maxrss as u64 * 1024,
    }
}

/// Reads a process group's CPU time and resident set from `/proc`.
pub(crate) struct Sampler {
    pgid: i32,
    tick: f64,
    page: u64,
    /// The sums of the last sample, and the largest resident set seen.
    pub(crate) last: Usage,
    /// `false` once `/proc` could not be read: nothing more is sampled.
    pub(crate) working: bool,
}

impl Sampler {
    /// A sampler of the group `pgid`.
    pub(crate) fn new(pgid: i32) -> Self {
        // SAFETY: sysconf only reads configuration values.
        let (tick, page) = unsafe {
            (
                libc::sysconf(libc::_SC_CLK_TCK),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        Sampler {
            pgid,
            tick: if tick > 0 { tick as f64 } else { 100.0 },
            page: if page > 0 { page as u64 } else { 4096 },
            last: Usage::default(),
            working: cfg!(target_os = "linux"),
        }
    }

    /// Takes a sample: the group's CPU time now and its resident set now (the peak kept in
    /// [`Sampler::last`]).
    pub(crate) fn sample(&mut self) -> Usage {
        if !self.working {
            return self.last;
        }
        let Ok(dir) = std::fs::read_dir("/proc") else {
            self.working = false;
            return self.last;
        };
        let (mut ticks, mut pages) = (0u64, 0u64);
        let mut buf = String::new();
        for entry in dir.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
            else {
                continue;
            };
            buf.clear();
            let path = format!("/proc/{pid}/stat");
            let Ok(mut f) = std::fs::File::open(&path) else {
                continue;
            };
            if std::io::Read::read_to_string(&mut f, &mut buf).is_err() {
                continue;
            }
            if let Some((pgrp, t, rss)) = parse_stat(&buf) {
                if pgrp == self.pgid {
                    ticks += t;
                    pages += rss;
                }
            }
        }
        let now = Usage {
            cpu: Duration::from_secs_f64(ticks as f64 / self.tick),
            max_rss: pages * self.page,
        };
        self.last = Usage {
            cpu: self.last.cpu.max(now.cpu),
            max_rss: self.last.max_rss.max(now.max_rss),
        };
        now
    }
}

/// From a `/proc/PID/stat` line: the process group, the CPU ticks (user, system, and those of
/// waited-for children) and the resident pages.
fn parse_stat(line: &str) -> Option<(i32, u64, u64)> {
    // The command name, in parentheses, may hold spaces: the fields start after the last ')'.
    let rest = &line[line.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|s| s.parse::<u64>().ok());
    let pgrp = f.get(2)?.parse::<i32>().ok()?;
    let ticks = num(11)? + num(12)? + num(13)? + num(14)?;
    let rss = f.get(21)?.parse::<i64>().ok()?.max(0) as u64;
    Some((pgrp, ticks, rss))
}

/// The load average over the last minute (`/proc/loadavg`), where the system gives it.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes() {
        let mib = 1u64 << 20;
        for (text, bytes) in [
            ("512M", 512 * mib),
            ("512", 512 * mib),
            ("2G", 2048 * mib),
            ("1.5GiB", 1536 * mib),
            ("2GB", 2_000_000_000),
            ("1048576B", mib),
            (" 4 g ", 4096 * mib),
        ] {
            assert_eq!(text.parse::<MemorySize>(), Ok(MemorySize(bytes)), "{text}");
        }
        for bad in ["", "G", "-1G", "1X", "0", "1K", "1e9", "nan", "1..2G"] {
            assert!(bad.parse::<MemorySize>().is_err(), "{bad}");
        }
        assert_eq!(MemorySize(2048 * mib).to_string(), "2GiB");
        assert_eq!(MemorySize(512 * mib).to_string(), "512MiB");
    }

    #[test]
    fn stat_lines() {
        let line =
            "42 (a (b) c) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 5 1 20 0 1 0 100 1000 250 ...";
        assert_eq!(parse_stat(line), Some((42, 16, 250)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn this_process_is_sampled() {
        // SAFETY: getpgrp only reads.
        let pgid = unsafe { libc::getpgrp() };
        let mut s = Sampler::new(pgid);
        let u = s.sample();
        if s.working {
            assert!(u.max_rss > 0, "{u:?}");
        }
    }
}
