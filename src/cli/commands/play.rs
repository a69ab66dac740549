//! `loopstep play`: the teaching screen on a run.

use clap::Args;

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::runs::*;
use crate::cli::settings::Globals;
use crate::prices::Prices;
use crate::transcript::{Opening, ensure_exists};
use crate::tui;

#[derive(Debug, Args)]
pub struct Play {
    /// A built-in run (see `loopstep list`), or the path of a transcript or recording.
    #[arg(default_value = DEFAULT_RUN)]
    pub run: String,
    #[command(flatten)]
    pub loop_flags: LoopFlags,
    /// Read the file as this format instead of recognising it.
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    #[command(flatten)]
    pub screen_flags: ScreenFlags,
    #[command(flatten)]
    pub redact: RedactFlag,
}

impl Play {
    /// `loopstep` alone: the screen on `run`, every flag at its default.
    pub fn on(run: &str) -> Play {
        Play {
            run: run.to_owned(),
            loop_flags: LoopFlags::default(),
            from: None,
            screen_flags: ScreenFlags::default(),
            redact: RedactFlag::default(),
        }
    }

    pub(in crate::cli) fn execute(
        self,
        globals: &Globals,
        prices: Option<Prices>,
    ) -> Result<(), Failure> {
        let lang = globals.lang;
        let Play {
            run,
            loop_flags,
            from,
            screen_flags,
            redact,
        } = self;
        // A misspelt run fails here, before the screen takes the terminal.
        ensure_exists(&run)?;
        let how = globals.opening(from);
        let name = run.clone();
        let settings = tui::Settings {
            redacted: redact.redact,
            ..loop_flags.settings(lang, screen_flags)
        };
        tui::play(&run, (settings, prices), move |progress, show| {
            let how = Opening {
                progress: Some(progress),
                ..how
            };
            let (runs, index) = screen_runs_early(&name, &how, redact.redact, show)?;
            loop_flags.dialect_for(runs[index].get(lang))?;
            Ok::<_, Failure>((runs, index))
        })??;
        Ok(())
    }
}
