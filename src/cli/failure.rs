//! A failed command, and the exit code it ends with.

use std::process::ExitCode;

use crate::transcript::LoadError;

/// A failed command: bad input or a refused request (exit 2), or anything
/// else (exit 1).
#[derive(Debug)]
pub enum Failure {
    BadInput(LoadError),
    /// What was asked would do harm (writing over a recording, say), or
    /// flags that do not go together.
    Refused(String),
    Other(anyhow::Error),
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::BadInput(_) | Failure::Refused(_) => ExitCode::from(2),
            Failure::Other(_) => ExitCode::from(1),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::BadInput(e) => write!(f, "{e}"),
            Failure::Refused(why) => write!(f, "{why}"),
            Failure::Other(e) => write!(f, "{e:#}"),
        }
    }
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure::BadInput(e)
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}
