//! Every colour and emphasis on the screen, by meaning. Colours are the 16
//! basic ANSI ones, so a projector's theme and a light terminal both work.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

pub const TITLE_BAR: Style = Style::new().fg(Color::Black).bg(Color::Cyan);
/// The title bar while a deliberate mistake is active.
pub const MISTAKE_BAR: Style = Style::new()
    .fg(Color::White)
    .bg(Color::Red)
    .add_modifier(Modifier::BOLD);
pub const TITLE: Style = Style::new().add_modifier(Modifier::BOLD);
pub const LABEL: Style = Style::new().fg(Color::DarkGray);
pub const TEXT: Style = Style::new();
pub const BORDER: Style = Style::new().fg(Color::DarkGray);
pub const KEY: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);

/// A diagram node that is not the current phase.
pub const NODE: Style = Style::new();
/// The phase the cursor is on.
pub const NODE_CURRENT: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Yellow)
    .add_modifier(Modifier::BOLD);
pub const EDGE: Style = Style::new().fg(Color::DarkGray);
/// The branch the loop just took.
pub const EDGE_TAKEN: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);

pub const ROLE_USER: Style = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
pub const ROLE_ASSISTANT: Style = Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD);
pub const BLOCK_KIND: Style = Style::new().fg(Color::Cyan);
pub const THINKING: Style = Style::new()
    .fg(Color::DarkGray)
    .add_modifier(Modifier::ITALIC);
pub const ERROR: Style = Style::new().fg(Color::Red).add_modifier(Modifier::BOLD);
/// The message the current step added.
pub const JUST_ADDED: Style = Style::new().bg(Color::Blue);

pub const GAUGE_LEFT: Style = Style::new().fg(Color::Green);
pub const GAUGE_LAST: Style = Style::new().fg(Color::Yellow);
pub const GAUGE_SPENT: Style = Style::new().fg(Color::Red);
/// The bars of what each call sends, and the figure on each.
pub const GROWTH: Style = Style::new().fg(Color::Cyan);
pub const GROWTH_VALUE: Style = Style::new().fg(Color::Black).bg(Color::Cyan);
/// The run playing by itself.
pub const PLAYING: Style = Style::new().fg(Color::Black).bg(Color::Green);
/// Work under way: seeking the end, loading a file.
pub const PROGRESS: Style = Style::new().fg(Color::Blue);

pub const ANSWER: Style = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
pub const NONE: Style = Style::new().fg(Color::Red).add_modifier(Modifier::BOLD);
pub const STOPPED: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
/// A course author's remark for the class.
pub const REMARK: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::ITALIC);

/// Removes every colour from a drawn frame for terminals that ask for none
/// (`NO_COLOR`). What a background colour marked (the current phase, the
/// message just added, the gauge's label) is shown reversed instead.
pub fn monochrome(buffer: &mut Buffer) {
    for cell in &mut buffer.content {
        if cell.bg != Color::Reset {
            cell.modifier.insert(Modifier::REVERSED);
        }
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
    }
}
