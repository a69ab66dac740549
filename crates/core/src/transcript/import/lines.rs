//! JSON Lines taken one line at a time: a session can be imported as it
//! is parsed, each line's JSON let go once it is read, rather than every
//! line held at once beside the messages made of them. The lines come
//! from a text in memory or straight from a file.

use serde_json::Value;

use crate::transcript::{LoadError, Looks, Why};

/// Lines, each parsed as it is taken; blank lines are passed over. Taking
/// stops at the first line that is not JSON, which [`JsonLines::finish`]
/// then judges. `I` gives each line with its 0-based number.
pub struct JsonLines<I> {
    lines: I,
    /// Why the text is not one JSON document, reported when it is not JSON
    /// Lines either; `None` for lines read from a file as they come.
    document_error: Option<serde_json::Error>,
    /// What the text looks like when it does not open as a recording's
    /// JSON does, with an object or an array: then it is no JSON at all.
    looks: Option<Looks>,
    /// The first line that failed, and why.
    failed: Option<(usize, serde_json::Error)>,
    /// Lines parsed so far.
    taken: usize,
}

impl<'t> JsonLines<std::iter::Enumerate<std::str::Lines<'t>>> {
    /// The lines of a text that did not parse as one JSON document.
    pub fn of_text(text: &'t str, document_error: serde_json::Error) -> Self {
        let opens = text
            .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
            .chars()
            .next();
        JsonLines {
            looks: (!opens.is_none_or(|c| c == '{' || c == '[')).then(|| Looks::of(text)),
            ..JsonLines::new(text.lines().enumerate(), Some(document_error))
        }
    }
}

impl<I: Iterator<Item = (usize, L)>, L: AsRef<str>> JsonLines<I> {
    fn new(lines: I, document_error: Option<serde_json::Error>) -> Self {
        JsonLines {
            lines,
            document_error,
            looks: None,
            failed: None,
            taken: 0,
        }
    }

    /// Lines read from a file as they come, after `taken` lines of it
    /// already parsed (which count towards the lines a text must have).
    pub fn after(taken: usize, lines: I) -> Self {
        JsonLines {
            taken,
            ..JsonLines::new(lines, None)
        }
    }

    /// How many lines were taken, those it follows included.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// After the lines were taken: the number (1-based) of a last line
    /// left out because it was cut off, as the last line of a log still
    /// being written (or killed mid-write) may be, once a whole line came
    /// before it; or the error that makes the text no JSON Lines.
    pub fn finish(mut self, origin: &str) -> Result<Option<usize>, LoadError> {
        let failed = self.failed.take();
        if failed.is_none() && self.taken >= 2 {
            return Ok(None);
        }
        // Not JSON Lines either: the whole-document error points into the
        // file as one JSON text, or, when it does not open as JSON, says
        // it is none and where.
        let looks = self.looks;
        let not_json = |document_error: Option<serde_json::Error>| {
            document_error.map(|e| match looks {
                Some(looks) if !e.is_eof() => LoadError::NotJson {
                    origin: origin.to_owned(),
                    line: e.line(),
                    column: e.column(),
                    looks,
                },
                _ => LoadError::from_json(origin, String::new(), e),
            })
        };
        let Some((number, error)) = failed else {
            let too_few = LoadError::one_problem(origin, "", Why::TooFewLines);
            return Err(not_json(self.document_error).unwrap_or(too_few));
        };
        let last = self.lines.all(|(_, line)| line.as_ref().trim().is_empty());
        if error.is_eof() && last && self.taken >= 1 {
            return Ok(Some(number + 1));
        }
        if number == 0 || self.taken == 0 {
            let document_error = self.document_error.take();
            if let Some(error) = not_json(document_error) {
                return Err(error);
            }
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

    /// The next line that is not blank, parsed by `parse`; `None` after
    /// the last line or at the first that is no JSON.
    pub fn parse_next<T>(
        &mut self,
        parse: impl FnOnce(&str) -> Result<T, serde_json::Error>,
    ) -> Option<T> {
        if self.failed.is_some() {
            return None;
        }
        let (number, line) = self
            .lines
            .by_ref()
            .find(|(_, l)| !l.as_ref().trim().is_empty())?;
        match parse(line.as_ref()) {
            Ok(parsed) => {
                self.taken += 1;
                Some(parsed)
            }
            Err(error) => {
                self.failed = Some((number, error));
                None
            }
        }
    }
}

impl<I: Iterator<Item = (usize, L)>, L: AsRef<str>> Iterator for JsonLines<I> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        self.parse_next(|line| serde_json::from_str(line))
    }
}
