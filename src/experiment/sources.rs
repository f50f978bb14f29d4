//! Where the instances of a sweep come from as researchers keep them: single files, folders of
//! instance files, and lists of files ([`InstanceSource`], [`expand`]).
//!
//! A folder gives the files directly in it (not those of its subfolders) whose extension is
//! one of [`EXTENSIONS`], sorted by name; hidden files, subfolders and files of other
//! extensions are skipped and counted. A list gives one path a line, relative to the list's
//! folder; blank lines and lines starting with `#` are skipped, and a line may name a folder.

use std::path::{Path, PathBuf};

/// The extensions of the files a folder gives (without regard to case): queens-sat instance
/// files (`.txt`), the literature's parameter files (`.param`), DIMACS CNF (`.cnf`) and OPB
/// (`.opb`) formulas.
pub const EXTENSIONS: [&str; 4] = ["txt", "param", "cnf", "opb"];

/// The largest list of instance files read: 16 MiB.
pub const MAX_LIST_BYTES: u64 = 16 << 20;

/// A place the instances of a sweep are named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstanceSource {
    /// An instance file, or a folder: the instance files in it.
    Path(PathBuf),
    /// A file that lists instance files (or folders), one path a line.
    List(PathBuf),
}

/// Why the instance files of a source cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// A folder without instance files.
    #[error("the folder {} holds no instance files (files ending in .{})", .0.display(), EXTENSIONS.join(", ."))]
    EmptyFolder(PathBuf),
    /// A folder that cannot be read.
    #[error("cannot read the folder {}: {source}", .path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A list that cannot be read (its message names the list).
    #[error(transparent)]
    List(crate::input::ReadError),
    /// A list without a path.
    #[error("the list of instances {} names no file", .0.display())]
    EmptyList(PathBuf),
    /// A line of a list names nothing there.
    #[error("{}, line {line}: {} does not exist", .list.display(), .path.display())]
    Missing {
        /// The list.
        list: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The path it names (relative to the list's folder).
        path: PathBuf,
    },
}

/// The instance files of a folder, and how many of its entries were skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folder {
    /// The folder.
    pub path: PathBuf,
    /// Its instance files, sorted by name.
    pub files: Vec<PathBuf>,
    /// Entries skipped: hidden ones, subfolders, files of other extensions.
    pub skipped: usize,
}

/// The instance files of `sources`, in order (a folder's sorted by name), and the folders
/// they came from (to say what was skipped). A path that is not a folder is taken as a file
/// as it is (its reader reports a missing one); a list's paths must exist.
pub fn expand(sources: &[InstanceSource]) -> Result<(Vec<PathBuf>, Vec<Folder>), SourceError> {
    let mut files = Vec::new();
    let mut folders = Vec::new();
    let mut take = |path: PathBuf, files: &mut Vec<PathBuf>| -> Result<(), SourceError> {
        if path.is_dir() {
            let folder = folder(&path)?;
            files.extend(folder.files.iter().cloned());
            folders.push(folder);
        } else {
            files.push(path);
        }
        Ok(())
    };
    for source in sources {
        match source {
            InstanceSource::Path(path) => take(path.clone(), &mut files)?,
            InstanceSource::List(list) => {
                for path in list_paths(list)? {
                    take(path, &mut files)?;
                }
            }
        }
    }
    Ok((files, folders))
}

/// The instance files directly in `path` (see the module documentation).
pub fn folder(path: &Path) -> Result<Folder, SourceError> {
    let unreadable = |source| SourceError::Folder {
        path: path.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    let mut skipped = 0;
    for entry in std::fs::read_dir(path).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let extension = Path::new(&*name)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let taken = !name.starts_with('.')
            && extension.is_some_and(|e| EXTENSIONS.contains(&e.as_str()))
            && entry.path().is_file();
        if taken {
            files.push(entry.path());
        } else {
            skipped += 1;
        }
    }
    if files.is_empty() {
        return Err(SourceError::EmptyFolder(path.to_path_buf()));
    }
    files.sort();
    Ok(Folder {
        path: path.to_path_buf(),
        files,
        skipped,
    })
}

/// The paths a list names, each relative to the list's folder (see the module documentation);
/// each must exist.
pub fn list_paths(list: &Path) -> Result<Vec<PathBuf>, SourceError> {
    let text = crate::input::read_text_file(list, MAX_LIST_BYTES, "list of instances")
        .map_err(SourceError::List)?;
    let base = list.parent().unwrap_or(Path::new(""));
    let mut paths = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let path = base.join(line);
        if !path.exists() {
            return Err(SourceError::Missing {
                list: list.to_path_buf(),
                line: i + 1,
                path: PathBuf::from(line),
            });
        }
        paths.push(path);
    }
    if paths.is_empty() {
        return Err(SourceError::EmptyList(list.to_path_buf()));
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_lists() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "b.param",
            "a.CNF",
            "c.opb",
            "d.txt",
            "notes.md",
            ".hidden.cnf",
        ] {
            std::fs::write(d.join(f), "").unwrap();
        }
        std::fs::create_dir(d.join("sub.cnf")).unwrap();
        let f = folder(d).unwrap();
        let names: Vec<_> = f.files.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["a.CNF", "b.param", "c.opb", "d.txt"]);
        assert_eq!(f.skipped, 3);

        std::fs::create_dir(d.join("lists")).unwrap();
        let list = d.join("lists/set.txt");
        std::fs::write(&list, "# two files\n\n../b.param\n  ../c.opb  \n").unwrap();
        let (files, folders) = expand(&[
            InstanceSource::List(list.clone()),
            InstanceSource::Path(d.join("x.txt")),
        ])
        .unwrap();
        assert_eq!(
            files,
            [
                d.join("lists/../b.param"),
                d.join("lists/../c.opb"),
                d.join("x.txt")
            ]
        );
        assert!(folders.is_empty());

        std::fs::write(&list, "../b.param\n../none.cnf\n").unwrap();
        let e = list_paths(&list).unwrap_err().to_string();
        assert!(
            e.ends_with("set.txt, line 2: ../none.cnf does not exist"),
            "{e}"
        );
        std::fs::write(&list, "# nothing\n").unwrap();
        let e = list_paths(&list).unwrap_err().to_string();
        assert!(e.ends_with("set.txt names no file"), "{e}");
        let e = list_paths(&d.join("none.txt")).unwrap_err().to_string();
        assert!(e.starts_with("cannot open list of instances"), "{e}");
        let empty = d.join("empty");
        std::fs::create_dir(&empty).unwrap();
        let e = folder(&empty).unwrap_err().to_string();
        assert!(
            e.ends_with("empty holds no instance files (files ending in .txt, .param, .cnf, .opb)"),
            "{e}"
        );
    }
}
