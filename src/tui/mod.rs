//! The teaching screen, in The Elm Architecture: a key becomes an [`Action`]
//! through the keymap, [`update`] changes the [`App`], and the view draws it.
//! The main loop is generic over the ratatui backend and takes its events
//! from an [`EventSource`], so tests drive it with a script of keys.

pub mod app;
pub mod compare;
pub mod curve;
pub mod extents;
mod follow;
pub mod handout;
mod jumps;
pub mod keymap;
pub mod link;
pub mod loading;
#[cfg(unix)]
pub mod notes;
pub mod present;
pub mod quiz;
mod retell;
mod run_screen;
pub mod runtime;
mod scene;
pub mod search;
mod settings;
mod start;
mod subagents;
pub mod theme;
mod update;
pub mod view;

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use crossterm::style::Print;
use ratatui::backend::Backend;
use ratatui::{DefaultTerminal, Terminal};

use crate::narrate::Trouble;

pub use app::{App, Mode};
pub use follow::follow;
pub use keymap::{Action, action_for, action_for_mouse};
pub use loading::{Typed, wait_for_load};
pub use runtime::{Effect, Msg, Screen, run_screen};
pub use settings::Settings;
pub use start::play;
pub use update::update;

/// Where terminal events come from.
pub trait EventSource {
    /// The next event, waiting for it; `None` when there are no more (a
    /// finished script).
    fn next_event(&mut self) -> io::Result<Option<TermEvent>>;

    /// Whether an event comes within `timeout`: work between frames gives
    /// way to it.
    fn poll(&mut self, timeout: Duration) -> io::Result<bool>;

    /// Puts `text` on the clipboard, where there is one to put it on.
    fn copy(&mut self, _text: &str) -> io::Result<()> {
        Ok(())
    }

    /// The next message for the screen: the next event, or news a source
    /// watches for beside the terminal (runs that came).
    fn next_msg(&mut self) -> io::Result<Option<Msg>> {
        Ok(self.next_event()?.map(Msg::Term))
    }
}

/// The real terminal: blocks until the user does something.
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    /// The next event; Ctrl-Z suspends the program first, as a shell user
    /// expects, and comes back as a resize, for the screen is drawn whole
    /// again once `fg` resumes it.
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        let event = crossterm::event::read()?;
        if event == TermEvent::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)) {
            suspend()?;
            let (width, height) = crossterm::terminal::size()?;
            return Ok(Some(TermEvent::Resize(width, height)));
        }
        Ok(Some(event))
    }

    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        crossterm::event::poll(timeout)
    }

    /// Through the terminal, which passes it on if it allows: OSC 52, as
    /// xterm defines it (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html,
    /// "Manipulate Selection Data"), written by crossterm. Terminals that
    /// do not allow it ignore it.
    fn copy(&mut self, text: &str) -> io::Result<()> {
        let copy = crossterm::clipboard::CopyToClipboard::to_clipboard_from(text);
        crossterm::execute!(io::stdout(), copy)
    }
}

impl TerminalEvents {
    /// The next event, looking every `every` whether `done` ends the wait
    /// first (`None` then): for a screen that also watches something else.
    fn next_unless(
        &mut self,
        every: Duration,
        mut done: impl FnMut() -> bool,
    ) -> io::Result<Option<TermEvent>> {
        loop {
            if done() {
                return Ok(None);
            }
            if self.poll(every)? {
                return self.next_event();
            }
        }
    }

    /// Whether an event comes within `timeout`, or `done` says so first,
    /// looked at every `every`.
    fn poll_unless(
        &mut self,
        timeout: Duration,
        every: Duration,
        mut done: impl FnMut() -> bool,
    ) -> io::Result<bool> {
        let until = Instant::now() + timeout;
        loop {
            if done() {
                return Ok(true);
            }
            let left = until.saturating_duration_since(Instant::now());
            if self.poll(left.min(every))? {
                return Ok(true);
            }
            if left <= every {
                return Ok(false);
            }
        }
    }
}

/// A fixed list of events, for tests. A script waits for the work between
/// frames to finish before its next key, so that it plays the same every time.
pub struct ScriptedEvents<I>(pub I);

impl<I: Iterator<Item = TermEvent>> EventSource for ScriptedEvents<I> {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        Ok(self.0.next())
    }

    fn poll(&mut self, _: Duration) -> io::Result<bool> {
        Ok(false)
    }
}

/// The run screen, until it quits or the events run out.
pub fn run_app<B>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut impl EventSource,
) -> anyhow::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    run_screen(terminal, app, events)
}

/// Refuses a screen where standard input or output is no terminal, naming
/// `what` it was asked to show (for `run`, which prints it instead).
fn needs_terminal(what: &str) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        anyhow::bail!(Trouble::NeedsTerminal {
            what: what.to_owned()
        });
    }
    Ok(())
}

/// The terminal, taken over: raw mode, the alternate screen and, when
/// asked, the mouse. Dropping it gives all of it back, whichever way the
/// screen ends: a return, an error, a panic unwinding.
struct TakenTerminal {
    terminal: DefaultTerminal,
    mouse: bool,
}

impl TakenTerminal {
    fn take(mouse: bool) -> anyhow::Result<TakenTerminal> {
        // try_init installs a panic hook that restores the terminal first.
        let terminal = ratatui::try_init().context(Trouble::SetUpTerminal)?;
        let mut taken = TakenTerminal {
            terminal,
            mouse: false,
        };
        if mouse {
            capture_mouse().context(Trouble::Mouse)?;
            taken.mouse = true;
        }
        Ok(taken)
    }
}

impl Drop for TakenTerminal {
    fn drop(&mut self) {
        if self.mouse {
            release_mouse();
        }
        ratatui::restore();
    }
}

/// Has the next frame drawn whole: after a suspend the shell has written
/// over the screen. (`Terminal::clear` would ask the terminal where its
/// cursor is, which not every terminal answers.)
fn draw_whole<B: Backend>(terminal: &mut Terminal<B>) -> Result<(), B::Error> {
    let area = terminal.size()?.into();
    terminal.resize(area)
}

/// Gives the terminal back to the shell and stops, as Ctrl-Z does to any
/// program (raw mode turns the terminal's own Ctrl-Z off); once resumed,
/// takes it again. The screen must then be drawn whole.
fn suspend() -> io::Result<()> {
    let mouse = MOUSE.load(Ordering::Relaxed);
    if mouse {
        release_mouse();
    }
    crossterm::execute!(io::stdout(), crossterm::cursor::Show)?;
    ratatui::restore();
    #[cfg(unix)]
    stop_until_continued()?;
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(
        io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        crossterm::cursor::Hide
    )?;
    if mouse {
        crossterm::execute!(io::stdout(), Print(CAPTURE_MOUSE))?;
    }
    Ok(())
}

/// Stops the whole job, as the terminal's own Ctrl-Z would, and returns
/// once the shell has continued it.
///
/// The signal goes to the process group, and the kernel may hand it to
/// another of this program's threads: this one can run on for a moment
/// before the stop takes hold. Had it taken the terminal back by then, the
/// shell, setting its own modes while the job is stopped and handing the
/// terminal over as it was, would leave the resumed screen in cooked mode
/// (keys echoed, nothing acting until Enter). So it waits for SIGCONT. A
/// job that is not stopped at all (its group orphaned, as under `script`)
/// never gets one: the wait gives up after [`STOP_TAKES_HOLD`].
#[cfg(unix)]
fn stop_until_continued() -> io::Result<()> {
    static CONTINUED: std::sync::OnceLock<std::sync::Arc<AtomicBool>> = std::sync::OnceLock::new();
    let continued = match CONTINUED.get() {
        Some(flag) => flag,
        None => {
            let flag = std::sync::Arc::new(AtomicBool::new(false));
            signal_hook::flag::register(signal_hook::consts::SIGCONT, flag.clone())?;
            CONTINUED.get_or_init(|| flag)
        }
    };
    continued.store(false, Ordering::SeqCst);
    rustix::process::kill_current_process_group(rustix::process::Signal::TSTP)?;
    let sent = std::time::Instant::now();
    while !continued.load(Ordering::SeqCst) && sent.elapsed() < STOP_TAKES_HOLD {
        std::thread::sleep(Duration::from_millis(2));
    }
    Ok(())
}

/// Far longer than a stop signal takes to reach every thread of a
/// process, short enough not to be felt where no stop comes.
#[cfg(unix)]
const STOP_TAKES_HOLD: Duration = Duration::from_millis(300);

/// Whether the screen has the mouse, to take it again after a suspend.
static MOUSE: AtomicBool = AtomicBool::new(false);

/// Normal tracking and SGR coordinates, on (see [`capture_mouse`]).
const CAPTURE_MOUSE: &str = "\x1b[?1000h\x1b[?1006h";

/// Asks the terminal to report mouse clicks and the wheel (the timeline
/// takes clicks), and makes a panic hand the mouse back along with the
/// rest of the terminal. Only presses, never motion: a mouse moved while
/// the run plays by itself must not wake the screen. 1000 is "normal"
/// tracking, 1006 its SGR coordinates (any column, not just the first 223),
/// in xterm's control sequences:
/// https://invisible-island.net/xterm/ctlseqs/ctlseqs.html#h2-Mouse-Tracking
fn capture_mouse() -> io::Result<()> {
    let restore_the_rest = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        release_mouse();
        restore_the_rest(info);
    }));
    MOUSE.store(true, Ordering::Relaxed);
    crossterm::execute!(io::stdout(), Print(CAPTURE_MOUSE))
}

/// Gives the mouse back to the terminal, for selecting text. Best effort:
/// the terminal is being restored and there is no one left to tell.
fn release_mouse() {
    let _ = crossterm::execute!(io::stdout(), crossterm::event::DisableMouseCapture);
}
