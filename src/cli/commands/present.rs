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
    /// Tell every step, scene and setting to `loopstep notes LESSON` in
    /// another terminal (a Unix socket of this lesson's and this user's).
    #[arg(long)]
    pub publish_notes: bool,
    #[command(flatten)]
    pub screen_flags: ScreenFlags,
}

/// `loopstep notes`: the teacher's notes for the presenter's step.
#[cfg(unix)]
#[derive(Debug, Args)]
pub struct Notes {
    /// The lesson being presented with `present LESSON --publish-notes`.
    pub lesson: String,
}

#[cfg(unix)]
impl Notes {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let path = std::path::Path::new(&self.lesson);
        let lesson = lesson::load(path)?;
        let settings = LoopFlags::default().settings(globals.lang, ScreenFlags::default());
        tui::notes::notes(lesson, settings, tui::notes::socket_path(path))?;
        Ok(())
    }
}

impl Present {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let Present {
            lesson: path,
            publish_notes,
            screen_flags,
        } = self;
        // Every problem is found before the screen takes the terminal.
        let lesson = lesson::load(std::path::Path::new(&path))?;
        let settings = LoopFlags::default().settings(globals.lang, screen_flags);
        #[cfg(unix)]
        let socket = publish_notes.then(|| tui::notes::socket_path(std::path::Path::new(&path)));
        #[cfg(not(unix))]
        let socket: Option<std::path::PathBuf> = publish_notes.then(std::path::PathBuf::new);
        tui::present::present(lesson, settings, &path, socket.as_deref())?;
        Ok(())
    }
}
