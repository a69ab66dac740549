//! The run screen's state. It changes only as the event loop tells it
//! ([`Screen::update`](super::runtime::Screen::update) in `run_screen.rs`),
//! which hands every key, tick and frame to [`update`](super::update).
//!
//! The screen moves a cursor over a replay that is computed only as far as
//! the screen looks: a run of ten thousand turns opens at once. Changing
//! max_turns cuts or extends that replay; changing the check, the mistake
//! or the language replays afresh, again only as far as the cursor.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::dialect::Dialect;
use crate::engine::{Config, Event, Rounds, Step, TraceView, Usage};
use crate::lesson::Text;
use crate::narrate::LazyReplay;
use crate::prices::Prices;
use crate::transcript::{Localized, Transcript, Untold};

use super::extents::Extents;
use super::link::Opened;
use super::quiz::{Guess, Quiz};
use super::search::Search;
use super::settings::Settings;
use super::theme::Theme;
use crate::narrate::{Lang, Say};

/// Autoplay speeds; at 1× a phase lasts [`PHASE`].
pub(super) const SPEEDS: [(f64, &str); 4] = [(0.5, "0.5"), (1.0, "1"), (2.0, "2"), (4.0, "4")];
/// How long a phase shows when the run plays by itself at 1×: the
/// screen's autoplay, and the pace of an exported recording of it.
pub const PHASE: Duration = Duration::from_millis(1500);

/// What the detail pane shows for a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailView {
    /// In words: what was sent, received, run, appended.
    Summary,
    /// The JSON that crossed the wire, in the shape of the run's API.
    Wire,
}

impl DetailView {
    pub(super) fn next(self) -> Self {
        match self {
            DetailView::Summary => DetailView::Wire,
            DetailView::Wire => DetailView::Summary,
        }
    }
}

/// What takes the keys: the run, or something over it that takes them
/// first. One at a time, so which has them is never in doubt. (Seeking the
/// end is work between frames, not a mode, like a search's scan: it goes
/// on under the help or a prompt, and the run's keys call it off.)
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Mode {
    /// The run: every key does what the key table says.
    #[default]
    Normal,
    /// The help, over the run: its own keys scroll and close it.
    Help,
    /// `:` and the step number typed so far.
    GoTo(String),
    /// `/` and the text typed so far.
    Search(String),
    /// The quiz asks the class what the next step is, which it knows.
    Question(Guess),
}

/// A word in the footer, until the next key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The command `y` gave, and how many runs on (Tab) from the one it
    /// opens the frame is.
    Link(String, usize),
    /// `A` passed over APIs that cannot tell the run: each, with why.
    Untold(Vec<(Dialect, Untold)>),
}

pub struct App {
    /// The runs it shows, held: a run the screen no longer shows is let go.
    pub(super) runs: Arc<[Localized]>,
    pub(super) current: usize,
    /// The run's replay, computed as far as the screen has looked.
    pub(super) replay: LazyReplay,
    pub(super) cursor: usize,
    /// Replaying toward the end between frames, called off by a key.
    pub(super) seeking_end: bool,
    /// Stepping by itself, one phase a tick.
    pub(super) playing: bool,
    /// Index into [`SPEEDS`].
    pub(super) speed: usize,
    /// What takes the keys.
    pub(super) mode: Mode,
    /// What each call sends: asked for (`x`) or hidden; `None` leaves it to
    /// the room there is (beside the detail on a large screen).
    pub(super) growth: Option<bool>,
    /// Quiz mode: the class guesses each check before it shows.
    pub(super) quiz: Option<Quiz>,
    /// The search in force: its matches, and the scan that finds them.
    pub(super) search: Option<Search>,
    /// Where the runs came from, for the command `y` gives.
    pub(super) opened: Option<Opened>,
    /// What the last key did that the screen does not show by itself,
    /// said in the footer until the next key.
    pub(super) notice: Option<Notice>,
    /// Text for the clipboard, which the event loop hands on.
    pub(super) to_copy: Option<String>,
    /// The price list given with `--prices`, for what calls cost.
    pub(super) prices: Option<Prices>,
    /// The runs a sub-agent was opened from, the step each was on and its
    /// settings, outermost first: Esc goes back along it.
    pub(super) trail: Vec<(usize, usize, Config)>,
    /// How many of the newest messages are scrolled out of view below;
    /// 0 follows the conversation as it grows.
    pub(super) scroll_back: usize,
    pub(super) detail: DetailView,
    /// Long texts shown whole rather than folded.
    pub(super) expanded: bool,
    /// Each step also named as ReAct names it.
    pub(super) react: bool,
    /// Rows of the detail pane scrolled past.
    pub(super) detail_scroll: usize,
    /// Rows of the help scrolled past, when it is taller than the screen.
    pub(super) help_scroll: usize,
    pub(super) should_quit: bool,
    /// More runs of the file are still loading: the title says so.
    pub(super) loading: bool,
    pub(super) monochrome: bool,
    pub(super) theme: Theme,
    pub(super) lang: Lang,
    /// How far the panes could scroll in the last frame drawn, so that
    /// scrolling stops where the content does.
    pub(super) extents: Extents,
    /// The scene this run is of a lesson presented (`present`), and of how
    /// many: the title names it instead of the run.
    pub(super) scene: Option<(usize, usize)>,
    /// A lesson's words for the class at given steps, beside the run's own.
    pub(super) lesson_remarks: Vec<(usize, Text)>,
}

/// Steps replayed ahead of the cursor, so that a short run is known whole
/// from its first frame and a long one a little way ahead.
pub(super) const LOOKAHEAD: usize = 1_000;

/// How long the replay runs between two frames while seeking the end: a
/// gauge that moves and a key that is answered within a frame or two.
const SLICE: Duration = Duration::from_millis(30);

impl App {
    /// Opens `runs[current]` with `settings`; the budget is the run's own
    /// unless the settings give one.
    pub fn new(runs: &[Localized], current: usize, settings: Settings) -> Self {
        let runs: Arc<[Localized]> = runs.into();
        let current = current.min(runs.len().saturating_sub(1));
        let transcript = runs[current].shared(settings.lang);
        let config = Config {
            max_turns: settings.max_turns.unwrap_or(transcript.max_turns),
            dialect: settings.dialect.unwrap_or(transcript.dialect()),
            check: settings.check,
            mistake: settings.mistake,
            ..transcript.default_config()
        };
        let mut app = App {
            replay: transcript.replay_lazily(config, settings.lang),
            runs,
            current,
            cursor: 0,
            seeking_end: false,
            playing: settings.autoplay,
            speed: 1,
            mode: Mode::Normal,
            growth: None,
            quiz: settings.quiz.then(Quiz::default),
            search: None,
            opened: None,
            notice: None,
            to_copy: None,
            prices: None,
            trail: Vec::new(),
            scroll_back: 0,
            detail: DetailView::Summary,
            expanded: false,
            react: settings.react,
            detail_scroll: 0,
            help_scroll: 0,
            should_quit: false,
            loading: false,
            monochrome: settings.monochrome,
            theme: settings.theme,
            lang: settings.lang,
            extents: Extents::default(),
            scene: None,
            lesson_remarks: Vec::new(),
        };
        app.look_ahead();
        if let Some(step) = settings.step {
            app.go_to_step(step);
        }
        app
    }

    /// The screen opened on runs from `opened`, for the command `y` gives.
    pub fn opened_from(mut self, opened: Opened) -> Self {
        self.opened = Some(opened);
        self
    }

    /// The screen pricing calls with `prices`, when a price list was given.
    pub fn with_prices(mut self, prices: Option<Prices>) -> Self {
        self.prices = prices;
        self
    }

    /// The screen on the first runs of a file whose other runs are still
    /// loading: the title says so until [`App::take_all_runs`].
    pub fn more_loading(mut self) -> Self {
        self.loading = true;
        self
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    pub fn should_quit(&self) -> bool {
        self.should_quit
    }

    pub fn loading(&self) -> bool {
        self.loading
    }

    pub fn quiz(&self) -> Option<&Quiz> {
        self.quiz.as_ref()
    }

    pub fn search(&self) -> Option<&Search> {
        self.search.as_ref()
    }

    /// How many runs a sub-agent was opened from, outermost first.
    pub fn trail_len(&self) -> usize {
        self.trail.len()
    }

    pub fn theme(&self) -> Theme {
        self.theme
    }

    /// How many of the newest messages are scrolled out of view.
    pub fn scroll_back(&self) -> usize {
        self.scroll_back
    }

    /// Rows of the detail pane scrolled past.
    pub fn detail_scroll(&self) -> usize {
        self.detail_scroll
    }

    /// Moves to step `number` (1-based), or the last there is.
    pub fn go_to_step(&mut self, number: usize) {
        self.move_to(number.saturating_sub(1));
    }

    /// Replays the run as far as `steps` steps (fewer when it ends sooner)
    /// without moving the cursor: for a reader that looks ahead of it, as
    /// the compare screen does for where two runs part.
    pub fn replay_as_far_as(&mut self, steps: usize) {
        self.replay.reach(steps.saturating_sub(1));
    }

    pub fn transcript(&self) -> &Transcript {
        self.runs[self.current].get(self.lang)
    }

    /// The run on screen, to replay: the replay holds it.
    fn shared(&self) -> &Arc<Transcript> {
        self.runs[self.current].shared(self.lang)
    }

    pub fn runs(&self) -> (usize, usize) {
        (self.current, self.runs.len())
    }

    pub fn config(&self) -> Config {
        self.replay.config()
    }

    /// Words in the screen's language and the run's dialect.
    pub fn say(&self) -> Say {
        Say::new(self.lang, self.config().dialect)
    }

    /// The run as far as it is replayed: always past the cursor's turn.
    pub fn trace(&self) -> TraceView<'_> {
        self.replay.view()
    }

    /// Whether every step of the run is known.
    pub fn trace_complete(&self) -> bool {
        self.replay.is_complete()
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn step(&self) -> &Step {
        &self.replay.steps()[self.cursor]
    }

    /// Whether the cursor is on the step that ends the run.
    pub fn at_end(&self) -> bool {
        self.replay.is_complete() && self.cursor + 1 == self.replay.steps().len()
    }

    /// While seeking the end: how far the replay has got, as the model
    /// calls made so far out of those the run can make at most.
    pub fn seeking(&self) -> Option<(u32, u32)> {
        self.seeking_end.then(|| {
            let made = self.trace().steps.last().map_or(0, |s| s.turn);
            (
                made,
                self.transcript().calls_at_most(self.config().max_turns),
            )
        })
    }

    /// Model calls made up to and including the current step.
    pub fn calls_so_far(&self) -> usize {
        // The newest call at or before the cursor knows its own number.
        self.replay.steps()[..=self.cursor]
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
        Rounds::of(&self.replay.steps()[..=self.cursor])
    }

    /// Characters in the first `count` messages.
    pub fn chars_of(&self, count: usize) -> usize {
        self.replay.chars_of(count)
    }

    /// For a dispatch step: which of the turn's tool calls it is, and of how many.
    pub fn dispatch_position(&self) -> (usize, usize) {
        // Turns only grow along the trace: the turn's steps by binary search.
        let steps = self.replay.steps();
        let turn = self.step().turn;
        let from = steps.partition_point(|s| s.turn < turn);
        let to = steps.partition_point(|s| s.turn <= turn);
        let is_dispatch = |s: &&Step| matches!(s.event, Event::Dispatch { .. });
        let nth = steps[from..=self.cursor].iter().filter(is_dispatch).count();
        let of = steps[from..to].iter().filter(is_dispatch).count();
        (nth, of)
    }

    /// Replays what the screen needs: the cursor's whole turn, which the
    /// diagram draws, and a stretch beyond.
    pub(super) fn look_ahead(&mut self) {
        self.replay.reach(self.cursor + LOOKAHEAD);
        let turn = self.step().turn;
        while self.replay.steps().last().is_some_and(|s| s.turn <= turn) && self.replay.advance() {}
    }

    /// Does a slice of the pending work between two frames; seeking the
    /// end, once there, moves the cursor to it.
    pub fn work(&mut self) {
        if !self.seeking_end {
            return self.search_a_slice();
        }
        let started = Instant::now();
        // The clock is read every few hundred steps, not every step.
        while started.elapsed() < SLICE {
            if !(0..256).all(|_| self.replay.advance()) {
                break;
            }
        }
        if self.replay.is_complete() {
            self.seeking_end = false;
            self.move_to(self.replay.steps().len() - 1);
        }
    }

    /// How long a phase shows while the run plays by itself; `None` when
    /// it does not. The screen's event loop turns this into ticks.
    pub fn autoplay_interval(&self) -> Option<Duration> {
        self.playing.then(|| PHASE.div_f64(SPEEDS[self.speed].0))
    }

    /// The speed the run plays at: "1", "0.5", …
    pub fn speed(&self) -> &'static str {
        SPEEDS[self.speed].1
    }

    /// One phase on, stopping at the end.
    pub(super) fn tick(&mut self) {
        if !self.playing {
            return;
        }
        if !self.at_end() {
            self.move_to(self.cursor + 1);
        }
        self.playing = !self.at_end();
    }

    /// What takes the keys.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// Whether the reply of the call on screen is kept back: the quiz asks
    /// what the loop does with it, which the reply itself would tell.
    pub fn reply_hidden(&self) -> bool {
        matches!(self.mode, Mode::Question(_)) && matches!(self.step().event, Event::Call { .. })
    }

    /// Whether a prompt (`:` or `/`) is taking the keys as text.
    pub fn in_prompt(&self) -> bool {
        matches!(self.mode, Mode::GoTo(_) | Mode::Search(_))
    }

    /// Whether there is work to do between frames.
    pub fn working(&self) -> bool {
        self.seeking_end || self.search.as_ref().is_some_and(Search::scanning)
    }

    /// Scans for the search's matches for a slice of time, replaying
    /// further as it needs, and makes the jump it waits for once found.
    pub(super) fn search_a_slice(&mut self) {
        let (Some(search), replay) = (&mut self.search, &mut self.replay) else {
            return;
        };
        let started = Instant::now();
        while search.scanning() && started.elapsed() < SLICE {
            if search.caught_up(replay.steps().len()) {
                for _ in 0..256 {
                    if !replay.advance() {
                        break;
                    }
                }
            }
            search.scan(&replay.view(), replay.is_complete(), 1024);
        }
        self.take_search_jump();
    }

    /// What `usage` cost on this run's model, when a price list has it.
    pub fn cost_of(&self, usage: &Usage) -> Option<f64> {
        self.prices.as_ref()?.cost(&self.transcript().model, usage)
    }

    /// How many steps of the run go wrong, and whether more may come (the
    /// run is not replayed to its end yet).
    pub fn wrong_count(&self) -> (usize, bool) {
        (self.replay.wrong_count(), !self.replay.is_complete())
    }

    /// Goes to the last step: at once when it is known, else by replaying
    /// toward it between frames.
    pub(super) fn seek_end(&mut self) {
        self.seeking_end = true;
        self.work();
    }

    /// Changes the replay with `change`, keeping the cursor on the same
    /// step when the new replay has it there, else going to the new end.
    pub(super) fn replay_again(&mut self, change: impl FnOnce(&mut Self)) {
        let old = self.step();
        let place = (old.turn, old.event.phase());
        let was_at_end = self.at_end();
        change(self);
        if let Some(search) = &mut self.search {
            search.restart();
        }
        let same = self.replay.reach(self.cursor) && {
            let now = &self.replay.steps()[self.cursor];
            (now.turn, now.event.phase()) == place
        };
        if was_at_end || !same {
            self.cursor = self.cursor.min(self.replay.steps().len() - 1);
            self.seek_end();
        } else {
            self.look_ahead();
        }
    }

    pub(super) fn set_max_turns(&mut self, max_turns: NonZeroU32) {
        self.replay_again(|app| app.replay.set_max_turns(max_turns));
    }

    pub(super) fn set_config(&mut self, config: Config) {
        self.replay_again(|app| app.replay.set_config(config));
    }

    pub(super) fn open_run(&mut self, index: usize) {
        if index >= self.runs.len() {
            return;
        }
        // A run told in another API (A, --dialect) stays told in it.
        let told = self.config().dialect;
        let retold = told != self.transcript().dialect();
        self.current = index;
        // A run brings its own budget and harness; the check and mistake
        // stay, and so does the API it is told in, where it can be.
        let own = self.transcript().default_config();
        let config = Config {
            check: self.config().check,
            mistake: self.config().mistake,
            dialect: match self.transcript().untold_in(told) {
                None if retold => told,
                _ => own.dialect,
            },
            ..own
        };
        self.open_run_with(index, config);
    }

    /// Opens run `index` under `config`, at its start.
    pub(super) fn open_run_with(&mut self, index: usize, config: Config) {
        self.current = index;
        self.replay = self.shared().replay_lazily(config, self.lang);
        self.seeking_end = false;
        if let Some(search) = &mut self.search {
            search.restart();
        }
        if matches!(self.mode, Mode::Question(_)) {
            self.mode = Mode::Normal;
        }
        self.cursor = 0;
        self.scroll_back = 0;
        self.detail_scroll = 0;
        self.look_ahead();
    }

    /// Every run, once the whole file is in: those shown so far are the
    /// first of them, the same runs, so the screen stays on its run and
    /// its step.
    pub fn take_all_runs(&mut self, runs: &[Localized]) {
        self.replay_again(|app| {
            app.runs = runs.into();
            app.replay = app.shared().replay_lazily(app.config(), app.lang);
        });
        self.loading = false;
    }

    /// Switches language. The run's texts change with it, its steps do
    /// not, so the replay keeps the cursor where it was.
    pub(super) fn toggle_lang(&mut self) {
        self.replay_again(|app| {
            app.lang = app.lang.toggled();
            app.replay = app.shared().replay_lazily(app.config(), app.lang);
        });
    }

    /// Keeps both scrolls within what the last frame drew.
    pub(super) fn clamp_scrolls(&mut self) {
        self.detail_scroll = self.detail_scroll.min(self.extents.detail);
        self.scroll_back = self.scroll_back.min(self.extents.messages);
    }

    pub(super) fn move_to(&mut self, index: usize) {
        self.replay.reach(index);
        self.cursor = index.min(self.replay.steps().len() - 1);
        self.scroll_back = 0;
        self.detail_scroll = 0;
        self.look_ahead();
    }
}
