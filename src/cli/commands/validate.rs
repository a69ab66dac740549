//! `loopstep validate`: every problem in a transcript or recording.

use clap::Args;

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::output::*;
use crate::cli::settings::Globals;
use crate::narrate::Lang;
use crate::redact;
use crate::report;
use crate::transcript::{Source, open_both};

#[derive(Debug, Args)]
pub struct Validate {
    /// The path of a transcript file (or a built-in run's name), or of a
    /// lesson (`.toml`): every run it names loads, every setting and step
    /// exists.
    pub path: String,
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
}

impl Validate {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let lang = globals.lang;
        let Validate { path, from } = self;
        if crate::lesson::is_lesson(&path) {
            let lesson = crate::lesson::load(std::path::Path::new(&path))?;
            let say = crate::narrate::Say::new(lang, crate::dialect::Dialect::default());
            emit(&format!("{}\n", say.lesson_ready(&path, &lesson)))?;
            return Ok(());
        }
        // Read once (it may be a pipe); a transcript with texts in both
        // languages must hold in both.
        let (source, zh) = open_both(&path, &globals.opening(from))?;
        let mut source = match (lang, zh) {
            (Lang::Zh, Some(zh)) => Source { runs: zh, ..source },
            _ => source,
        };
        // The summary names each run by its title, and a title can hold a
        // key; redacted always, as there is no flag to ask, and before the
        // title is cut to fit, which could leave a key's start unknown.
        redact::summary(&mut source);
        emit(&report::summary(&path, &source, lang))?;
        Ok(())
    }
}
