//! Where an output goes: stdout, or a file, replaced only once the output is complete. Every
//! `-o FILE` of the command line (and `compare --json`, `--plot`) goes through
//! [`write_output`]; a proof (`solve --proof FILE`), which a solver writes by path and which is
//! checked before it takes FILE's place, goes through [`Staged`]. Both resolve the target and
//! stage the file the same way.
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
//!   `/dev/full`'s "no space left", are reported. A FIFO waits for its reader, as with `>`. A
//!   proof is made in a private temporary file first (the solver needs a file it can write by
//!   path, the checker one it can read again) and copied into the node once complete.
//! * a directory: refused.
//!
//! The temporary files being written are registered: a program's interrupt handler (Ctrl-C,
//! SIGTERM; see [`crate::interrupt`]) removes them with [`abandon_pending`], and the target is
//! never touched. A process killed outright (SIGKILL, power loss) cannot clean up: the next run
//! writing the same target removes such leftovers, i.e. files of exactly that name pattern, for
//! that target, owned by the same user, whose process is gone.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary files being written now, with their targets as named by the user, removed by
/// [`abandon_pending`].
static PENDING: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<(PathBuf, PathBuf)>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file being written now and calls `removed` with the target (as
/// named) of each one removed. Meant for a program's interrupt handler, just before it exits:
/// the registry stays locked from then on, so no new temporary file is made (a thread that
/// tries waits for the exit).
pub fn abandon_pending(mut removed: impl FnMut(&Path)) {
    let files = pending();
    for (tmp, target) in files.iter() {
        if fs::remove_file(tmp).is_ok() {
            removed(target);
        }
    }
    std::mem::forget(files);
}

/// Why an output could not be written. Each names the target as given.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The target cannot take the output (a folder, a missing folder, no permission, ...).
    #[error("cannot write {}: {why}", .path.display())]
    Target {
        /// The target as given.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// No file can be made in the target's folder (which exists): no permission, a read-only
    /// file system, a folder such as `/proc` that takes no new files.
    #[error("cannot create {}: {why}", .path.display())]
    Create {
        /// The target as given.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The target is one of the run's input files, which writing it would replace.
    #[error("cannot write {}: it is the input file {}, which the output would replace", .path.display(), .input.display())]
    IsInput {
        /// The target as given.
        path: PathBuf,
        /// The input file as given.
        input: PathBuf,
    },
    /// The target cannot take a proof.
    #[error("cannot write the proof to {}: {why}", .path.display())]
    ProofTarget {
        /// The target as given.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// Writing the output failed (the target is left as it was).
    #[error("writing {}", .path.display())]
    Write {
        /// The target as given.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Writing to standard output failed (a broken pipe: the reader went away).
    #[error("{0}")]
    Stdout(#[source] io::Error),
    /// No private temporary file could be made for a proof.
    #[error("cannot make a temporary file for the proof: {0}")]
    ProofTemp(#[source] io::Error),
}

impl OutputError {
    /// The error of the write that failed, if a write failed.
    pub fn io(&self) -> Option<&io::Error> {
        match self {
            OutputError::Write { source, .. }
            | OutputError::Stdout(source)
            | OutputError::ProofTemp(source) => Some(source),
            _ => None,
        }
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
    /// Creates the temporary file for `name` in `dir` and registers it, after telling the
    /// program that there is something to clean up on interruption
    /// ([`crate::interrupt::cleanup_needed`]). The registry stays locked from before the file
    /// exists until it is registered, so an interruption in between still finds and removes it.
    fn create(dir: &Path, name: &OsStr, target: &Path) -> io::Result<(File, Pending)> {
        crate::interrupt::cleanup_needed();
        let mut files = pending();
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

    /// Creates a private temporary file (`queens-sat-proof-*.drat` in the system's temporary
    /// folder) and registers it, as [`Pending::create`] does, for `target` (the file itself
    /// when `None`).
    fn private(target: Option<&Path>) -> io::Result<(File, Pending)> {
        crate::interrupt::cleanup_needed();
        let mut files = pending();
        let (file, path) = tempfile::Builder::new()
            .prefix("queens-sat-proof-")
            .suffix(".drat")
            .tempfile()?
            .keep()
            .map_err(|e| e.error)?;
        files.push((path.clone(), target.unwrap_or(&path).to_path_buf()));
        Ok((file, Pending { path, done: false }))
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut files = pending();
        if !self.done {
            let _ = fs::remove_file(&self.path);
        }
        files.retain(|(tmp, _)| tmp != &self.path);
    }
}

/// How messages name the target: `cannot write FILE: ...` for outputs, `cannot write the proof
/// to FILE: ...` for proofs (each command keeps its own wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wording {
    Output,
    Proof,
}

impl Wording {
    /// The error `cannot write FILE: {why}` in this wording.
    fn fail(self, shown: &Path, why: impl std::fmt::Display) -> OutputError {
        let (path, why) = (shown.to_path_buf(), why.to_string());
        match self {
            Wording::Output => OutputError::Target { path, why },
            Wording::Proof => OutputError::ProofTarget { path, why },
        }
    }

    /// Why the folder `dir` of a new file cannot take it: it does not exist.
    fn no_folder(self, dir: &Path) -> String {
        match self {
            Wording::Output => format!("folder {} does not exist", dir.display()),
            Wording::Proof => format!("there is no folder {}", dir.display()),
        }
    }
}

/// Why no file could be made in the folder `dir`, which exists (the system's error `e`).
fn cannot_create(dir: &Path, e: &io::Error) -> String {
    let kind = e.kind();
    match kind {
        // A folder that exists but takes no new file (/proc, /sys) says "not found".
        io::ErrorKind::NotFound => format!("{} takes no new files", dir.display()),
        io::ErrorKind::PermissionDenied => format!("no permission to write in {}", dir.display()),
        _ => format!("no file can be made in {}: {kind}", dir.display()),
    }
}

/// What a path given to `-o` turned out to be.
enum Target {
    /// A new file or an existing regular file, replaced by renaming a temporary file beside
    /// it: its real path (links resolved; its folder exists and it has a file name) and, when
    /// it exists, its permissions.
    Replace {
        path: PathBuf,
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
fn resolve(p: &Path, wording: Wording) -> Result<Target, OutputError> {
    let fail = |why: &dyn std::fmt::Display| wording.fail(p, why);
    // The system follows the links first: this also resolves the links of /proc that name no
    // path, such as /dev/stdout when it is a pipe. A device, FIFO or socket is then opened
    // through the path as given.
    match fs::metadata(p) {
        Ok(m) if !m.is_dir() && !m.is_file() => return Ok(Target::Direct(p.to_path_buf())),
        Err(e)
            if e.kind() != io::ErrorKind::NotFound && e.kind() != io::ErrorKind::NotADirectory =>
        {
            return Err(fail(&e));
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
                    return Err(fail(&"too many levels of symbolic links"));
                }
                let to =
                    fs::read_link(&cur).map_err(|e| fail(&format!("cannot read the link: {e}")))?;
                cur = folder_of(&cur).join(to);
            }
            Ok(m) => {
                if m.is_dir() {
                    return Err(fail(&"it is a directory"));
                }
                let real = fs::canonicalize(&cur).map_err(|e| fail(&e))?;
                if !m.is_file() {
                    return Ok(Target::Direct(real));
                }
                if real.parent().is_none() || real.file_name().is_none() {
                    return Err(fail(&"not a file name"));
                }
                return Ok(Target::Replace {
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
                    return Err(fail(&"not a file name"));
                };
                let real_dir = match fs::canonicalize(dir) {
                    Ok(d) if d.is_dir() => d,
                    Ok(_) => return Err(fail(&format!("{} is not a folder", dir.display()))),
                    Err(_) => return Err(fail(&wording.no_folder(dir))),
                };
                return Ok(Target::Replace {
                    path: real_dir.join(name),
                    mode: None,
                });
            }
            Err(e) => return Err(fail(&e)),
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

/// Refuses an output that is one of the run's `inputs`: the same file, by any path or link
/// (the same device and inode), which writing the output would replace. Called before
/// anything is written; standard input and output (`-`), outputs that do not exist yet and
/// what is not a regular file (a device, a FIFO) are not compared.
///
/// ```
/// use queens_sat::output::refuse_input_as_output;
/// let dir = tempfile::tempdir().unwrap();
/// let input = dir.path().join("t6.txt");
/// std::fs::write(&input, "an instance").unwrap();
/// let other = dir.path().join("t6.cnf");
/// assert!(refuse_input_as_output(&[input.as_path()], &[Some(other.as_path())]).is_ok());
/// let e = refuse_input_as_output(&[input.as_path()], &[None, Some(input.as_path())]).unwrap_err();
/// assert!(e.to_string().ends_with("t6.txt, which the output would replace"));
/// ```
pub fn refuse_input_as_output(
    inputs: &[&Path],
    outputs: &[Option<&Path>],
) -> Result<(), OutputError> {
    #[cfg(unix)]
    fn id(p: &Path) -> Option<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        if p.as_os_str() == "-" {
            return None;
        }
        let m = fs::metadata(p).ok().filter(fs::Metadata::is_file)?;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    fn id(p: &Path) -> Option<PathBuf> {
        if p.as_os_str() == "-" {
            return None;
        }
        fs::canonicalize(p).ok().filter(|p| p.is_file())
    }
    let inputs: Vec<_> = inputs.iter().filter_map(|&p| Some((id(p)?, p))).collect();
    for out in outputs.iter().flatten() {
        let Some(target) = id(out) else { continue };
        if let Some((_, input)) = inputs.iter().find(|(i, _)| *i == target) {
            return Err(OutputError::IsInput {
                path: out.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Runs `write` on stdout (when `path` is `None` or `-`) or on the file `path` names (see the
/// module documentation). On failure an existing regular file is left as it was and no
/// temporary file remains.
pub fn write_output<F>(path: Option<&Path>, write: F) -> Result<(), OutputError>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let p = match path {
        None => return write_stdout(write),
        Some(p) if p.as_os_str() == "-" => return write_stdout(write),
        Some(p) => p,
    };
    let writing = writing(p);
    match resolve(p, Wording::Output)? {
        Target::Direct(real) => {
            let file = OpenOptions::new()
                .write(true)
                .open(&real)
                .map_err(|e| Wording::Output.fail(p, e))?;
            let mut w = BufWriter::with_capacity(1 << 16, file);
            write(&mut w).and_then(|_| w.flush()).map_err(writing)?;
            Ok(())
        }
        Target::Replace { path: real, mode } => {
            let (mut file, pending) = stage_beside(p, &real)?;
            let mut w = BufWriter::with_capacity(1 << 16, &mut file);
            write(&mut w).and_then(|_| w.flush()).map_err(writing)?;
            drop(w);
            replace(file, pending, &real, mode, p, Wording::Output)
        }
    }
}

/// The error of a failed write to the target `shown`.
fn writing(shown: &Path) -> impl Fn(io::Error) -> OutputError + '_ {
    move |source| OutputError::Write {
        path: shown.to_path_buf(),
        source,
    }
}

/// [`stage`] in the folder of `real`, a [`Target::Replace`]'s path, for its name.
fn stage_beside(shown: &Path, real: &Path) -> Result<(File, Pending), OutputError> {
    let name = real.file_name().unwrap_or_default();
    stage(shown, folder_of(real), name)
}

/// Makes the temporary file for the target `shown`, named `name` in `dir` (a folder that
/// exists), after removing what killed runs left there.
fn stage(shown: &Path, dir: &Path, name: &OsStr) -> Result<(File, Pending), OutputError> {
    remove_stale(dir, name);
    Pending::create(dir, name, shown).map_err(|e| {
        // The folder as the user named it, unless FILE is a link into another one.
        let link = fs::symlink_metadata(shown).is_ok_and(|m| m.file_type().is_symlink());
        let named = if link { dir } else { folder_of(shown) };
        OutputError::Create {
            path: shown.to_path_buf(),
            why: cannot_create(named, &e),
        }
    })
}

/// Puts the complete temporary file in place of `real` (the target `shown` resolved): its
/// permissions (those of the file it replaces), synced, renamed.
fn replace(
    file: File,
    mut pending: Pending,
    real: &Path,
    mode: Option<fs::Permissions>,
    shown: &Path,
    wording: Wording,
) -> Result<(), OutputError> {
    if let Some(mode) = mode {
        file.set_permissions(mode).map_err(writing(shown))?;
    }
    file.sync_all().map_err(writing(shown))?;
    drop(file);
    fs::rename(&pending.path, real).map_err(|e| wording.fail(shown, e))?;
    pending.done = true;
    Ok(())
}

/// Where a staged file goes once complete.
enum Dest {
    /// Renamed over a new or regular file (its real path and permissions).
    Rename {
        real: PathBuf,
        mode: Option<fs::Permissions>,
    },
    /// Copied into a device, FIFO or socket.
    Copy(PathBuf),
    /// Nowhere: the file is only made (and checked), then removed.
    Nowhere,
}

/// A file written in full (by this process or, by path, by another program) before it takes
/// its target's place, as a proof is: the temporary file of a new or regular target is in the
/// target's folder and renamed over it by [`Staged::commit`]; a device, FIFO or socket gets a
/// private temporary file, copied into it by [`Staged::commit`]; without a target there is
/// only the private temporary file. The temporary file is removed when the value is dropped
/// uncommitted, and by [`abandon_pending`] (on Ctrl-C or SIGTERM).
pub struct Staged {
    file: File,
    pending: Pending,
    dest: Dest,
    /// The target as given.
    target: Option<PathBuf>,
}

impl Staged {
    /// Stages a proof for `path` (or none), refusing at once a target that cannot be written
    /// (`cannot write the proof to FILE: ...`).
    pub fn proof(path: Option<&Path>) -> Result<Staged, OutputError> {
        let private =
            |target: Option<&Path>| Pending::private(target).map_err(OutputError::ProofTemp);
        let Some(p) = path else {
            let (file, pending) = private(None)?;
            return Ok(Staged {
                file,
                pending,
                dest: Dest::Nowhere,
                target: None,
            });
        };
        let (file, pending, dest) = match resolve(p, Wording::Proof)? {
            Target::Direct(real) => {
                let (file, pending) = private(Some(p))?;
                (file, pending, Dest::Copy(real))
            }
            Target::Replace { path: real, mode } => {
                let (file, pending) = stage_beside(p, &real)?;
                (file, pending, Dest::Rename { real, mode })
            }
        };
        Ok(Staged {
            file,
            pending,
            dest,
            target: Some(p.to_path_buf()),
        })
    }

    /// The temporary file's path (for a program that writes it by name).
    pub fn path(&self) -> &Path {
        &self.pending.path
    }

    /// The temporary file, open for writing.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// The temporary file opened again for reading, from its start.
    pub fn reopen(&self) -> io::Result<File> {
        File::open(&self.pending.path)
    }

    /// The bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.file.metadata().map_or(0, |m| m.len())
    }

    /// The target as given, if any.
    pub fn target(&self) -> Option<&Path> {
        self.target.as_deref()
    }

    /// Puts the complete file in its target's place (nothing to do without a target).
    pub fn commit(self) -> Result<(), OutputError> {
        let Staged {
            file,
            pending,
            dest,
            target,
        } = self;
        let Some(shown) = target else {
            return Ok(());
        };
        match dest {
            Dest::Rename { real, mode } => {
                replace(file, pending, &real, mode, &shown, Wording::Proof)
            }
            Dest::Copy(real) => {
                let out = OpenOptions::new()
                    .write(true)
                    .open(&real)
                    .map_err(|e| Wording::Proof.fail(&shown, e))?;
                let writing = writing(&shown);
                let mut from = io::BufReader::new(File::open(&pending.path).map_err(&writing)?);
                let mut w = BufWriter::with_capacity(1 << 16, out);
                io::copy(&mut from, &mut w)
                    .and_then(|_| w.flush())
                    .map_err(writing)?;
                Ok(())
            }
            Dest::Nowhere => Ok(()),
        }
    }
}

/// Set once a write to standard output found its reader gone.
static STDOUT_READER_GONE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Standard output, locked, which remembers when its reader went away (a broken pipe, as in
/// `queens-sat encode 300 | head`): [`stdout_reader_gone`] then says so, and a program can end
/// quietly instead of reporting a failure. Every answer the library writes to standard output
/// goes through it; a program gives it to commands that write to a `Write`.
pub struct Stdout(io::StdoutLock<'static>);

/// Standard output, locked, for one command's answer (see [`Stdout`]).
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

/// `true` once a write to standard output through [`Stdout`] failed because its reader went
/// away: not a failure of the command, which a program may end quietly.
pub fn stdout_reader_gone() -> bool {
    STDOUT_READER_GONE.load(std::sync::atomic::Ordering::Relaxed)
}

impl Stdout {
    fn noted<T>(r: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &r {
            if e.kind() == io::ErrorKind::BrokenPipe {
                STDOUT_READER_GONE.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        r
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Stdout::noted(self.0.write(buf))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        Stdout::noted(self.0.write_all(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        Stdout::noted(self.0.flush())
    }
}

fn write_stdout<F>(write: F) -> Result<(), OutputError>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let mut w = BufWriter::with_capacity(1 << 16, stdout());
    write(&mut w).map_err(OutputError::Stdout)?;
    w.flush().map_err(OutputError::Stdout)?;
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
