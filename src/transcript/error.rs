//! Everything that can be wrong with a transcript, worded for the person who
//! has to fix it: what is wrong, in which file, and where in it.

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

use super::Format;

/// One problem found by validation, at a JSON path such as `replies[1].content[0].id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl Problem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "at the top level: {}", self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

#[derive(Debug, Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path} is larger than {limit}, the most loopstep reads; --max-size raises the limit",
        limit = size_words(*max_size)
    )]
    TooLarge { path: PathBuf, max_size: u64 },
    #[error("{path} is not UTF-8 text: the byte at offset {offset} does not decode")]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{origin} is not valid JSON: {message} (line {line}, column {column})")]
    Syntax {
        origin: String,
        message: String,
        line: usize,
        column: usize,
    },
    #[error("{origin} is not valid YAML: {message} (line {line}, column {column})")]
    YamlSyntax {
        origin: String,
        message: String,
        line: usize,
        column: usize,
    },
    #[error("{origin}, line {line}, column {column}, at `{path}`: {message}")]
    Shape {
        origin: String,
        path: String,
        message: String,
        line: usize,
        column: usize,
    },
    #[error("{origin} is not a valid transcript ({} problem{}):\n{}",
        problems.len(), if problems.len() == 1 { "" } else { "s" }, bullet_list(problems))]
    Invalid {
        origin: String,
        problems: Vec<Problem>,
    },
    #[error(
        "{origin} is in none of the formats loopstep reads ({}); its top level is \
         {seen}{}",
        Format::ALL.map(Format::describe).join(", "),
        closest_words(closest)
    )]
    NotRecognized {
        origin: String,
        seen: String,
        /// The formats whose marks it shares, nearest first, with the keys
        /// it shares.
        closest: Vec<(Format, Vec<String>)>,
    },
    #[error(
        "`{name}` is neither a built-in run nor a file.{} Built-in runs: {builtins}. \
         To open a file, give its path (for example ./my-run.json).",
        did_you_mean(nearest)
    )]
    NotFound {
        name: String,
        builtins: String,
        /// The built-in names closest to `name`, nearest first.
        nearest: Vec<&'static str>,
    },
}

fn did_you_mean(nearest: &[&str]) -> String {
    match nearest {
        [] => String::new(),
        [one] => format!(" Did you mean `{one}`?"),
        [many @ .., last] => format!(
            " Did you mean {} or `{last}`?",
            many.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn bullet_list(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("  - {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl LoadError {
    pub(crate) fn one_problem(origin: &str, path: &str, message: String) -> Self {
        LoadError::Invalid {
            origin: origin.to_owned(),
            problems: vec![Problem::new(path, message)],
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
fn without_position(err: &serde_json::Error) -> String {
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

/// "; it comes closest to …" for the formats a file shares keys with.
fn closest_words(closest: &[(Format, Vec<String>)]) -> String {
    let near: Vec<String> = closest
        .iter()
        .map(|(format, keys)| {
            let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            format!(
                "{} (shares {}; `--from {}` reads it as one)",
                format.describe(),
                keys.join(", "),
                format.flag()
            )
        })
        .collect();
    if near.is_empty() {
        String::new()
    } else {
        format!("; it comes closest to {}", near.join(", then "))
    }
}
