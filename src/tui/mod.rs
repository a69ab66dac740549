//! The teaching screen, in The Elm Architecture: a key becomes an [`Action`]
//! through the keymap, [`update`] changes the [`App`], and the view draws it.
//! The main loop is generic over the ratatui backend and takes its events
//! from an [`EventSource`], so tests drive it with a script of keys.

pub mod app;
pub mod handout;
pub mod keymap;
pub mod loading;
pub mod quiz;
pub mod search;
pub mod theme;
pub mod view;

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use crossterm::event::Event as TermEvent;
use ratatui::Terminal;
use ratatui::backend::Backend;

use crate::dialect::Dialect;
use crate::narrate::Say;
use crate::transcript::{Localized, Progress};

pub use app::{App, Settings, update};
pub use keymap::{Action, action_for, action_for_mouse};
pub use loading::{Typed, wait_for_load};

/// Where terminal events come from.
pub trait EventSource {
    /// The next event, waiting for it; `None` when there are no more (a
    /// finished script).
    fn next_event(&mut self) -> io::Result<Option<TermEvent>>;

    /// Whether an event comes within `timeout`: work between frames gives
    /// way to it.
    fn poll(&mut self, timeout: Duration) -> io::Result<bool>;
}

/// The real terminal: blocks until the user does something.
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        crossterm::event::read().map(Some)
    }

    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        crossterm::event::poll(timeout)
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

/// Draws, waits for an event, updates; until quit or the events run out.
pub fn run_app<B>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut impl EventSource,
) -> anyhow::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    loop {
        let mut extents = view::Extents::default();
        terminal.draw(|frame| extents = view::draw(frame, app))?;
        update(app, Action::Drawn(extents));
        // Work between frames goes a slice at a time, each slice drawn,
        // until it is done or a key calls it off.
        if app.working()
            && !events
                .poll(Duration::ZERO)
                .context("could not read from the terminal")?
        {
            app.work();
            continue;
        }
        // Playing by itself: a tick when no key comes within the phase's time.
        if let Some(interval) = app.autoplay_interval()
            && !events
                .poll(interval)
                .context("could not read from the terminal")?
        {
            update(app, Action::Tick);
            continue;
        }
        // Every event, a resize included, is followed by a redraw at the top.
        let Some(event) = events
            .next_event()
            .context("could not read from the terminal")?
        else {
            return Ok(());
        };
        let action = match event {
            TermEvent::Key(key) if app.search_prompt.is_some() => keymap::typed(key),
            TermEvent::Key(key) => action_for(key),
            TermEvent::Resize(width, height) => Some(Action::Resize(width, height)),
            TermEvent::Mouse(mouse) => action_for_mouse(mouse),
            _ => None,
        };
        if let Some(action) = action {
            update(app, action);
        }
        if app.should_quit {
            return Ok(());
        }
    }
}

/// Takes over the terminal, shows the gauge while `load` reads the runs
/// on its own thread, then runs the screen; always gives the terminal back.
/// `what` names the run or file for the gauge. A failed load comes back as
/// the inner error, once the terminal is restored.
pub fn play<E: Send + 'static>(
    what: &str,
    settings: Settings,
    load: impl FnOnce(&Progress) -> Result<(Vec<Localized>, usize), E> + Send + 'static,
) -> anyhow::Result<Result<(), E>> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        bail!(
            "the screen needs an interactive terminal; for plain text output use \
             `loopstep run {what}`"
        );
    }
    let progress = Arc::new(Progress::default());
    let loader = std::thread::spawn({
        let progress = Arc::clone(&progress);
        move || load(&progress)
    });
    // try_init installs a panic hook that restores the terminal first.
    let mut terminal = ratatui::try_init().context("could not set up the terminal")?;
    if settings.mouse {
        capture_mouse().context("could not turn on the mouse")?;
    }
    let say = Say::new(settings.lang, Dialect::default());
    let result = wait_for_load(
        &mut terminal,
        &progress,
        (say, what),
        || loader.is_finished(),
        &mut TerminalEvents,
    )
    .and_then(|typed| {
        // Quitting during the load leaves the loader to end with the process.
        let Some(keys) = typed else {
            return Ok(Ok(()));
        };
        let (runs, index) = match loader.join() {
            Ok(Ok(loaded)) => loaded,
            Ok(Err(failed)) => return Ok(Err(failed)),
            Err(panic) => std::panic::resume_unwind(panic),
        };
        let mut app = App::new(&runs, index, settings);
        let mut events = Typed {
            keys,
            then: TerminalEvents,
        };
        run_app(&mut terminal, &mut app, &mut events).map(Ok)
    });
    if settings.mouse {
        release_mouse();
    }
    ratatui::restore();
    result
}

/// Asks the terminal to report the mouse (a click on the timeline), and
/// makes a panic hand it back along with the rest of the terminal.
fn capture_mouse() -> io::Result<()> {
    let restore_the_rest = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        release_mouse();
        restore_the_rest(info);
    }));
    crossterm::execute!(io::stdout(), crossterm::event::EnableMouseCapture)
}

/// Gives the mouse back to the terminal, for selecting text. Best effort:
/// the terminal is being restored and there is no one left to tell.
fn release_mouse() {
    let _ = crossterm::execute!(io::stdout(), crossterm::event::DisableMouseCapture);
}
