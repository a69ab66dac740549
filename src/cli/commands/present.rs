//! `loopstep present`: a lesson's scenes on the screen, one after another.

use clap::Args;

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::settings::Globals;
use crate::lesson;
use crate::tui;

#[derive(Debug, Args)]
pub struct Present {
    /// The lesson file (TOML): its scenes, each a run with its settings,
    /// title card, remarks and notes. `loopstep validate LESSON` checks it.
    pub lesson: String,
    #[command(flatten)]
    pub screen_flags: ScreenFlags,
}

impl Present {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let Present {
            lesson: path,
            screen_flags,
        } = self;
        // Every problem is found before the screen takes the terminal.
        let lesson = lesson::load(std::path::Path::new(&path))?;
        let settings = LoopFlags::default().settings(globals.lang, screen_flags);
        tui::present::present(lesson, settings, &path)?;
        Ok(())
    }
}
