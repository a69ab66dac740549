//! `messages` as the model will see it on the next call: one row per content
//! block, the message the current step added highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block as Panel, Paragraph};

use crate::engine::{Block, Event, Message, Messages, Role};
use crate::narrate::Say;
use crate::vocab::server_result_line;

use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::theme;

/// Draws the panel; returns how many messages it can scroll back before
/// the oldest ones all fit.
pub fn render(frame: &mut Frame, area: Rect, app: &App) -> usize {
    let say = app.say();
    let step = app.step();
    // The reply the quiz asks about waits for the answer.
    let shown = step.messages - usize::from(app.reply_hidden());
    let summary = match step.event {
        Event::Call { request, .. } => {
            say.messages_sent(request.number, request.messages, request.chars)
        }
        _ => say.messages_held(shown, app.chars_of(shown)),
    };
    // The title fits the border, cut with its "…" where it must be.
    let name = format!(" {} ", say.messages_title());
    let room = usize::from(area.width).saturating_sub(2 + crate::text::width(&name) + 3);
    let panel = Panel::bordered()
        .border_style(theme::BORDER)
        .title(Line::from(vec![
            Span::styled(name, theme::TITLE),
            Span::styled(format!("· {} ", one_line(&summary, room)), theme::LABEL),
        ]));
    let inner = panel.inner(area);
    // Nothing is added at the start: the opening is all there is.
    let added_from = match app.cursor() {
        0 => shown,
        i => app.trace().steps[i - 1].messages,
    };
    let end = shown - app.scroll_back.min(shown - 1);
    let width = inner.width as usize;
    // "#12 " for short runs, wider once numbers reach four digits.
    let number_width = end.to_string().len().max(3);
    // The newest rows in view, built from the end back, only as many as
    // fit: drawing costs what is visible, not the length of the run.
    let height = usize::from(inner.height);
    let mut visible: Vec<Line> = Vec::with_capacity(height);
    let shown_so_far = app.trace().messages.range(0..end);
    for (i, m) in (0..shown_so_far.len()).rev().zip(shown_so_far.iter().rev()) {
        if visible.len() >= height {
            break;
        }
        let rows = message_rows(say, i, m, i >= added_from, width, number_width);
        visible.splice(0..0, rows);
    }
    let visible: Vec<Line> = visible.split_off(visible.len().saturating_sub(height));
    frame.render_widget(Paragraph::new(visible).block(panel), area);
    scroll_limit(
        app.trace().messages.range(0..shown),
        usize::from(inner.height),
    )
}

/// Columns a row keeps for its content when it shows an id whole.
const ROOM_FOR_CONTENT: usize = 20;

/// A tool-call id whole when the row has room for it beside its content
/// (matching a call to its result by id is a lesson in itself), else its tail.
fn shown_id(id: &str, room: usize) -> String {
    if crate::text::width(id) + ROOM_FOR_CONTENT <= room {
        one_line(id, room)
    } else {
        short_id(id)
    }
}

/// The most messages that can be scrolled out of view below while the
/// panel stays full: past that, the first message is already on screen.
/// Counted from the top, so that it costs what fits, not what is loaded.
fn scroll_limit(messages: Messages<'_>, height: usize) -> usize {
    let mut rows = 0;
    // The longest beginning that fits the panel; `#0` is always shown.
    let fits = messages
        .iter()
        .take_while(|m| {
            rows += m.content.len().max(1);
            rows <= height
        })
        .count();
    messages.len() - fits.max(1).min(messages.len())
}

/// Width of the role column: "assistant" and a space.
const ROLE_WIDTH: usize = 10;

/// Tool-call ids run to 30 characters; the list shows their tail, enough to
/// pair a request with its result. The detail pane shows them whole.
fn short_id(id: &str) -> String {
    let chars: Vec<char> = id.chars().collect();
    if chars.len() <= 8 {
        one_line(id, 8)
    } else {
        let tail: String = chars[chars.len() - 6..].iter().collect();
        format!("…{}", one_line(&tail, 6))
    }
}

fn message_rows(
    say: Say,
    index: usize,
    message: &Message,
    just_added: bool,
    width: usize,
    number_width: usize,
) -> Vec<Line<'static>> {
    let only_results = !message.content.is_empty()
        && message
            .content
            .iter()
            .all(|b| matches!(b, Block::ToolResult { .. }));
    let (role_style, role) = match message.role {
        // A message of results has the role the API gives it: `tool` in OpenAI.
        Role::User if only_results => (theme::ROLE_USER, say.w.result_role),
        Role::User => (theme::ROLE_USER, message.role.as_str()),
        Role::System => (theme::LABEL, message.role.as_str()),
        Role::Assistant => (theme::ROLE_ASSISTANT, say.w.reply_role),
    };
    let prefix = 1 + number_width + 1 + ROLE_WIDTH;
    let room = width.saturating_sub(prefix);
    let blocks: Vec<Vec<Span<'static>>> = if message.content.is_empty() {
        vec![vec![Span::styled(say.empty_message(), theme::LABEL)]]
    } else {
        message
            .content
            .iter()
            .map(|b| block_spans(say, b, room))
            .collect()
    };
    blocks
        .into_iter()
        .enumerate()
        .map(|(row, spans)| {
            let prefix = if row == 0 {
                vec![
                    Span::styled(format!("#{index:<number_width$} "), theme::LABEL),
                    Span::styled(format!("{role:<ROLE_WIDTH$}"), role_style),
                ]
            } else {
                vec![Span::raw(" ".repeat(prefix))]
            };
            let line = Line::from([prefix, spans].concat());
            if just_added {
                line.style(theme::JUST_ADDED)
            } else {
                line
            }
        })
        .collect()
}

fn block_spans(say: Say, block: &Block, room: usize) -> Vec<Span<'static>> {
    let w = say.w;
    let kind = |k: &'static str| Span::styled(k, theme::BLOCK_KIND);
    let rest = |used: usize| room.saturating_sub(used);
    match block {
        Block::Text { text } => vec![Span::styled(one_line(text, room), theme::TEXT)],
        Block::Thinking { thinking } => vec![Span::styled(
            format!("{} {}", say.kind_thinking(), one_line(thinking, rest(9))),
            theme::THINKING,
        )],
        Block::Refusal { refusal } => {
            let label = say.kind_refusal();
            let used = crate::text::width(label) + 1;
            vec![
                Span::styled(label, theme::ERROR),
                Span::styled(format!(" {}", one_line(refusal, rest(used))), theme::TEXT),
            ]
        }
        Block::ToolUse { id, name, input } | Block::ServerToolUse { id, name, input } => {
            let label = say.kind_tool_request(block);
            let kind_width = crate::text::width(label);
            let head = format!(" {} {} ", shown_id(id, room), one_line(name, 20));
            let head = one_line(&head, rest(kind_width));
            let used = kind_width + crate::text::width(&head);
            vec![
                kind(label),
                Span::raw(head),
                Span::styled(one_line(&input.to_string(), rest(used)), theme::LABEL),
            ]
        }
        Block::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => {
            let kind_width = crate::text::width(w.result_kind);
            let head = one_line(
                &format!(" {} ", shown_id(tool_use_id, room)),
                rest(kind_width),
            );
            let used = kind_width + crate::text::width(&head);
            let style: Style = if *is_error {
                theme::ERROR
            } else {
                theme::LABEL
            };
            vec![
                kind(w.result_kind),
                Span::raw(head),
                Span::styled(one_line(content, rest(used)), style),
            ]
        }
        Block::ServerToolResult {
            tool_use_id,
            content,
            ..
        } => {
            let label = say.kind_server_result();
            let kind_width = crate::text::width(label);
            let head = one_line(
                &format!(" {} ", shown_id(tool_use_id, room)),
                rest(kind_width),
            );
            let used = kind_width + crate::text::width(&head);
            let line = server_result_line(content);
            vec![
                kind(label),
                Span::raw(head),
                Span::styled(one_line(&line, rest(used)), theme::LABEL),
            ]
        }
    }
}
