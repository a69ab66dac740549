//! A file read once: whole, or, when it opens as a Claude Code session,
//! line by line as its lines are imported, so that a session of hundreds
//! of megabytes is never held as text beside the messages made of it.
//! Either way a file over the size limit is refused (a regular file before
//! it is read), and the progress is told as it goes. A session's lines are
//! read ahead on a thread of their own, so the reading (a fifth of the
//! time, most of it the kernel's copy) runs beside the parsing.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};

use serde_json::Value;

use super::input::{Input, Unopenable, open_input};
use super::{Format, LoadError, Opening, Progress};

/// Read this much at a time, to tell the progress as it goes; a file
/// shorter than this is read whole.
const CHUNK: u64 = 1 << 20;

/// A file opened for reading, its size checked against the limit.
pub struct Reading<'p> {
    path: PathBuf,
    file: std::io::Take<Input>,
    max_size: u64,
    progress: Option<&'p Progress>,
    /// The size the file says it has (0 for a pipe).
    size: u64,
    /// The bytes read so far.
    read: u64,
    /// Why reading stopped short, when it read past the size limit.
    refused: Option<LoadError>,
}

/// What a file turned out to be once its first chunk was read.
pub enum Opened<'p> {
    /// Its bytes, all of them.
    Whole(Vec<u8>),
    /// A Claude Code session: the lines its first chunk holds, parsed, and
    /// the rest, to be parsed as it is read.
    Session(Vec<Value>, Box<Rest<'p>>),
}

/// A session past the lines of its first chunk: what that chunk holds
/// after them, the file to read on, and how many lines came before.
pub struct Rest<'p> {
    started: Vec<u8>,
    reading: Reading<'p>,
    lines: usize,
    /// Where `started` begins in the file.
    offset: u64,
}

impl<'p> Reading<'p> {
    /// Opens `path` as `how` says (see [`open_input`]): what cannot be
    /// read to an end is refused unopened.
    pub fn open(path: &Path, how: &Opening<'p>) -> Result<Self, LoadError> {
        let (file, metadata) = open_input(path, how.files_only).map_err(|e| match e {
            Unopenable::Refused(why) => LoadError::Unopened {
                path: path.to_owned(),
                why,
            },
            Unopenable::Failed(e) => read_error(path, e),
        })?;
        // A regular file says its size: one too large is refused unread. A
        // pipe says nothing, and is read up to the limit.
        let size = if metadata.is_file() {
            metadata.len()
        } else {
            0
        };
        if size > how.max_size {
            return Err(too_large(path, how.max_size));
        }
        how.progress.inspect(|p| p.sized(size));
        Ok(Reading {
            path: path.to_owned(),
            file: file.take(how.max_size.saturating_add(1)),
            max_size: how.max_size,
            progress: how.progress,
            size,
            read: 0,
            refused: None,
        })
    }

    /// Reads the first chunk; a file longer than that whose first lines
    /// are a Claude Code session (or, with `from`, are to be read as one)
    /// is left to be read line by line.
    pub fn first_chunk(mut self, from: Option<Format>) -> Result<Opened<'p>, LoadError> {
        // The whole file in one allocation when its size is known. A size
        // that cannot be set aside is refused before a byte is read:
        // growing towards it would fail only once memory ran out.
        let mut bytes = Vec::new();
        let room = usize::try_from(self.size).map_or(usize::MAX, |size| size.saturating_add(1));
        if bytes.try_reserve_exact(room).is_err() {
            return Err(LoadError::NoRoom {
                path: self.path,
                size: self.size,
            });
        }
        self.read_into(&mut bytes, Some(CHUNK))?;
        if (bytes.len() as u64) < CHUNK {
            self.progress.inspect(|p| p.read_all());
            return Ok(Opened::Whole(bytes));
        }
        match session_head(&bytes, from) {
            Some((head, lines, cut)) => {
                let started = bytes.split_off(cut);
                let rest = Rest {
                    started,
                    reading: self,
                    lines,
                    offset: cut as u64,
                };
                Ok(Opened::Session(head, Box::new(rest)))
            }
            None => {
                self.read_into(&mut bytes, None)?;
                self.progress.inspect(|p| p.read_all());
                Ok(Opened::Whole(bytes))
            }
        }
    }

    /// Appends what is left to read (up to `limit` bytes) to `bytes`.
    fn read_into(&mut self, bytes: &mut Vec<u8>, limit: Option<u64>) -> Result<(), LoadError> {
        let start = bytes.len() as u64;
        loop {
            let wanted = limit.map_or(CHUNK, |l| (start + l).saturating_sub(bytes.len() as u64));
            if wanted == 0 {
                break;
            }
            let got = (&mut self.file)
                .take(wanted.min(CHUNK))
                .read_to_end(bytes)
                .map_err(|e| read_error(&self.path, e))?;
            self.count(got)?;
            if got == 0 {
                break;
            }
        }
        Ok(())
    }

    fn count(&mut self, bytes: usize) -> Result<(), LoadError> {
        self.read += bytes as u64;
        if self.read > self.max_size {
            return Err(too_large(&self.path, self.max_size));
        }
        self.progress.inspect(|p| p.read(self.read));
        Ok(())
    }
}

impl Reading<'_> {
    /// Fills `chunk` with the next bytes: a chunk's worth from a file that
    /// says its size; from a pipe, what one read gives, so that a line
    /// written is handed on without waiting for a chunk's worth behind it.
    fn fill(&mut self, chunk: &mut Vec<u8>) -> std::io::Result<usize> {
        if self.size > 0 {
            return self.take(CHUNK).read_to_end(chunk);
        }
        chunk.resize(PIPE_READ, 0);
        let got = self.read(chunk);
        chunk.truncate(*got.as_ref().unwrap_or(&0));
        got
    }
}

/// What one read from a pipe asks for: its usual capacity on Linux.
const PIPE_READ: usize = 1 << 16;

/// The rest of a session once its first chunk was read: the reader's errors
/// come back as I/O errors, as [`FileLines`] reads them.
impl Read for Reading<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let got = self.file.read(buf)?;
        if let Err(refused) = self.count(got) {
            self.refused = Some(refused);
            return Err(std::io::Error::other("past the size limit"));
        }
        if got == 0 {
            self.progress.inspect(|p| p.read_all());
        }
        Ok(got)
    }
}

/// The lines of the first chunk that end in it, parsed, with how many
/// lines that is and where the rest begins; `None` unless they are a
/// session and all of them parse.
fn session_head(bytes: &[u8], from: Option<Format>) -> Option<(Vec<Value>, usize, usize)> {
    let cut = bytes.iter().rposition(|&b| b == b'\n')? + 1;
    let text = std::str::from_utf8(&bytes[..cut]).ok()?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let head: Vec<Value> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .ok()?;
    let lines = text.lines().count();
    super::import::is_session(&head, from).then_some((head, lines, cut))
}

impl<'p> Rest<'p> {
    /// The rest's lines, the file read on a thread of its own a chunk ahead
    /// of the lines taken. The thread is not waited for: lines that stop
    /// early (a line that is no UTF-8) are not held up by a pipe whose
    /// writer has not written more; it ends with the process, or when it
    /// reads on and finds no one taking its chunks. It tells no progress:
    /// the lines do, as they take its chunks.
    pub fn lines(self) -> FileLines<'p> {
        let (full_sender, full) = mpsc::sync_channel(1);
        let (empty, empty_receiver) = mpsc::channel::<Vec<u8>>();
        let path = self.reading.path.clone();
        let progress = self.reading.progress;
        let read_before = self.reading.read;
        let mut reading = Reading {
            progress: None,
            ..self.reading
        };
        std::thread::spawn(move || {
            // Each chunk handed back empty is filled again, until the file
            // ends, fails, or the lines are no longer wanted.
            for mut chunk in empty_receiver {
                chunk.clear();
                let got = reading.fill(&mut chunk);
                let sent = match got {
                    Ok(0) => break,
                    Ok(_) => full_sender.send(Ok(chunk)),
                    Err(error) => {
                        let refused = reading.refused.take();
                        let failure = refused.unwrap_or_else(|| read_error(&reading.path, error));
                        full_sender.send(Err(failure))
                    }
                };
                if sent.is_err() {
                    break;
                }
            }
        });
        // A second chunk to fill while the first is parsed.
        empty.send(Vec::with_capacity(CHUNK as usize)).ok();
        FileLines {
            ahead: ReadAhead {
                chunk: self.started,
                at: 0,
                full,
                empty,
                failure: None,
                progress,
                read: read_before,
            },
            path,
            number: self.lines,
            offset: self.offset,
            failed: None,
        }
    }
}

/// The file's bytes as the reading thread hands them over, chunk by
/// chunk; each chunk goes back to it, emptied, to be filled again, so
/// every allocation stays on the thread that made it.
struct ReadAhead<'p> {
    chunk: Vec<u8>,
    at: usize,
    full: Receiver<Result<Vec<u8>, LoadError>>,
    empty: Sender<Vec<u8>>,
    failure: Option<LoadError>,
    progress: Option<&'p Progress>,
    /// The bytes of the file handed over so far.
    read: u64,
}

impl Read for ReadAhead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let got = self.fill_buf()?.read(buf)?;
        self.consume(got);
        Ok(got)
    }
}

impl BufRead for ReadAhead<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at == self.chunk.len() {
            // The thread is gone once the file is read: nothing to hand back.
            self.empty.send(std::mem::take(&mut self.chunk)).ok();
            self.at = 0;
            match self.full.recv() {
                Ok(Ok(chunk)) => {
                    self.read += chunk.len() as u64;
                    self.progress.inspect(|p| p.read(self.read));
                    self.chunk = chunk;
                }
                Ok(Err(failure)) => {
                    self.failure = Some(failure);
                    return Err(std::io::Error::other("the read failed"));
                }
                // The file ended.
                Err(_) => {
                    self.progress.inspect(|p| p.read_all());
                }
            }
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at += amount;
    }
}

/// A file's lines read one at a time, each with its 0-based number. A read
/// that fails or a line that is no UTF-8 ends the lines, and is kept for
/// [`FileLines::failure`].
pub struct FileLines<'p> {
    ahead: ReadAhead<'p>,
    path: PathBuf,
    number: usize,
    /// Where the next line begins in the file.
    offset: u64,
    failed: Option<LoadError>,
}

impl FileLines<'_> {
    /// Why the lines ended before the file did, if they did.
    pub fn failure(&mut self) -> Option<LoadError> {
        self.failed.take()
    }
}

impl Iterator for FileLines<'_> {
    type Item = (usize, String);

    fn next(&mut self) -> Option<(usize, String)> {
        if self.failed.is_some() {
            return None;
        }
        let mut line = Vec::new();
        let failure = match self.ahead.read_until(b'\n', &mut line) {
            Ok(0) => return None,
            Err(error) => self
                .ahead
                .failure
                .take()
                .unwrap_or_else(|| read_error(&self.path, error)),
            Ok(read) => match String::from_utf8(line).or_else(cut_off_character) {
                Ok(mut text) => {
                    let number = self.number;
                    self.number += 1;
                    self.offset += read as u64;
                    text.truncate(text.trim_end_matches(['\n', '\r']).len());
                    return Some((number, text));
                }
                Err(e) => LoadError::NotUtf8 {
                    path: self.path.clone(),
                    offset: self.offset as usize + e.utf8_error().valid_up_to(),
                },
            },
        };
        self.failed = Some(failure);
        None
    }
}

/// A last line (it ends without a line break), or a whole file, whose
/// last character was cut off, as by a writer killed mid-write: the text
/// without it, to be judged cut short as JSON; any other text that is no
/// UTF-8 stays so.
pub(super) fn cut_off_character(
    error: std::string::FromUtf8Error,
) -> Result<String, std::string::FromUtf8Error> {
    let end = error.utf8_error();
    let last = error.as_bytes().last() != Some(&b'\n');
    if !(last && end.error_len().is_none()) {
        return Err(error);
    }
    let mut bytes = error.into_bytes();
    bytes.truncate(end.valid_up_to());
    String::from_utf8(bytes)
}

fn read_error(path: &Path, source: std::io::Error) -> LoadError {
    LoadError::Read {
        path: path.to_owned(),
        source,
    }
}

fn too_large(path: &Path, max_size: u64) -> LoadError {
    LoadError::TooLarge {
        path: path.to_owned(),
        max_size,
    }
}
