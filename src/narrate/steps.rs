//! Steps, stops and rejections in words, in the run's dialect: the lines of
//! `loopstep run` and the explanations the screen shows.

use crate::dialect::Words;
use crate::engine::{
    Event, Outcome, Policy, Rejection, RequestRule, SaveReply, Step, StopCause, Verdict,
};
use crate::text::one_line;

use super::plural;

/// How long a tool input or output may get on one line of the text report.
const PREVIEW_CHARS: usize = 72;

/// Why the loop halted, as a clause: "the reply was cut off ...".
pub fn cause(w: &Words, cause: &StopCause) -> String {
    match cause {
        StopCause::ToolStopWithoutCalls => format!(
            "{} `{}` asks for tools, but the reply holds no tool request ({})",
            w.stop_field, w.tool_stop, w.tool_request
        ),
        StopCause::CallsWithoutToolStop => format!(
            "the reply asks for a tool ({}) but its {} is not `{}`: the request is left pending, \
             so the loop neither runs it nor returns the reply as the answer",
            w.tool_request, w.stop_field, w.tool_stop
        ),
        StopCause::TruncatedCall => format!(
            "the reply was cut off at the token limit inside a tool request ({}), which may be \
             incomplete, so it is not run",
            w.tool_request
        ),
        StopCause::Truncated => "the reply was cut off at the token limit".to_owned(),
        StopCause::ContextWindowExceeded => {
            "the reply filled the model's context window and is cut short".to_owned()
        }
        StopCause::Refusal => "the model declined to answer".to_owned(),
        StopCause::ContentFilter => "the provider's content filter withheld the reply".to_owned(),
        StopCause::OutOfCapacity => {
            "the provider ran out of capacity before the reply was complete".to_owned()
        }
        StopCause::UnknownStopReason => format!("a {} that {} does not have", w.stop_field, w.api),
        StopCause::SafetyCap { calls } => format!(
            "the loop has no max_turns, so only the engine's safety cap of {calls} calls \
             stopped it; a model that keeps asking for tools would keep it running forever"
        ),
        StopCause::ToolErrorRaised { name, error } => format!(
            "`{}` failed and the harness raised the error to its caller instead of showing \
             it to the model: {}",
            one_line(name, PREVIEW_CHARS),
            one_line(error, PREVIEW_CHARS * 2)
        ),
    }
}

/// What a rejected request broke, in the API's own terms.
pub fn rejection(w: &Words, rejection: &Rejection) -> String {
    let at = rejection.message_index;
    let ids = rejection
        .ids
        .iter()
        .map(|id| one_line(id, 40))
        .collect::<Vec<_>>()
        .join(", ");
    match rejection.rule {
        RequestRule::NoMessages => "the request holds no message".to_owned(),
        RequestRule::EmptyContent => format!("messages[{at}] has no content"),
        RequestRule::ResultsNotFirst => format!(
            "in messages[{at}] text comes before a {}; results must come first",
            w.tool_result
        ),
        RequestRule::UnansweredCalls => format!(
            "the {} in messages[{at}] ({ids}) has no {} right after it",
            w.tool_request, w.tool_result
        ),
        RequestRule::ResultsWithoutCall => format!(
            "the {} in messages[{at}] ({ids}) answers no {} of the message before it",
            w.tool_result, w.tool_request
        ),
        RequestRule::AnsweredTwice => {
            format!("messages[{at}] answers the same call twice ({ids})")
        }
        RequestRule::DuplicateCallIds => {
            format!("messages[{at}] reuses a tool-call id ({ids})")
        }
    }
}

/// One step of `run`'s text output; `policy` says how the loop appends.
pub fn step_line(w: &Words, policy: Policy, step: &Step) -> String {
    match &step.event {
        Event::Start => format!(
            "messages holds {} message{}; nothing is sent yet",
            step.messages,
            plural(step.messages)
        ),
        Event::Call {
            request,
            stop_reason,
            stop_reason_inferred,
            ..
        } => format!(
            "request #{}: {} message{}, {} chars → reply with {} {}{}",
            request.number,
            request.messages,
            plural(request.messages),
            request.chars,
            w.stop_field,
            one_line(stop_reason, PREVIEW_CHARS),
            if *stop_reason_inferred {
                " (inferred)"
            } else {
                ""
            }
        ),
        Event::Check {
            stop_reason,
            verdict,
        } => {
            let branch = match verdict {
                Verdict::Dispatch => "dispatch the tool requests".to_owned(),
                Verdict::Answer => "return the text as the answer".to_owned(),
                Verdict::Continue => "paused: send the conversation back".to_owned(),
                Verdict::Stop(why) => format!("halt: {}", cause(w, why)),
            };
            format!(
                "{} {} → {branch}",
                w.stop_field,
                one_line(stop_reason, PREVIEW_CHARS)
            )
        }
        Event::Dispatch {
            name,
            input,
            output,
            ..
        } => format!(
            "{} {} → {}\"{}\"",
            one_line(name, PREVIEW_CHARS),
            one_line(&input.to_string(), PREVIEW_CHARS),
            if output.is_error { "error " } else { "" },
            one_line(&output.content, PREVIEW_CHARS)
        ),
        Event::Append { results, appended } => match appended {
            0 => format!(
                "{results} result{} dropped: nothing appended → {} messages",
                plural(*results),
                step.messages
            ),
            _ if policy.reply == SaveReply::AfterResults => format!(
                "{results} result{}, then the model's own request after them → {} messages",
                plural(*results),
                step.messages
            ),
            n if *n > 1 && w.results_together => format!(
                "{results} results as {n} separate user messages → {} messages",
                step.messages
            ),
            _ => format!(
                "{results} result{} as {} → {} messages",
                plural(*results),
                w.results_message,
                step.messages
            ),
        },
        Event::GoalCheck { tool, passed: true } => {
            format!(
                "goal check: `{}` has succeeded → the answer stands",
                one_line(tool, 40)
            )
        }
        Event::GoalCheck {
            tool,
            passed: false,
        } => format!(
            "goal check: `{}` has not succeeded → the harness pushes back, not done yet → {} messages",
            one_line(tool, 40),
            step.messages
        ),
        Event::Inserted { added } => format!(
            "the client added {added} message{} no reply asked for → {} messages",
            plural(*added),
            step.messages
        ),
        Event::Answer { text } => format!("\"{}\"", one_line(text, PREVIEW_CHARS * 4)),
        Event::BudgetExhausted { max_turns } => format!(
            "all {max_turns} turn{} used without an answer: the loop returns None",
            plural(*max_turns as usize)
        ),
        Event::Stopped(why) => cause(w, why),
        Event::RecordingEnded => {
            "the recording has no reply for this call: the replay ends here".to_owned()
        }
        Event::Rejected { rejection: r } => {
            format!("the API rejected the request: {}", rejection(w, r))
        }
    }
}

/// The outcome as `run` names it: answered, None, halted, ...
pub fn outcome_line(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "unfinished",
        Some(Outcome::Answered(_)) => "answered",
        Some(Outcome::BudgetExhausted) => "budget spent",
        Some(Outcome::Stopped(_)) => "halted",
        Some(Outcome::RecordingEnded) => "recording ended",
        Some(Outcome::Rejected(_)) => "rejected",
    }
}

/// The loop's return value, whole: the answer, `None` when the budget was
/// spent, and for every other end a plain statement that there is none.
pub fn result_line(outcome: Option<Outcome>) -> String {
    match outcome {
        Some(Outcome::Answered(text)) => format!("result: \"{}\"", one_line(text, usize::MAX)),
        Some(Outcome::BudgetExhausted) => "result: None".to_owned(),
        Some(Outcome::Stopped(_)) => "result: no answer, the loop halted".to_owned(),
        Some(Outcome::RecordingEnded) => {
            "result: no answer, the recording ended before the loop did".to_owned()
        }
        Some(Outcome::Rejected(_)) => "result: no answer, the API rejected the request".to_owned(),
        None => "result: none yet, the run is unfinished".to_owned(),
    }
}
