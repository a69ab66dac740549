//! The compare screen: two runs, or one run under two settings, side by
//! side, stepping together; the first step where they part is marked, and
//! `v` goes there.
//!
//! Each side is a main-screen [`App`], so each stays as lazy as the main
//! screen (replayed only as far as it is looked at) and draws with the
//! main screen's own panels. The step both are on is the further of the
//! two cursors: a side whose run has ended stays on its last step.

mod keys;

use std::time::{Duration, Instant};

use crossterm::event::Event as TermEvent;
use ratatui::backend::Backend;
use ratatui::{Frame, Terminal};

pub use keys::{BINDINGS, CompareAction, action_for};

use super::app::App;
use super::extents::Extents;
use super::keymap::Action;
use super::runtime::{Effect, Msg, Screen, run_screen};
use super::settings::Settings;
use super::theme::Look;
use super::update::update;
use super::{EventSource, TakenTerminal, TerminalEvents, view};
use crate::compare::first_divergence_from;
use crate::narrate::Side;
use crate::transcript::Localized;

/// What is known of where the two runs part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parting {
    /// Not known yet: the first `same` steps of both are the same.
    Looking { same: usize },
    /// At this step (0-based): the first that differs, or the first that
    /// one side has and the other has not.
    At(usize),
    /// Nowhere: the two replays are the same to their ends.
    Nowhere,
}

pub struct Compare {
    left: App,
    right: App,
    parting: Parting,
    pub look: Look,
    pub show_help: bool,
    pub should_quit: bool,
}

/// How many steps each replay goes on by while the parting is looked for.
const CHUNK: usize = 256;

/// How long the parting is looked for between two frames, so that a key
/// is answered within a frame or two.
const SLICE: Duration = Duration::from_millis(30);

impl Compare {
    /// Opens `runs[index]` with its settings on each side.
    pub fn new(runs: &[Localized], [left, right]: [(usize, Settings); 2]) -> Self {
        let mut compare = Compare {
            left: App::new(runs, left.0, left.1),
            right: App::new(runs, right.0, right.1),
            parting: Parting::Looking { same: 0 },
            look: Look {
                theme: left.1.theme,
                monochrome: left.1.monochrome,
            },
            show_help: false,
            should_quit: false,
        };
        compare.compare_known();
        compare
    }

    pub fn side(&self, side: Side) -> &App {
        match side {
            Side::Left => &self.left,
            Side::Right => &self.right,
        }
    }

    /// The step (0-based) both sides are on: the further of the two
    /// cursors, as a side that has ended stays on its last step.
    pub fn step(&self) -> usize {
        self.left.cursor().max(self.right.cursor())
    }

    pub fn parting(&self) -> Parting {
        self.parting
    }

    /// Whether there is work to do between frames: the parting to find, a
    /// side replaying toward its end.
    pub fn working(&self) -> bool {
        matches!(self.parting, Parting::Looking { .. })
            || self.left.working()
            || self.right.working()
    }

    /// A slice of the work between frames.
    pub fn work(&mut self) {
        for app in [&mut self.left, &mut self.right] {
            if app.working() {
                app.work();
            }
        }
        let started = Instant::now();
        while matches!(self.parting, Parting::Looking { .. }) && started.elapsed() < SLICE {
            self.look_further();
        }
    }

    /// Compares the steps both replays know, on from those known to be the
    /// same; settles the parting when they tell it.
    fn compare_known(&mut self) {
        let Parting::Looking { same } = self.parting else {
            return;
        };
        let (left, right) = (self.left.trace(), self.right.trace());
        let known = left.steps.len().min(right.steps.len());
        // Whether the side with fewer steps known has no more to come.
        let shorter_complete = match left.steps.len() <= right.steps.len() {
            true => self.left.trace_complete(),
            false => self.right.trace_complete(),
        };
        let both_complete = self.left.trace_complete() && self.right.trace_complete();
        self.parting = match first_divergence_from(left, right, same) {
            Some(index) if index < known || shorter_complete => Parting::At(index),
            None if both_complete => Parting::Nowhere,
            _ => Parting::Looking { same: known },
        };
    }

    /// Replays both sides a little further and compares what they add.
    fn look_further(&mut self) {
        if let Parting::Looking { same } = self.parting {
            self.left.replay_as_far_as(same + CHUNK);
            self.right.replay_as_far_as(same + CHUNK);
            self.compare_known();
        }
    }

    /// Both sides to step `index` (0-based), or as near as each goes.
    fn go(&mut self, index: usize) {
        for app in [&mut self.left, &mut self.right] {
            // Esc calls off a side still replaying toward its end.
            if app.seeking().is_some() {
                update(app, Action::Back);
            }
            app.go_to_step(index + 1);
        }
    }

    /// A move by turns, made by the side on the step both are on (the
    /// one that goes on, when both are there), which the other follows.
    fn by_turn(&mut self, action: Action) {
        let step = self.step();
        let left_leads =
            self.left.cursor() == step && (!self.left.at_end() || self.right.cursor() != step);
        let lead = if left_leads {
            &mut self.left
        } else {
            &mut self.right
        };
        update(lead, action);
        let to = lead.cursor();
        self.go(to);
    }

    /// Goes to the parting, finding it first if need be; stays where there
    /// is none.
    fn go_to_parting(&mut self) {
        while matches!(self.parting, Parting::Looking { .. }) {
            self.look_further();
        }
        if let Parting::At(index) = self.parting {
            self.go(index);
        }
    }

    /// What a key asks of the compare screen: its one way to change.
    fn act(&mut self, action: CompareAction) {
        use CompareAction as A;
        if self.show_help {
            // The help is modal: it closes on its own keys, and quitting still works.
            match action {
                A::ToggleHelp | A::Back => return self.show_help = false,
                A::ToggleLang | A::CycleTheme | A::Quit => {}
                _ => return,
            }
        }
        match action {
            A::Next => self.go(self.step() + 1),
            A::Prev => self.go(self.step().saturating_sub(1)),
            A::NextTurn => self.by_turn(Action::NextTurn),
            A::PrevTurn => self.by_turn(Action::PrevTurn),
            A::Start => self.go(0),
            A::End => {
                update(&mut self.left, Action::End);
                update(&mut self.right, Action::End);
            }
            A::Divergence => self.go_to_parting(),
            A::ToggleLang => {
                update(&mut self.left, Action::ToggleLang);
                update(&mut self.right, Action::ToggleLang);
                // The texts changed on both sides; the steps did not, so
                // the parting is found again where it was.
                self.parting = Parting::Looking { same: 0 };
                self.compare_known();
            }
            A::CycleTheme => self.look.theme = self.look.theme.next(),
            A::ToggleHelp => self.show_help = !self.show_help,
            A::Back | A::Quit => self.should_quit = true,
        }
    }
}

impl Screen for Compare {
    fn draw(&self, frame: &mut Frame) -> Option<Extents> {
        view::draw_compare(frame, self);
        None
    }

    fn update(&mut self, msg: Msg) -> Effect {
        match msg {
            Msg::Term(TermEvent::Key(key)) => {
                if let Some(action) = action_for(key) {
                    self.act(action);
                }
            }
            Msg::Work => self.work(),
            _ => {}
        }
        match self.should_quit {
            true => Effect::Quit,
            false => Effect::Stay,
        }
    }

    fn working(&self) -> bool {
        Compare::working(self)
    }
}

/// The compare screen, until it quits or the events run out.
pub fn run_compare<B>(
    terminal: &mut Terminal<B>,
    compare: &mut Compare,
    events: &mut impl EventSource,
) -> anyhow::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    run_screen(terminal, compare, events)
}

/// Takes over the terminal (the mouse stays the terminal's: the compare
/// screen takes no clicks) and runs the compare screen on `runs`; always
/// gives the terminal back.
pub fn play(runs: &[Localized], sides: [(usize, Settings); 2]) -> anyhow::Result<()> {
    let mut taken = TakenTerminal::take(false)?;
    let mut compare = Compare::new(runs, sides);
    run_compare(&mut taken.terminal, &mut compare, &mut TerminalEvents)
}
