//! The one way loopstep writes a file (`-o OUT`, a lesson's note), so that no output ever
//! costs the user a file they had:
//! - a symbolic link is followed, and what it points to is written (the
//!   link stays a link); a link to nothing is written only with `--force`;
//! - a regular file is replaced whole or not at all: the new text goes to
//!   a file no other name can reach, which takes the old file's mode and
//!   owner and is then renamed over it. On Linux that file is anonymous
//!   (`O_TMPFILE`) until it is whole, so even `kill -9` leaves nothing
//!   behind; elsewhere it has a random name and is removed on any error;
//! - a character device or a FIFO (`/dev/null`, `>(gzip)`) is written
//!   through, never replaced; other kinds of file and folders are refused;
//! - nothing that is part of the recording being read is written,
//!   `--force` or not.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::narrate::Refusal;
use crate::transcript::is_part_of;

/// A file a command may write, checked before the recording is read.
pub struct OutputFile {
    /// What the user named, for messages.
    named: PathBuf,
    /// Where the text goes: `named`, its links followed.
    path: PathBuf,
    kind: Kind,
}

enum Kind {
    /// Nothing is there yet.
    New,
    /// A regular file, replaced by one with its mode and owner.
    Replaced(Metadata),
    /// A character device or a FIFO, written into.
    Through,
}

/// How many links are followed before giving up, as Linux does (`ELOOP`).
const MAX_LINKS: usize = 40;

impl OutputFile {
    /// Checks that `output` may be written by a command reading
    /// `recording`: what already exists there is replaced only with
    /// `force`.
    pub fn check(recording: &Path, output: &Path, force: bool) -> Result<Self, Refusal> {
        let shown = output.display().to_string();
        let (path, found, linked) = follow_links(output).map_err(|e| Refusal::CannotLook {
            shown: shown.clone(),
            error: e.to_string(),
        })?;
        if found.as_ref().is_some_and(Metadata::is_dir) {
            return Err(Refusal::Folder { shown });
        }
        if is_part_of(recording, &path) {
            return Err(Refusal::PartOfRecording { shown });
        }
        let kind = match found {
            None if linked && !force => {
                return Err(Refusal::DanglingLink {
                    shown,
                    target: path.display().to_string(),
                });
            }
            None => Kind::New,
            Some(metadata) if metadata.is_file() => {
                if !force {
                    return Err(Refusal::Exists { shown });
                }
                Kind::Replaced(metadata)
            }
            Some(metadata) if writes_through(&metadata) => Kind::Through,
            Some(_) => {
                return Err(Refusal::NotWritable { shown });
            }
        };
        Ok(OutputFile {
            named: output.to_owned(),
            path,
            kind,
        })
    }

    /// The name the user gave.
    pub fn named(&self) -> &Path {
        &self.named
    }

    /// Writes what `fill` writes, whole, or fails leaving what was there.
    pub fn write(&self, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match &self.kind {
            Kind::Through => {
                let mut out = BufWriter::new(OpenOptions::new().write(true).open(&self.path)?);
                fill(&mut out)?;
                out.flush()
            }
            Kind::New => replace(&self.path, None, fill),
            Kind::Replaced(old) => replace(&self.path, Some(old), fill),
        }
    }
}

/// `path` with every symbolic link on it followed (relative links from the
/// folder they are in); what is there, if anything; and whether a link was
/// followed.
fn follow_links(path: &Path) -> io::Result<(PathBuf, Option<Metadata>, bool)> {
    let mut path = path.to_owned();
    for hops in 0..=MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((path, None, hops > 0)),
            Err(e) => return Err(e),
            Ok(metadata) if metadata.is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = path.parent().unwrap_or(Path::new("")).join(target);
            }
            Ok(metadata) => return Ok((path, Some(metadata), hops > 0)),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Character devices (a terminal, `/dev/null`) and FIFOs take what is
/// written to them; replacing one would break it. A block device is a
/// disk: never written.
#[cfg(unix)]
fn writes_through(metadata: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    kind.is_char_device() || kind.is_fifo()
}

#[cfg(not(unix))]
fn writes_through(_: &Metadata) -> bool {
    false
}

/// Writes a new file and puts it at `path` in one rename, with the mode
/// and owner of the file it replaces.
fn replace(
    path: &Path,
    old: Option<&Metadata>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    #[cfg(target_os = "linux")]
    if let Some(file) = anonymous::create(folder)? {
        let file = filled(file, old, fill)?;
        return anonymous::link(&file, folder, path);
    }
    replace_through_named_file(folder, path, old, fill)
}

/// [`replace`] where there are no anonymous files: through a file created
/// exclusively (never through a name planted beforehand) under a random
/// name, and removed when dropped unless renamed.
fn replace_through_named_file(
    folder: &Path,
    path: &Path,
    old: Option<&Metadata>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(folder)?;
    let (file, temporary_path) = temporary.into_parts();
    let file = filled(file, old, fill)?;
    drop(file);
    temporary_path.persist(path).map_err(|e| e.error)
}

/// `file` filled by `fill`, given `old`'s mode and owner, and on disk.
fn filled(
    file: File,
    old: Option<&Metadata>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<File> {
    let mut out = BufWriter::new(file);
    fill(&mut out)?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    if let Some(old) = old {
        file.set_permissions(old.permissions())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            // Root replacing a user's file gives it back to the user; anyone
            // else can only keep their own, which this leaves as it is.
            let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
        }
    }
    // On disk before the rename, so a crash cannot leave an empty file
    // where the old one was.
    file.sync_all()?;
    Ok(file)
}

/// Linux's anonymous files (`open(2)`, `O_TMPFILE`): a file in a folder
/// that has no name until it is linked in.
#[cfg(target_os = "linux")]
mod anonymous {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    use rustix::fs::{AtFlags, CWD, Mode, OFlags};
    use rustix::io::Errno;

    /// An anonymous file in `folder`; `None` where the file system has
    /// none (`EOPNOTSUPP`; `EISDIR` or `EINVAL` from kernels before 3.11).
    pub fn create(folder: &Path) -> io::Result<Option<File>> {
        let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
        match rustix::fs::open(folder, flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => Ok(Some(File::from(fd))),
            Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Gives `file` a fresh name in `folder` (`linkat` through
    /// `/proc/self/fd`, as `open(2)` describes), then renames it to `path`.
    /// `linkat` never reuses a name that exists, so a name planted in the
    /// folder is passed over.
    pub fn link(file: &File, folder: &Path, path: &Path) -> io::Result<()> {
        use std::hash::{BuildHasher, RandomState};
        use std::os::fd::AsRawFd;
        let this = format!("/proc/self/fd/{}", file.as_raw_fd());
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let random = RandomState::new().hash_one(attempt);
            let temporary = folder.join(format!(".{name}.{random:016x}.tmp"));
            match rustix::fs::linkat(CWD, &this, CWD, &temporary, AtFlags::SYMLINK_FOLLOW) {
                Ok(()) => {
                    let renamed = std::fs::rename(&temporary, path);
                    if renamed.is_err() {
                        let _ = std::fs::remove_file(&temporary);
                    }
                    return renamed;
                }
                Err(Errno::EXIST) if attempt < 100 => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn without_anonymous_files_a_named_one_replaces_the_old_and_goes() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.md");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let old = std::fs::metadata(&path).unwrap();
        replace_through_named_file(dir.path(), &path, Some(&old), |out| out.write_all(b"new"))
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);

        let failed = replace_through_named_file(dir.path(), &path, None, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("the disk is full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "the temporary file is gone");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_write_that_fails_leaves_the_old_file_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.md");
        std::fs::write(&path, "old").unwrap();
        let failed = replace(&path, None, |out| {
            out.write_all(&[b'x'; 1 << 20])?;
            Err(io::Error::other("the disk is full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }
}
