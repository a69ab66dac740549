//! The first frame, drawn before the file is in: a gauge of the load that
//! runs on its own thread. `q` quits at once; other keys wait for the
//! screen and then act in the order they were typed.

use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use crossterm::event::Event as TermEvent;
use ratatui::backend::Backend;
use ratatui::{Frame, Terminal};

use super::extents::Extents;
use super::keymap::{Action, action_for};
use super::runtime::{Effect, Msg, Screen, Ticking, run_screen};
use super::theme::Look;
use super::{EventSource, view};
use crate::narrate::Say;
use crate::transcript::Progress;

/// How often the gauge is redrawn while nothing is typed.
const REDRAW: Duration = Duration::from_millis(40);

/// Draws the load's gauge until `loaded()`; returns the keys typed
/// meanwhile, or `None` when the user quit.
pub fn wait_for_load<B>(
    terminal: &mut Terminal<B>,
    progress: &Progress,
    (say, look, what): (Say, Look, &str),
    loaded: impl Fn() -> bool,
    events: &mut impl EventSource,
) -> anyhow::Result<Option<VecDeque<TermEvent>>>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    if loaded() {
        return Ok(Some(VecDeque::new()));
    }
    let mut gauge = Gauge {
        progress,
        words: (say, look, what),
        loaded,
        typed: VecDeque::new(),
        quit: false,
    };
    run_screen(terminal, &mut gauge, events)?;
    Ok((!gauge.quit).then_some(gauge.typed))
}

/// The load's gauge as a screen: it looks whether the load is done at
/// every redraw and every key, and keeps the keys for the screen to come.
struct Gauge<'p, F> {
    progress: &'p Progress,
    words: (Say, Look, &'p str),
    loaded: F,
    typed: VecDeque<TermEvent>,
    quit: bool,
}

impl<F: Fn() -> bool> Screen for Gauge<'_, F> {
    fn draw(&self, frame: &mut Frame) -> Option<Extents> {
        let (say, look, what) = self.words;
        view::loading(frame, (say, look), what, self.progress.stage());
        None
    }

    fn update(&mut self, msg: Msg) -> Effect {
        if let Msg::Term(event) = msg {
            if let TermEvent::Key(key) = event
                && matches!(action_for(key), Some(Action::Quit | Action::Back))
            {
                self.quit = true;
                return Effect::Quit;
            }
            self.typed.push_back(event);
        }
        match (self.loaded)() {
            true => Effect::Quit,
            false => Effect::Stay,
        }
    }

    fn ticking(&self) -> Option<Ticking> {
        Some(Ticking {
            every: REDRAW,
            at: (0, ""),
        })
    }
}

/// Keys typed during the load, played first, then the terminal's. Like a
/// script, they let the work between frames finish before the next one.
pub struct Typed<S> {
    pub keys: VecDeque<TermEvent>,
    pub then: S,
}

impl<S: EventSource> EventSource for Typed<S> {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        match self.keys.pop_front() {
            Some(event) => Ok(Some(event)),
            None => self.then.next_event(),
        }
    }

    fn copy(&mut self, text: &str) -> io::Result<()> {
        self.then.copy(text)
    }

    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.keys.is_empty() {
            self.then.poll(timeout)
        } else {
            Ok(false)
        }
    }

    fn next_msg(&mut self) -> io::Result<Option<Msg>> {
        match self.keys.pop_front() {
            Some(event) => Ok(Some(Msg::Term(event))),
            None => self.then.next_msg(),
        }
    }
}
