//! Every word loopstep shows, on the screen and in `run`, in one place, so
//! that a translation touches this module and nothing else. Functions take
//! the facts they need and the run's [`Words`], so that each run speaks its
//! own API's dialect; text from a transcript is sanitised by the caller
//! before it arrives here.

mod steps;

pub use steps::{cause, outcome_line, rejection, result_line, step_line};

use crate::dialect::Words;
use crate::engine::{CheckPolicy, Mistake, Rounds};
use crate::transcript::Evidence;

pub const APP_NAME: &str = "loopstep";
pub const QUESTION: &str = "question";
pub const MODEL: &str = "model";

pub const LOOP_TITLE: &str = "the loop";
// Block kinds keep the API's own names (see `Words`): they are what a class
// will see in logs.
pub const KIND_THINKING: &str = "thinking";
pub const EMPTY_MESSAGE: &str = "(empty)";
pub const TURNS_SO_FAR: &str = "turns so far";
pub const TURN_CALLING: &str = "calling…";
pub fn turn_line(turn: u32, what: &str) -> String {
    format!("{turn:>2}  {what}")
}
pub fn turn_tools(stop_reason: &str, tools: usize) -> String {
    format!("{stop_reason} → {tools} tool{}", plural(tools))
}
pub fn turn_continue(stop_reason: &str) -> String {
    format!("{stop_reason} → again")
}
pub fn turn_not_done(stop_reason: &str) -> String {
    format!("{stop_reason} → not done yet")
}
pub fn turn_answer(stop_reason: &str) -> String {
    format!("{stop_reason} → answer")
}
pub fn turn_stop(stop_reason: &str) -> String {
    format!("{stop_reason} → halt")
}
pub const TURN_START: &str = "start";
pub fn turn_budget() -> String {
    "no turn left → None".to_owned()
}
pub const MESSAGES_TITLE: &str = "messages";
pub const HELP_TITLE: &str = "keys";
pub const HELP_CLOSE: &str = "? or Esc closes";

// Diagram nodes and edge labels (kept short: the diagram is 30 columns wide).
pub const NODE_CALL: &str = "call";
pub const NODE_CHECK: &str = "check";
pub const NODE_DISPATCH: &str = "dispatch";
pub const NODE_APPEND: &str = "append";
pub const NODE_ANSWER: &str = "answer";
pub const NODE_NONE: &str = "None";
pub const NODE_START: &str = "start";
/// The exit that is neither an answer nor None; not "stop", which OpenAI
/// uses for a finished answer.
pub const NODE_HALT: &str = "halt";
pub const EDGE_BUDGET: &str = " ─ budget spent ▶ ";
pub fn edge_answer(w: &Words) -> String {
    format!(" ─ {} ─▶ ", w.answer_stop)
}
pub fn edge_tool(w: &Words) -> String {
    format!("   │ {}", w.tool_stop)
}
pub const EDGE_OTHER: &str = "  other ▶ ";

// Key help, and the short labels of the footer.
pub const KEY_STEP: &str = "next / previous phase";
pub const KEY_TURN: &str = "next / previous turn";
pub const KEY_START_END: &str = "start / end of the run";
pub const KEY_TURNS: &str = "max_turns up / down (min. 1), replayed at once";
pub const KEY_RESET_TURNS: &str = "max_turns back to the run's own";
pub const KEY_RUN: &str = "next / previous run";
pub const KEY_PICK_RUN: &str = "open run 1, 2, 3 …";
pub const KEY_CHECK: &str = "switch the check: lesson / production";
pub const KEY_MISTAKE: &str = "next common mistake / the correct loop";
pub const KEY_SCROLL: &str = "scroll messages";
pub const KEY_DETAIL_SCROLL: &str = "scroll the detail pane";
pub const KEY_WIRE: &str = "detail: summary / the JSON on the wire";
pub const KEY_EXPAND: &str = "unfold / fold long texts";
pub const KEY_HELP: &str = "show or hide this help";
pub const KEY_QUIT: &str = "quit";
pub const FOOTER_STEP: &str = "step";
pub const FOOTER_TURN: &str = "turn";
pub const FOOTER_TURNS: &str = "max_turns";
pub const FOOTER_RUN: &str = "run";
pub const FOOTER_MISTAKE: &str = "mistake";
pub const FOOTER_HELP: &str = "help";
pub const FOOTER_QUIT: &str = "quit";

pub fn too_small(width: u16, height: u16, min_width: u16, min_height: u16) -> String {
    format!(
        "loopstep needs a terminal of at least {min_width}×{min_height}; this one is {width}×{height}.\n\
         Enlarge the window or make the font smaller. q quits."
    )
}

pub fn run_position(index: usize, count: usize) -> String {
    format!("run {}/{}", index + 1, count)
}

pub fn dialect_label(w: &Words) -> &'static str {
    w.api
}

pub fn check_label(policy: CheckPolicy) -> &'static str {
    match policy {
        CheckPolicy::Lesson => "lesson check",
        CheckPolicy::Production => "production check",
    }
}

pub fn messages_sent(number: u32, count: usize, chars: usize) -> String {
    format!("call #{number} sent all {count} ({chars} chars) · reply → #{count}")
}

pub fn messages_held(count: usize, chars: usize) -> String {
    format!("{count} so far, {chars} chars")
}

pub fn step_title(index: usize, count: usize, turn: u32, phase: &str) -> String {
    format!("step {}/{count} · turn {turn} · {phase}", index + 1)
}

// The turn-budget gauge.
pub fn gauge_left(used: usize, max: u32) -> String {
    let left = max as usize - used.min(max as usize);
    format!("model calls {used} / max_turns {max} · {left} left")
}

pub fn gauge_last(used: usize, max: u32) -> String {
    format!("model calls {used} / max_turns {max} · last turn")
}

pub fn gauge_spent(used: usize, max: u32) -> String {
    format!("model calls {used} / max_turns {max} · spent → None, not an answer")
}

/// The gauge of a loop without a budget: the engine's cap is all that stops it.
pub fn gauge_no_budget(used: usize, cap: u32) -> String {
    format!("model calls {used} · no max_turns · safety cap {cap}")
}

// Outcomes.
pub const OUTCOME: &str = "outcome";
pub const OUTCOME_PENDING: &str = "running";
pub fn outcome_answer(text: &str) -> String {
    format!("\"{text}\"")
}
pub const OUTCOME_NONE: &str = "None";
pub fn outcome_stopped(w: &Words, stop_reason: &str) -> String {
    format!("halted ({} {stop_reason})", w.stop_field)
}
pub const OUTCOME_STOPPED: &str = "halted";
pub const OUTCOME_RECORDING_ENDED: &str = "recording ended";
pub const OUTCOME_REJECTED: &str = "rejected by the API";
pub const MISTAKE_NOT_SHOWN: &str = "mistake not shown";
pub const NOT_VERIFIED: &str = "NOT verified";

// Detail pane.
pub const NOTE: &str = "note: ";
pub const REMARK: &str = "remark: ";
pub const MORE_BELOW: &str = " · PgUp/PgDn scroll";
pub fn folded_note(hidden_lines: usize) -> String {
    if hidden_lines > 0 {
        format!(
            "… {hidden_lines} more line{} folded · e unfolds",
            plural(hidden_lines)
        )
    } else {
        "… folded · e unfolds".to_owned()
    }
}
pub fn wire_title(api: &str) -> String {
    format!(" · {api} wire (w)")
}
pub fn wire_request(number: u32) -> String {
    format!("request #{number}, the body the client sends:")
}
pub const WIRE_RESPONSE: &str = "response, with the stop reason the check reads:";
pub const WIRE_TOOL_CALL: &str = "the tool call, as the model asked for it:";
pub const WIRE_TOOL_RESULT: &str = "its result, as the next request carries it:";
pub const WIRE_APPENDED: &str = "appended to messages:";
pub const WIRE_INSERTED: &str = "added by the client on its own:";
pub const WIRE_NOTHING: &str =
    "Nothing crosses the wire at this step: the loop returns to its caller.";
pub const WIRE_START: &str = "Nothing has crossed the wire yet; the first request will carry:";
pub fn wire_earlier(count: usize) -> String {
    format!(
        "… {count} earlier message{}, resent in full (e shows them) …",
        plural(count)
    )
}
pub fn wire_tools(count: usize) -> String {
    format!(
        "… {count} tool definition{} (e shows them) …",
        plural(count)
    )
}
pub fn shortened(kept: &str, total_chars: usize) -> String {
    format!("{kept}… ({total_chars} chars; e unfolds)")
}
pub fn detail_request(number: u32, messages: usize, chars: usize) -> String {
    format!(
        "request #{number}: all {messages} message{} ({chars} chars), resent in full",
        plural(messages)
    )
}
pub fn detail_reply(w: &Words, stop_reason: &str) -> String {
    format!("reply: {} {stop_reason}", w.stop_field)
}
pub fn inferred(w: &Words) -> String {
    format!(" (inferred: the recording carries no {})", w.stop_field)
}
pub fn detail_start(messages: usize) -> String {
    format!(
        "turn 0: messages holds {messages} message{}, nothing is sent yet",
        plural(messages)
    )
}
pub fn detail_inserted(count: usize) -> String {
    format!(
        "the client added {count} message{} that no model reply asked for",
        plural(count)
    )
}
pub fn caption_inserted(count: usize) -> String {
    format!(
        "The recorded client added {count} message{} to the history on its own, such as a tool \
         call it made itself. The replay shows them: the model sees them on the next call.",
        plural(count)
    )
}
pub fn detail_usage(input: u64, output: u64) -> String {
    format!("usage: {input} tokens in, {output} out")
}
pub fn detail_check(w: &Words, stop_reason: &str, branch: &str) -> String {
    format!("{} {stop_reason} → {branch}", w.stop_field)
}
pub const BRANCH_DISPATCH: &str = "dispatch every tool request";
pub const BRANCH_ANSWER: &str = "return the text";
pub const BRANCH_CONTINUE: &str = "send the conversation back as it is";
pub const BRANCH_STOP: &str = "halt without an answer";
pub fn detail_tool(name: &str, id: &str) -> String {
    format!("tool {name}   id {id}")
}
pub const DETAIL_INPUT: &str = "input: ";
pub const DETAIL_RESULT: &str = "result: ";
pub const DETAIL_ERROR: &str = "error result: ";
pub fn detail_append(w: &Words, results: usize, index: usize) -> String {
    format!(
        "messages[{index}] ← {results} result{} as {}",
        plural(results),
        w.results_message
    )
}
pub fn detail_wrong_order(index: usize) -> String {
    format!("messages[{index}] ← the results first, then the model's own request")
}
pub fn detail_dropped(results: usize) -> String {
    format!(
        "{results} result{} dropped: nothing was appended to messages",
        plural(results)
    )
}
pub fn detail_split(results: usize, messages: usize) -> String {
    format!("{results} results appended as {messages} separate user messages")
}
pub const DETAIL_RETURN: &str = "return ";
pub fn detail_totals(calls: usize, tools: usize) -> String {
    format!(
        "the loop ends after {calls} model call{} and {tools} tool call{}",
        plural(calls),
        plural(tools)
    )
}
pub fn detail_no_turn_left(next_call: usize, max_turns: u32) -> String {
    format!("no turn left for call #{next_call}: max_turns = {max_turns}")
}
pub const DETAIL_NONE_MEANS: &str = "The facts may already be in messages, but the model never got \
     the call that would use them. A caller must treat None as \"no answer within budget\", \
     never as an answer.";
pub fn detail_goal_verified(evidence: &[Evidence]) -> String {
    format!("goal check: verified, {}", evidence_list(evidence))
}

/// The checks a verified answer passed, in full: "verified" never stands alone.
pub fn evidence_list(evidence: &[Evidence]) -> String {
    let one = |e: &Evidence| match e {
        Evidence::Answer(answer) => format!("the answer matched the expected {answer:?}"),
        Evidence::ModelCalls(n) => format!("{n} model call{}, as expected", plural(*n)),
        Evidence::NoToolErrors => "no tool reported an error".to_owned(),
        Evidence::GoalCheck(tool) => format!("the harness's goal check saw `{tool}` succeed"),
    };
    evidence.iter().map(one).collect::<Vec<_>>().join("; ")
}

/// The same, in a few words for the outcome line: "verified: answer, calls".
pub fn verified_short(evidence: &[Evidence]) -> String {
    let one = |e: &Evidence| match e {
        Evidence::Answer(_) => "answer",
        Evidence::ModelCalls(_) => "calls",
        Evidence::NoToolErrors => "no errors",
        Evidence::GoalCheck(_) => "goal",
    };
    let names: Vec<&str> = evidence.iter().map(one).collect();
    format!("verified: {}", names.join(", "))
}
pub fn detail_goal_missed(misses: &str) -> String {
    format!("goal check failed: {misses}")
}

// Captions: what this step does and why, in one or two sentences.
pub fn caption_start(messages: usize) -> String {
    format!(
        "Start, turn 0: messages holds {} and nothing has been sent yet. \
         Each turn will call the model, check its reply, and maybe dispatch tools and append results.",
        if messages == 1 {
            "just the question".to_owned()
        } else {
            format!("{messages} messages, the question last")
        }
    )
}

pub fn caption_first_call() -> String {
    "Call: the loop sends the model the conversation so far, which is just the question. \
     The reply is saved into messages before anything else happens."
        .to_owned()
}

pub fn caption_call(w: &Words, number: u32, messages: usize) -> String {
    if w.keeps_state {
        format!(
            "Call #{number}: {} can keep the conversation on its side (previous_response_id), \
             but this loop, like the lesson's, resends all {messages} messages. The reply joins the list.",
            w.api
        )
    } else {
        format!(
            "Call #{number}: the {} API keeps no memory between calls, so the loop resends all \
             {messages} messages. The reply joins the list.",
            w.api
        )
    }
}

pub fn caption_check_dispatch(w: &Words, stop_reason: &str) -> String {
    format!(
        "Check: {} is {stop_reason}, so the model is asking for tools. The loop reads \
         this field; it never guesses from the reply's text.",
        w.stop_field
    )
}

pub fn caption_check_answer(w: &Words, stop_reason: &str) -> String {
    format!(
        "Check: {} is {stop_reason}, so the model has answered. The loop leaves with the reply's text.",
        w.stop_field
    )
}

pub fn caption_check_continue(stop_reason: &str) -> String {
    format!(
        "Check: {stop_reason} means the server paused a long turn. The loop sends the \
         conversation back unchanged so the model can go on; that costs a turn."
    )
}

pub fn caption_check_stop(w: &Words, stop_reason: &str, why: &str) -> String {
    format!(
        "Check: {} {stop_reason} is neither a clean tool request nor a finished answer, so the \
         production check halts: {why}. Press c to see what the lesson's check does.",
        w.stop_field
    )
}

pub fn caption_check_lesson_answer(w: &Words, stop_reason: &str) -> String {
    format!(
        "Check: {} {stop_reason} is not {}, and the lesson's simple check treats \
         everything else as the answer. Press c for the production check.",
        w.stop_field, w.tool_stop
    )
}

pub fn caption_dispatch(w: &Words, name: &str, nth: usize, of: usize, is_error: bool) -> String {
    let which = if of > 1 {
        format!("Dispatch {nth} of {of}: ")
    } else {
        "Dispatch: ".to_owned()
    };
    if is_error {
        format!(
            "{which}{name} failed. The error goes back as a result (flagged by {}), so the model \
             can read it and correct itself.",
            w.error_flag
        )
    } else {
        format!(
            "{which}the loop, not the model, runs {name}. A miss is still a result and \
             travels back the same way as a hit."
        )
    }
}

/// `turns_left` is false when the budget is spent, so no call follows.
pub fn caption_append(w: &Words, results: usize, turns_left: bool, max_turns: u32) -> String {
    let what = match results {
        1 => format!("the result goes back as {}", w.results_message),
        2 => format!("both results go back together, as {}", w.results_message),
        n => format!("all {n} results go back together, as {}", w.results_message),
    };
    let next = if turns_left {
        "Then the loop turns again.".to_owned()
    } else {
        format!("The loop would turn again, but max_turns = {max_turns} is spent.")
    };
    format!(
        "Append: {what}, each tagged with the {} of the call it answers. {next}",
        w.result_id
    )
}

pub fn caption_goal_met(tool: &str) -> String {
    format!(
        "Goal check: the model says it is done, and the harness looks at the evidence: \
         `{tool}` has succeeded in this run. The answer stands, verified by a check, not by the model's word."
    )
}

pub fn caption_goal_missed(tool: &str) -> String {
    format!(
        "Goal check: the model says it is done, but `{tool}` has not succeeded in this run. \
         The harness appends \"not done yet\" and the loop goes on; that costs a turn."
    )
}

pub fn detail_goal_check(tool: &str, passed: bool) -> String {
    if passed {
        format!("goal check: `{tool}` has succeeded → return the answer")
    } else {
        format!("goal check: `{tool}` has not succeeded → push back and call again")
    }
}

pub fn caption_answer(text: &str, calls: usize, rounds: Rounds, tools: usize) -> String {
    let parallel = if tools > rounds.tools {
        format!(
            " {tools} tools ran in {} round{}: parallel requests share a call.",
            rounds.tools,
            plural(rounds.tools)
        )
    } else {
        String::new()
    };
    let paused = match rounds.paused {
        0 => String::new(),
        n => format!(" + {n} paused turn{}", plural(n)),
    };
    let pushed = match rounds.pushed_back {
        0 => String::new(),
        n => format!(" + {n} push-back{}", plural(n)),
    };
    format!(
        "The loop returns \"{text}\": {} tool round{}{paused}{pushed} + 1 = {calls} model \
         call{}.{parallel} An answer is the model's word; only a goal check verifies it.",
        rounds.tools,
        plural(rounds.tools),
        plural(calls)
    )
}

pub fn caption_lesson_returned(w: &Words, stop_reason: &str, text: &str) -> String {
    format!(
        "The lesson's check returned this {} {stop_reason} reply as if it were the answer: \
         \"{text}\". Press c: the production check halts here instead and says why.",
        w.stop_field
    )
}

pub fn caption_budget(max_turns: u32) -> String {
    format!(
        "max_turns = {max_turns} is spent: the loop returns None, which is not an answer. \
         Elsewhere the OpenAI Agents SDK raises MaxTurnsExceeded, LangGraph raises \
         GraphRecursionError, and Anthropic's tool runner stops at max_iterations without an error."
    )
}

pub fn caption_stopped(reason: &str) -> String {
    format!(
        "The loop halts without an answer: {}.",
        reason.trim_end_matches('.')
    )
}

pub fn caption_recording_ended() -> String {
    "The recording holds no further reply, so the replay ends here. That is neither an \
     answer nor None."
        .to_owned()
}

pub fn caption_rejected(w: &Words, rejection: &str) -> String {
    format!("The {} API rejected the request: {rejection}", w.api)
}

// Mistakes: the banner, and the caption where each does its damage.
pub fn mistake_banner(name: &str) -> String {
    format!(" MISTAKE: {name} · M fixes ")
}
pub fn mistake_dropped(w: &Words) -> String {
    format!(
        "Mistake: the loop ran the tools but dropped their results. The next request still \
         holds the tool request ({}) with nothing answering it, so the API will reject it.",
        w.tool_request
    )
}
pub fn mistake_forgot(w: &Words) -> String {
    format!(
        "Mistake: the loop did not save the model's reply into messages. The results it appends \
         next answer a tool request ({}) the API never sees, so it will reject them.",
        w.tool_request
    )
}
pub const MISTAKE_WRONG_ORDER: &str = "Mistake: the results went into messages before the model's \
     own request. They answer a call that comes after them, so the API will reject the next request.";
/// Split results, under an API that combines consecutive user turns.
/// (https://platform.claude.com/docs/en/api/messages/create; the tool-use
/// guide's "Parallel tool calls not working" shows this very form.)
pub const MISTAKE_SPLIT: &str = "Mistake: each result went into a user message of its own. The \
     Messages API combines consecutive user turns, so it accepts this; but its docs warn that \
     separate result messages teach the model to make fewer parallel calls.";
pub fn mistake_stopped_on_text(w: &Words, stop_reason: &str) -> String {
    format!(
        "Mistake: the reply has text that looks done, so the loop stopped without reading \
         {} {stop_reason}. The tool request is left pending; the \"answer\" is a half-finished thought.",
        w.stop_field
    )
}
/// The mistake never changed what the loop did: say why, instead of
/// letting the run end "verified" as if the mistake were harmless.
pub fn mistake_not_shown(w: &Words, mistake: Mistake) -> String {
    let why = match mistake {
        Mistake::DropResults | Mistake::ForgetRequest | Mistake::WrongOrder => {
            "no reply of this run asks for a tool, so there is nothing for it to get wrong".to_owned()
        }
        Mistake::SplitResults if !w.results_together => format!(
            "{} already sends {}, so splitting the results changes nothing",
            w.api, w.results_message
        ),
        Mistake::SplitResults => {
            "no reply of this run asks for more than one tool, so there is nothing to split".to_owned()
        }
        Mistake::StopOnText => {
            "no reply of this run has text beside a tool request, so reading the text first changes nothing"
                .to_owned()
        }
        Mistake::NoBudget => {
            "the run ends within its max_turns, so the missing budget is never needed".to_owned()
        }
    };
    format!(
        "This run cannot show the mistake {}: {why}.",
        mistake.name()
    )
}
pub fn mistake_past_budget(call: u32, max_turns: u32) -> String {
    format!(
        "Mistake: no max_turns. Call #{call} is past the budget of {max_turns} this run was recorded \
         with; nothing but the engine's safety cap will stop a model that keeps asking."
    )
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
