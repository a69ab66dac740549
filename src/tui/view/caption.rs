//! The caption: what the current step does and why, in a sentence or two,
//! in the run's dialect.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Wrap};

use crate::engine::{Budget, CheckPolicy, Event, Mistake, StopReason, Verdict};
use crate::narrate as s;
use crate::text::one_line;
use crate::tui::app::App;
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

/// Where an active mistake does its damage, say what it did; at the end of
/// a run it never changed, say why.
fn mistake_caption(app: &App) -> Option<String> {
    let mistake = app.config().mistake?;
    let step = app.step();
    let w = app.words();
    if app.at_end() && !app.trace().mistake_shown {
        return Some(s::mistake_not_shown(w, mistake));
    }
    let dialect = app.config().dialect;
    match (mistake, &step.event) {
        (Mistake::DropResults, Event::Append { .. }) => Some(s::mistake_dropped(w)),
        (Mistake::ForgetRequest, Event::Call { .. }) => Some(s::mistake_forgot(w)),
        (Mistake::WrongOrder, Event::Append { .. }) => Some(s::MISTAKE_WRONG_ORDER.to_owned()),
        (Mistake::SplitResults, Event::Append { appended, .. })
            if *appended > 1 && dialect.results_in_one_message() =>
        {
            Some(s::MISTAKE_SPLIT.to_owned())
        }
        (
            Mistake::StopOnText,
            Event::Check {
                stop_reason,
                verdict: Verdict::Answer,
            },
        ) if dialect.stop_reason(stop_reason) == StopReason::ToolUse => {
            Some(s::mistake_stopped_on_text(w, &one_line(stop_reason, 40)))
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
    let w = app.words();
    let short = |t: &str| one_line(t, 60);
    match &step.event {
        Event::Start => s::caption_start(step.messages),
        Event::Call { request, .. } if request.number == 1 => s::caption_first_call(),
        Event::Call { request, .. } => s::caption_call(w, request.number, request.messages),
        Event::Check {
            stop_reason,
            verdict,
        } => {
            let sr = short(stop_reason);
            match verdict {
                Verdict::Dispatch => s::caption_check_dispatch(w, &sr),
                Verdict::Answer
                    if app.config().check == CheckPolicy::Lesson
                        && !production_would_answer(app, stop_reason) =>
                {
                    s::caption_check_lesson_answer(w, &sr)
                }
                Verdict::Answer => s::caption_check_answer(w, &sr),
                Verdict::Continue => s::caption_check_continue(&sr),
                Verdict::Stop(cause) => s::caption_check_stop(w, &sr, &s::cause(w, cause)),
            }
        }
        Event::Dispatch { name, output, .. } => {
            let (nth, of) = app.dispatch_position();
            s::caption_dispatch(w, &short(name), nth, of, output.is_error)
        }
        Event::Append { results, .. } => {
            let config = app.config();
            let turns_left = config.policy().budget == Budget::SafetyCap
                || step.turn + 1 < config.max_turns.get();
            s::caption_append(w, *results, turns_left, config.max_turns.get())
        }
        Event::GoalCheck { tool, passed: true } => s::caption_goal_met(&short(tool)),
        Event::GoalCheck { tool, .. } => s::caption_goal_missed(&short(tool)),
        Event::Inserted { added } => s::caption_inserted(*added),
        Event::Answer { text } => {
            let checked = app.trace().steps[..app.cursor()]
                .iter()
                .rev()
                .find_map(|st| match &st.event {
                    Event::Check { stop_reason, .. } => Some(stop_reason.as_str()),
                    _ => None,
                })
                .unwrap_or_default();
            if app.config().check == CheckPolicy::Lesson && !production_would_answer(app, checked) {
                s::caption_lesson_returned(w, &short(checked), &short(text))
            } else {
                s::caption_answer(
                    &short(text),
                    app.calls_so_far(),
                    app.rounds_so_far(),
                    app.trace().tool_calls(),
                )
            }
        }
        Event::BudgetExhausted { max_turns } => s::caption_budget(*max_turns),
        Event::Stopped(cause) => s::caption_stopped(&s::cause(w, cause)),
        Event::RecordingEnded => s::caption_recording_ended(),
        Event::Rejected { rejection } => s::caption_rejected(w, &s::rejection(w, rejection)),
    }
}

/// Whether the production check would also have taken the reply being
/// checked for the answer: a finished stop reason, and no tool request
/// left pending in it.
fn production_would_answer(app: &App, stop_reason: &str) -> bool {
    let finished = matches!(
        app.config().dialect.stop_reason(stop_reason),
        StopReason::EndTurn | StopReason::StopSequence
    );
    let newest = app.trace().messages[..app.step().messages].last();
    finished && newest.is_none_or(|m| m.tool_calls().next().is_none())
}
