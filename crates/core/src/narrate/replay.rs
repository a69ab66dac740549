//! A transcript replayed: the scripted model and the recorded tools set up
//! in the real loop, the harness's words to the model (a search that found
//! nothing, a call that cannot run) in the language the class reads the
//! run in. Here rather than in `transcript` because those words are
//! narrate's.

use std::ops::Deref;
use std::sync::Arc;

use crate::engine::{
    Config, Replay, ReplayTools, Reply, Run, ScriptedModel, Step, ToolSource, ToolsOf, Trace,
};
use crate::engine::{Recorded, ToolDef, ToolEnv};
use crate::lang::Lang;
use crate::transcript::Transcript;

use super::Say;

/// A transcript's replay, computed as far as it is looked at. It holds its
/// transcript, so whoever keeps the replay keeps the run it came from, and
/// no longer.
pub type LazyReplay = Replay<'static, ScriptedModel<Shared>, ReplayTools<Shared>>;

/// A transcript the replays of it share: its replies for the model, its
/// tools for the tools.
#[derive(Debug, Clone)]
pub struct Shared(Arc<Transcript>);

impl Deref for Shared {
    type Target = [Reply];

    fn deref(&self) -> &[Reply] {
        &self.0.replies
    }
}

impl ToolSource for Shared {
    fn definitions(&self) -> &[ToolDef] {
        &self.0.tools
    }

    fn environment(&self) -> &std::collections::BTreeMap<String, ToolEnv> {
        &self.0.environment
    }

    fn recorded(&self) -> &std::collections::BTreeMap<String, Recorded> {
        &self.0.results
    }
}

impl Transcript {
    /// Replays the run through the real loop with the scripted model; a tool
    /// call that cannot run is answered in English.
    pub fn replay(&self, config: Config) -> Trace {
        self.replay_in(config, Lang::En)
    }

    /// Replays the run, answering a tool call that cannot run in `lang`, the
    /// language the class reads the run in.
    pub fn replay_in(&self, config: Config, lang: Lang) -> Trace {
        self.borrowed(config, lang).into_trace()
    }

    /// The step a replay ends with, the steps before it let go as they go:
    /// for a check that needs only how the run ends.
    pub fn last_step_in(&self, config: Config, lang: Lang) -> Option<Step> {
        self.borrowed(config, lang).last()
    }

    /// The same replay, computed only as far as it is looked at; its budget
    /// can change as it goes.
    pub fn replay_lazily(self: &Arc<Self>, config: Config, lang: Lang) -> LazyReplay {
        let shared = Shared(Arc::clone(self));
        Replay::new(config, move |config| {
            shared.0.start(shared.clone(), shared.clone(), config, lang)
        })
    }

    /// The loop set up for this run, borrowing it.
    fn borrowed(
        &self,
        config: Config,
        lang: Lang,
    ) -> Run<ScriptedModel<&[Reply]>, ReplayTools<ToolsOf<'_>>> {
        let tools = ToolsOf {
            definitions: &self.tools,
            environment: &self.environment,
            recorded: &self.results,
        };
        self.start(&self.replies[..], tools, config, lang)
    }

    /// The loop set up for this run, before its first step, its replies and
    /// tools held by `replies` and `tools`.
    fn start<R: Deref<Target = [Reply]>, S: ToolSource>(
        &self,
        replies: R,
        tools: S,
        config: Config,
        lang: Lang,
    ) -> Run<ScriptedModel<R>, ReplayTools<S>> {
        let model = ScriptedModel::new(replies, config.dialect)
            .recorded_in(self.dialect())
            .repeating_last(self.repeat_last_reply)
            .tolerating_breaks(self.recorded && config.mistake.is_none());
        let words = Box::new(Say::new(lang, config.dialect));
        let tools = ReplayTools::new(tools, words);
        Run::new(model, tools, self.opening_in(config.dialect), config)
            .with_insertions(self.inserted.clone())
            .with_goal(self.goal.clone())
            .with_ending(self.ending.clone())
    }
}
