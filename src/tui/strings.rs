//! Every word the screen shows, in one place, so that a translation touches
//! this file and nothing else. Functions take the figures they need; text
//! from a transcript is sanitised by the caller before it arrives here.

use crate::engine::CheckPolicy;

pub const APP_NAME: &str = "loopstep";
pub const QUESTION: &str = "question";
pub const MODEL: &str = "model";

pub const LOOP_TITLE: &str = "the loop";
// Block kinds keep the API's own names: they are what a class will see in logs.
pub const KIND_TOOL_USE: &str = "tool_use";
pub const KIND_TOOL_RESULT: &str = "tool_result";
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
pub fn turn_answer(stop_reason: &str) -> String {
    format!("{stop_reason} → answer")
}
pub fn turn_stop(stop_reason: &str) -> String {
    format!("{stop_reason} → stop")
}
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
pub const NODE_STOP: &str = "stop";
pub const EDGE_BUDGET: &str = " ─ budget spent ▶ ";
pub const EDGE_ANSWER: &str = " ─ end_turn ─▶ ";
pub const EDGE_TOOL: &str = "   │ tool_use";
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
pub const KEY_WIRE: &str = "detail: summary / Anthropic / OpenAI wire";
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

// Outcomes.
pub const OUTCOME: &str = "outcome";
pub const OUTCOME_PENDING: &str = "running";
pub fn outcome_answer(text: &str) -> String {
    format!("\"{text}\"")
}
pub const OUTCOME_NONE: &str = "None";
pub fn outcome_stopped(stop_reason: &str) -> String {
    format!("stopped ({stop_reason})")
}
pub const OUTCOME_STOPPED: &str = "stopped";
pub const OUTCOME_RECORDING_ENDED: &str = "recording ended";
pub const OUTCOME_REJECTED: &str = "rejected by the API";
pub const VERIFIED: &str = "verified";
pub const NOT_VERIFIED: &str = "NOT verified";

// Detail pane.
pub const NOTE: &str = "note: ";
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
pub fn wire_title(shape: &str) -> String {
    format!(" · {shape} wire (w)")
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
pub fn detail_reply(stop_reason: &str) -> String {
    format!("reply: stop_reason {stop_reason}")
}
pub const INFERRED: &str = " (inferred: the recording carries no stop reason)";
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
pub fn detail_check(stop_reason: &str, branch: &str) -> String {
    format!("stop_reason {stop_reason} → {branch}")
}
pub const BRANCH_DISPATCH: &str = "dispatch every tool request";
pub const BRANCH_ANSWER: &str = "return the text";
pub const BRANCH_CONTINUE: &str = "send the conversation back (pause_turn)";
pub const BRANCH_STOP: &str = "stop";
pub fn detail_tool(name: &str, id: &str) -> String {
    format!("tool {name}   id {id}")
}
pub const DETAIL_INPUT: &str = "input: ";
pub const DETAIL_RESULT: &str = "result: ";
pub const DETAIL_ERROR: &str = "error result: ";
pub fn detail_append(results: usize, index: usize) -> String {
    format!(
        "messages[{index}] ← one user message with {results} tool_result{}",
        plural(results)
    )
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
pub fn detail_goal_verified() -> &'static str {
    "goal check: the answer matches the run's expectation"
}
pub fn detail_goal_missed(misses: &str) -> String {
    format!("goal check failed: {misses}")
}

// Captions: what this step does and why, in one or two sentences.
pub fn caption_first_call() -> String {
    "Call: the loop sends the model the conversation so far, which is just the question. \
     The reply is saved into messages before anything else happens."
        .to_owned()
}

pub fn caption_call(number: u32, messages: usize) -> String {
    format!(
        "Call #{number}: the API keeps no memory between calls, so the loop resends all \
         {messages} messages. The reply joins the list."
    )
}

pub fn caption_check_dispatch(stop_reason: &str) -> String {
    format!(
        "Check: stop_reason is {stop_reason}, so the model is asking for tools. The loop reads \
         this flag; it never guesses from the reply's text."
    )
}

pub fn caption_check_answer(stop_reason: &str) -> String {
    format!(
        "Check: stop_reason is {stop_reason}, so the model has answered. The loop leaves with the reply's text."
    )
}

pub fn caption_check_continue(stop_reason: &str) -> String {
    format!(
        "Check: {stop_reason} means the server paused a long turn. The loop sends the \
         conversation back unchanged so the model can go on; that costs a turn."
    )
}

pub fn caption_check_stop(stop_reason: &str, why: &str) -> String {
    format!(
        "Check: {stop_reason} is neither a tool request nor a finished answer, so the \
         production check stops: {why}. Press c to see the lesson's check take it for the answer."
    )
}

pub fn caption_check_lesson_answer(stop_reason: &str) -> String {
    format!(
        "Check: {stop_reason} is not a tool request, and the lesson's simple check treats \
         everything else as the answer. Press c for the production check."
    )
}

pub fn caption_dispatch(name: &str, nth: usize, of: usize, is_error: bool) -> String {
    let which = if of > 1 {
        format!("Dispatch {nth} of {of}: ")
    } else {
        "Dispatch: ".to_owned()
    };
    if is_error {
        format!(
            "{which}{name} failed. The error goes back as an is_error result, so the model \
             can read it and correct itself."
        )
    } else {
        format!(
            "{which}the loop, not the model, runs {name}. A miss is still a result and \
             travels back the same way as a hit."
        )
    }
}

pub fn caption_append(results: usize) -> String {
    if results == 1 {
        "Append: the result goes back as one user message, tagged with the id of the request \
         it answers. Then the loop turns again."
            .to_owned()
    } else {
        let all = if results == 2 {
            "Both results".to_owned()
        } else {
            format!("All {results} results")
        };
        format!(
            "Append: {all} go back together in one user message; sent one by one, the API \
             would reject the request. Then the loop turns again."
        )
    }
}

pub fn caption_answer(text: &str, calls: usize, tool_rounds: usize, tools: usize) -> String {
    let parallel = if tools > tool_rounds {
        format!(
            " {tools} tools ran in {tool_rounds} round{}: parallel requests share a call.",
            plural(tool_rounds)
        )
    } else {
        String::new()
    };
    format!(
        "The loop returns \"{text}\": {tool_rounds} tool round{} + 1 = {calls} model \
         call{}.{parallel} An answer is the model's word; only a goal check verifies it.",
        plural(tool_rounds),
        plural(calls)
    )
}

pub fn caption_lesson_returned(stop_reason: &str, text: &str) -> String {
    format!(
        "The lesson's check returned this {stop_reason} reply as if it were the answer: \
         \"{text}\". Press c: the production check stops here instead and says why."
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
        "The loop stops without an answer: {}.",
        reason.trim_end_matches('.')
    )
}

pub fn caption_recording_ended() -> String {
    "The recording holds no further reply, so the replay ends here. That is neither an \
     answer nor None."
        .to_owned()
}

pub fn caption_rejected(rejection: &str) -> String {
    format!(
        "The API rejected the request ({rejection}). It refuses any history whose tool \
         requests and results do not pair up."
    )
}

// Mistakes: the banner, and the caption where each does its damage.
pub fn mistake_banner(name: &str) -> String {
    format!(" MISTAKE: {name} · M fixes ")
}
pub const MISTAKE_DROPPED: &str = "Mistake: the loop ran the tools but dropped their results. \
     The next request still holds the tool request with nothing answering it, so the API will reject it.";
pub const MISTAKE_FORGOT: &str = "Mistake: the loop did not save the model's reply into messages. \
     The results it appends next will answer a tool request the API never sees, so it will reject them.";
pub const MISTAKE_SPLIT: &str = "Mistake: each result went into a message of its own. The API wants \
     all of one reply's results in the one next message, so it will reject the request.";
pub fn mistake_stopped_on_text(stop_reason: &str) -> String {
    format!(
        "Mistake: the reply has text that looks done, so the loop stopped without reading \
         stop_reason {stop_reason}. The tool request is left pending; the \"answer\" is a half-finished thought."
    )
}
pub fn mistake_past_budget(call: u32, max_turns: u32) -> String {
    format!(
        "Mistake: no max_turns. Call #{call} is past the budget of {max_turns} this run was recorded \
         with; nothing but the engine's safety cap will stop a model that keeps asking."
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
