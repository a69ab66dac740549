//! What the flags mean once read: the settings every command shares, and
//! a loop's configuration and the screen's settings made from the flags.

use std::path::PathBuf;

use super::arguments::*;
use super::failure::Failure;
use crate::dialect::Dialect;
use crate::engine::{CheckPolicy, Config};
use crate::narrate::{Lang, Refusal};
use crate::prices::Prices;
use crate::transcript::{DEFAULT_MAX_SIZE, Opening, Transcript};
use crate::tui;

/// What every command shares: the language, how far a file may go, and
/// the price list, if one was given.
#[derive(Debug, Clone)]
pub struct Globals {
    pub lang: Lang,
    pub max_size: u64,
    pub prices: Option<PathBuf>,
}

impl Cli {
    /// The settings every command shares: the language asked for, else the
    /// environment's; the size limit asked for, else the default.
    pub fn globals(&self) -> Globals {
        Globals {
            lang: LangArg::chosen(self.lang),
            max_size: self.max_size.unwrap_or(DEFAULT_MAX_SIZE),
            prices: self.prices.clone(),
        }
    }
}

impl Globals {
    /// The price list, read; a list that is not one is bad input (exit 2).
    pub(super) fn prices(&self) -> Result<Option<Prices>, Failure> {
        self.prices
            .as_deref()
            .map(Prices::load)
            .transpose()
            .map_err(|e| Failure::Refused(Refusal::Prices(e)))
    }

    pub(super) fn opening(&self, from: Option<FromFormat>) -> Opening<'static> {
        Opening {
            from: from.map(FromFormat::format),
            max_size: self.max_size,
            progress: None,
            early: None,
            files_only: false,
        }
    }
}

impl LoopFlags {
    pub(super) fn config(&self, transcript: &Transcript) -> Result<Config, Failure> {
        Ok(Config {
            max_turns: self.max_turns.unwrap_or(transcript.max_turns),
            check: self.policy(),
            mistake: self.mistake.map(MistakeArg::mistake),
            dialect: self.dialect_for(transcript)?,
            ..transcript.default_config()
        })
    }

    /// The API `transcript` is told in: the one `--dialect` asks for, which
    /// must have a word for each of its stops, else the run's own.
    pub(super) fn dialect_for(&self, transcript: &Transcript) -> Result<Dialect, Failure> {
        let Some(dialect) = self.dialect.map(DialectArg::dialect) else {
            return Ok(transcript.dialect());
        };
        match transcript.untold_in(dialect) {
            None => Ok(dialect),
            Some(why) => Err(Failure::Refused(Refusal::Untold {
                run: transcript.id.clone(),
                api: dialect.words().api,
                why,
            })),
        }
    }

    pub(super) fn policy(&self) -> CheckPolicy {
        match self.check {
            Check::Lesson => CheckPolicy::Lesson,
            Check::Production => CheckPolicy::Production,
        }
    }

    pub(super) fn settings(&self, lang: Lang, screen: ScreenFlags) -> tui::Settings {
        tui::Settings {
            lang,
            autoplay: screen.autoplay,
            step: screen.step.map(|n| n as usize),
            quiz: screen.quiz,
            react: screen.lens == Some(Lens::React),
            theme: screen.theme,
            mouse: !screen.no_mouse,
            max_turns: self.max_turns,
            dialect: self.dialect.map(DialectArg::dialect),
            check: self.policy(),
            mistake: self.mistake.map(MistakeArg::mistake),
            // https://no-color.org: present and not empty.
            monochrome: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            redacted: false,
        }
    }
}
