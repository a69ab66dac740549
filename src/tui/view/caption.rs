//! The caption: what the current step does and why, in a sentence or two.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Wrap};

use crate::engine::{CheckPolicy, Event, StopReason, Verdict};
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
                Verdict::Stop { .. } => s::caption_check_stop(&sr),
            }
        }
        Event::Dispatch { name, output, .. } => {
            let (nth, of) = app.dispatch_position();
            s::caption_dispatch(&short(name), nth, of, output.is_error)
        }
        Event::Append { results, .. } => s::caption_append(*results),
        Event::Inserted { messages } => s::caption_inserted(*messages),
        Event::Answer { text } => {
            s::caption_answer(&short(text), app.calls_so_far(), app.tool_rounds_so_far())
        }
        Event::BudgetExhausted { max_turns } => s::caption_budget(*max_turns),
        Event::Stopped { reason } => s::caption_stopped(&one_line(reason, 160)),
        Event::RecordingEnded => s::caption_recording_ended(),
        Event::Rejected { rejection } => {
            s::caption_rejected(&one_line(&rejection.to_string(), 160))
        }
    }
}
