//! A path opened to be read, never waiting in `open` and never reading
//! what has no end: a device or a socket is refused unopened, and so is a
//! loop of links. A FIFO is read when a program writes to it (a pipe,
//! `/dev/stdin`, `<(…)`: every command reads its file once for that), and
//! refused when none does, rather than waited on for ever; among many
//! files (a sweep's), only regular files are read at all.
//!
//! What the path names is told twice: by its metadata (links followed)
//! before it is opened, and by the file opened, in case the path was
//! changed in between. The file is opened with `O_NONBLOCK`, with which
//! open(2) of a FIFO returns at once (fifo(7)); the flag is taken off
//! again once the file is known, so that reading waits for what a writer
//! has still to write.

use std::fs::{File, Metadata};
use std::io::{Chain, Cursor, Read};
use std::path::Path;

use super::Unopened;

/// A file opened to be read: the bytes a FIFO's first read gave, then the
/// rest of it.
pub type Input = Chain<Cursor<Vec<u8>>, File>;

/// Why a path was not opened.
#[derive(Debug)]
pub enum Unopenable {
    Refused(Unopened),
    Failed(std::io::Error),
}

impl From<std::io::Error> for Unopenable {
    fn from(error: std::io::Error) -> Self {
        if is_link_loop(&error) {
            Unopenable::Refused(Unopened::LinkLoop)
        } else {
            Unopenable::Failed(error)
        }
    }
}

/// Opens `path` to be read, with what it says of itself; `files_only`
/// refuses a FIFO too.
pub fn open_input(path: &Path, files_only: bool) -> Result<(Input, Metadata), Unopenable> {
    refuse(&std::fs::metadata(path)?, files_only)?;
    let file = open_unblocked(path)?;
    let metadata = file.metadata()?;
    refuse(&metadata, files_only)?;
    let first = first_of_fifo(&file, &metadata)?;
    set_blocking(&file)?;
    Ok((Cursor::new(first).chain(file), metadata))
}

fn refuse(metadata: &Metadata, files_only: bool) -> Result<(), Unopenable> {
    match refused(metadata, files_only) {
        Some(why) => Err(Unopenable::Refused(why)),
        None => Ok(()),
    }
}

#[cfg(unix)]
fn refused(metadata: &Metadata, files_only: bool) -> Option<Unopened> {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_char_device() || kind.is_block_device() {
        Some(Unopened::Device)
    } else if kind.is_socket() {
        Some(Unopened::Socket)
    } else if kind.is_fifo() && files_only {
        Some(Unopened::Fifo)
    } else {
        None
    }
}

#[cfg(unix)]
fn open_unblocked(path: &Path) -> std::io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    Ok(File::from(rustix::fs::open(path, flags, Mode::empty())?))
}

#[cfg(unix)]
fn set_blocking(file: &File) -> std::io::Result<()> {
    use rustix::fs::OFlags;
    let flags = rustix::fs::fcntl_getfl(file)?;
    Ok(rustix::fs::fcntl_setfl(file, flags - OFlags::NONBLOCK)?)
}

/// A FIFO's first bytes, read without waiting: none yet (a writer has it
/// open, and has still to write), or nothing at all, which is the end a
/// FIFO gives when no program has it open to write (pipe(7)): refused.
#[cfg(unix)]
fn first_of_fifo(mut file: &File, metadata: &Metadata) -> Result<Vec<u8>, Unopenable> {
    use std::os::unix::fs::FileTypeExt;
    if !metadata.file_type().is_fifo() {
        return Ok(Vec::new());
    }
    // What one read of a pipe gives at most: its usual capacity on Linux.
    let mut first = vec![0; 1 << 16];
    match file.read(&mut first) {
        Ok(0) => Err(Unopenable::Refused(Unopened::FifoWithoutWriter)),
        Ok(got) => {
            first.truncate(got);
            Ok(first)
        }
        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => Ok(Vec::new()),
        Err(error) => Err(Unopenable::Failed(error)),
    }
}

#[cfg(unix)]
fn is_link_loop(error: &std::io::Error) -> bool {
    error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
}

#[cfg(not(unix))]
fn refused(_: &Metadata, _: bool) -> Option<Unopened> {
    None
}

#[cfg(not(unix))]
fn open_unblocked(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(not(unix))]
fn set_blocking(_: &File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
fn first_of_fifo(_: &File, _: &Metadata) -> Result<Vec<u8>, Unopenable> {
    Ok(Vec::new())
}

#[cfg(not(unix))]
fn is_link_loop(_: &std::io::Error) -> bool {
    false
}
