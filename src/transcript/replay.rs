//! A transcript replayed: the scripted model and the recorded tools set up
//! in the real loop.

use std::num::NonZeroU32;

use super::Transcript;
use crate::dialect::Dialect;
use crate::engine::{
    Config, Conversation, Message, Replay, ReplayTools, Run, ScriptedModel, Trace,
};
use crate::narrate::{Lang, Say};

/// A transcript's replay, computed as far as it is looked at.
pub type LazyReplay<'a> = Replay<'a, ScriptedModel<'a>, ReplayTools<'a>>;

impl Transcript {
    /// Replays the run through the real loop with the scripted model; a tool
    /// call that cannot run is answered in English.
    pub fn replay(&self, config: Config) -> Trace {
        self.replay_in(config, Lang::En)
    }

    /// Replays the run, answering a tool call that cannot run in `lang`, the
    /// language the class reads the run in.
    pub fn replay_in(&self, config: Config, lang: Lang) -> Trace {
        self.start(config, lang).into_trace()
    }

    /// The step a replay ends with, the steps before it let go as they go:
    /// for a check that needs only how the run ends.
    pub fn last_step_in(&self, config: Config, lang: Lang) -> Option<crate::engine::Step> {
        self.start(config, lang).last()
    }

    /// The same replay, computed only as far as it is looked at; its budget
    /// can change as it goes.
    pub fn replay_lazily(&self, config: Config, lang: Lang) -> LazyReplay<'_> {
        Replay::new(config, move |config| self.start(config, lang))
    }

    /// The loop set up for this run, before its first step.
    fn start(&self, config: Config, lang: Lang) -> Run<ScriptedModel<'_>, ReplayTools<'_>> {
        let model = ScriptedModel::new(&self.replies, config.dialect)
            .repeating_last(self.repeat_last_reply)
            .tolerating_breaks(self.recorded && config.mistake.is_none());
        let words = Box::new(Say::new(lang, config.dialect));
        let tools = ReplayTools::new(&self.tools, &self.environment, &self.results, words);
        Run::new(model, tools, self.opening(), config)
            .with_insertions(self.inserted.clone())
            .with_goal(self.goal.clone())
            .with_ending(self.ending.clone())
    }

    /// The most model calls a replay under `max_turns` can make: the
    /// recording runs out before the budget, unless its last reply repeats.
    pub fn calls_at_most(&self, max_turns: NonZeroU32) -> u32 {
        let recorded = u32::try_from(self.replies.len()).unwrap_or(u32::MAX);
        if self.repeat_last_reply {
            max_turns.get()
        } else {
            max_turns.get().min(recorded)
        }
    }

    /// The conversation as the first call sends it: history, then the question.
    pub fn opening(&self) -> Conversation {
        Conversation::new(self.history.clone(), Message::user_text(&self.question))
    }

    /// The API the run speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
            .unwrap_or_else(|| Dialect::guess(self.replies.iter().map(|r| r.stop_reason.as_str())))
    }

    /// The remark for the call with this number, if the run has one.
    pub fn remark(&self, call: u32) -> Option<&str> {
        self.remarks
            .iter()
            .find(|r| r.call == call)
            .map(|r| r.text.as_str())
    }

    /// The loop set up as recorded: the transcript's own budget and harness,
    /// the production check, no mistake.
    pub fn default_config(&self) -> Config {
        Config {
            tool_errors: self.tool_errors,
            ..Config::new(self.max_turns, self.dialect())
        }
    }
}
