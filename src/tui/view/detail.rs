//! The detail pane: what the current step sent, received, ran or appended,
//! in words or as the JSON on the wire. Long texts are folded until `e`;
//! PageUp / PageDown scroll.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block as Panel, Paragraph};

use crate::dialect::context_window;
use crate::engine::{Block, Event, Results, SaveReply, Verdict, time_before};
use crate::narrate::Say;

use crate::narrate::reply_of;
use crate::text::{one_line, sanitize};
use crate::transcript::{Note, Verification};
use crate::tui::app::{App, DetailView};
use crate::tui::theme;
use crate::vocab::server_result_line;

use super::wire_view;
use super::wrap::wrap;

/// A folded text shows this many lines...
const FOLD_LINES: usize = 6;
/// ...each cut to this many characters.
const FOLD_CHARS: usize = 400;
/// Identifiers, names and other short fields are cut here.
const SHORT: usize = 120;

fn content(app: &App) -> Vec<Line<'static>> {
    match app.detail {
        DetailView::Summary => summary(app),
        DetailView::Wire => wire_view::lines(app),
    }
}

/// Draws the pane; returns how many rows it can scroll past, counted from
/// the lines as they were actually wrapped.
pub fn render(frame: &mut Frame, area: Rect, app: &App) -> usize {
    let say = app.say();
    let step = app.step();
    let inner_width = usize::from(area.width.saturating_sub(2));
    let lines = wrap(content(app), inner_width);
    let inner_height = usize::from(area.height.saturating_sub(2));
    let limit = lines.len().saturating_sub(inner_height);
    let scroll = app.detail_scroll.min(limit);
    let mut title = say.step_title(
        app.cursor(),
        (app.trace().steps.len(), app.trace_complete()),
        step.turn,
        step.event.phase(),
    );
    if app.detail == DetailView::Wire {
        title.push_str(&say.wire_title());
    }
    if limit > 0 {
        title.push_str(say.more_below(app.scene().is_some()));
    }
    let panel = Panel::bordered()
        .border_style(theme::BORDER)
        .title(Span::styled(format!(" {title} "), theme::TITLE));
    let visible: Vec<Line> = lines.into_iter().skip(scroll).collect();
    frame.render_widget(Paragraph::new(visible).block(panel), area);
    limit
}

/// A long text, with its own line breaks: whole when unfolded, else its
/// first lines and a note of how much is hidden.
pub fn folded(say: Say, text: &str, style: Style, expanded: bool) -> Vec<Line<'static>> {
    let clean = sanitize(text).replace('\t', "    ");
    let all: Vec<&str> = clean.lines().collect();
    if expanded {
        return all
            .into_iter()
            .map(|l| Line::styled(l.to_owned(), style))
            .collect();
    }
    let mut lines: Vec<Line<'static>> = all
        .iter()
        .take(FOLD_LINES)
        .map(|l| Line::styled(one_line(l, FOLD_CHARS), style))
        .collect();
    let hidden_lines = all.len().saturating_sub(FOLD_LINES);
    let cut = all
        .iter()
        .take(FOLD_LINES)
        .any(|l| l.chars().count() > FOLD_CHARS);
    if hidden_lines > 0 || cut {
        lines.push(Line::styled(say.folded_note(hidden_lines), theme::LABEL));
    }
    lines
}

fn labelled(label: &'static str, text: String, style: Style) -> Line<'static> {
    Line::from(vec![
        Span::styled(label, theme::LABEL),
        Span::styled(text, style),
    ])
}

fn summary(app: &App) -> Vec<Line<'static>> {
    let say = app.say();
    let mut lines = Vec::new();
    if app.react
        && let Some(line) = say.react_line(app.step(), reply_of(app.trace().messages, app.step()))
    {
        lines.push(Line::styled(line, theme::REMARK));
    }
    // A lesson's remark on this step, then a course author's on this
    // call, lead, where a class reads first.
    if let Some(remark) = app.lesson_remark() {
        lines.push(labelled(
            say.remark(),
            one_line(remark, FOLD_CHARS),
            theme::REMARK,
        ));
    }
    if let Event::Call { request, .. } = &app.step().event
        && let Some(remark) = app.transcript().remark(request.number)
    {
        lines.push(labelled(
            say.remark(),
            one_line(remark, FOLD_CHARS),
            theme::REMARK,
        ));
    }
    if app.cursor() == 0 {
        for note in &app.transcript().notes {
            lines.push(labelled(
                say.note(),
                one_line(&say.note_text(note), FOLD_CHARS),
                theme::STOPPED,
            ));
        }
    }
    lines.extend(step_lines(app));
    lines
}

/// How the recorded call reached its reply: streamed, or after the client
/// retried it where the API failed it first.
fn call_delivery(app: &App, number: u32) -> Vec<Line<'static>> {
    let say = app.say();
    let transcript = app.transcript();
    let reply = number
        .checked_sub(1)
        .and_then(|i| transcript.replies.get(i as usize));
    let streamed = reply
        .filter(|r| r.streamed)
        .map(|_| Line::styled(one_line(say.detail_streamed(), FOLD_CHARS), theme::LABEL));
    let retried = transcript
        .notes
        .iter()
        .filter(|note| matches!(note, Note::Retried { call, .. } if *call == number as usize));
    let retried = retried
        .map(|note| Line::styled(one_line(&say.note_text(note), FOLD_CHARS), theme::STOPPED));
    streamed.into_iter().chain(retried).collect()
}

/// When the step's recorded call or tool started and how long it took,
/// with the pause before it when that was long; none for an untimed step.
fn time_line(app: &App) -> Option<Line<'static>> {
    let time = app.step().event.time()?;
    let previous = time_before(app.trace().steps, app.cursor());
    let style = if time.stands_out_after(previous) {
        theme::SLOW
    } else {
        theme::LABEL
    };
    let pause = time.long_pause_after(previous);
    let mut words = app.say().detail_time(time, pause);
    // A tool the client started before its reply had finished streaming.
    if let Event::Dispatch { .. } = app.step().event {
        let steps = &app.trace().steps[..app.cursor()];
        let call = steps.iter().rev().find_map(|s| match &s.event {
            Event::Call { time, .. } => Some(time.as_ref()),
            _ => None,
        });
        if let Some(early) = call
            .flatten()
            .and_then(|call| time.began_before_end_of(call))
        {
            words.push_str(&app.say().detail_while_streaming(early));
        }
        // The budget bounds calls, not a tool's time (seed 000's limits).
        if time.is_long() {
            words.push_str(app.say().detail_long_tool());
        }
    }
    Some(Line::styled(words, style))
}

/// The messages the start step lists; earlier ones are counted.
const NEWEST_AT_START: usize = 8;

fn step_lines(app: &App) -> Vec<Line<'static>> {
    let say = app.say();
    let step = app.step();

    let short = |t: &str| one_line(t, SHORT);
    match &step.event {
        Event::Start => {
            let mut lines = vec![Line::styled(say.detail_start(step.messages), theme::TITLE)];
            // A run of a long log opens with everything before it: the
            // newest messages here, the rest in the messages panel, so a
            // frame costs what it shows.
            let earlier = step.messages.saturating_sub(NEWEST_AT_START);
            if earlier > 0 {
                lines.push(Line::styled(say.detail_earlier(earlier), theme::LABEL));
            }
            lines.extend(newest_message_lines(app, step.messages - earlier));
            lines
        }
        Event::Call {
            request,
            stop_reason,
            stop_reason_inferred,
            usage,
            tolerated,
            ..
        } => {
            let model = &app.transcript().model;
            // What the request takes of the window: the input as recorded
            // (the cache's part included), else estimated, four characters
            // a token.
            let window = context_window(model).map(|window| {
                let tokens = usage.map_or((request.chars.div_ceil(4) as u64, false), |u| {
                    (u.all_input(), true)
                });
                Line::styled(
                    one_line(&say.detail_window(tokens, window), FOLD_CHARS),
                    theme::LABEL,
                )
            });
            let request_line = Line::styled(
                say.detail_request(request.number, request.messages, request.chars),
                theme::TEXT,
            );
            if app.reply_hidden() {
                return vec![
                    request_line,
                    Line::styled(say.detail_reply_hidden(), theme::LABEL),
                ];
            }
            let mut lines = vec![
                request_line,
                Line::from(vec![
                    Span::styled(say.detail_reply(&short(stop_reason)), theme::TITLE),
                    Span::styled(
                        if *stop_reason_inferred {
                            say.inferred()
                        } else {
                            String::new()
                        },
                        theme::LABEL,
                    ),
                ]),
            ];
            if let Some(usage) = usage {
                lines.push(Line::styled(
                    say.detail_usage(usage, app.cost_of(usage)),
                    theme::LABEL,
                ));
            }
            lines.extend(window);
            lines.extend(call_delivery(app, request.number));
            lines.extend(time_line(app));
            if let Some(broken) = tolerated {
                lines.push(Line::styled(
                    say.tolerated(&say.rejection(broken)),
                    theme::STOPPED,
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
                Verdict::Dispatch => say.branch_dispatch(),
                Verdict::Answer if super::caption::pushed_back_next(app) => say.branch_read_first(),
                Verdict::Answer => say.branch_answer(),
                Verdict::Continue => say.branch_continue(),
                Verdict::Stop(_) if super::caption::pushed_back_next(app) => {
                    say.branch_read_first()
                }
                Verdict::Stop(_) => say.branch_stop(),
            };
            let mut lines = vec![Line::styled(
                say.detail_check(&short(stop_reason), branch),
                theme::TITLE,
            )];
            if let Verdict::Stop(cause) = verdict {
                lines.push(Line::styled(say.cause(cause), theme::STOPPED));
            }
            lines.extend(newest_message_lines(app, 1));
            lines
        }
        Event::Dispatch {
            id,
            name,
            input,
            output,
        } => {
            let mut lines = vec![
                Line::styled(say.detail_tool(&short(name), &short(id)), theme::TITLE),
                labelled(
                    say.detail_input(),
                    one_line(&input.to_string(), FOLD_CHARS),
                    theme::TEXT,
                ),
            ];
            lines.extend(time_line(app));
            if let Some(run) = app.subagent_at(app.cursor()) {
                let title = &app.run_title(run);
                lines.push(Line::styled(say.detail_subagent(&short(title)), theme::KEY));
            }
            let (label, style) = if output.is_error {
                (say.detail_error(), theme::ERROR)
            } else {
                (say.detail_result(), theme::TEXT)
            };
            lines.push(Line::styled(label, theme::LABEL));
            lines.extend(folded(say, &output.content, style, app.expanded));
            lines
        }
        Event::Append { results, appended } => {
            let first = step.messages - appended;
            let policy = app.config().policy();
            let header = match appended {
                0 => say.detail_dropped(*results),
                _ if policy.reply == SaveReply::AfterResults => say.detail_wrong_order(first),
                n if *n > 1 && policy.results == Results::OnePerResult => {
                    say.detail_split(*results, *n)
                }
                _ => say.detail_append(*results, first),
            };
            let mut lines = vec![Line::styled(header, theme::TITLE)];
            lines.extend(newest_message_lines(app, *appended));
            lines
        }
        Event::GoalCheck { tool, passed } => {
            let mut lines = vec![Line::styled(
                say.detail_goal_check(&short(tool), *passed),
                theme::TITLE,
            )];
            if !passed {
                lines.extend(newest_message_lines(app, 1));
            }
            lines
        }
        Event::Inserted { added, by } => {
            let mut lines = vec![Line::styled(say.detail_inserted(*added, *by), theme::TITLE)];
            lines.extend(newest_message_lines(app, *added));
            lines
        }
        Event::PushedBack { by, added } => {
            let mut lines = vec![Line::styled(say.detail_pushed_back(*by), theme::TITLE)];
            lines.extend(newest_message_lines(app, *added));
            lines
        }
        Event::Answer { text: answer } => {
            let trace = app.trace();
            let quoted = format!("\"{answer}\"");
            let mut lines = if answer.contains('\n') || answer.chars().count() > FOLD_CHARS {
                let mut lines = vec![Line::styled(say.detail_return(), theme::LABEL)];
                lines.extend(folded(say, &quoted, theme::ANSWER, app.expanded));
                lines
            } else {
                vec![labelled(
                    say.detail_return(),
                    sanitize(&quoted),
                    theme::ANSWER,
                )]
            };
            lines.push(Line::styled(
                say.detail_totals(trace.model_calls(), (trace.tool_calls(), trace.tools_run())),
                theme::TEXT,
            ));
            match app.transcript().verify(trace) {
                Verification::Verified(evidence) => lines.push(Line::styled(
                    say.detail_goal_verified(&evidence, true),
                    theme::ANSWER,
                )),
                Verification::ToolReported(evidence) => lines.push(Line::styled(
                    say.detail_goal_verified(&evidence, false),
                    theme::TEXT,
                )),
                Verification::NotVerified(misses) => lines.push(Line::styled(
                    one_line(&say.detail_goal_missed(&misses), FOLD_CHARS),
                    theme::ERROR,
                )),
                Verification::NotChecked => {}
            }
            lines
        }
        Event::BudgetExhausted { max_turns } => vec![
            labelled(
                say.detail_return(),
                say.outcome_none().to_owned(),
                theme::NONE,
            ),
            Line::styled(
                say.detail_no_turn_left(app.calls_so_far() + 1, *max_turns),
                theme::TEXT,
            ),
            Line::styled(say.detail_none_means(), theme::TEXT),
        ],
        Event::Stopped(cause) => vec![Line::styled(say.cause(cause), theme::STOPPED)],
        Event::RecordingEnded => vec![Line::styled(say.caption_recording_ended(), theme::STOPPED)],
        Event::Ended(ending) => vec![Line::styled(say.ended_line(ending), theme::STOPPED)],
        Event::Rejected { rejection } => {
            vec![Line::styled(say.rejection(rejection), theme::ERROR)]
        }
    }
}

/// The blocks of the newest `count` messages, one line each: the reply
/// being checked, the results just appended, or what the client inserted.
fn newest_message_lines(app: &App, count: usize) -> Vec<Line<'static>> {
    let end = app.step().messages;
    let messages = app.trace().messages.range(end.saturating_sub(count)..end);
    let text = |t: &str| one_line(t, FOLD_CHARS);
    let say = app.say();
    messages
        .iter()
        .flat_map(|m| &m.content)
        .map(|block| match block {
            Block::Text { text: t } => Line::styled(text(t), theme::TEXT),
            Block::Thinking { thinking } => Line::styled(text(thinking), theme::THINKING),
            Block::Refusal { refusal } => Line::from(vec![
                Span::styled(format!("{} ", say.kind_refusal()), theme::ERROR),
                Span::styled(text(refusal), theme::TEXT),
            ]),
            Block::ToolUse { id, name, input } | Block::ServerToolUse { id, name, input } => {
                Line::from(vec![
                    Span::styled(
                        format!("{} ", say.kind_tool_request(block)),
                        theme::BLOCK_KIND,
                    ),
                    Span::raw(format!(
                        "{} {} ",
                        one_line(id, SHORT),
                        one_line(name, SHORT)
                    )),
                    Span::styled(text(&input.to_string()), theme::LABEL),
                ])
            }
            Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => Line::from(vec![
                Span::styled(format!("{} ", say.w.result_kind), theme::BLOCK_KIND),
                Span::raw(format!("{} ", one_line(tool_use_id, SHORT))),
                Span::styled(
                    text(content),
                    if *is_error {
                        theme::ERROR
                    } else {
                        theme::LABEL
                    },
                ),
            ]),
            Block::ServerToolResult {
                tool_use_id,
                content,
                ..
            } => Line::from(vec![
                Span::styled(format!("{} ", say.kind_server_result()), theme::BLOCK_KIND),
                Span::raw(format!("{} ", one_line(tool_use_id, SHORT))),
                Span::styled(text(&server_result_line(content)), theme::LABEL),
            ]),
        })
        .collect()
}
