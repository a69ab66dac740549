//! The "check" phase: read a reply's stop reason and choose the loop's branch.

use serde::Serialize;

use super::message::Reply;

/// Why a model stopped, with the Anthropic and OpenAI spellings folded together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// `tool_use` (Anthropic) or `tool_calls` (OpenAI, DeepSeek).
    ToolUse,
    /// `end_turn` (Anthropic) or `stop` (OpenAI, DeepSeek).
    EndTurn,
    /// `max_tokens` (Anthropic), `length` (OpenAI Chat, DeepSeek) or
    /// `max_output_tokens` (OpenAI Responses).
    MaxTokens,
    StopSequence,
    Refusal,
    PauseTurn,
    ContentFilter,
    /// DeepSeek: the service ran out of capacity mid-reply.
    InsufficientSystemResource,
    /// Anything else; shown verbatim.
    Unknown,
}

impl StopReason {
    pub fn parse(raw: &str) -> Self {
        match raw {
            "tool_use" | "tool_calls" => StopReason::ToolUse,
            "end_turn" | "stop" => StopReason::EndTurn,
            "max_tokens" | "length" | "max_output_tokens" => StopReason::MaxTokens,
            "stop_sequence" => StopReason::StopSequence,
            "refusal" => StopReason::Refusal,
            "pause_turn" => StopReason::PauseTurn,
            "content_filter" => StopReason::ContentFilter,
            "insufficient_system_resource" => StopReason::InsufficientSystemResource,
            _ => StopReason::Unknown,
        }
    }
}

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
    /// End the run without an answer.
    Stop { reason: String },
}

pub fn check(policy: CheckPolicy, reply: &Reply) -> Verdict {
    let reason = StopReason::parse(&reply.stop_reason);
    let has_tool_calls = reply.tool_calls().next().is_some();
    if reason == StopReason::ToolUse {
        return if has_tool_calls {
            Verdict::Dispatch
        } else {
            Verdict::Stop {
                reason: format!(
                    "stop reason `{}` but the reply holds no tool request",
                    reply.stop_reason
                ),
            }
        };
    }
    if policy == CheckPolicy::Lesson {
        return Verdict::Answer;
    }
    let stop = |why: &str| Verdict::Stop {
        reason: format!("`{}`: {why}", reply.stop_reason),
    };
    match reason {
        StopReason::ToolUse => unreachable!("handled above"),
        StopReason::EndTurn | StopReason::StopSequence => Verdict::Answer,
        StopReason::PauseTurn => Verdict::Continue,
        StopReason::MaxTokens if has_tool_calls => stop(
            "the reply was cut off at the token limit; its tool request may be truncated, so it is not executed",
        ),
        StopReason::MaxTokens => stop("the reply was cut off at the token limit"),
        StopReason::Refusal => stop("the model declined to answer"),
        StopReason::ContentFilter => stop("the provider's content filter withheld the reply"),
        StopReason::InsufficientSystemResource => {
            stop("the provider ran out of capacity before the reply was complete")
        }
        StopReason::Unknown => stop("a stop reason this loop does not know"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::message::Block;
    use serde_json::json;

    fn reply(stop: &str, with_tool: bool) -> Reply {
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
            stop_reason: stop.into(),
            stop_reason_inferred: false,
            usage: None,
        }
    }

    #[test]
    fn both_spellings_of_each_stop_reason_agree() {
        for (anthropic, openai) in [
            ("tool_use", "tool_calls"),
            ("end_turn", "stop"),
            ("max_tokens", "length"),
        ] {
            assert_eq!(StopReason::parse(anthropic), StopReason::parse(openai));
        }
        assert_eq!(StopReason::parse("whatever"), StopReason::Unknown);
    }

    #[test]
    fn production_check_handles_each_stop_reason() {
        use CheckPolicy::Production as P;
        assert_eq!(check(P, &reply("tool_use", true)), Verdict::Dispatch);
        assert_eq!(check(P, &reply("tool_calls", true)), Verdict::Dispatch);
        assert_eq!(check(P, &reply("end_turn", false)), Verdict::Answer);
        assert_eq!(check(P, &reply("stop", false)), Verdict::Answer);
        assert_eq!(check(P, &reply("stop_sequence", false)), Verdict::Answer);
        assert_eq!(check(P, &reply("pause_turn", false)), Verdict::Continue);
        for stopping in [
            "max_tokens",
            "length",
            "refusal",
            "content_filter",
            "insufficient_system_resource",
            "something_new",
        ] {
            let verdict = check(P, &reply(stopping, true));
            match verdict {
                Verdict::Stop { reason } => assert!(reason.contains(stopping), "{reason}"),
                other => panic!("{stopping} gave {other:?}"),
            }
        }
    }

    #[test]
    fn lesson_check_treats_everything_but_a_tool_request_as_the_answer() {
        use CheckPolicy::Lesson as L;
        assert_eq!(check(L, &reply("tool_use", true)), Verdict::Dispatch);
        for other in ["end_turn", "max_tokens", "refusal", "pause_turn", "weird"] {
            assert_eq!(check(L, &reply(other, true)), Verdict::Answer, "{other}");
        }
    }

    #[test]
    fn a_tool_request_stop_without_tool_blocks_stops_the_run() {
        assert!(matches!(
            check(CheckPolicy::Production, &reply("tool_use", false)),
            Verdict::Stop { .. }
        ));
    }
}
