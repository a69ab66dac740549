//! Speaker notes on a second terminal. `present --publish-notes` tells
//! every step, scene, budget and language to whoever listens on a Unix
//! socket of its own (one per lesson file and user, so that two lessons
//! never cross); `loopstep notes LESSON` listens, shows the notes for the
//! presenter's step and what comes next, waits for the presenter and
//! follows it again after a restart. The presenter never waits for a
//! listener: a listener that does not keep up is let go.

mod listen;
mod publish;
mod screen;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::dialect::Dialect;
use crate::engine::{CheckPolicy, Config, Mistake};
use crate::narrate::Lang;

pub use listen::{Heard, listen};
pub use publish::Publisher;
pub use screen::NotesScreen;

/// Where the presenter is: what it publishes, one JSON line a change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Where {
    /// The scene (0-based), and whether its title card is up.
    pub scene: usize,
    pub card: bool,
    /// The step on screen (0-based).
    pub step: usize,
    pub lang: String,
    pub max_turns: u32,
    pub check: String,
    pub mistake: Option<String>,
    pub dialect: String,
    /// When the presentation started, in seconds since the Unix epoch.
    pub started: u64,
}

impl Where {
    pub fn new(
        scene: usize,
        card: bool,
        step: usize,
        lang: Lang,
        config: Config,
        started: u64,
    ) -> Self {
        Where {
            scene,
            card,
            step,
            lang: lang.code().to_owned(),
            max_turns: config.max_turns.get(),
            check: config.check.name().to_owned(),
            mistake: config.mistake.map(|m| m.name().to_owned()),
            dialect: config.dialect.id().to_owned(),
            started,
        }
    }

    pub fn lang(&self) -> Lang {
        Lang::of_code(&self.lang).unwrap_or_default()
    }

    pub fn check(&self) -> CheckPolicy {
        CheckPolicy::named(&self.check).unwrap_or_default()
    }

    pub fn mistake(&self) -> Option<Mistake> {
        Mistake::named(self.mistake.as_deref()?)
    }

    pub fn dialect(&self) -> Option<Dialect> {
        Dialect::of_id(&self.dialect)
    }
}

/// The socket the lesson at `lesson` is published on: in the user's
/// runtime folder where there is one, else the temporary folder, named by
/// the user and the lesson file's full path.
pub fn socket_path(lesson: &Path) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let full = std::fs::canonicalize(lesson).unwrap_or_else(|_| lesson.to_owned());
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    full.hash(&mut hasher);
    let folder = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_dir())
        .unwrap_or_else(std::env::temp_dir);
    let user = user_id();
    folder.join(format!(
        "loopstep-notes-{user}-{:016x}.sock",
        hasher.finish()
    ))
}

/// Whether the socket at `path`, if any, is this user's: another user's
/// socket in a shared temporary folder is neither listened to nor
/// replaced.
pub fn own_socket(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(path) {
        Ok(found) if found.uid() != user_id() => Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "another user's socket is in the way",
        )),
        _ => Ok(()),
    }
}

#[cfg(unix)]
fn user_id() -> u32 {
    rustix::process::getuid().as_raw()
}

#[cfg(not(unix))]
fn user_id() -> u32 {
    0
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Takes over the terminal and shows the notes of `lesson`, following the
/// presenter heard on `socket`, until the teacher quits.
pub fn notes(
    lesson: crate::lesson::Resolved,
    settings: crate::tui::Settings,
    socket: PathBuf,
) -> anyhow::Result<()> {
    super::needs_terminal(&socket.display().to_string())?;
    let mut screen = NotesScreen::new(lesson, listen(socket), settings);
    let mut taken = super::TakenTerminal::take(false)?;
    super::run_screen(&mut taken.terminal, &mut screen, &mut super::TerminalEvents)
}
