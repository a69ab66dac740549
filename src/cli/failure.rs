//! A failed command, and the exit code it ends with.

use std::process::ExitCode;

use thiserror::Error;

use crate::dialect::Dialect;
use crate::narrate::{Lang, Refusal, Say};
use crate::transcript::LoadError;

/// A failed command: bad input or a refused request (exit 2), or anything
/// else (exit 1).
#[derive(Debug, Error)]
pub enum Failure {
    #[error("{0}")]
    BadInput(#[from] LoadError),
    /// A lesson that cannot be read or presented, every problem listed.
    #[error("{0}")]
    Lesson(#[from] crate::lesson::Failed),
    /// What was asked would do harm (writing over a recording, say), or
    /// flags that do not go together.
    #[error("{0}")]
    Refused(Refusal),
    /// With the chain of what led to it: "could not write out.md: No space
    /// left on device".
    #[error("{0:#}")]
    Other(#[from] anyhow::Error),
}

impl From<Refusal> for Failure {
    fn from(refusal: Refusal) -> Self {
        Failure::Refused(refusal)
    }
}

impl Failure {
    /// What went wrong, in `lang`: a load error's words are narrate's.
    pub fn message(&self, lang: Lang) -> String {
        let say = Say::new(lang, Dialect::default());
        match self {
            Failure::BadInput(e) => say.load_error(e),
            Failure::Lesson(failed) => say.lesson_failed(failed),
            Failure::Refused(refusal) => say.refusal(refusal),
            Failure::Other(error) => say.failed(error),
        }
    }

    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::BadInput(_) | Failure::Lesson(_) | Failure::Refused(_) => ExitCode::from(2),
            Failure::Other(_) => ExitCode::from(1),
        }
    }
}
