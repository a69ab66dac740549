//! The first frame, drawn before the file is in: a gauge of the load that
//! runs on its own thread. `q` quits at once; other keys wait for the
//! screen and then act in the order they were typed.

use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use anyhow::Context;
use crossterm::event::Event as TermEvent;
use ratatui::Terminal;
use ratatui::backend::Backend;

use super::keymap::{Action, action_for};
use super::theme::Look;
use super::{EventSource, view};
use crate::narrate::{Say, Trouble};
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
    let mut typed = VecDeque::new();
    while !loaded() {
        terminal.draw(|frame| view::loading(frame, (say, look), what, progress.stage()))?;
        if !events.poll(REDRAW).context(Trouble::ReadTerminal)? {
            continue;
        }
        let Some(event) = events.next_event().context(Trouble::ReadTerminal)? else {
            break;
        };
        if let TermEvent::Key(key) = event
            && matches!(action_for(key), Some(Action::Quit | Action::Back))
        {
            return Ok(None);
        }
        typed.push_back(event);
    }
    Ok(Some(typed))
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
}
