//! The caption: what the current step does and why, in a sentence or two,
//! in the run's dialect.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::wrap::wrap;

use crate::engine::{
    Block, Budget, CheckPolicy, Event, Mistake, Reply, Role, StopCause, StopReason, ToolErrors,
    Verdict, check,
};
use crate::narrate::Failed;

use crate::text::one_line;
use crate::tui::app::{App, Mode};
use crate::tui::theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let lines = wrap(vec![Line::raw(caption(app))], usize::from(area.width));
    frame.render_widget(Paragraph::new(lines).style(theme::TEXT), area);
}

/// The caption of the step the cursor is on, as the screen shows it.
pub fn caption(app: &App) -> String {
    if matches!(app.mode(), Mode::Question(_)) {
        return app.say().quiz_question();
    }
    mistake_caption(app).unwrap_or_else(|| step_caption(app))
}

/// Where an active mistake does its damage, say what it did; at the end of
/// a run it never changed, say why.
fn mistake_caption(app: &App) -> Option<String> {
    let say = app.say();
    let mistake = app.config().mistake?;
    let step = app.step();
    if app.at_end() && !app.trace().mistake_shown {
        return Some(say.mistake_not_shown(mistake));
    }
    let dialect = app.config().dialect;
    match (mistake, &step.event) {
        (Mistake::DropResults, Event::Append { .. }) => Some(say.mistake_dropped()),
        (Mistake::ForgetRequest, Event::Call { .. }) => Some(say.mistake_forgot()),
        (Mistake::WrongOrder, Event::Append { .. }) => Some(say.mistake_wrong_order().to_owned()),
        (Mistake::SplitResults, Event::Append { appended, .. })
            if *appended > 1 && dialect.results_in_one_message() =>
        {
            Some(say.mistake_split().to_owned())
        }
        (
            Mistake::StopOnText,
            Event::Check {
                stop_reason,
                verdict: Verdict::Answer,
            },
        ) if dialect.stop_reason(stop_reason) == StopReason::ToolUse => {
            Some(say.mistake_stopped_on_text(&one_line(stop_reason, 40)))
        }
        (
            Mistake::HardCodedPlan,
            Event::Check {
                stop_reason,
                verdict: Verdict::Answer,
            },
        ) if dialect.stop_reason(stop_reason) == StopReason::ToolUse => {
            Some(say.mistake_plan_done(&one_line(stop_reason, 40)))
        }
        (Mistake::DropOneResult, Event::Append { .. }) => Some(say.mistake_dropped_one()),
        (
            Mistake::DispatchBeforeCheck,
            Event::Check {
                stop_reason,
                verdict: Verdict::Dispatch,
            },
        ) if !matches!(
            dialect.stop_reason(stop_reason),
            StopReason::ToolUse | StopReason::Completed
        ) =>
        {
            let cut_off = dialect.stop_reason(stop_reason) == StopReason::MaxTokens;
            Some(say.mistake_dispatched_first(&one_line(stop_reason, 40), cut_off))
        }
        (Mistake::NoBudget, Event::Call { request, .. })
            if request.number > app.transcript().max_turns.get() =>
        {
            Some(say.mistake_past_budget(request.number, app.transcript().max_turns.get()))
        }
        _ => None,
    }
}

/// Whether the step after this one is the recorded harness pushing back.
pub(super) fn pushed_back_next(app: &App) -> bool {
    app.trace()
        .steps
        .get(app.cursor() + 1)
        .is_some_and(|next| matches!(next.event, Event::PushedBack { .. }))
}

fn step_caption(app: &App) -> String {
    let say = app.say();
    let step = app.step();
    let short = |t: &str| one_line(t, 60);
    // The system prompt opens messages, as Chat Completions sends it.
    let led = (app.trace().messages.get(0)).is_some_and(|m| m.role == Role::System);
    match &step.event {
        Event::Start => match &app.transcript().compaction {
            Some(compaction) => say.compacted(compaction),
            None => say.caption_start(step.messages, led),
        },
        Event::Call {
            tolerated: Some(broken),
            ..
        } => say.tolerated(&say.rejection(broken)),
        Event::Call { request, .. } if request.number == 1 => {
            // Earlier messages come before the question: a chat that went on.
            let history = request.messages > 1 + usize::from(led);
            say.caption_first_call(led, history).to_owned()
        }
        Event::Call {
            request,
            usage: Some(usage),
            ..
        } if usage.cache_read_tokens > 0 => {
            say.caption_call(request.number, request.messages)
                + &say.caption_cache_read(usage.cache_read_tokens, usage.all_input())
        }
        Event::Call { request, .. } => say.caption_call(request.number, request.messages),
        Event::Check {
            stop_reason,
            verdict,
        } => {
            let sr = short(stop_reason);
            match verdict {
                Verdict::Dispatch => say.caption_check_dispatch(&sr),
                Verdict::Answer
                    if app.config().check == CheckPolicy::Lesson
                        && production_verdict(app, stop_reason) != Verdict::Answer =>
                {
                    say.caption_check_lesson_answer(&sr)
                }
                Verdict::Answer if pushed_back_next(app) => {
                    say.caption_check_answer_pushed_back(&sr)
                }
                Verdict::Answer => say.caption_check_answer(&sr, app.transcript().goal.is_some()),
                Verdict::Continue => say.caption_check_continue(&sr),
                Verdict::Stop(StopCause::Refusal) if reply_refused(app) => {
                    say.caption_check_refusal_field(&sr)
                }
                Verdict::Stop(cause) => {
                    say.caption_check_stop(&sr, &say.cause(cause), pushed_back_next(app))
                }
            }
        }
        Event::Dispatch { name, output, .. } => {
            let (nth, of) = app.dispatch_position();
            let failed = match (output.is_error, app.config().tool_errors) {
                (false, _) => Failed::No,
                (true, _) if output.not_run => Failed::NotRun,
                (true, ToolErrors::Report) => Failed::Reported,
                (true, ToolErrors::Raise) => Failed::Raised,
            };
            say.caption_dispatch(&short(name), (nth, of), failed)
        }
        Event::Append { results, .. } => {
            let config = app.config();
            let turns_left = config.policy().budget == Budget::SafetyCap
                || step.turn + 1 < config.max_turns.get();
            say.caption_append(*results, turns_left, config.max_turns.get())
        }
        Event::GoalCheck { tool, passed: true } => say.caption_goal_met(&short(tool)),
        Event::GoalCheck { tool, .. } => say.caption_goal_missed(&short(tool)),
        Event::Inserted { added, by } => say.caption_inserted(*added, *by),
        Event::PushedBack { by, added } => say.caption_pushed_back(*by, *added),
        Event::Answer { text } => {
            let checked = app.trace().steps[..app.cursor()]
                .iter()
                .rev()
                .find_map(|st| match &st.event {
                    Event::Check { stop_reason, .. } => Some(stop_reason.as_str()),
                    _ => None,
                })
                .unwrap_or_default();
            // Asked only under the lesson's check, where the two can differ.
            let production = (app.config().check == CheckPolicy::Lesson)
                .then(|| production_verdict(app, checked))
                .filter(|verdict| *verdict != Verdict::Answer);
            if let Some(production) = production {
                let continues = production == Verdict::Continue;
                say.caption_lesson_returned(&short(checked), &short(text), continues)
            } else {
                let goal = app.trace().steps[..app.cursor()]
                    .iter()
                    .rev()
                    .find_map(|st| match &st.event {
                        Event::GoalCheck { tool, passed: true } => Some(short(tool)),
                        _ => None,
                    });
                say.caption_answer(
                    &short(text),
                    (
                        app.calls_so_far(),
                        app.rounds_so_far(),
                        app.trace().tools_run(),
                    ),
                    goal.as_deref(),
                )
            }
        }
        Event::BudgetExhausted { max_turns } => say.caption_budget(*max_turns),
        Event::Stopped(cause) => say.caption_stopped(&say.cause(cause)),
        Event::RecordingEnded => say.caption_recording_ended().to_owned(),
        Event::Ended(ending) => say.caption_ended(ending),
        Event::Rejected { rejection } => say.caption_rejected(&say.rejection(rejection)),
    }
}

/// What the production check does with the reply the lesson's check took
/// for the answer: also answer, send the conversation back (a pause), or
/// halt.
fn production_verdict(app: &App, stop_reason: &str) -> Verdict {
    let newest = app.trace().messages.range(0..app.step().messages).last();
    let reply = Reply {
        content: newest.map(|m| m.content.clone()).unwrap_or_default(),
        stop_reason: stop_reason.to_owned(),
        ..Reply::default()
    };
    let reason = app.config().dialect.stop_reason(stop_reason);
    check(CheckPolicy::Production, reason, &reply)
}

/// Whether the reply being checked declined in the API's own refusal field.
fn reply_refused(app: &App) -> bool {
    app.trace()
        .messages
        .range(0..app.step().messages)
        .last()
        .is_some_and(|m| m.content.iter().any(|b| matches!(b, Block::Refusal { .. })))
}
