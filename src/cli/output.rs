//! Where a command's output goes: stdout, or a file written atomically (a temporary file in
//! the same folder, renamed into place only when everything was written). If the process is
//! interrupted (Ctrl-C, SIGTERM) while such a file is being written, the temporary file is
//! removed and the process exits with status 130; the target file is never touched.

use anyhow::{Context, Result};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The temporary files being written now, with their targets, removed by the interrupt
/// handler.
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
                if std::fs::remove_file(tmp).is_ok() {
                    eprintln!("queens-sat: {} was not written", target.display());
                }
            }
            std::process::exit(INTERRUPTED);
        });
    });
}

/// A temporary file registered for removal on interruption while this guard lives.
struct Pending(PathBuf);

impl Pending {
    /// Creates a temporary file in `dir` for `target` and registers it, the interrupt handler
    /// being installed first. The registry stays locked from before the file exists until it
    /// is registered, so an interruption in between still finds and removes it.
    fn create(dir: &Path, target: &Path) -> io::Result<(tempfile::NamedTempFile, Pending)> {
        install_interrupt_handler();
        let mut files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let tmp = tempfile::Builder::new()
            .prefix(".queens-sat-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        files.push((tmp.path().to_path_buf(), target.to_path_buf()));
        let pending = Pending(tmp.path().to_path_buf());
        Ok((tmp, pending))
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut files = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        files.retain(|(tmp, _)| tmp != &self.0);
    }
}

/// Runs `write` on stdout (when `path` is `None` or `-`) or on a temporary file next to `path`
/// that replaces `path` only if `write` succeeds. On failure no partial file is left behind.
pub fn write_output<F>(path: Option<&Path>, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    match path {
        None => write_stdout(write),
        Some(p) if p.as_os_str() == "-" => write_stdout(write),
        Some(p) => {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if p.is_dir() {
                anyhow::bail!("cannot write {}: it is a directory", p.display());
            }
            if !dir.is_dir() {
                anyhow::bail!(
                    "cannot write {}: folder {} does not exist",
                    p.display(),
                    dir.display()
                );
            }
            let (tmp, _pending) = Pending::create(dir, p).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write {}: {}",
                    p.display(),
                    io::Error::from(e.kind())
                )
            })?;
            let mut w = BufWriter::with_capacity(1 << 16, tmp);
            write(&mut w)
                .and_then(|_| w.flush())
                .with_context(|| format!("writing {}", p.display()))?;
            let tmp = w
                .into_inner()
                .map_err(|e| e.into_error())
                .with_context(|| format!("writing {}", p.display()))?;
            // A temporary file is private (0600); the output gets the usual permissions.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(p)
                    .map(|m| m.permissions().mode())
                    .unwrap_or(0o644);
                tmp.as_file()
                    .set_permissions(std::fs::Permissions::from_mode(mode))
                    .with_context(|| format!("writing {}", p.display()))?;
            }
            tmp.persist(p)
                .map_err(|e| e.error)
                .with_context(|| format!("cannot write {}", p.display()))?;
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
