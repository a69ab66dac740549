//! What the flags mean once read: the settings every command shares, and
//! a loop's configuration and the screen's settings made from the flags.

use std::path::PathBuf;

use super::arguments::*;
use super::failure::Failure;
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
        let lang = match self.lang {
            Some(LangArg::Zh) => Lang::Zh,
            Some(LangArg::En) => Lang::En,
            None => Lang::from_env(|name| std::env::var(name).ok()),
        };
        Globals {
            lang,
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
        }
    }
}

impl LoopFlags {
    pub fn config(&self, transcript: &Transcript) -> Config {
        Config {
            max_turns: self.max_turns.unwrap_or(transcript.max_turns),
            check: self.policy(),
            mistake: self.mistake.map(MistakeArg::mistake),
            ..transcript.default_config()
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
            check: self.policy(),
            mistake: self.mistake.map(MistakeArg::mistake),
            // https://no-color.org: present and not empty.
            monochrome: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            redacted: false,
        }
    }
}
