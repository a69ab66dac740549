//! Everything that can be wrong with a transcript, worded for the person who
//! has to fix it: what is wrong, in which file, and where in it.

use std::path::PathBuf;

use serde_json::Value;

use super::{Format, Note};
use crate::dialect::Dialect;

/// One problem found by validation, at a JSON path such as `replies[1].content[0].id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub why: Why,
}

impl Problem {
    pub fn new(path: impl Into<String>, why: Why) -> Self {
        Problem {
            path: path.into(),
            why,
        }
    }
}

/// What is wrong with a transcript or a recording, as data; narrate words
/// it in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The file's format version is not the one this build reads.
    Version {
        found: u32,
    },
    /// A field that must hold text is empty.
    Empty,
    NoReply,
    /// A search environment with no page to find.
    NoPage,
    MissingField {
        field: &'static str,
    },
    ToolDeclaredTwice {
        tool: String,
    },
    /// A replay environment for a tool `tools` does not declare.
    UndeclaredTool {
        name: String,
    },
    /// The goal names a tool `tools` does not declare.
    GoalToolUndeclared {
        tool: String,
    },
    /// An id that no tool call in `replies` has.
    NoSuchCall {
        id: String,
    },
    /// Another API's word for a stop reason.
    ForeignStopReason {
        reason: String,
        of: Dialect,
        run: Dialect,
    },
    ResultInReply,
    CallWithoutId,
    CallIdReused {
        id: String,
        first: String,
    },
    Unanswerable {
        id: String,
        name: String,
    },
    CallsCountFromOne,
    NoModelCall,
    /// A transcript document that is no JSON object.
    NotAnObject {
        held: JsonKind,
    },
    /// A scenario's base that is no built-in run.
    NoSuchBase {
        base: String,
    },
    SharedHistoryMissing {
        shared: usize,
        count: usize,
    },
    NotPartOfHistory {
        from: usize,
        to: usize,
        shared: usize,
        len: usize,
    },
    /// A folder opened as a Claude Code project holds no session.
    NoSession,
    /// No session of a project folder could be read, each for its reasons.
    NoSessionRead {
        why: Vec<Note>,
    },
    ArchiveUnreadable {
        error: String,
    },
    MemberUnreadable {
        name: String,
        error: String,
    },
    MemberNotJson {
        name: String,
        error: String,
    },
    NoEvalHeader,
    TooFewLines,
    /// Read in a format, the file made no run.
    NoRun {
        format: Format,
        seen: Seen,
    },
    /// A parser's own words, kept as it wrote them.
    Parser(String),
    /// A value of the wrong type or out of range, in the parser's words,
    /// with its line and column in the file where they are known.
    Mistyped {
        message: String,
        at: Option<(usize, usize)>,
    },
    /// A stop reason no API uses: the replay could only stop there.
    UnknownStopReason {
        reason: String,
        run: Dialect,
    },
}

/// The kind of a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonKind {
    pub fn of(value: &Value) -> Self {
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }
}

/// What a file held, for a refusal that says so; `keys` are an object's
/// first few keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    Object {
        keys: Vec<String>,
    },
    EmptyArray,
    /// An array of objects: how many, and the first one's keys.
    Objects {
        count: usize,
        keys: Vec<String>,
    },
    /// An array whose first item is no object.
    ArrayOf(JsonKind),
    Scalar(JsonKind),
    /// JSON Lines: how many, and the first line's keys.
    Lines {
        count: usize,
        keys: Vec<String>,
    },
    /// A cassette's interactions, none of them a model call.
    Interactions {
        count: usize,
    },
    /// Events that add up to no known API's response.
    Events,
    /// A text log with no model call in it.
    NoModelCall,
}

/// What a text that is no JSON looks like, from its first lines: said
/// beside the refusal, so that a user who gave the wrong file knows which
/// file they gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Looks {
    Markdown,
    Script,
    Markup,
    Log,
    Text,
}

impl Looks {
    /// What `text`, which is no JSON, looks like from its first line that
    /// is not blank.
    pub fn of(text: &str) -> Looks {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let first = lines.next().unwrap_or("");
        let first = first.trim_start_matches('\u{feff}');
        let dated = first.len() >= 10
            && first.as_bytes()[..10].iter().enumerate().all(|(i, b)| {
                if i == 4 || i == 7 {
                    *b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            });
        let levels = ["INFO", "DEBUG", "WARN", "WARNING", "ERROR", "TRACE"];
        let word = first
            .trim_start_matches('[')
            .split([' ', ']', ':'])
            .next()
            .unwrap_or("");
        match first {
            l if l.starts_with("#!") => Looks::Script,
            l if l.starts_with('#') || l == "---" => Looks::Markdown,
            l if l.starts_with('<') => Looks::Markup,
            _ if dated || levels.contains(&word) => Looks::Log,
            _ => Looks::Text,
        }
    }
}

/// Why a file or run could not be loaded, as data; narrate words it in
/// the reader's language (its `Display` is the English).
#[derive(Debug)]
pub enum LoadError {
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    TooLarge {
        path: PathBuf,
        max_size: u64,
    },
    NotUtf8 {
        path: PathBuf,
        offset: usize,
    },
    Syntax {
        origin: String,
        message: String,
        line: usize,
        column: usize,
    },
    YamlSyntax {
        origin: String,
        message: String,
        line: usize,
        column: usize,
    },
    Shape {
        origin: String,
        path: String,
        message: String,
        line: usize,
        column: usize,
    },
    Invalid {
        origin: String,
        problems: Vec<Problem>,
    },
    NotRecognized {
        origin: String,
        seen: Seen,
        /// The formats whose marks it shares, nearest first, with the keys
        /// it shares.
        closest: Vec<(Format, Vec<String>)>,
    },
    NotFound {
        name: String,
        builtins: String,
        /// The built-in names closest to `name`, nearest first.
        nearest: Vec<&'static str>,
    },
    Unopened {
        path: PathBuf,
        why: Unopened,
    },
    NoRoom {
        path: PathBuf,
        size: u64,
    },
    Utf16 {
        path: PathBuf,
    },
    NotJson {
        origin: String,
        line: usize,
        column: usize,
        looks: Looks,
    },
}

/// Why a path is not opened: it names nothing that can be read at once
/// and to an end. The words are a predicate, said of the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unopened {
    /// A FIFO where only regular files are read: among many files.
    Fifo,
    /// A FIFO that no program writes to (nor waits to): reading it would
    /// wait for one for ever.
    FifoWithoutWriter,
    Device,
    Socket,
    LinkLoop,
}

/// A path as a message shows it: on one line, every character a terminal
/// would act on escaped.
pub fn shown_path(path: &std::path::Path) -> String {
    crate::text::escaped(&path.to_string_lossy())
}

impl LoadError {
    pub(crate) fn one_problem(origin: &str, path: &str, why: Why) -> Self {
        LoadError::Invalid {
            origin: origin.to_owned(),
            problems: vec![Problem::new(path, why)],
        }
    }

    /// Turns a serde error into a message with line, column and JSON path.
    pub(crate) fn from_json(origin: &str, path: String, inner: serde_json::Error) -> Self {
        let (line, column) = (inner.line(), inner.column());
        let mut message = without_position(&inner);
        if inner.is_eof() {
            message = format!("{message} (is the file cut short?)");
        }
        if inner.is_data() {
            LoadError::Shape {
                origin: origin.to_owned(),
                path,
                message,
                line,
                column,
            }
        } else {
            LoadError::Syntax {
                origin: origin.to_owned(),
                message,
                line,
                column,
            }
        }
    }
}

/// serde_json appends " at line L column C"; the error says that its own way.
pub(super) fn without_position(err: &serde_json::Error) -> String {
    let full = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_owned()
}

/// A byte count as a person writes it: "1 GiB", "50 MiB", "4096 bytes".
pub(crate) fn size_words(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    UNITS
        .iter()
        .find(|(unit, _)| bytes >= *unit && bytes.is_multiple_of(*unit))
        .map_or(format!("{bytes} bytes"), |(unit, name)| {
            format!("{} {name}", bytes / unit)
        })
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}
