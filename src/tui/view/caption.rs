//! The caption: what the current step does and why, in a sentence or two.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Wrap};

use crate::engine::{CheckPolicy, Event, Mistake, StopReason, Verdict};
use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::strings as s;
use crate::tui::theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let paragraph = Paragraph::new(caption(app))
        .style(theme::TEXT)
        .wrap(Wrap { trim: true });
    frame.render_widget(paragraph, area);
}

fn caption(app: &App) -> String {
    mistake_caption(app).unwrap_or_else(|| step_caption(app))
}

/// At the step where an active mistake does its damage, say what it did.
fn mistake_caption(app: &App) -> Option<String> {
    let mistake = app.config().mistake?;
    let step = app.step();
    match (mistake, &step.event) {
        (Mistake::DropResults, Event::Append { .. }) => Some(s::MISTAKE_DROPPED.to_owned()),
        (Mistake::ForgetRequest, Event::Call { .. }) => Some(s::MISTAKE_FORGOT.to_owned()),
        (Mistake::SplitResults, Event::Append { messages, .. }) if *messages > 1 => {
            Some(s::MISTAKE_SPLIT.to_owned())
        }
        (
            Mistake::StopOnText,
            Event::Check {
                stop_reason,
                verdict: Verdict::Answer,
            },
        ) if StopReason::parse(stop_reason) == StopReason::ToolUse => {
            Some(s::mistake_stopped_on_text(&one_line(stop_reason, 40)))
        }
        (Mistake::NoBudget, Event::Call { request, .. })
            if request.number > app.transcript().max_turns.get() =>
        {
            Some(s::mistake_past_budget(
                request.number,
                app.transcript().max_turns.get(),
            ))
        }
        _ => None,
    }
}

fn step_caption(app: &App) -> String {
    let step = app.step();
    let short = |t: &str| one_line(t, 60);
    match &step.event {
        Event::Call { request, .. } if request.number == 1 => s::caption_first_call(),
        Event::Call { request, .. } => s::caption_call(request.number, request.messages),
        Event::Check {
            stop_reason,
            verdict,
        } => {
            let sr = short(stop_reason);
            match verdict {
                Verdict::Dispatch => s::caption_check_dispatch(&sr),
                Verdict::Answer
                    if app.config().check == CheckPolicy::Lesson
                        && StopReason::parse(stop_reason) != StopReason::EndTurn =>
                {
                    s::caption_check_lesson_answer(&sr)
                }
                Verdict::Answer => s::caption_check_answer(&sr),
                Verdict::Continue => s::caption_check_continue(&sr),
                Verdict::Stop { reason } => s::caption_check_stop(&sr, &one_line(reason, 160)),
            }
        }
        Event::Dispatch { name, output, .. } => {
            let (nth, of) = app.dispatch_position();
            s::caption_dispatch(&short(name), nth, of, output.is_error)
        }
        Event::Append { results, .. } => s::caption_append(*results),
        Event::Inserted { messages } => s::caption_inserted(*messages),
        Event::Answer { text } => {
            let checked = app.trace().steps[..app.cursor()]
                .iter()
                .rev()
                .find_map(|st| match &st.event {
                    Event::Check { stop_reason, .. } => Some(stop_reason.as_str()),
                    _ => None,
                })
                .unwrap_or_default();
            let finished = matches!(
                StopReason::parse(checked),
                StopReason::EndTurn | StopReason::StopSequence
            );
            if app.config().check == CheckPolicy::Lesson && !finished {
                s::caption_lesson_returned(&short(checked), &short(text))
            } else {
                s::caption_answer(
                    &short(text),
                    app.calls_so_far(),
                    app.tool_rounds_so_far(),
                    app.trace().tool_calls(),
                )
            }
        }
        Event::BudgetExhausted { max_turns } => s::caption_budget(*max_turns),
        Event::Stopped { reason } => s::caption_stopped(&one_line(reason, 160)),
        Event::RecordingEnded => s::caption_recording_ended(),
        Event::Rejected { rejection } => {
            s::caption_rejected(&one_line(&rejection.to_string(), 160))
        }
    }
}
