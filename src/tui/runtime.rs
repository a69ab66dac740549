//! One event loop for every screen: the run, compare, the sweep's curve
//! and the load's gauge. A screen draws itself and changes only in
//! [`Screen::update`], which takes a [`Msg`] (a terminal event, an
//! autoplay tick, a slice of work, a frame drawn, runs that came) and
//! answers with an [`Effect`] for the loop to carry out: quit, put text on
//! the clipboard, or open another screen over this one, which Esc or `q`
//! closes again.

use std::time::{Duration, Instant};

use anyhow::Context;
use crossterm::event::Event as TermEvent;
use ratatui::backend::Backend;
use ratatui::{Frame, Terminal};

use super::extents::Extents;
use super::{EventSource, draw_whole};
use crate::narrate::Trouble;
use crate::transcript::Localized;

/// What a screen is told.
pub enum Msg {
    /// A key, a click or a resize.
    Term(TermEvent),
    /// The autoplay's next phase is due.
    Tick,
    /// Time for a slice of the work between frames.
    Work,
    /// A frame was drawn, this far each pane could scroll.
    Drawn(Extents),
    /// Runs came from outside: the rest of a file that was loading, or a
    /// recording that grew; `more` while still more may come.
    Runs { runs: Vec<Localized>, more: bool },
}

/// What a screen asks of the loop.
pub enum Effect {
    Stay,
    /// Closes this screen: the one it was opened over shows again, and the
    /// first screen's quitting ends the loop.
    Quit,
    /// Text for the clipboard.
    Copy(String),
    /// Another screen over this one, until it quits.
    Open(Box<dyn Screen>),
}

/// A screen that plays by itself: how often its next phase is due, and
/// where it is (a key that moves it starts the wait afresh).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticking {
    pub every: Duration,
    pub at: (usize, &'static str),
}

pub trait Screen {
    /// Draws a frame; the extents it reports come back as [`Msg::Drawn`].
    fn draw(&self, frame: &mut Frame) -> Option<Extents>;

    /// The one place a screen changes.
    fn update(&mut self, msg: Msg) -> Effect;

    /// Whether there is work to do between frames.
    fn working(&self) -> bool {
        false
    }

    /// Whether it plays by itself, and at what pace.
    fn ticking(&self) -> Option<Ticking> {
        None
    }
}

/// Draws, waits for an event, updates; until the first screen quits or the
/// events run out.
pub fn run_screen<B>(
    terminal: &mut Terminal<B>,
    first: &mut dyn Screen,
    events: &mut impl EventSource,
) -> anyhow::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    // Screens opened over the first, the newest last.
    let mut opened: Vec<Box<dyn Screen>> = Vec::new();
    // When the next autoplay tick is due, and for which place: an event
    // that changes neither (a key that does nothing) leaves it be.
    let mut tick: Option<(Instant, Ticking)> = None;
    loop {
        let screen: &mut dyn Screen = match opened.last_mut() {
            Some(top) => top.as_mut(),
            None => &mut *first,
        };
        let mut extents = None;
        terminal.draw(|frame| extents = screen.draw(frame))?;
        let mut effects = Vec::new();
        if let Some(extents) = extents {
            effects.push(screen.update(Msg::Drawn(extents)));
        }
        let msg = next_msg(screen, events, &mut tick)?;
        let Some(msg) = msg else {
            return Ok(());
        };
        if let Msg::Term(TermEvent::Resize(..)) = msg {
            draw_whole(terminal)?;
        }
        effects.push(screen.update(msg));
        for effect in effects {
            match effect {
                Effect::Stay => {}
                Effect::Copy(text) => events.copy(&text).context(Trouble::WriteTerminal)?,
                Effect::Open(screen) => opened.push(screen),
                Effect::Quit if opened.pop().is_some() => {}
                Effect::Quit => return Ok(()),
            }
        }
    }
}

/// What happens next: a slice of work while no key waits, the autoplay's
/// tick when no key comes by the time it is due, else the next event
/// (`None` when the events have run out).
fn next_msg(
    screen: &dyn Screen,
    events: &mut impl EventSource,
    tick: &mut Option<(Instant, Ticking)>,
) -> anyhow::Result<Option<Msg>> {
    if screen.working() && !events.poll(Duration::ZERO).context(Trouble::ReadTerminal)? {
        return Ok(Some(Msg::Work));
    }
    match screen.ticking() {
        Some(ticking) => {
            let now = Instant::now();
            let due = match *tick {
                Some((due, at)) if at == ticking => due,
                _ => now + ticking.every,
            };
            *tick = Some((due, ticking));
            let waiting = due.saturating_duration_since(now);
            if !events.poll(waiting).context(Trouble::ReadTerminal)? {
                // The next is due a whole interval after this one.
                *tick = None;
                return Ok(Some(Msg::Tick));
            }
        }
        None => *tick = None,
    }
    events.next_msg().context(Trouble::ReadTerminal)
}
