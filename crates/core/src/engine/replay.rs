//! A replay computed only as far as someone looks at it, under a budget
//! that can change while it is looked at.
//!
//! The loop is deterministic and only ever appends, and `max_turns` decides
//! nothing but where it stops: under a budget of n the run is the same step
//! for step as without one, up to its first model call at turn n, where it
//! returns `None` instead. So one replay without a budget serves every
//! budget: a lower one cuts it at that call, a higher one goes on from where
//! the cut was. The tests check this against fresh replays for every budget.

use std::num::NonZeroU32;

use super::Message;
use super::mistake::Budget;
use super::model::Model;
use super::run::Run;
use super::tools::ToolBox;
use super::trace::{Config, Event, MAX_TURNS, Step, TraceView};

/// Starts the loop afresh for a config.
type Start<'a, M, T> = Box<dyn Fn(Config) -> Run<M, T> + 'a>;

pub struct Replay<'a, M, T> {
    start: Start<'a, M, T>,
    config: Config,
    /// The loop, without a budget when the budget is a cut.
    run: Run<M, T>,
    /// Every step computed so far, with one exception: when the budget
    /// cuts the run, the step at the cut is the budget's exit, and the step
    /// it stands in for waits in `cut` for a higher budget.
    steps: Vec<Step>,
    cut: Option<(usize, Step)>,
    /// The loop has returned its last step.
    finished: bool,
    /// The step whose computing first showed the configured mistake.
    shown_at: Option<usize>,
    /// Characters in the first n messages of the conversation so far, for
    /// each n from the history's length on (the history counts its own).
    chars: Vec<usize>,
    /// The steps in `steps` where something goes wrong, in order: kept as
    /// the replay grows, so that counting them costs nothing per frame.
    wrong: Vec<usize>,
}

impl<'a, M: Model, T: ToolBox> Replay<'a, M, T> {
    /// A replay under `config`, nothing computed yet; `start` sets up the loop.
    pub fn new(config: Config, start: impl Fn(Config) -> Run<M, T> + 'a) -> Self {
        let run = start(loop_config(config));
        Replay {
            start: Box::new(start),
            config,
            run,
            steps: Vec::new(),
            cut: None,
            finished: false,
            shown_at: None,
            chars: Vec::new(),
            wrong: Vec::new(),
        }
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// Whether every step of the run is known.
    pub fn is_complete(&self) -> bool {
        self.finished || self.cut.is_some()
    }

    /// The steps known so far.
    pub fn steps(&self) -> &[Step] {
        match &self.cut {
            Some((at, _)) => &self.steps[..=*at],
            None => &self.steps,
        }
    }

    /// The run as far as it is known.
    pub fn view(&self) -> TraceView<'_> {
        let steps = self.steps();
        let built = steps.last().map_or(0, |s| s.messages);
        let real = self.cut.as_ref().map_or(steps.len(), |(at, _)| *at);
        TraceView {
            config: self.config,
            messages: self.run.messages().range(0..built),
            steps,
            mistake_shown: self.shown_at.is_some_and(|at| at < real),
        }
    }

    /// Computes the next step; false once the run is complete.
    pub fn advance(&mut self) -> bool {
        if self.is_complete() {
            return false;
        }
        let Some(step) = self.run.step() else {
            self.finished = true;
            return false;
        };
        if self.shown_at.is_none() && self.run.mistake_shown() {
            self.shown_at = Some(self.steps.len());
        }
        let over_budget = cuts(self.config) && step.turn >= self.config.max_turns.get();
        if step.event.goes_wrong() {
            self.wrong.push(self.steps.len());
        }
        self.steps.push(step);
        self.count_chars();
        if over_budget {
            self.cut_at(self.steps.len() - 1);
        }
        true
    }

    /// Characters in the first `count` messages, as far as they are known:
    /// the lead's and the history's, then the run's own, counted as they
    /// came.
    pub fn chars_of(&self, count: usize) -> usize {
        let (lead, history) = (self.run.lead(), self.run.history());
        let lead_chars = |n: usize| lead.iter().take(n).map(Message::chars).sum::<usize>();
        match count.checked_sub(lead.len() + history.len()) {
            Some(own) if !self.chars.is_empty() => self.chars[own.min(self.chars.len() - 1)],
            _ => match count.checked_sub(lead.len()) {
                Some(in_history) => lead_chars(lead.len()) + history.chars_in_first(in_history),
                None => lead_chars(count),
            },
        }
    }

    fn count_chars(&mut self) {
        let (lead, history) = (self.run.lead(), self.run.history());
        let before = lead.len() + history.len();
        if self.chars.is_empty() {
            let lead_chars: usize = lead.iter().map(Message::chars).sum();
            self.chars
                .push(lead_chars + history.chars_in_first(history.len()));
        }
        let counted = before + self.chars.len() - 1;
        let mut total = *self.chars.last().expect("pushed above");
        for message in self.run.messages().from(counted).iter() {
            total += message.chars();
            self.chars.push(total);
        }
    }

    /// Computes until the step at `index` is known or the run is complete;
    /// whether that step exists.
    pub fn reach(&mut self, index: usize) -> bool {
        while self.steps().len() <= index && self.advance() {}
        index < self.steps().len()
    }

    /// Changes the budget. When the budget is a cut, what is computed stays:
    /// a lower budget cuts it sooner, a higher one uncovers the cut step and
    /// goes on from there as far as it is asked to.
    pub fn set_max_turns(&mut self, max_turns: NonZeroU32) {
        self.config.max_turns = max_turns;
        if !cuts(self.config) {
            // Without a budget of its own (a mistake), the loop still
            // counts calls past it: only a fresh replay tells.
            return self.restart();
        }
        if let Some((at, real)) = self.cut.take() {
            self.steps[at] = real;
        }
        let at = self.steps.partition_point(|s| s.turn < max_turns.get());
        if at < self.steps.len() {
            self.cut_at(at);
        }
    }

    /// Replays from the start under `config`, lazily like the first time.
    pub fn set_config(&mut self, config: Config) {
        self.config = config;
        self.restart();
    }

    fn restart(&mut self) {
        self.run = (self.start)(loop_config(self.config));
        self.steps.clear();
        self.cut = None;
        self.finished = false;
        self.shown_at = None;
        self.chars.clear();
        self.wrong.clear();
    }

    /// How many of the known steps go wrong.
    pub fn wrong_count(&self) -> usize {
        match &self.cut {
            // What the budget's exit at the cut stands for, and what
            // follows, are not in the run (and the exit is no error).
            Some((at, _)) => self.wrong.partition_point(|&i| i < *at),
            None => self.wrong.len(),
        }
    }

    /// Puts the budget's exit where the step at `at` was: the first step of
    /// turn max_turns, which is always a model call about to be made.
    fn cut_at(&mut self, at: usize) {
        let max_turns = self.config.max_turns.get();
        // Step 0 is the start, at turn 0, and budgets are at least 1.
        let messages = self.steps[at - 1].messages;
        // It belongs to the last turn the budget allowed, as the loop's own.
        let exit = Step {
            turn: max_turns - 1,
            messages,
            event: Event::BudgetExhausted { max_turns },
        };
        let real = std::mem::replace(&mut self.steps[at], exit);
        self.cut = Some((at, real));
    }
}

const UNBOUNDED: NonZeroU32 = NonZeroU32::new(MAX_TURNS).unwrap();

/// Whether the budget acts by ending the loop, so that it can be a cut.
fn cuts(config: Config) -> bool {
    config.policy().budget == Budget::MaxTurns
}

/// The config the loop itself runs under: no budget short of the engine's
/// largest when the budget is a cut.
fn loop_config(config: Config) -> Config {
    if cuts(config) {
        Config {
            max_turns: UNBOUNDED,
            ..config
        }
    } else {
        config
    }
}
