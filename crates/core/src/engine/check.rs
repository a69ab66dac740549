//! The "check" phase: read a reply's stop reason and choose the loop's branch.

use serde::Serialize;

use crate::vocab::{Reply, StopReason};

/// How strictly the loop reads the stop reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckPolicy {
    /// The lesson's simple check: anything that is not a tool request is the answer.
    Lesson,
    /// Each stop reason handled on its own, as a production loop must.
    #[default]
    Production,
}

impl CheckPolicy {
    /// The name `--check` takes, and lessons and reports use.
    pub fn name(self) -> &'static str {
        match self {
            CheckPolicy::Lesson => "lesson",
            CheckPolicy::Production => "production",
        }
    }

    pub fn named(name: &str) -> Option<CheckPolicy> {
        [CheckPolicy::Lesson, CheckPolicy::Production]
            .into_iter()
            .find(|c| c.name() == name)
    }
}

/// Why a loop stopped without an answer: a fact for the narration to put
/// into words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum StopCause {
    /// The tool stop reason, but the reply holds no tool request.
    ToolStopWithoutCalls,
    /// Tool requests, but a stop reason that is not the tool one: the
    /// request is left pending, so neither answering nor running it is safe.
    CallsWithoutToolStop,
    /// Cut off at the token limit in the middle of a tool request.
    TruncatedCall,
    /// Cut off at the token limit.
    Truncated,
    ContextWindowExceeded,
    Refusal,
    ContentFilter,
    OutOfCapacity,
    /// The API stopped the reply at a malformed tool request.
    MalformedCall,
    /// A stop reason this API does not have.
    UnknownStopReason,
    /// The loop has no budget, so only the engine's safety cap stopped it.
    SafetyCap {
        calls: u32,
    },
    /// A tool failed and the harness raised the error to its caller.
    ToolErrorRaised {
        name: String,
        error: String,
    },
}

/// The branch the loop takes after the check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "branch", rename_all = "snake_case")]
pub enum Verdict {
    /// Run every tool the reply asked for.
    Dispatch,
    /// Return the reply's text.
    Answer,
    /// `pause_turn`: send the conversation back as it is so the model continues.
    Continue,
    /// End the run without an answer: it halts.
    #[serde(rename = "halt")]
    Stop(StopCause),
}

/// The check phase: what the stop reason (read in the run's dialect) and
/// the reply's content say the loop must do next.
pub fn check(policy: CheckPolicy, reason: StopReason, reply: &Reply) -> Verdict {
    let has_tool_calls = reply.tool_calls().next().is_some();
    match (reason, has_tool_calls) {
        (StopReason::ToolUse | StopReason::Completed, true) => return Verdict::Dispatch,
        (StopReason::ToolUse, false) => return Verdict::Stop(StopCause::ToolStopWithoutCalls),
        _ if policy == CheckPolicy::Lesson => return Verdict::Answer,
        _ => {}
    }
    // OpenAI says a refusal in a field of its own, under the stop reason of
    // a finished answer: https://platform.openai.com/docs/guides/structured-outputs#refusals
    let refused = reply
        .content
        .iter()
        .any(|b| matches!(b, crate::vocab::Block::Refusal { .. }));
    if refused && !has_tool_calls {
        return Verdict::Stop(StopCause::Refusal);
    }
    let stop = |cause| Verdict::Stop(cause);
    match reason {
        StopReason::MaxTokens if has_tool_calls => stop(StopCause::TruncatedCall),
        // A tool request under any other stop reason is still pending: never
        // return it as the answer, never run it.
        _ if has_tool_calls => stop(StopCause::CallsWithoutToolStop),
        StopReason::ToolUse => unreachable!("handled above"),
        StopReason::Completed | StopReason::EndTurn | StopReason::StopSequence => Verdict::Answer,
        StopReason::PauseTurn => Verdict::Continue,
        StopReason::MaxTokens => stop(StopCause::Truncated),
        StopReason::ContextWindowExceeded => stop(StopCause::ContextWindowExceeded),
        StopReason::Refusal => stop(StopCause::Refusal),
        StopReason::ContentFilter => stop(StopCause::ContentFilter),
        StopReason::InsufficientSystemResource => stop(StopCause::OutOfCapacity),
        StopReason::MalformedCall => stop(StopCause::MalformedCall),
        StopReason::Unknown => stop(StopCause::UnknownStopReason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Block;
    use serde_json::json;

    fn reply(with_tool: bool) -> Reply {
        let mut content = vec![Block::Text { text: "hi".into() }];
        if with_tool {
            content.push(Block::ToolUse {
                id: "t1".into(),
                name: "search".into(),
                input: json!({"query": "x"}),
            });
        }
        Reply {
            content,
            ..Reply::default()
        }
    }

    #[test]
    fn production_check_handles_each_stop_reason() {
        use CheckPolicy::Production as P;
        use StopReason::*;
        assert_eq!(check(P, ToolUse, &reply(true)), Verdict::Dispatch);
        assert_eq!(check(P, EndTurn, &reply(false)), Verdict::Answer);
        assert_eq!(check(P, StopSequence, &reply(false)), Verdict::Answer);
        assert_eq!(check(P, PauseTurn, &reply(false)), Verdict::Continue);
        for (reason, cause) in [
            (MaxTokens, StopCause::Truncated),
            (Refusal, StopCause::Refusal),
            (ContentFilter, StopCause::ContentFilter),
            (ContextWindowExceeded, StopCause::ContextWindowExceeded),
            (InsufficientSystemResource, StopCause::OutOfCapacity),
            (Unknown, StopCause::UnknownStopReason),
        ] {
            assert_eq!(check(P, reason, &reply(false)), Verdict::Stop(cause));
        }
    }

    #[test]
    fn a_pending_tool_request_is_never_the_answer_under_the_production_check() {
        use StopReason::*;
        let p = CheckPolicy::Production;
        assert_eq!(
            check(p, MaxTokens, &reply(true)),
            Verdict::Stop(StopCause::TruncatedCall)
        );
        for reason in [
            EndTurn,
            StopSequence,
            PauseTurn,
            Refusal,
            ContentFilter,
            Unknown,
        ] {
            assert_eq!(
                check(p, reason, &reply(true)),
                Verdict::Stop(StopCause::CallsWithoutToolStop),
                "{reason:?}"
            );
        }
    }

    #[test]
    fn lesson_check_treats_everything_but_a_tool_request_as_the_answer() {
        use StopReason::*;
        let l = CheckPolicy::Lesson;
        assert_eq!(check(l, ToolUse, &reply(true)), Verdict::Dispatch);
        for other in [EndTurn, MaxTokens, Refusal, PauseTurn, Unknown] {
            assert_eq!(check(l, other, &reply(true)), Verdict::Answer, "{other:?}");
        }
    }

    #[test]
    fn a_tool_request_stop_without_tool_blocks_stops_the_run() {
        for policy in [CheckPolicy::Lesson, CheckPolicy::Production] {
            assert_eq!(
                check(policy, StopReason::ToolUse, &reply(false)),
                Verdict::Stop(StopCause::ToolStopWithoutCalls)
            );
        }
    }
}
