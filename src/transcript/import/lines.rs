//! JSON Lines taken one line at a time: a session can be imported as it
//! is parsed, each line's JSON let go once it is read, rather than every
//! line held at once beside the messages made of them.

use serde_json::Value;

use crate::transcript::LoadError;

/// The lines of a text that did not parse as one JSON document, each parsed
/// as it is taken; blank lines are passed over. Taking stops at the first
/// line that is not JSON, which [`JsonLines::finish`] then judges.
pub struct JsonLines<'t> {
    lines: std::iter::Enumerate<std::str::Lines<'t>>,
    /// Why the text is not one JSON document, reported when it is not JSON
    /// Lines either.
    document_error: serde_json::Error,
    /// The first line that failed, 0-based, and why.
    failed: Option<(usize, serde_json::Error)>,
    /// Lines parsed so far.
    taken: usize,
}

impl<'t> JsonLines<'t> {
    pub fn new(text: &'t str, document_error: serde_json::Error) -> Self {
        JsonLines {
            lines: text.lines().enumerate(),
            document_error,
            failed: None,
            taken: 0,
        }
    }

    /// How many lines were taken.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// After the lines were taken: the number (1-based) of a last line
    /// left out because it was cut off, as the last line of a log still
    /// being written may be; or the error that makes the text no JSON
    /// Lines. Lines past a failed one are never read.
    pub fn finish(mut self, origin: &str) -> Result<Option<usize>, LoadError> {
        let not_json =
            |document_error| Err(LoadError::from_json(origin, String::new(), document_error));
        let Some((number, error)) = self.failed.take() else {
            return match self.taken {
                0 | 1 => not_json(self.document_error),
                _ => Ok(None),
            };
        };
        let last = self.lines.all(|(_, line)| line.trim().is_empty());
        if error.is_eof() && last && self.taken >= 2 {
            return Ok(Some(number + 1));
        }
        // Not JSON Lines either: report the whole-document error, which
        // points into the file as one JSON text.
        if number == 0 || self.taken == 0 {
            return not_json(self.document_error);
        }
        Err(LoadError::Syntax {
            origin: origin.to_owned(),
            message: format!(
                "JSON Lines: {}",
                error.to_string().split(" at line").next().unwrap_or("")
            ),
            line: number + 1,
            column: error.column(),
        })
    }
}

impl Iterator for JsonLines<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        if self.failed.is_some() {
            return None;
        }
        for (number, line) in self.lines.by_ref() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str(line) {
                Ok(value) => {
                    self.taken += 1;
                    return Some(value);
                }
                Err(error) => {
                    self.failed = Some((number, error));
                    return None;
                }
            }
        }
        None
    }
}
