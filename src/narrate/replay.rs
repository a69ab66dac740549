//! A transcript replayed: the scripted model and the recorded tools set up
//! in the real loop, the harness's words to the model (a search that found
//! nothing, a call that cannot run) in the language the class reads the
//! run in. Here rather than in `transcript` because those words are
//! narrate's.

use crate::engine::{Config, Replay, ReplayTools, Run, ScriptedModel, Step, Trace};
use crate::lang::Lang;
use crate::transcript::Transcript;

use super::Say;

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
    pub fn last_step_in(&self, config: Config, lang: Lang) -> Option<Step> {
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
            .recorded_in(self.dialect())
            .repeating_last(self.repeat_last_reply)
            .tolerating_breaks(self.recorded && config.mistake.is_none());
        let words = Box::new(Say::new(lang, config.dialect));
        let tools = ReplayTools::new(&self.tools, &self.environment, &self.results, words);
        Run::new(model, tools, self.opening_in(config.dialect), config)
            .with_insertions(self.inserted.clone())
            .with_goal(self.goal.clone())
            .with_ending(self.ending.clone())
    }
}
