//! The footer and the `?` overlay, both read from the keymap table.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::narrate::Say;
use crate::tui::theme;

/// The key bar of `entries` (from a keymap's table); while the run plays
/// by itself, `playing` comes first (the keys after it are cut where the
/// line ends).
pub fn render_footer(
    frame: &mut Frame,
    area: Rect,
    say: Say,
    playing: Option<&str>,
    entries: Vec<(String, &str)>,
) {
    let mut spans = vec![Span::raw(" ")];
    if let Some(speed) = playing {
        spans.push(Span::styled(say.autoplay_status(speed), theme::PLAYING));
        spans.push(Span::raw("  "));
    }
    // Whole entries, never one cut short: where the line is too narrow,
    // those before `?` and `q` give way, the last of them first.
    let mut entries = entries;
    let taken = spans
        .iter()
        .map(|s| crate::text::width(&s.content))
        .sum::<usize>();
    let width = |entries: &[(String, &str)]| {
        let words: usize = entries
            .iter()
            .map(|(keys, label)| crate::text::width(keys) + 1 + crate::text::width(label))
            .sum();
        taken + words + 2 * entries.len().saturating_sub(1)
    };
    while width(&entries) > usize::from(area.width) && entries.len() > 2 {
        entries.remove(entries.len() - 3);
    }
    for (n, (keys, label)) in entries.into_iter().enumerate() {
        if n > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(keys, theme::KEY));
        spans.push(Span::styled(format!(" {label}"), theme::LABEL));
    }
    frame.render_widget(Line::from(spans), area);
}

/// The help's `rows` (from a keymap's table), centred; when it is taller
/// than the screen it scrolls (`scroll` rows past) and says so at its foot.
/// Returns how many rows it can scroll past.
pub fn render_overlay(
    frame: &mut Frame,
    area: Rect,
    say: Say,
    rows: Vec<(String, &str)>,
    scroll: usize,
) -> usize {
    let key_width = rows
        .iter()
        .map(|(k, _)| crate::text::width(k))
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(format!(" {keys:<key_width$}  "), theme::KEY),
                Span::styled(help, theme::TEXT),
            ])
        })
        .collect();
    let width = (lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 3).min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let hidden = lines
        .len()
        .saturating_sub(usize::from(height.saturating_sub(2)));
    let scroll = scroll.min(hidden);
    let [popup] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(popup);
    let mut block = Block::bordered()
        .border_style(theme::KEY)
        .title(Line::from(vec![
            Span::styled(format!(" {} ", say.help_title()), theme::TITLE),
            Span::styled(format!("· {} ", say.help_close()), theme::LABEL),
        ]));
    if hidden > 0 {
        block = block.title_bottom(
            Line::styled(
                format!(" {} ", say.help_scroll(scroll, hidden)),
                theme::LABEL,
            )
            .right_aligned(),
        );
    }
    // Clear a column either side too: a wide character just left of the
    // popup would otherwise reach over its border.
    let margin = Rect {
        x: popup.x.saturating_sub(1),
        width: (popup.width + 2).min(area.right() - popup.x.saturating_sub(1)),
        ..popup
    };
    frame.render_widget(Clear, margin);
    let visible = lines.into_iter().skip(scroll).collect::<Vec<_>>();
    frame.render_widget(Paragraph::new(visible).block(block), popup);
    hidden
}
