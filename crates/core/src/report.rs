//! Headless rendering of a replay for `loopstep run`: one line per step as
//! text (words from [`crate::narrate`]), or one JSON object. Both speak the
//! run's dialect: an OpenAI run's JSON has `finish_reason` and its
//! messages in the Chat Completions shape.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};

use crate::dialect::Dialect;
use crate::engine::{Budget, Event, Outcome, SAFETY_CAP, Step, Trace};
use crate::narrate::{Lang, RunCounts, Say, reply_of};
use crate::prices::Prices;
use crate::text::one_line;
use crate::transcript::{Note, Source, Transcript, Verification};

/// How long a title or a note may get on one line of the text report.
const PREVIEW_CHARS: usize = 72;

/// How `run` prints a run besides its steps.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions<'p> {
    pub lang: Lang,
    pub prices: Option<&'p Prices>,
    /// Each step's ReAct reading (Thought, Action, Observation, Finish)
    /// under its line.
    pub react: bool,
}

/// Every run of a source, one after the other, then totals if there are
/// several; in `lang`, each run in its own API's words.
pub fn text(source: &Source, traces: &[Trace], options: TextOptions) -> String {
    let TextOptions {
        lang,
        prices,
        react,
    } = options;
    let mut lines = Vec::new();
    let say = |t: &Trace| Say::new(lang, t.config.dialect);
    let plain = Say::new(lang, Dialect::default());
    for note in &source.notes {
        lines.push(plain.note_line(&one_line(&plain.note_text(note), PREVIEW_CHARS * 3)));
    }
    let count = source.runs.len();
    for (n, (transcript, trace)) in source.runs.iter().zip(traces).enumerate() {
        if count > 1 {
            let title = one_line(&transcript.title, PREVIEW_CHARS);
            lines.push(plain.run_divider(n + 1, count, &title));
        }
        lines.extend(run_text(say(trace), transcript, trace, (prices, react)));
        if count > 1 {
            lines.push(String::new());
        }
    }
    if count > 1 {
        let totals = Totals::of(traces);
        lines.push(plain.totals(
            count,
            totals.model_calls,
            totals.tool_calls,
            totals.answered,
        ));
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// One object for a single run; `{"runs": [...], "totals": ...}` for several.
pub fn json<'a>(
    source: &'a Source,
    traces: &'a [Trace],
    prices: Option<&'a Prices>,
) -> JsonReport<'a> {
    JsonReport {
        source,
        traces,
        prices,
    }
}

/// The JSON report, built run by run as it is written: a log of many long
/// runs never holds more than one run's JSON in memory.
pub struct JsonReport<'a> {
    source: &'a Source,
    traces: &'a [Trace],
    prices: Option<&'a Prices>,
}

impl JsonReport<'_> {
    fn runs(&self) -> impl Iterator<Item = Value> + '_ {
        self.source
            .runs
            .iter()
            .zip(self.traces)
            .map(|(t, trace)| run_json(t, trace, self.prices))
    }
}

impl Serialize for JsonReport<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let source = self.source;
        if let [_] = source.runs.as_slice() {
            let mut only = self.runs().next().unwrap_or_default();
            if !source.notes.is_empty() {
                only["import_notes"] = notes_json(&source.notes);
            }
            return only.serialize(serializer);
        }
        let totals = Totals::of(self.traces);
        let mut map = serializer.serialize_map(Some(4))?;
        // Machine output: in English whatever the language.
        let english = Say::new(Lang::En, Dialect::default());
        map.serialize_entry("format", &english.kind(source.kind))?;
        map.serialize_entry("import_notes", &notes_json(&source.notes))?;
        map.serialize_entry("runs", &RunsJson(self))?;
        map.serialize_entry(
            "totals",
            &json!({
                "runs": self.traces.len(),
                "model_calls": totals.model_calls,
                "tools_run": totals.tool_calls,
                "answered": totals.answered,
            }),
        )?;
        map.end()
    }
}

/// The `runs` array, each run's JSON made just before it is written.
struct RunsJson<'r, 'a>(&'r JsonReport<'a>);

impl Serialize for RunsJson<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.runs())
    }
}

/// What `validate` prints: the format, each run, and every note.
pub fn summary(path: &str, source: &Source, lang: Lang) -> String {
    let say = Say::new(lang, Dialect::default());
    let note = |n: &Note| say.note_line(&one_line(&say.note_text(n), PREVIEW_CHARS * 3));
    let mut lines = vec![say.valid_file(
        &one_line(path, PREVIEW_CHARS),
        source.kind,
        source.runs.len(),
    )];
    for t in &source.runs {
        // Replayed to its end, every request checked against its API's rules.
        let last = t.last_step_in(t.default_config(), lang);
        lines.push(format!(
            "  {} · {}",
            say.valid_run(
                &one_line(&t.id, 40),
                RunCounts {
                    replies: t.replies.len(),
                    tool_calls: t.replies.iter().map(|r| r.tool_calls().count()).sum(),
                    declared: t.tools.len(),
                },
                t.max_turns.get(),
                &one_line(&t.title, PREVIEW_CHARS),
            ),
            say.replays_to(last.as_ref().and_then(|s| Outcome::of(&s.event))),
        ));
        lines.extend(t.notes.iter().map(|n| format!("    {}", note(n))));
    }
    lines.extend(source.notes.iter().map(|n| format!("  {}", note(n))));
    lines.iter().map(|l| format!("{l}\n")).collect()
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

fn run_text(
    say: Say,
    transcript: &Transcript,
    trace: &Trace,
    (prices, react): (Option<&Prices>, bool),
) -> Vec<String> {
    let config = &trace.config;
    let mut lines = vec![
        say.run_header(
            &one_line(&transcript.id, PREVIEW_CHARS),
            config.policy().budget,
            config.max_turns.get(),
            config.check,
            config.mistake,
        ),
        say.question_line(&one_line(&transcript.question, PREVIEW_CHARS * 2)),
    ];
    if let Some(compaction) = &transcript.compaction {
        lines.push(say.note_line(&say.compacted(compaction)));
    }
    for note in &transcript.notes {
        lines.push(say.note_line(&one_line(&say.note_text(note), PREVIEW_CHARS * 3)));
    }
    // Columns by display width (a Chinese character takes two), the turn's
    // as wide as the last turn's label and two spaces: "第 100 轮  中止".
    let turn_width = trace
        .steps
        .last()
        .map_or(0, |last| crate::text::width(&say.turn_label(last.turn)) + 2);
    for (at, step) in trace.steps.iter().enumerate() {
        let turn = pad(&say.turn_label(step.turn), turn_width.max(9));
        let phase = pad(say.phase(step.event.phase()), 16);
        let took = step.event.time().map(|t| say.took(t)).unwrap_or_default();
        lines.push(format!(
            "{turn}{phase} {}{took}",
            say.step_line(
                config.policy(),
                transcript.goal.is_some(),
                step,
                trace.steps.get(at + 1)
            )
        ));
        if react && let Some(line) = say.react_line(step, reply_of(trace.messages.all(), step)) {
            lines.push(format!("  {line}"));
        }
        if let Some(remark) = call_remark(transcript, step) {
            lines.push(format!(
                "  {}{}",
                say.remark(),
                one_line(remark, usize::MAX)
            ));
        }
    }
    if let Some(mistake) = config.mistake.filter(|_| !trace.mistake_shown) {
        lines.push(say.note_line(&say.mistake_not_shown(mistake)));
    }
    let goal = match transcript.verify(trace.view()) {
        Verification::Verified(evidence) => say.goal_verified(&say.evidence_list(&evidence), true),
        Verification::ToolReported(evidence) => {
            say.goal_verified(&say.evidence_list(&evidence), false)
        }
        Verification::NotVerified(misses) => say.goal_not_verified(&say.miss_list(&misses)),
        Verification::NotChecked => say.goal_not_checked().to_owned(),
    };
    lines.push(say.run_summary(
        trace.model_calls(),
        trace.tool_calls(),
        say.outcome_name(trace.outcome()),
        &goal,
    ));
    if let Some(usage) = trace.recorded_usage() {
        let cost = prices.and_then(|p| p.cost(&transcript.model, &usage));
        lines.push(say.usage_words(&usage) + &say.cost_words(cost));
    }
    lines.push(say.result_line(trace.outcome()));
    lines
}

/// The course author's remark on the call this step makes, if any.
pub fn call_remark<'t>(transcript: &'t Transcript, step: &Step) -> Option<&'t str> {
    match &step.event {
        Event::Call { request, .. } => transcript.remark(request.number),
        _ => None,
    }
}

/// `text` and spaces up to `columns` display columns.
fn pad(text: &str, columns: usize) -> String {
    let room = columns.saturating_sub(crate::text::width(text));
    format!("{text}{}", " ".repeat(room))
}

/// The steps that go wrong: each one's number, turn and phase.
fn errors(trace: &Trace) -> Vec<Value> {
    trace
        .steps
        .iter()
        .enumerate()
        .filter(|(_, step)| step.event.goes_wrong())
        .map(|(index, step)| {
            json!({"step": index + 1, "turn": step.turn, "phase": step.event.phase().as_str()})
        })
        .collect()
}

fn run_json(transcript: &Transcript, trace: &Trace, prices: Option<&Prices>) -> Value {
    let verification = transcript.verify(trace.view());
    let dialect = trace.config.dialect;
    let history = transcript.history.len();
    // Each call's request beside the model's context window, where known.
    let window = crate::dialect::context_window(&transcript.model);
    let steps: Vec<Value> = trace
        .steps
        .iter()
        .map(|step| {
            let mut json = step_json(dialect, step);
            if let (Event::Call { .. }, Some(window)) = (&step.event, window) {
                json["context_window"] = json!(window);
            }
            json
        })
        .collect();
    let mut report = json!({
        "transcript": transcript.id,
        "title": transcript.title,
        "dialect": dialect.id(),
        "max_turns": trace.config.max_turns,
        // A loop without a budget (the no-budget mistake) stops at the cap.
        "safety_cap": (trace.config.policy().budget == Budget::SafetyCap).then_some(SAFETY_CAP),
        "check": trace.config.check,
        "tool_errors": trace.config.tool_errors,
        "mistake": trace.config.mistake,
        "outcome": trace.outcome().map_or("unfinished", Outcome::label),
        "result": trace.result(),
        "model_calls": trace.model_calls(),
        "tools_run": trace.tool_calls(),
        "goal_check": verification_label(&verification),
        "mistake_shown": trace.config.mistake.map(|_| trace.mistake_shown),
        // Where the run went wrong, first: the steps to read (1-based, as
        // the screen and `--step` count them).
        "errors": errors(trace),
        "steps": steps,
        // The run's own messages, from its question on (after the system
        // prompt, where the API sends it as a message): the history before
        // it is shared by every run of a log and would repeat in each.
        "history_messages": history,
        "messages": dialect.messages(trace.messages.without_history()),
    });
    match verification {
        Verification::NotVerified(misses) => report["goal_check_misses"] = json!(misses),
        Verification::Verified(evidence) | Verification::ToolReported(evidence) => {
            report["goal_check_evidence"] = json!(evidence)
        }
        Verification::NotChecked => {}
    }
    if !transcript.notes.is_empty() {
        report["notes"] = notes_json(&transcript.notes);
    }
    // The course author's words on a call: where a lesson makes its point.
    if !transcript.remarks.is_empty() {
        report["remarks"] = json!(transcript.remarks);
    }
    if let Some(compaction) = &transcript.compaction {
        report["compaction"] = json!(compaction);
    }
    if let Some(usage) = trace.recorded_usage() {
        report["recorded_usage"] = json!(usage);
        if let Some(cost) = prices.and_then(|p| p.cost(&transcript.model, &usage)) {
            report["cost_usd"] = json!(cost);
        }
    }
    report
}

fn verification_label(v: &Verification) -> &'static str {
    match v {
        Verification::NotChecked => "not_checked",
        Verification::Verified(_) => "verified",
        Verification::ToolReported(_) => "tool_reported",
        Verification::NotVerified(_) => "not_verified",
    }
}

/// A step as `run --format json` writes it, in the run's own field names.
pub fn step_json(dialect: Dialect, step: &Step) -> Value {
    in_dialect(dialect, json!(step))
}

/// A step's JSON with the run's own field names: the stop-reason field is
/// `finish_reason` in an OpenAI Chat run, and only an Anthropic run calls
/// a failed result `is_error`.
fn in_dialect(dialect: Dialect, mut step: Value) -> Value {
    let words = dialect.words();
    let rename = |object: &mut Map<String, Value>, from: &str, to: String| {
        if let Some(value) = object.remove(from) {
            object.insert(to, value);
        }
    };
    // The step's own fields only: a tool's input or output is data and
    // keeps every key it has.
    if let Value::Object(fields) = &mut step {
        // Responses' status is `incomplete`, the reason beside it.
        if let Some(Value::String(raw)) = fields.get("stop_reason")
            && dialect.wire_stop(raw) != raw.as_str()
        {
            let reason = json!({ "reason": raw });
            fields.insert("incomplete_details".to_owned(), reason);
            fields.insert("stop_reason".to_owned(), json!("incomplete"));
        }
        rename(fields, "stop_reason", words.stop_field.to_owned());
        rename(
            fields,
            "stop_reason_inferred",
            format!("{}_inferred", words.stop_field),
        );
        if let Some(Value::Object(output)) = fields.get_mut("output") {
            rename(output, "is_error", words.error_key.to_owned());
        }
    }
    step
}

/// Notes for a script to read: each as its fact (`kind` and fields) with
/// its English sentence as `text`; a note a person wrote is its `text` only.
fn notes_json(notes: &[Note]) -> Value {
    let note_json = |note: &Note| {
        let text = Value::String(note.to_string());
        match json!(note) {
            Value::Object(mut fact) => {
                fact.insert("text".into(), text);
                Value::Object(fact)
            }
            _ => json!({ "text": text }),
        }
    };
    Value::Array(notes.iter().map(note_json).collect())
}
