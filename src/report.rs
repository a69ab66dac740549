//! Headless rendering of a replay for `loopstep run`: one line per step as
//! text (words from [`crate::narrate`]), or one JSON object. Both speak the
//! run's dialect: an OpenAI run's JSON has `finish_reason` and its
//! messages in the Chat Completions shape.

use serde_json::{Map, Value, json};

use crate::dialect::Dialect;
use crate::engine::{Budget, Outcome, Trace};
use crate::narrate::{self as say, plural};
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
            "tools_run": totals.tool_calls,
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
    let config = &trace.config;
    let words = config.dialect.words();
    let mistake = config
        .mistake
        .map(|m| format!(" · MISTAKE: {}", m.name()))
        .unwrap_or_default();
    let budget = match config.policy().budget {
        Budget::MaxTurns => format!("max_turns {}", config.max_turns),
        Budget::SafetyCap => format!("no max_turns (safety cap {})", crate::engine::SAFETY_CAP),
    };
    let mut out = format!(
        "{} · {} · {budget} · {} check{mistake}\nquestion: {}\n",
        one_line(&transcript.id, PREVIEW_CHARS),
        words.api,
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
            say::step_line(words, config.policy(), step)
        ));
    }
    if let Some(mistake) = config.mistake.filter(|_| !trace.mistake_shown) {
        out.push_str(&format!(
            "note: {}\n",
            say::mistake_not_shown(words, mistake)
        ));
    }
    out.push_str(&format!(
        "model calls: {} · tool calls: {} · outcome: {} · goal check: {}\n",
        trace.model_calls(),
        trace.tool_calls(),
        say::outcome_line(trace.outcome()),
        verification_text(&transcript.verify(trace)),
    ));
    out.push_str(&say::result_line(trace.outcome()));
    out.push('\n');
    out
}

fn run_json(transcript: &Transcript, trace: &Trace) -> Value {
    let verification = transcript.verify(trace);
    let dialect = trace.config.dialect;
    let steps: Vec<Value> = trace
        .steps
        .iter()
        .map(|step| in_dialect(dialect, json!(step)))
        .collect();
    let mut report = json!({
        "transcript": transcript.id,
        "title": transcript.title,
        "dialect": dialect.id(),
        "max_turns": trace.config.max_turns,
        "check": trace.config.check,
        "tool_errors": trace.config.tool_errors,
        "mistake": trace.config.mistake,
        "outcome": trace.outcome().map_or("unfinished", Outcome::label),
        "result": trace.result(),
        "model_calls": trace.model_calls(),
        "tools_run": trace.tool_calls(),
        "goal_check": verification_label(&verification),
        "mistake_shown": trace.config.mistake.map(|_| trace.mistake_shown),
        "steps": steps,
        "messages": dialect.messages(&trace.messages),
    });
    match verification {
        Verification::NotVerified(misses) => report["goal_check_misses"] = json!(misses),
        Verification::Verified(evidence) => report["goal_check_evidence"] = json!(evidence),
        Verification::NotChecked => {}
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
        Verification::Verified(_) => "verified",
        Verification::NotVerified(_) => "not_verified",
    }
}

/// The goal check for the text report: "verified" always with its evidence.
fn verification_text(v: &Verification) -> String {
    match v {
        Verification::Verified(evidence) => format!("verified ({})", say::evidence_list(evidence)),
        other => verification_label(other).to_owned(),
    }
}

/// A step's JSON with the run's own field names: the stop-reason field is
/// `finish_reason` in an OpenAI Chat run, and only an Anthropic run calls
/// a failed result `is_error`.
fn in_dialect(dialect: Dialect, value: Value) -> Value {
    let words = dialect.words();
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(key, value)| {
                    let key = match key.as_str() {
                        "stop_reason" => words.stop_field.to_owned(),
                        "stop_reason_inferred" => format!("{}_inferred", words.stop_field),
                        "is_error" => words.error_key.to_owned(),
                        _ => key,
                    };
                    (key, in_dialect(dialect, value))
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| in_dialect(dialect, v)).collect())
        }
        other => other,
    }
}
