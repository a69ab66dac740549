//! Headless rendering of a replay for `loopstep run`: one line per step as
//! text, or one JSON object.

use serde_json::{Value, json};

use crate::engine::{Event, Outcome, Step, Trace, Verdict};
use crate::text::one_line;
use crate::transcript::{Source, Transcript, Verification};

/// How long a tool input or output may get on one line of the text report.
const PREVIEW_CHARS: usize = 72;

/// Every run of a source, one after the other, then totals if there are several.
pub fn text(source: &Source, traces: &[Trace]) -> String {
    let mut out = String::new();
    for note in &source.notes {
        out.push_str(&format!("note: {}\n", one_line(note, PREVIEW_CHARS * 3)));
    }
    let count = source.runs.len();
    for (n, (transcript, trace)) in source.runs.iter().zip(traces).enumerate() {
        if count > 1 {
            out.push_str(&format!(
                "── run {} of {count}: {} ──\n",
                n + 1,
                one_line(&transcript.title, PREVIEW_CHARS)
            ));
        }
        out.push_str(&run_text(transcript, trace));
        if count > 1 {
            out.push('\n');
        }
    }
    if count > 1 {
        let totals = Totals::of(traces);
        out.push_str(&format!(
            "totals: {count} runs · model calls: {} · tool calls: {} · answered: {}\n",
            totals.model_calls, totals.tool_calls, totals.answered
        ));
    }
    out
}

/// One object for a single run; `{"runs": [...], "totals": ...}` for several.
pub fn json(source: &Source, traces: &[Trace]) -> Value {
    let mut runs: Vec<Value> = source
        .runs
        .iter()
        .zip(traces)
        .map(|(t, trace)| run_json(t, trace))
        .collect();
    if runs.len() == 1 {
        let mut only = runs.remove(0);
        if !source.notes.is_empty() {
            only["import_notes"] = json!(source.notes);
        }
        return only;
    }
    let totals = Totals::of(traces);
    json!({
        "format": source.kind,
        "import_notes": source.notes,
        "runs": runs,
        "totals": {
            "runs": traces.len(),
            "model_calls": totals.model_calls,
            "tool_calls": totals.tool_calls,
            "answered": totals.answered,
        },
    })
}

/// What `validate` prints: the format, each run, and every note.
pub fn summary(path: &str, source: &Source) -> String {
    let mut out = format!(
        "{}: valid {}, {} run{}\n",
        one_line(path, PREVIEW_CHARS),
        source.kind,
        source.runs.len(),
        plural(source.runs.len())
    );
    for t in &source.runs {
        out.push_str(&format!(
            "  {}: {} repl{}, {} tool{}, max_turns {} · {}\n",
            one_line(&t.id, 40),
            t.replies.len(),
            if t.replies.len() == 1 { "y" } else { "ies" },
            t.tools.len(),
            plural(t.tools.len()),
            t.max_turns,
            one_line(&t.title, PREVIEW_CHARS),
        ));
        for note in &t.notes {
            out.push_str(&format!(
                "    note: {}\n",
                one_line(note, PREVIEW_CHARS * 3)
            ));
        }
    }
    for note in &source.notes {
        out.push_str(&format!("  note: {}\n", one_line(note, PREVIEW_CHARS * 3)));
    }
    out
}

struct Totals {
    model_calls: usize,
    tool_calls: usize,
    answered: usize,
}

impl Totals {
    fn of(traces: &[Trace]) -> Self {
        Totals {
            model_calls: traces.iter().map(Trace::model_calls).sum(),
            tool_calls: traces.iter().map(Trace::tool_calls).sum(),
            answered: traces.iter().filter(|t| t.result().is_some()).count(),
        }
    }
}

fn run_text(transcript: &Transcript, trace: &Trace) -> String {
    let mistake = trace
        .config
        .mistake
        .map(|m| format!(" · MISTAKE: {}", m.name()))
        .unwrap_or_default();
    let mut out = format!(
        "{} · max_turns {} · {} check{mistake}\nquestion: {}\n",
        one_line(&transcript.id, PREVIEW_CHARS),
        trace.config.max_turns,
        policy_name(trace),
        one_line(&transcript.question, PREVIEW_CHARS * 2),
    );
    for note in &transcript.notes {
        out.push_str(&format!("note: {}\n", one_line(note, PREVIEW_CHARS * 3)));
    }
    for step in &trace.steps {
        out.push_str(&format!(
            "turn {:<2} {:<16} {}\n",
            step.turn,
            step.event.phase().as_str(),
            describe(step)
        ));
    }
    out.push_str(&format!(
        "model calls: {} · tool calls: {} · outcome: {} · goal check: {}\n",
        trace.model_calls(),
        trace.tool_calls(),
        trace.outcome().map_or("unfinished", Outcome::label),
        verification_label(&transcript.verify(trace)),
    ));
    out.push_str(&match trace.result() {
        Some(answer) => format!("result: \"{}\"\n", one_line(answer, PREVIEW_CHARS * 4)),
        None => "result: None\n".to_owned(),
    });
    out
}

fn run_json(transcript: &Transcript, trace: &Trace) -> Value {
    let verification = transcript.verify(trace);
    let mut report = json!({
        "transcript": transcript.id,
        "title": transcript.title,
        "max_turns": trace.config.max_turns,
        "check": trace.config.check,
        "tool_errors": trace.config.tool_errors,
        "mistake": trace.config.mistake,
        "outcome": trace.outcome().map_or("unfinished", Outcome::label),
        "result": trace.result(),
        "model_calls": trace.model_calls(),
        "tool_calls": trace.tool_calls(),
        "goal_check": verification_label(&verification),
        "steps": trace.steps,
        "messages": trace.messages,
    });
    if let Verification::NotVerified(misses) = verification {
        report["goal_check_misses"] = json!(misses);
    }
    if !transcript.notes.is_empty() {
        report["notes"] = json!(transcript.notes);
    }
    report
}

fn policy_name(trace: &Trace) -> &'static str {
    match trace.config.check {
        crate::engine::CheckPolicy::Lesson => "lesson",
        crate::engine::CheckPolicy::Production => "production",
    }
}

fn verification_label(v: &Verification) -> &'static str {
    match v {
        Verification::NotChecked => "not_checked",
        Verification::Verified => "verified",
        Verification::NotVerified(_) => "not_verified",
    }
}

fn describe(step: &Step) -> String {
    match &step.event {
        Event::Call {
            request,
            stop_reason,
            stop_reason_inferred,
            ..
        } => format!(
            "request #{}: {} message{}, {} chars → reply with stop_reason {}{}",
            request.number,
            request.messages,
            plural(request.messages),
            request.chars,
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
                Verdict::Stop { reason } => {
                    format!("stop: {}", one_line(reason, PREVIEW_CHARS * 2))
                }
            };
            format!("{} → {branch}", one_line(stop_reason, PREVIEW_CHARS))
        }
        Event::Dispatch {
            name,
            input,
            output,
            ..
        } => format!(
            "{} {} → {}{:?}",
            one_line(name, PREVIEW_CHARS),
            one_line(&input.to_string(), PREVIEW_CHARS),
            if output.is_error { "error " } else { "" },
            one_line(&output.content, PREVIEW_CHARS)
        ),
        Event::Append { results, messages } => match messages {
            0 => format!(
                "{results} result{} dropped: nothing appended → {} messages",
                plural(*results),
                step.messages
            ),
            1 => format!(
                "{results} result{} as one user message → {} messages",
                plural(*results),
                step.messages
            ),
            n => format!(
                "{results} results as {n} separate messages → {} messages",
                step.messages
            ),
        },
        Event::Inserted { messages } => format!(
            "the client added {messages} message{} no reply asked for → {} messages",
            plural(*messages),
            step.messages
        ),
        Event::Answer { text } => format!("{:?}", one_line(text, PREVIEW_CHARS * 4)),
        Event::BudgetExhausted { max_turns } => format!(
            "all {max_turns} turn{} used without an answer: the loop returns None",
            plural(*max_turns as usize)
        ),
        Event::Stopped { reason } => one_line(reason, PREVIEW_CHARS * 2),
        Event::RecordingEnded => {
            "the recording has no reply for this call: the replay ends here".to_owned()
        }
        Event::Rejected { rejection } => format!(
            "the API rejected the request: {}",
            one_line(&rejection.to_string(), PREVIEW_CHARS * 2)
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
