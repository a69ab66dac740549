//! The goal check: whether a replay's answer is the one the run expects.

use serde::Serialize;

use super::Transcript;
use crate::engine::{Event, TraceView};

/// One check a verified answer passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The answer matched the expected one.
    Answer(String),
    /// The run took the expected number of model calls.
    ModelCalls(usize),
    /// No tool reported an error.
    NoToolErrors,
    /// The harness's own goal check saw this tool succeed.
    GoalCheck(String),
}

impl Evidence {
    /// Whether this checks the work itself, rather than taking a tool's or
    /// the harness's word for it, or counting calls: the answer against the
    /// one expected, where the answer is the work (`answer_is_the_work`);
    /// where the work is a tool's effect (a saved file), the answer is only
    /// the model saying it is done. Seed 002 keeps the three apart: the
    /// model said it, the tool reported success, the artifact was checked.
    pub fn checks_the_work(&self, answer_is_the_work: bool) -> bool {
        matches!(self, Evidence::Answer(_)) && answer_is_the_work
    }
}

/// One way an answer fell short of what the run expects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "miss", rename_all = "snake_case")]
pub enum Miss {
    Answer {
        expected: String,
        got: String,
    },
    ModelCalls {
        expected: usize,
        took: usize,
    },
    ToolError {
        name: String,
        id: String,
        error: String,
    },
    /// The goal needs tools that worked, and none ran.
    NoToolRan,
}

/// The goal check: did the answer match what the transcript expects?
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verification {
    /// The transcript states no expectation, or the run gave no answer.
    NotChecked,
    /// Verified, with the evidence: each check that was run and passed,
    /// one of them a check of the work itself.
    Verified(Vec<Evidence>),
    /// Every check passed, but none looked at the work itself: the tools
    /// (or the harness, from a tool's report) said it succeeded.
    ToolReported(Vec<Evidence>),
    /// Answered, but not what was expected; each entry says how.
    NotVerified(Vec<Miss>),
}

impl Transcript {
    pub fn verify(&self, trace: TraceView<'_>) -> Verification {
        let (Some(expect), Some(answer)) = (&self.expect, trace.result()) else {
            return Verification::NotChecked;
        };
        let mut misses = Vec::new();
        let mut evidence = Vec::new();
        if let Some(wanted) = &expect.answer {
            if answer.trim() == wanted.trim() {
                evidence.push(Evidence::Answer(wanted.clone()));
            } else {
                misses.push(Miss::Answer {
                    expected: wanted.clone(),
                    got: answer.to_owned(),
                });
            }
        }
        if let Some(wanted) = expect.model_calls {
            if trace.model_calls() == wanted {
                evidence.push(Evidence::ModelCalls(wanted));
            } else {
                misses.push(Miss::ModelCalls {
                    expected: wanted,
                    took: trace.model_calls(),
                });
            }
        }
        if expect.no_tool_errors {
            let before = misses.len();
            for step in trace.steps {
                if let Event::Dispatch {
                    id, name, output, ..
                } = &step.event
                    && output.is_error
                {
                    misses.push(Miss::ToolError {
                        name: name.clone(),
                        id: id.clone(),
                        error: output.content.to_string(),
                    });
                }
            }
            // No tool at all is no evidence that the work was done.
            if trace.tool_calls() == 0 {
                misses.push(Miss::NoToolRan);
            } else if misses.len() == before {
                evidence.push(Evidence::NoToolErrors);
            }
        }
        if let Some(goal) = &self.goal {
            evidence.push(Evidence::GoalCheck(goal.tool_succeeded.clone()));
        }
        // A run with a goal does its work through a tool: its answer is a report.
        let answer_is_the_work = self.goal.is_none();
        if misses.is_empty()
            && evidence
                .iter()
                .any(|e| e.checks_the_work(answer_is_the_work))
        {
            Verification::Verified(evidence)
        } else if misses.is_empty() && !evidence.is_empty() {
            Verification::ToolReported(evidence)
        } else if misses.is_empty() {
            Verification::NotChecked
        } else {
            Verification::NotVerified(misses)
        }
    }
}
