//! The run screen as the event loop sees it: every message becomes an
//! action for [`update`], and what `update` left to do (text to copy, a
//! quit) comes back as an effect.

use crossterm::event::Event as TermEvent;
use ratatui::Frame;

use super::app::App;
use super::extents::Extents;
use super::keymap::{Action, action_for, action_for_mouse, typed};
use super::runtime::{Effect, Msg, Screen, Ticking};
use super::update::update;

impl Screen for App {
    fn draw(&self, frame: &mut Frame) -> Option<Extents> {
        Some(super::view::draw(frame, self))
    }

    fn update(&mut self, msg: Msg) -> Effect {
        let action = match msg {
            Msg::Term(TermEvent::Key(key)) if self.in_prompt() => typed(key),
            Msg::Term(TermEvent::Key(key)) => action_for(key),
            Msg::Term(TermEvent::Resize(width, height)) => Some(Action::Resize(width, height)),
            Msg::Term(TermEvent::Mouse(mouse)) => action_for_mouse(mouse),
            Msg::Term(_) => None,
            Msg::Tick => Some(Action::Tick),
            Msg::Drawn(extents) => Some(Action::Drawn(extents)),
            Msg::Work => {
                self.work();
                None
            }
            Msg::Runs { runs, more } => {
                self.take_all_runs(&runs);
                self.loading = more;
                None
            }
        };
        if let Some(action) = action {
            update(self, action);
        }
        match self.to_copy.take() {
            Some(text) => Effect::Copy(text),
            None if self.should_quit => Effect::Quit,
            None => Effect::Stay,
        }
    }

    fn working(&self) -> bool {
        App::working(self)
    }

    fn ticking(&self) -> Option<Ticking> {
        self.autoplay_interval().map(|every| Ticking {
            every,
            at: (self.cursor(), self.speed()),
        })
    }
}
