//! The lesson file as written: TOML, read whole and checked for its shape
//! (unknown keys are refused, so a misspelt setting is never ignored).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::steps::StepName;
use crate::lang::Lang;

/// A lesson, as its file says it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Where an editor finds the JSON Schema; loopstep ignores it.
    #[serde(rename = "$schema", default)]
    pub schema: Option<String>,
    pub title: Text,
    #[serde(rename = "scene", default)]
    pub scenes: Vec<Scene>,
}

/// One run shown to the class, and how.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// A built-in run's name, or a file's path relative to the lesson.
    pub run: String,
    /// Which run of the file, from 1, where it holds several.
    #[serde(default)]
    pub which: Option<usize>,
    /// What the class reads before the run opens.
    #[serde(default)]
    pub card: Option<Text>,
    #[serde(default)]
    pub max_turns: Option<u32>,
    /// `lesson` or `production`.
    #[serde(default)]
    pub check: Option<String>,
    /// A common mistake's name, as `--mistake` takes it.
    #[serde(default)]
    pub mistake: Option<String>,
    /// An API's name, as `--dialect` takes it.
    #[serde(default)]
    pub dialect: Option<String>,
    /// `en` or `zh`.
    #[serde(default)]
    pub lang: Option<String>,
    /// The step the scene opens on.
    #[serde(default)]
    pub open_at: Option<StepName>,
    /// Plays by itself at this speed (0.5, 1, 2 or 4 phases a 1.5 s).
    #[serde(default)]
    pub autoplay: Option<f64>,
    /// Words for the class at given steps, beside the run's own remarks.
    #[serde(default)]
    pub remarks: Vec<AtStep>,
    /// Words for the teacher at given steps, on the notes screen.
    #[serde(default)]
    pub notes: Vec<AtStep>,
}

/// Words at a step.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtStep {
    pub at: StepName,
    pub text: Text,
}

/// A text in one language for both, or in each.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Text {
    Same(String),
    Each { en: String, zh: String },
}

impl Text {
    pub fn get(&self, lang: Lang) -> &str {
        match (self, lang) {
            (Text::Same(text), _) => text,
            (Text::Each { en, .. }, Lang::En) => en,
            (Text::Each { zh, .. }, Lang::Zh) => zh,
        }
    }
}

/// The most a lesson file may hold: a class's lesson is a few kilobytes.
pub const MOST_BYTES: u64 = 1 << 20;

/// Why a lesson file could not be read.
#[derive(Debug)]
pub enum ReadError {
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    TooLarge {
        path: PathBuf,
    },
    /// Not TOML, or not a lesson's shape: the parser's words, and where.
    Toml {
        path: PathBuf,
        message: String,
        line: usize,
        column: usize,
    },
}

/// Reads the lesson at `path`.
pub fn read(path: &Path) -> Result<Lesson, ReadError> {
    let failed = |source| ReadError::Read {
        path: path.to_owned(),
        source,
    };
    // Read up to one byte past the limit, whatever the file says its size
    // is: a device or a FIFO says nothing true.
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MOST_BYTES + 1).read_to_string(&mut text))
        .map_err(failed)?;
    if text.len() as u64 > MOST_BYTES {
        return Err(ReadError::TooLarge {
            path: path.to_owned(),
        });
    }
    parse(&text).map_err(|(message, line, column)| ReadError::Toml {
        path: path.to_owned(),
        message,
        line,
        column,
    })
}

/// A lesson from its text; else the parser's message, line and column.
pub fn parse(text: &str) -> Result<Lesson, (String, usize, usize)> {
    toml::from_str(text).map_err(|e: toml::de::Error| {
        let at = e.span().map_or(0, |span| span.start);
        let before = &text[..at.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (e.message().to_owned(), line, column)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_reads_its_scenes_texts_and_steps() {
        let lesson = parse(
            r#"
title = { en = "The loop", zh = "循环" }

[[scene]]
run = "aurora-run"
max_turns = 2
card = "Two turns."
open_at = "turn 1 dispatch"
notes = [{ at = 5, text = "Ask the class." }]

[[scene]]
run = "runs/mine.jsonl"
which = 2
remarks = [{ at = "turn 0 call", text = { en = "Look.", zh = "看。" } }]
"#,
        )
        .unwrap();
        assert_eq!(lesson.title.get(Lang::Zh), "循环");
        assert_eq!(lesson.scenes.len(), 2);
        assert_eq!(lesson.scenes[0].max_turns, Some(2));
        assert_eq!(lesson.scenes[0].open_at, StepName::parse("turn 1 dispatch"));
        assert_eq!(lesson.scenes[0].notes[0].at, StepName::Number(5));
        assert_eq!(lesson.scenes[1].which, Some(2));
        assert_eq!(lesson.scenes[1].remarks[0].text.get(Lang::En), "Look.");
    }

    #[test]
    fn a_misspelt_key_or_a_bad_step_is_refused_where_it_is() {
        let (message, line, _) =
            parse("title = \"x\"\n[[scene]]\nrun = \"paris\"\nmax_turn = 2\n").unwrap_err();
        assert!(message.contains("max_turn"), "{message}");
        assert_eq!(line, 4);
        let (message, ..) =
            parse("title = \"x\"\n[[scene]]\nrun = \"paris\"\nopen_at = \"dispatch\"\n")
                .unwrap_err();
        assert!(message.contains("turn 1 dispatch"), "{message}");
    }
}
