//! A lesson: the runs a teacher shows a class, in order, each with its
//! settings, a title card, remarks for the class and notes for the
//! teacher at given steps. Written in TOML (`lessons/*.toml`), read here,
//! checked against the runs it names; `loopstep present` walks it.
//!
//! ```toml
//! title = { en = "The agent loop", zh = "智能体循环" }
//!
//! [[scene]]
//! run = "aurora-run"           # a built-in run, or a path beside the lesson
//! max_turns = 2
//! card = "Same run, two turns: watch it return None."
//! open_at = "turn 1 dispatch"  # or a step number
//! notes = [{ at = "turn 1 call", text = "Ask: what is sent now?" }]
//! ```

mod edit;
mod file;
mod resolve;
mod steps;

pub use edit::with_note;
pub use file::{AtStep, Lesson, MOST_BYTES, ReadError, Scene, Text, parse, read};
pub use resolve::{PACES, Problem, Resolved, ResolvedScene, Why, resolve, scene_steps};
pub use steps::{StepName, find_step};

use std::path::{Path, PathBuf};

/// Why a lesson cannot be presented: its file, or what is wrong in it.
#[derive(Debug)]
pub enum Failed {
    Read(ReadError),
    Problems {
        path: PathBuf,
        problems: Vec<Problem>,
    },
}

/// The lesson at `path`, read and checked against its runs.
pub fn load(path: &Path) -> Result<Resolved, Failed> {
    let lesson = read(path).map_err(Failed::Read)?;
    let folder = path.parent().unwrap_or(Path::new("."));
    resolve(&lesson, folder).map_err(|problems| Failed::Problems {
        path: path.to_owned(),
        problems,
    })
}

/// Whether `path` names a lesson rather than a recording: lessons are
/// TOML files, and no recording format is.
pub fn is_lesson(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("toml"))
}

impl std::error::Error for Failed {}
