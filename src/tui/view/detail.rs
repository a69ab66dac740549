//! The detail pane (what the current step sent, received, ran or appended)
//! and the caption (what the step does and why).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block as Panel, Paragraph, Wrap};

use crate::engine::{Block, CheckPolicy, Event, StopReason, Verdict};
use crate::text::one_line;
use crate::transcript::Verification;
use crate::tui::app::App;
use crate::tui::strings as s;
use crate::tui::theme;

/// Longest stretch of a single text shown here; the rest is cut with `…`.
const MAX_TEXT: usize = 2_000;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let step = app.step();
    let title = s::step_title(
        app.cursor(),
        app.trace().steps.len(),
        step.turn,
        step.event.phase().as_str(),
    );
    let panel = Panel::bordered()
        .border_style(theme::BORDER)
        .title(Span::styled(format!(" {title} "), theme::TITLE));
    let paragraph = Paragraph::new(lines(app))
        .block(panel)
        .wrap(Wrap { trim: false });
    frame.render_widget(paragraph, area);
}

fn labelled(label: &'static str, text: String, style: ratatui::style::Style) -> Line<'static> {
    Line::from(vec![
        Span::styled(label, theme::LABEL),
        Span::styled(text, style),
    ])
}

fn lines(app: &App) -> Vec<Line<'static>> {
    let step = app.step();
    let text = |t: &str| one_line(t, MAX_TEXT);
    match &step.event {
        Event::Call {
            request,
            stop_reason,
            stop_reason_inferred,
            usage,
        } => {
            let mut lines = vec![
                Line::styled(
                    s::detail_request(request.number, request.messages, request.chars),
                    theme::TEXT,
                ),
                Line::from(vec![
                    Span::styled(s::detail_reply(&text(stop_reason)), theme::TITLE),
                    Span::styled(
                        if *stop_reason_inferred {
                            s::INFERRED
                        } else {
                            ""
                        },
                        theme::LABEL,
                    ),
                ]),
            ];
            if let Some(usage) = usage {
                lines.push(Line::styled(
                    s::detail_usage(usage.input_tokens, usage.output_tokens),
                    theme::LABEL,
                ));
            }
            lines.extend(newest_message_lines(app, 1));
            lines
        }
        Event::Check {
            stop_reason,
            verdict,
        } => {
            let branch = match verdict {
                Verdict::Dispatch => s::BRANCH_DISPATCH,
                Verdict::Answer => s::BRANCH_ANSWER,
                Verdict::Continue => s::BRANCH_CONTINUE,
                Verdict::Stop { .. } => s::BRANCH_STOP,
            };
            let mut lines = vec![Line::styled(
                s::detail_check(&text(stop_reason), branch),
                theme::TITLE,
            )];
            if let Verdict::Stop { reason } = verdict {
                lines.push(Line::styled(text(reason), theme::STOPPED));
            }
            lines.extend(newest_message_lines(app, 1));
            lines
        }
        Event::Dispatch {
            id,
            name,
            input,
            output,
        } => vec![
            Line::styled(s::detail_tool(&text(name), &text(id)), theme::TITLE),
            labelled(s::DETAIL_INPUT, text(&input.to_string()), theme::TEXT),
            if output.is_error {
                labelled(s::DETAIL_ERROR, text(&output.content), theme::ERROR)
            } else {
                labelled(s::DETAIL_RESULT, text(&output.content), theme::TEXT)
            },
        ],
        Event::Append { results } => {
            let mut lines = vec![Line::styled(
                s::detail_append(*results, step.messages - 1),
                theme::TITLE,
            )];
            lines.extend(newest_message_lines(app, 1));
            lines
        }
        Event::Inserted { messages } => {
            let mut lines = vec![Line::styled(s::detail_inserted(*messages), theme::TITLE)];
            lines.extend(newest_message_lines(app, *messages));
            lines
        }
        Event::Answer { text: answer } => {
            let trace = app.trace();
            let mut lines = vec![
                labelled(
                    s::DETAIL_RETURN,
                    format!("\"{}\"", text(answer)),
                    theme::ANSWER,
                ),
                Line::styled(
                    s::detail_totals(trace.model_calls(), trace.tool_calls()),
                    theme::TEXT,
                ),
            ];
            match app.transcript().verify(trace) {
                Verification::Verified => {
                    lines.push(Line::styled(s::detail_goal_verified(), theme::ANSWER))
                }
                Verification::NotVerified(misses) => lines.push(Line::styled(
                    s::detail_goal_missed(&text(&misses.join("; "))),
                    theme::ERROR,
                )),
                Verification::NotChecked => {}
            }
            lines
        }
        Event::BudgetExhausted { max_turns } => vec![
            labelled(s::DETAIL_RETURN, s::OUTCOME_NONE.to_owned(), theme::NONE),
            Line::styled(
                s::detail_no_turn_left(app.calls_so_far() + 1, *max_turns),
                theme::TEXT,
            ),
        ],
        Event::Stopped { reason } => vec![Line::styled(text(reason), theme::STOPPED)],
        Event::RecordingEnded => vec![Line::styled(s::caption_recording_ended(), theme::STOPPED)],
        Event::Rejected { rejection } => {
            vec![Line::styled(text(&rejection.to_string()), theme::ERROR)]
        }
    }
}

/// The blocks of the newest `count` messages: the reply being checked, the
/// results just appended, or what the client inserted.
fn newest_message_lines(app: &App, count: usize) -> Vec<Line<'static>> {
    let end = app.step().messages;
    let messages = &app.trace().messages[end.saturating_sub(count)..end];
    let text = |t: &str| one_line(t, MAX_TEXT);
    messages
        .iter()
        .flat_map(|m| &m.content)
        .map(|block| match block {
            Block::Text { text: t } => Line::styled(text(t), theme::TEXT),
            Block::Thinking { thinking } => Line::styled(text(thinking), theme::THINKING),
            Block::ToolUse { id, name, input } => Line::from(vec![
                Span::styled("tool_use ", theme::BLOCK_KIND),
                Span::raw(format!("{} {} ", text(id), text(name))),
                Span::styled(text(&input.to_string()), theme::LABEL),
            ]),
            Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => Line::from(vec![
                Span::styled("tool_result ", theme::BLOCK_KIND),
                Span::raw(format!("{} ", text(tool_use_id))),
                Span::styled(
                    text(content),
                    if *is_error {
                        theme::ERROR
                    } else {
                        theme::LABEL
                    },
                ),
            ]),
        })
        .collect()
}

pub fn render_caption(frame: &mut Frame, area: Rect, app: &App) {
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
        Event::Append { results } => s::caption_append(*results),
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
