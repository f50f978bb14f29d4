//! Where a command's output goes: stdout, or a file. Every `-o FILE` (and `compare --json`,
//! `--plot`) goes through [`write_output`].
//!
//! What happens to a file depends on what the path names once symbolic links are followed to
//! the end (a dangling link names the file it points to, created if its folder exists):
//!
//! * nothing yet, or a regular file: the output goes to a temporary file
//!   `.{name}.queens-sat-{pid}.tmp` in the same folder, renamed over the target only when
//!   everything was written and synced. An existing file keeps its permissions, a new one gets
//!   the usual ones (umask). A symbolic link stays a link: the file it points to is replaced.
//! * a device, a FIFO or a socket: opened for writing and written directly, without a temporary
//!   file (a rename would put a regular file in place of the node). Write errors, such as
//!   `/dev/full`'s "no space left", are reported. A FIFO waits for its reader, as with `>`.
//! * a directory: refused.
//!
//! If the process is interrupted (Ctrl-C, SIGTERM) while a temporary file is being written, it is
//! removed and the process exits with status 130; the target is never touched. A process killed
//! outright (SIGKILL, power loss) cannot clean up: the next run writing the same target removes
//! such leftovers, i.e. files of exactly that name pattern, for that target, owned by the same
//! user, whose process is gone.

use anyhow::{anyhow, bail, Context, Result};
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The temporary files being written now, with their targets as named by the user, removed by
/// the interrupt handler.
static PENDING: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// Exit status after an interruption (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// Installs (once) the handler of Ctrl-C and SIGTERM: it kills the external solvers running
/// ([`queens_sat::solve::kill_running`], which also removes their temporary folders), removes
/// the temporary output files, and exits with status 130.
pub fn install_interrupt_handler() {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        // Without a handler (should installing fail) an interruption kills the process as
        // before and may leave the hidden temporary file: nothing worse.
        let _ = ctrlc::set_handler(|| {
            eprintln!("queens-sat: interrupted");
            queens_sat::solve::kill_running();
            let files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
            for (tmp, target) in files.iter() {
                if fs::remove_file(tmp).is_ok() {
                    eprintln!("queens-sat: {} was not written", target.display());
                }
            }
            std::process::exit(INTERRUPTED);
        });
    });
}

/// A temporary file made elsewhere (a proof being written next to its target) registered for
/// removal on interruption while this guard lives. Its removal otherwise is its owner's.
pub struct Registered(PathBuf);

/// Registers `tmp`, to become `target`, for removal on interruption (the handler being
/// installed first).
pub fn register_temp(tmp: &Path, target: &Path) -> Registered {
    install_interrupt_handler();
    let mut files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    files.push((tmp.to_path_buf(), target.to_path_buf()));
    Registered(tmp.to_path_buf())
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        files.retain(|(tmp, _)| tmp != &self.0);
    }
}

/// Symbolic links followed before giving up (the kernel's own limit).
const MAX_LINKS: usize = 40;

/// The middle part of a temporary file's name: `.{name}.queens-sat-{pid}.tmp`.
const TMP_TAG: &str = ".queens-sat-";
const TMP_SUFFIX: &str = ".tmp";

/// The temporary file's name for a target named `name`, written by process `pid`.
fn tmp_name(name: &OsStr, pid: u32) -> OsString {
    let mut s = OsString::from(".");
    s.push(name);
    s.push(format!("{TMP_TAG}{pid}{TMP_SUFFIX}"));
    s
}

/// The pid in `file`, when `file` is exactly a temporary file name for the target `name`.
fn tmp_pid(file: &OsStr, name: &OsStr) -> Option<u32> {
    let file = file.to_str()?;
    let name = name.to_str()?;
    let digits = file
        .strip_prefix('.')?
        .strip_prefix(name)?
        .strip_prefix(TMP_TAG)?
        .strip_suffix(TMP_SUFFIX)?;
    let pid: u32 = digits.parse().ok()?;
    // Only the form this module writes: no sign, no leading zeros, a real process id.
    (pid.to_string() == digits && pid > 0 && pid <= i32::MAX as u32).then_some(pid)
}

/// A temporary file registered for removal on interruption while this guard lives; removed
/// when dropped unless it was renamed into place.
struct Pending {
    path: PathBuf,
    done: bool,
}

impl Pending {
    /// Creates the temporary file for `name` in `dir` and registers it, the interrupt handler
    /// being installed first. The registry stays locked from before the file exists until it
    /// is registered, so an interruption in between still finds and removes it.
    fn create(dir: &Path, name: &OsStr, target: &Path) -> io::Result<(File, Pending)> {
        install_interrupt_handler();
        let mut files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let path = dir.join(tmp_name(name, std::process::id()));
        let open = || OpenOptions::new().write(true).create_new(true).open(&path);
        let file = match open() {
            // This process writes one file per target at a time, so a file with its own pid
            // is left from an earlier process that had the same pid.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                fs::remove_file(&path)?;
                open()?
            }
            other => other?,
        };
        files.push((path.clone(), target.to_path_buf()));
        Ok((file, Pending { path, done: false }))
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        if !self.done {
            let _ = fs::remove_file(&self.path);
        }
        files.retain(|(tmp, _)| tmp != &self.path);
    }
}

/// What a path given to `-o` turned out to be.
enum Target {
    /// A new file or an existing regular file, replaced by renaming a temporary file: its real
    /// path (links resolved), its folder, its name and, when it exists, its permissions.
    Replace {
        path: PathBuf,
        dir: PathBuf,
        name: OsString,
        mode: Option<fs::Permissions>,
    },
    /// A device, FIFO or socket, written in place.
    Direct(PathBuf),
}

/// The folder of `p` (`.` for a bare name).
fn folder_of(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Follows `p` through symbolic links and says how to write what it names.
fn resolve(p: &Path) -> Result<Target> {
    let shown = p.display();
    // The system follows the links first: this also resolves the links of /proc that name no
    // path, such as /dev/stdout when it is a pipe. A device, FIFO or socket is then opened
    // through the path as given.
    match fs::metadata(p) {
        Ok(m) if !m.is_dir() && !m.is_file() => return Ok(Target::Direct(p.to_path_buf())),
        Err(e)
            if e.kind() != io::ErrorKind::NotFound && e.kind() != io::ErrorKind::NotADirectory =>
        {
            bail!("cannot write {shown}: {e}")
        }
        // A directory, a regular file, or nothing (perhaps a dangling link): below.
        _ => {}
    }
    let mut cur = p.to_path_buf();
    let mut links = 0;
    loop {
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                links += 1;
                if links > MAX_LINKS {
                    bail!("cannot write {shown}: too many levels of symbolic links");
                }
                let to = fs::read_link(&cur)
                    .map_err(|e| anyhow!("cannot write {shown}: cannot read the link: {e}"))?;
                cur = folder_of(&cur).join(to);
            }
            Ok(m) => {
                if m.is_dir() {
                    bail!("cannot write {shown}: it is a directory");
                }
                let real =
                    fs::canonicalize(&cur).map_err(|e| anyhow!("cannot write {shown}: {e}"))?;
                if !m.is_file() {
                    return Ok(Target::Direct(real));
                }
                let (Some(dir), Some(name)) = (real.parent(), real.file_name()) else {
                    bail!("cannot write {shown}: not a file name");
                };
                return Ok(Target::Replace {
                    dir: dir.to_path_buf(),
                    name: name.to_os_string(),
                    mode: Some(m.permissions()),
                    path: real,
                });
            }
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    || e.kind() == io::ErrorKind::NotADirectory =>
            {
                // Nothing there: a new file, if its folder exists.
                let dir = folder_of(&cur);
                let Some(name) = cur.file_name().filter(|n| *n != "." && *n != "..") else {
                    bail!("cannot write {shown}: not a file name");
                };
                let real_dir = match fs::canonicalize(dir) {
                    Ok(d) if d.is_dir() => d,
                    Ok(_) => bail!("cannot write {shown}: {} is not a folder", dir.display()),
                    Err(_) => bail!(
                        "cannot write {shown}: folder {} does not exist",
                        dir.display()
                    ),
                };
                return Ok(Target::Replace {
                    path: real_dir.join(name),
                    dir: real_dir,
                    name: name.to_os_string(),
                    mode: None,
                });
            }
            Err(e) => bail!("cannot write {shown}: {e}"),
        }
    }
}

/// Removes the temporary files left in `dir` for the target `name` by processes of this user
/// that no longer run (killed while writing). Anything else is left alone.
fn remove_stale(dir: &Path, name: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.flatten() {
        let Some(pid) = tmp_pid(&entry.file_name(), name) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.is_file() && owned_by_me(&meta) && !process_alive(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn owned_by_me(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    meta.uid() == unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn owned_by_me(_: &fs::Metadata) -> bool {
    false
}

/// `true` unless the system says there is no process `pid` (a process of another user counts
/// as alive).
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists; pid is > 0 (see `tmp_pid`).
    let r = unsafe { libc::kill(pid as libc::pid_t, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(_: u32) -> bool {
    true
}

/// Runs `write` on stdout (when `path` is `None` or `-`) or on the file `path` names (see the
/// module documentation). On failure an existing regular file is left as it was and no
/// temporary file remains.
pub fn write_output<F>(path: Option<&Path>, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let p = match path {
        None => return write_stdout(write),
        Some(p) if p.as_os_str() == "-" => return write_stdout(write),
        Some(p) => p,
    };
    let writing = || format!("writing {}", p.display());
    match resolve(p)? {
        Target::Direct(real) => {
            let file = OpenOptions::new()
                .write(true)
                .open(&real)
                .map_err(|e| anyhow!("cannot write {}: {e}", p.display()))?;
            let mut w = BufWriter::with_capacity(1 << 16, file);
            write(&mut w)
                .and_then(|_| w.flush())
                .with_context(writing)?;
            Ok(())
        }
        Target::Replace {
            path: real,
            dir,
            name,
            mode,
        } => {
            remove_stale(&dir, &name);
            let (file, mut pending) = Pending::create(&dir, &name, p).map_err(|e| {
                anyhow!(
                    "cannot write {}: {}",
                    p.display(),
                    io::Error::from(e.kind())
                )
            })?;
            let mut w = BufWriter::with_capacity(1 << 16, file);
            write(&mut w)
                .and_then(|_| w.flush())
                .with_context(writing)?;
            let file = w
                .into_inner()
                .map_err(|e| e.into_error())
                .with_context(writing)?;
            if let Some(mode) = mode {
                file.set_permissions(mode).with_context(writing)?;
            }
            file.sync_all().with_context(writing)?;
            drop(file);
            fs::rename(&pending.path, &real)
                .map_err(|e| anyhow!("cannot write {}: {e}", p.display()))?;
            pending.done = true;
            Ok(())
        }
    }
}

fn write_stdout<F>(write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let stdout = io::stdout();
    let mut w = BufWriter::with_capacity(1 << 16, stdout.lock());
    write(&mut w)?;
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_recognised_exactly() {
        let name = OsStr::new("q.cnf");
        assert_eq!(
            tmp_name(name, 4321),
            OsString::from(".q.cnf.queens-sat-4321.tmp")
        );
        assert_eq!(
            tmp_pid(OsStr::new(".q.cnf.queens-sat-4321.tmp"), name),
            Some(4321)
        );
        for other in [
            ".q.cnf.queens-sat-4321.tmp~",
            "q.cnf.queens-sat-4321.tmp",
            ".q.cnf.queens-sat-04321.tmp",
            ".q.cnf.queens-sat-+4321.tmp",
            ".q.cnf.queens-sat-0.tmp",
            ".q.cnf.queens-sat-.tmp",
            ".q.cnf.queens-sat-4294967295.tmp",
            ".x.q.cnf.queens-sat-4321.tmp",
            ".q.cnfx.queens-sat-4321.tmp",
        ] {
            assert_eq!(tmp_pid(OsStr::new(other), name), None, "{other}");
        }
    }
}
