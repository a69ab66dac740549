//! The screen's state and `update`, the only place it changes.
//!
//! A replay is cheap and deterministic, so the whole trace is computed up
//! front and the screen moves a cursor over it; changing max_turns or the
//! check replays at once.

use std::num::NonZeroU32;

use crate::engine::{CheckPolicy, Config, Event, MAX_TURNS, Mistake, Rounds, Step, Trace};
use crate::transcript::{Localized, Transcript};

use super::keymap::Action;
use super::view::Extents;
use crate::narrate::{Lang, Say};

/// How the screen sets up the loop when it opens.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    /// Overrides the run's own budget.
    pub max_turns: Option<NonZeroU32>,
    pub check: CheckPolicy,
    pub mistake: Option<Mistake>,
    /// Draw without colour (the `NO_COLOR` convention); emphasis stays.
    pub monochrome: bool,
    pub lang: Lang,
}

/// What the detail pane shows for a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailView {
    /// In words: what was sent, received, run, appended.
    Summary,
    /// The JSON that crossed the wire, in the shape of the run's API.
    Wire,
}

impl DetailView {
    fn next(self) -> Self {
        match self {
            DetailView::Summary => DetailView::Wire,
            DetailView::Wire => DetailView::Summary,
        }
    }
}

pub struct App {
    runs: Vec<Localized>,
    current: usize,
    config: Config,
    trace: Trace,
    /// Characters in the first n messages, for the "request size" figures.
    prefix_chars: Vec<usize>,
    cursor: usize,
    /// How many of the newest messages are scrolled out of view below;
    /// 0 follows the conversation as it grows.
    pub scroll_back: usize,
    pub detail: DetailView,
    /// Long texts shown whole rather than folded.
    pub expanded: bool,
    /// Rows of the detail pane scrolled past.
    pub detail_scroll: usize,
    pub show_help: bool,
    pub should_quit: bool,
    pub monochrome: bool,
    pub lang: Lang,
    /// How far the panes could scroll in the last frame drawn, so that
    /// scrolling stops where the content does.
    extents: Extents,
}

impl App {
    /// Opens `runs[current]` with `settings`; the budget is the run's own
    /// unless the settings give one.
    pub fn new(runs: Vec<Localized>, current: usize, settings: Settings) -> Self {
        let current = current.min(runs.len().saturating_sub(1));
        let transcript = runs[current].get(settings.lang);
        let config = Config {
            max_turns: settings.max_turns.unwrap_or(transcript.max_turns),
            check: settings.check,
            mistake: settings.mistake,
            ..transcript.default_config()
        };
        let trace = transcript.replay_in(config, settings.lang);
        let mut app = App {
            prefix_chars: Vec::new(),
            runs,
            current,
            config,
            trace,
            cursor: 0,
            scroll_back: 0,
            detail: DetailView::Summary,
            expanded: false,
            detail_scroll: 0,
            show_help: false,
            should_quit: false,
            monochrome: settings.monochrome,
            lang: settings.lang,
            extents: Extents::default(),
        };
        app.count_chars();
        app
    }

    pub fn transcript(&self) -> &Transcript {
        self.runs[self.current].get(self.lang)
    }

    pub fn runs(&self) -> (usize, usize) {
        (self.current, self.runs.len())
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// Words in the screen's language and the run's dialect.
    pub fn say(&self) -> Say {
        Say::new(self.lang, self.config.dialect)
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn step(&self) -> &Step {
        &self.trace.steps[self.cursor]
    }

    /// Whether the cursor is on the step that ends the run.
    pub fn at_end(&self) -> bool {
        self.cursor + 1 == self.trace.steps.len()
    }

    /// Model calls made up to and including the current step.
    pub fn calls_so_far(&self) -> usize {
        // The newest call at or before the cursor knows its own number.
        self.trace.steps[..=self.cursor]
            .iter()
            .rev()
            .find_map(|s| match &s.event {
                Event::Call { request, .. } => Some(request.number as usize),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The rounds that led to another call, up to the current step.
    pub fn rounds_so_far(&self) -> Rounds {
        Rounds::of(&self.trace.steps[..=self.cursor])
    }

    /// Characters in the first `count` messages.
    pub fn chars_of(&self, count: usize) -> usize {
        self.prefix_chars[count.min(self.prefix_chars.len() - 1)]
    }

    /// For a dispatch step: which of the turn's tool calls it is, and of how many.
    pub fn dispatch_position(&self) -> (usize, usize) {
        // Turns only grow along the trace: the turn's steps by binary search.
        let steps = &self.trace.steps;
        let turn = self.step().turn;
        let from = steps.partition_point(|s| s.turn < turn);
        let to = steps.partition_point(|s| s.turn <= turn);
        let is_dispatch = |s: &&Step| matches!(s.event, Event::Dispatch { .. });
        let nth = steps[from..=self.cursor].iter().filter(is_dispatch).count();
        let of = steps[from..to].iter().filter(is_dispatch).count();
        (nth, of)
    }

    fn count_chars(&mut self) {
        self.prefix_chars = std::iter::once(0)
            .chain(self.trace.messages.iter().scan(0, |total, m| {
                *total += m.chars();
                Some(*total)
            }))
            .collect();
    }

    /// Replays with the current config, keeping the cursor on the same step
    /// when it still exists, else moving to the new end.
    fn replay(&mut self) {
        let old = self.step().clone();
        let was_at_end = self.at_end();
        self.trace = self.transcript().replay_in(self.config, self.lang);
        self.count_chars();
        let last = self.trace.steps.len() - 1;
        let same = self
            .trace
            .steps
            .get(self.cursor)
            .is_some_and(|s| s.turn == old.turn && s.event.phase() == old.event.phase());
        if was_at_end || !same {
            self.cursor = last;
        }
    }

    fn open_run(&mut self, index: usize) {
        if index >= self.runs.len() {
            return;
        }
        self.current = index;
        // A run brings its own budget and harness; the check and mistake stay.
        self.config = Config {
            check: self.config.check,
            mistake: self.config.mistake,
            ..self.runs[index].get(self.lang).default_config()
        };
        self.trace = self.runs[index]
            .get(self.lang)
            .replay_in(self.config, self.lang);
        self.count_chars();
        self.cursor = 0;
        self.scroll_back = 0;
        self.detail_scroll = 0;
    }

    /// Switches language. The run's texts change with it, its steps do
    /// not, so the replay keeps the cursor where it was.
    fn toggle_lang(&mut self) {
        self.lang = self.lang.toggled();
        self.replay();
    }

    /// Keeps both scrolls within what the last frame drew.
    fn clamp_scrolls(&mut self) {
        self.detail_scroll = self.detail_scroll.min(self.extents.detail);
        self.scroll_back = self.scroll_back.min(self.extents.messages);
    }

    fn move_to(&mut self, index: usize) {
        self.cursor = index.min(self.trace.steps.len() - 1);
        self.scroll_back = 0;
        self.detail_scroll = 0;
    }
}

/// Rows one PageUp / PageDown moves the detail pane.
const DETAIL_PAGE: usize = 5;

pub fn update(app: &mut App, action: Action) {
    if app.show_help {
        // The help is modal: it closes on its own keys, and quitting still works.
        match action {
            Action::Drawn(extents) => app.extents = extents,
            Action::ToggleHelp | Action::Back => app.show_help = false,
            Action::ToggleLang => app.toggle_lang(),
            Action::Quit => app.should_quit = true,
            _ => {}
        }
        return;
    }
    let last = app.trace.steps.len() - 1;
    match action {
        Action::Next => app.move_to(app.cursor + 1),
        Action::Prev => app.move_to(app.cursor.saturating_sub(1)),
        Action::NextTurn => {
            let turn = app.step().turn;
            let next = app.trace.steps.iter().position(|s| s.turn > turn);
            app.move_to(next.unwrap_or(last));
        }
        Action::PrevTurn => {
            let turn = app.step().turn;
            let start_of = |t: u32| app.trace.steps.iter().position(|s| s.turn == t);
            let this_start = start_of(turn).unwrap_or(0);
            let target = if app.cursor > this_start || turn == 0 {
                this_start
            } else {
                start_of(turn - 1).unwrap_or(0)
            };
            app.move_to(target);
        }
        Action::Start => app.move_to(0),
        Action::End => app.move_to(last),
        Action::MoreTurns => {
            if let Some(more) = app
                .config
                .max_turns
                .checked_add(1)
                .filter(|n| n.get() <= MAX_TURNS)
            {
                app.config.max_turns = more;
                app.replay();
            }
        }
        Action::FewerTurns => {
            if let Some(fewer) = NonZeroU32::new(app.config.max_turns.get() - 1) {
                app.config.max_turns = fewer;
                app.replay();
            }
        }
        Action::ResetTurns => {
            app.config.max_turns = app.transcript().max_turns;
            app.replay();
        }
        Action::NextRun => app.open_run((app.current + 1) % app.runs.len()),
        Action::PrevRun => app.open_run((app.current + app.runs.len() - 1) % app.runs.len()),
        Action::PickRun(index) => app.open_run(index),
        Action::NextMistake => {
            app.config.mistake = Mistake::cycle(app.config.mistake);
            app.replay();
        }
        Action::CorrectLoop => {
            app.config.mistake = None;
            app.replay();
        }
        Action::ToggleCheck => {
            app.config.check = match app.config.check {
                CheckPolicy::Lesson => CheckPolicy::Production,
                CheckPolicy::Production => CheckPolicy::Lesson,
            };
            app.replay();
        }
        Action::ScrollUp => app.scroll_back = (app.scroll_back + 1).min(app.extents.messages),
        Action::ScrollDown => app.scroll_back = app.scroll_back.saturating_sub(1),
        Action::DetailDown => {
            app.detail_scroll = (app.detail_scroll + DETAIL_PAGE).min(app.extents.detail);
        }
        Action::DetailUp => app.detail_scroll = app.detail_scroll.saturating_sub(DETAIL_PAGE),
        Action::ToggleWire => {
            app.detail = app.detail.next();
            app.detail_scroll = 0;
        }
        Action::ToggleLang => app.toggle_lang(),
        Action::ToggleExpand => app.expanded = !app.expanded,
        // The next frame is drawn at the new size and reports its extents.
        Action::Resize(..) => {}
        Action::Drawn(extents) => {
            app.extents = extents;
            app.clamp_scrolls();
        }
        Action::ToggleHelp => app.show_help = true,
        Action::Back | Action::Quit => app.should_quit = true,
    }
}
