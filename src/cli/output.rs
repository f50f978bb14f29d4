//! Where a command's output goes: stdout, or a file written atomically (a temporary file in
//! the same folder, renamed into place only when everything was written).

use anyhow::{Context, Result};
use std::io::{self, BufWriter, Write};
use std::path::Path;

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
            let tmp = tempfile::Builder::new()
                .prefix(".queens-sat-")
                .suffix(".tmp")
                .tempfile_in(dir)
                .map_err(|e| {
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
