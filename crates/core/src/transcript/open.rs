//! Finding and reading what the user named: a built-in run, a file (read
//! once, refused past its size limit) or a Claude Code project folder.

use std::path::Path;
use std::time::Duration;

use super::file::{Opened, Reading, cut_off_character};
use super::import::lines::JsonLines;

use super::{
    BUILTIN_NAMES, Format, Kind, LoadError, Progress, Source, Transcript, builtin_in, import,
    sessions,
};
use crate::lang::Lang;

/// Fails, naming the built-in runs nearest to it, unless `name_or_path` is
/// a built-in run or an existing path.
pub fn ensure_exists(name_or_path: &str) -> Result<(), LoadError> {
    // A link counts as there even when it leads nowhere: opening it says
    // why (a loop of links, a missing file), in its own words.
    if BUILTIN_NAMES.contains(&name_or_path) || Path::new(name_or_path).symlink_metadata().is_ok() {
        return Ok(());
    }
    Err(LoadError::NotFound {
        name: name_or_path.to_owned(),
        builtins: BUILTIN_NAMES.join(", "),
        nearest: nearest_names(name_or_path, &BUILTIN_NAMES),
    })
}

/// The names in `names` a typo away from `typed`, nearest first: at most
/// three, each within a third of its length in edits.
pub fn nearest_names<'a>(typed: &str, names: &[&'a str]) -> Vec<&'a str> {
    let mut near: Vec<(usize, &'a str)> = names
        .iter()
        .map(|name| (strsim::levenshtein(typed, name), *name))
        .filter(|(edits, name)| *edits <= name.chars().count().div_ceil(3))
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, name)| name).collect()
}

/// Opens a built-in run by name, or else a file in any format loopstep
/// reads (`from` forces one instead of recognising it), in English.
pub fn open(name_or_path: &str, from: Option<Format>) -> Result<Source, LoadError> {
    let how = Opening {
        from,
        ..Opening::default()
    };
    open_in(name_or_path, &how, Lang::En)
}

/// The largest file loopstep reads unless told otherwise: 1 GiB.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

/// How to open a file: in which format, up to what size, where to tell
/// how far the reading has got, and whom to hand the runs read so far.
#[derive(Debug, Clone, Copy)]
pub struct Opening<'a> {
    /// The format to read it as, instead of recognising it.
    pub from: Option<Format>,
    /// Bytes beyond which a file is refused rather than read.
    pub max_size: u64,
    pub progress: Option<&'a Progress>,
    pub early: Option<Early<'a>>,
    /// Read only regular files, as among many: a FIFO, which a sweep's
    /// folder may hold unawares, is refused unopened.
    pub files_only: bool,
}

impl Default for Opening<'_> {
    fn default() -> Self {
        Opening {
            from: None,
            max_size: DEFAULT_MAX_SIZE,
            progress: None,
            early: None,
            files_only: false,
        }
    }
}

/// Where the runs a session has finished go while the rest of it is
/// still read, so that a screen can show them at once: handed over once,
/// when the load has taken `after` and at least one run is whole. (Only a
/// Claude Code session is read as it is parsed; its runs come in order.)
#[derive(Clone, Copy)]
pub struct Early<'a> {
    pub hand: &'a dyn Fn(Vec<Transcript>),
    pub after: Duration,
}

impl std::fmt::Debug for Early<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Early {{ after: {:?} }}", self.after)
    }
}

/// The same, with the texts that a native transcript gives in both
/// languages taken in `lang`.
pub fn open_in(name_or_path: &str, how: &Opening, lang: Lang) -> Result<Source, LoadError> {
    if let Some(found) = builtin_in(name_or_path, lang) {
        return Ok(Source {
            format: Format::Native,
            kind: Kind::Builtin,
            runs: vec![found?],
            notes: Vec::new(),
        });
    }
    ensure_exists(name_or_path)?;
    let path = Path::new(name_or_path);
    if path.is_dir() {
        return sessions::open_project(path, how, lang);
    }
    let mut source = open_file(path, how, lang)?;
    if source.format == Format::ClaudeCode {
        sessions::add_subagents(path, &mut source, how, lang);
    }
    Ok(source)
}

/// A built-in run or a file in English, with the Chinese texts of a
/// native transcript (`None` for a recording, the same in both): every
/// file is read once, as a pipe or a FIFO can be read only once.
pub fn open_both(
    name_or_path: &str,
    how: &Opening,
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    if BUILTIN_NAMES.contains(&name_or_path) {
        let zh = open_in(name_or_path, how, Lang::Zh)?.runs;
        return Ok((open_in(name_or_path, how, Lang::En)?, Some(zh)));
    }
    ensure_exists(name_or_path)?;
    let path = Path::new(name_or_path);
    if path.is_dir() {
        return Ok((sessions::open_project(path, how, Lang::En)?, None));
    }
    let (mut source, zh) = open_file_with(path, how, |text, origin, name| {
        import::load_both(text, origin, name, how.from)
    })?;
    if source.format == Format::ClaudeCode {
        sessions::add_subagents(path, &mut source, how, Lang::En);
    }
    Ok((source, zh))
}

/// Reads and imports one file, named after its stem: a zip archive is an
/// Inspect `.eval` log, anything else text.
pub(super) fn open_file(path: &Path, how: &Opening, lang: Lang) -> Result<Source, LoadError> {
    let load = |text, origin: &str, name: &str| {
        import::load(text, origin, name, how.from, lang).map(|source| (source, None))
    };
    open_file_with(path, how, load).map(|(source, _)| source)
}

/// Reads one file once, and imports it with `load` (its text, the file as
/// messages name it, the name its runs take) unless it is a zip archive
/// or a Claude Code session, which is imported as it is read.
fn open_file_with(
    path: &Path,
    how: &Opening,
    load: impl FnOnce(String, &str, &str) -> Result<(Source, Option<Vec<Transcript>>), LoadError>,
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    let reading = Reading::open(path, how)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".to_owned());
    let origin = super::shown_path(path);
    let bytes = match reading.first_chunk(how.from)? {
        Opened::Whole(bytes) => bytes,
        Opened::Session(head, rest) => {
            let mut rest = rest.lines();
            let lines = JsonLines::after(head.len(), &mut rest);
            let source = import::load_session(head, lines, (&origin, &name), how.early);
            // A read that failed ends the lines early: it is the error.
            if let Some(failure) = rest.failure() {
                return Err(failure);
            }
            return source.map(|source| (source, None));
        }
    };
    if bytes.starts_with(b"PK\x03\x04") {
        let source = import::load_archive(&bytes, &origin, &name, how.max_size)?;
        return Ok((source, None));
    }
    let text = text_of(path, bytes)?;
    load(text, &origin, &name)
}

/// The file's bytes as text, a leading byte-order mark dropped. A
/// character cut off at the very end (a log killed mid-write) is dropped
/// too: what it ended is then cut short, as a cut-off last line of JSON
/// Lines is said to be.
fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String, LoadError> {
    // UTF-16's byte-order mark, little- or big-endian (Unicode's FAQ,
    // https://www.unicode.org/faq/utf_bom.html#bom4).
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(LoadError::Utf16 {
            path: path.to_owned(),
        });
    }
    let text = String::from_utf8(bytes).or_else(cut_off_character);
    let text = text.map_err(|e| LoadError::NotUtf8 {
        path: path.to_owned(),
        offset: e.utf8_error().valid_up_to(),
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}
