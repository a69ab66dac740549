//! The detail pane's wire view: the JSON that crossed the wire at this
//! step, in the shape of the run's API.

use ratatui::text::Line;
use serde_json::{Value, json};

use crate::engine::{Block, Event, Message, Messages, Reply, Role};
use crate::narrate::Say;

use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::theme;

/// Folded, a request shows only its newest messages...
const RECENT_MESSAGES: usize = 6;
/// ...and strings up to this many characters.
const FOLDED_STRING: usize = 160;

pub fn lines(app: &App) -> Vec<Line<'static>> {
    let say = app.say();
    let transcript = app.transcript();
    let trace = app.trace();
    let step = app.step();
    let dialect = app.config().dialect;
    let stop_field = say.w.stop_field;
    let json =
        |label: String, value: Value| json_lines(say, label, value, app.expanded, stop_field);
    let so_far = trace.messages.range(0..step.messages);
    match &step.event {
        Event::Start => {
            let opening = trace.messages.range(0..step.messages);
            // The system prompt, where it leads, is never folded away.
            let lead = lead_of(opening);
            let earlier = folded_away(app, opening.len() - lead);
            let mut messages = dialect.messages_from(opening, lead + earlier);
            if let Value::Array(items) = &mut messages {
                if earlier > 0 {
                    items.insert(0, json!(say.wire_earlier(earlier)));
                }
                if let Value::Array(led) = dialect.messages(opening.range(0..lead)) {
                    items.splice(0..0, led);
                }
            }
            json(say.wire_start().to_owned(), messages)
        }
        Event::Call { request, .. } => {
            let sent = trace.messages.range(0..request.messages);
            // Folded, the system prompt is written from the transcript,
            // first, as the dialect sends it.
            let lead = lead_of(sent);
            let earlier = folded_away(app, sent.len() - lead);
            let mut body = dialect.request_from(
                (&transcript.model, transcript.max_tokens),
                transcript.system.as_deref(),
                &transcript.tools,
                sent,
                lead + earlier,
            );
            if !app.expanded {
                fold_request(say, &mut body, earlier, transcript.tools.len());
            }
            let mut lines = json(say.wire_request(request.number), body);
            lines.extend(json(say.wire_response().to_owned(), response(app)));
            lines
        }
        Event::Check { .. } | Event::Answer { .. } => {
            json(say.wire_response().to_owned(), response(app))
        }
        Event::Dispatch {
            id,
            name,
            input,
            output,
        } => {
            // The call, for the result to name its function (Gemini).
            let call = Message {
                role: Role::Assistant,
                content: vec![Block::ToolUse {
                    id: id.clone(),
                    name: name.clone(),
                    input: input.clone(),
                }],
            };
            let result = Message {
                role: Role::User,
                content: vec![Block::ToolResult {
                    tool_use_id: id.clone(),
                    content: output.content.clone(),
                    is_error: output.is_error,
                }],
            };
            let mut lines = json(
                say.wire_tool_call().to_owned(),
                dialect.tool_call(id, name, input),
            );
            lines.extend(json(
                say.wire_tool_result().to_owned(),
                dialect.messages_from(Messages::of(&[call, result]), 1),
            ));
            lines
        }
        // The newest messages, those before them read for what they name.
        Event::Append { appended, .. } => json(
            say.wire_appended().to_owned(),
            dialect.messages_from(so_far, step.messages - appended),
        ),
        Event::GoalCheck { passed: false, .. } => json(
            say.wire_appended().to_owned(),
            dialect.messages_from(so_far, step.messages - 1),
        ),
        Event::Inserted { added, by } => json(
            say.wire_inserted(by.is_some()).to_owned(),
            dialect.messages_from(so_far, step.messages - added),
        ),
        Event::PushedBack { added, .. } => json(
            say.wire_appended().to_owned(),
            dialect.messages_from(so_far, step.messages - added),
        ),
        Event::GoalCheck { passed: true, .. }
        | Event::BudgetExhausted { .. }
        | Event::Stopped(_)
        | Event::RecordingEnded
        | Event::Ended(_)
        | Event::Rejected { .. } => vec![Line::styled(say.wire_nothing(), theme::LABEL)],
    }
}

/// The response that carried the newest reply, with its recorded stop reason.
fn response(app: &App) -> Value {
    if app.reply_hidden() {
        return Value::Null;
    }
    let trace = app.trace();
    let call = trace.steps[..=app.cursor()]
        .iter()
        .rev()
        .find_map(|s| match &s.event {
            Event::Call {
                stop_reason,
                stop_reason_inferred,
                usage,
                ..
            } => Some((s.messages, stop_reason, *stop_reason_inferred, *usage)),
            _ => None,
        });
    let Some((messages, stop_reason, stop_reason_inferred, usage)) = call else {
        return Value::Null;
    };
    let reply = Reply {
        content: trace.messages[messages - 1].content.clone(),
        stop_reason: stop_reason.clone(),
        stop_reason_inferred,
        usage,
        ..Reply::default()
    };
    app.config()
        .dialect
        .response(&app.transcript().model, &reply)
}

/// Stands in for what a folded request leaves out.
/// How many of `count` messages a folded view leaves out: all but the
/// most recent, unless the view is unfolded.
/// How many messages lead `messages` before its history: the system
/// prompt, where the API sends it as the first message.
fn lead_of(messages: Messages<'_>) -> usize {
    usize::from(messages.get(0).is_some_and(|m| m.role == Role::System))
}

fn folded_away(app: &App, count: usize) -> usize {
    if app.expanded {
        0
    } else {
        count.saturating_sub(RECENT_MESSAGES)
    }
}

fn fold_request(say: Say, body: &mut Value, earlier: usize, tools: usize) {
    // The list of turns is `messages`, Responses' `input` or Gemini's `contents`.
    let list = ["messages", "input", "contents"]
        .into_iter()
        .find_map(|key| body.get(key).filter(|v| v.is_array()).map(|_| key));
    if earlier > 0
        && let Some(Value::Array(messages)) = list.and_then(|key| body.get_mut(key))
    {
        let at = usize::from(messages.first().is_some_and(|m| m["role"] == "system"));
        messages.insert(at, json!(say.wire_earlier(earlier)));
    }
    // Converse declares its tools in `toolConfig.tools`.
    let declared = match body.get_mut("toolConfig") {
        Some(config) => config.get_mut("tools"),
        None => body.get_mut("tools"),
    };
    if let Some(declared) = declared.filter(|_| tools > 0) {
        *declared = json!(say.wire_tools(tools));
    }
}

fn json_lines(
    say: Say,
    label: String,
    mut value: Value,
    expanded: bool,
    stop_field: &str,
) -> Vec<Line<'static>> {
    if !expanded {
        shorten_strings(say, &mut value);
    }
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    let key = format!("\"{stop_field}\":");
    let mut lines = vec![Line::styled(label, theme::TITLE)];
    lines.extend(text.lines().map(|line| {
        // The field the check reads is the point of the lesson: make it stand out.
        let style = if line.trim_start().starts_with(&key) {
            theme::EDGE_TAKEN
        } else {
            theme::TEXT
        };
        Line::styled(sanitize(line), style)
    }));
    lines
}

fn shorten_strings(say: Say, value: &mut Value) {
    match value {
        Value::String(text) if text.chars().count() > FOLDED_STRING => {
            let kept: String = text.chars().take(FOLDED_STRING).collect();
            *text = say.shortened(&kept, text.chars().count());
        }
        Value::Array(items) => items.iter_mut().for_each(|v| shorten_strings(say, v)),
        Value::Object(fields) => fields.values_mut().for_each(|v| shorten_strings(say, v)),
        _ => {}
    }
}
