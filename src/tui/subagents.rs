//! Sub-agents on the run screen: the run a tool call started, opened with
//! Enter, and the trail back with Esc.

use super::app::App;
use crate::engine::Event;

impl App {
    /// The run a tool call at step `index` started, when it started a
    /// sub-agent: an open run whose question is the prompt the call handed
    /// on. Claude Code's Task tool gives its sub-agent `prompt`, and the
    /// sub-agent's side chain opens with it; any importer whose runs do
    /// the same links the same way.
    pub fn subagent_at(&self, index: usize) -> Option<usize> {
        let Event::Dispatch { input, .. } = &self.replay.steps().get(index)?.event else {
            return None;
        };
        // The words the call handed over, under any name (Claude Code's
        // Task says `prompt`; other harnesses `task`, `message`, …): a
        // run whose whole question they are is the one it started.
        let handed: Vec<&str> = input
            .as_object()?
            .values()
            .filter_map(|v| v.as_str())
            .map(str::trim)
            .filter(|words| !words.is_empty())
            .collect();
        (0..self.runs.len())
            .filter(|&run| run != self.current)
            .find(|&run| handed.contains(&self.runs[run].get(self.lang).question.trim()))
    }

    pub fn run_title(&self, run: usize) -> String {
        self.runs[run].get(self.lang).title.clone()
    }

    /// The titles of the runs on the trail, outermost first, then this one's.
    pub fn breadcrumb(&self) -> Vec<String> {
        self.trail
            .iter()
            .map(|&(run, ..)| self.run_title(run))
            .chain([self.transcript().title.clone()])
            .collect()
    }

    /// Enter on a tool call that started a sub-agent: its run, from the
    /// start; whether there was one to open.
    pub(super) fn open_subagent(&mut self) -> bool {
        let Some(run) = self.subagent_at(self.cursor) else {
            return false;
        };
        self.trail.push((self.current, self.cursor, self.config()));
        self.open_run(run);
        true
    }

    /// Esc in a sub-agent: back to the run that started it, on the same step.
    pub(super) fn leave_subagent(&mut self) {
        if let Some((run, step, config)) = self.trail.pop() {
            self.open_run_with(run, config);
            self.move_to(step);
        }
    }
}
