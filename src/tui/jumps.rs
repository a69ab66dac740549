//! Moving through a run by what happens in it: the next model call, tool
//! call, user prompt or step gone wrong, and the matches of a search.

use super::app::{App, LOOKAHEAD};
use super::keymap::Action;
use super::search::Search;
use super::update::update;
use crate::engine::{Event, Message};
use crate::lang::Lang;
use crate::transcript::Localized;

impl App {
    /// Goes to the next step after the cursor (or the last before it) that
    /// `pick` picks, replaying further as it needs; with `wrap`, on from
    /// the other end of the run. Stays when there is none.
    pub(super) fn jump(&mut self, forward: bool, wrap: bool, pick: fn(&Event) -> bool) {
        let mut found = if forward {
            self.first_from(self.cursor + 1, pick)
        } else {
            self.replay.steps()[..self.cursor]
                .iter()
                .rposition(|s| pick(&s.event))
        };
        if found.is_none() && wrap {
            found = if forward {
                self.first_from(0, pick)
            } else {
                self.seek_end_now();
                self.replay.steps().iter().rposition(|s| pick(&s.event))
            };
        }
        if let Some(index) = found {
            self.move_to(index);
        }
    }

    /// `u` and `U`: the next or previous user prompt. A log of several
    /// prompts opens as a run a prompt, each continuing the one before:
    /// past this run's prompts, the next (or previous) such run.
    pub(super) fn next_prompt(&mut self, forward: bool) {
        let before = self.cursor;
        self.jump(forward, false, is_prompt);
        if self.cursor != before {
            return;
        }
        let (this, other) = match forward {
            true => (self.current, self.current + 1),
            false => (self.current.wrapping_sub(1), self.current),
        };
        if other < self.runs.len()
            && this < self.runs.len()
            && continues(&self.runs[this], &self.runs[other])
        {
            self.trail.clear();
            self.open_run(if forward { other } else { this });
        }
    }

    /// The first step at or after `from` that `pick` picks.
    pub(super) fn first_from(&mut self, from: usize, pick: fn(&Event) -> bool) -> Option<usize> {
        let mut from = from;
        loop {
            let steps = self.replay.steps();
            let known = steps.len();
            if let Some(i) = steps[from.min(known)..].iter().position(|s| pick(&s.event)) {
                return Some(from.min(known) + i);
            }
            from = known;
            self.replay.reach(known + LOOKAHEAD);
            if self.replay.steps().len() == known {
                return None;
            }
        }
    }

    /// Replays to the end of the run at once.
    pub(super) fn seek_end_now(&mut self) {
        while self.replay.advance() {}
    }

    /// Goes where the search was asked to, if it knows where yet.
    pub(super) fn take_search_jump(&mut self) {
        if let Some(step) = self.search.as_mut().and_then(Search::take_jump) {
            self.move_to(step);
        }
    }

    /// `n` and `N`: the next or previous match; without a search, the next
    /// or previous turn.
    pub(super) fn next_match(&mut self, forward: bool) {
        match &mut self.search {
            Some(search) => {
                search.want(forward, self.cursor);
                self.take_search_jump();
            }
            None => update(
                self,
                if forward {
                    Action::NextTurn
                } else {
                    Action::PrevTurn
                },
            ),
        }
    }
}

/// Where a user's words enter the conversation: the question, and the
/// prompts a multi-prompt log adds between calls.
fn is_prompt(event: &Event) -> bool {
    matches!(event, Event::Start | Event::Inserted { .. })
}

/// Whether run `later` takes up where `earlier` left off: its history
/// begins with the conversation `earlier` opened with.
fn continues(earlier: &Localized, later: &Localized) -> bool {
    let (earlier, later) = (earlier.get(Lang::En), later.get(Lang::En));
    let (before, after) = (earlier.history.messages(), later.history.messages());
    after.len() > before.len()
        && after.starts_with(before)
        && after[before.len()] == Message::user_text(&earlier.question)
}
