//! Every colour and emphasis on the screen, by meaning, and the themes that
//! say what those colours look like.
//!
//! The view draws with the basic named colours below; a [`Theme`] then
//! gives every cell of the frame exact RGB values, so a projector shows
//! what was chosen rather than whatever the terminal's palette makes of
//! "dark grey". `tests/it/themes.rs` checks the contrast of every pair drawn.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

use crate::engine::Phase;

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
/// A step that took long, or came after a long pause.
pub const SLOW: Style = Style::new().fg(Color::Yellow);
/// The colour of a run's exit: green for an answer, red for None or a
/// rejection, yellow for another stop.
pub fn exit(phase: Phase) -> Style {
    match phase {
        Phase::Answer => ANSWER,
        Phase::Stopped | Phase::RecordingEnded | Phase::Ended => STOPPED,
        _ => NONE,
    }
}

/// Where the search's text shows.
pub const SEARCH_MATCH: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Yellow)
    .add_modifier(Modifier::BOLD);

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

/// How a drawn frame is coloured: in a theme, or with no colour at all
/// (`NO_COLOR`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Look {
    pub theme: Theme,
    pub monochrome: bool,
}

impl Look {
    pub fn apply(self, buffer: &mut Buffer) {
        if self.monochrome {
            monochrome(buffer);
        } else {
            self.theme.paint(buffer);
        }
    }
}

/// How the screen looks: `--theme`, and `t` cycles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Theme {
    /// Light text on a near-black screen.
    #[default]
    Dark,
    /// Dark text on white, for bright rooms.
    Light,
    /// White and bright colours on black: every pair at least 7:1.
    HighContrast,
}

/// A colour as red, green, blue.
type Rgb = [u8; 3];

/// The colour families the view names, in ANSI order: black, red, green,
/// yellow, blue, magenta, cyan, grey (light or dark), white. A bright
/// colour draws as its family.
const FAMILIES: usize = 9;

/// One theme's colours.
struct Palette {
    /// Where the view sets no background.
    screen: Rgb,
    /// Where the view sets no colour for the text.
    text: Rgb,
    /// Each family as text.
    ink: [Rgb; FAMILIES],
    /// Each family as a background, and the colour of text that sets none
    /// on it (a gauge's label over its filled part).
    fill: [(Rgb, Rgb); FAMILIES],
}

const fn hex(rgb: u32) -> Rgb {
    [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8]
}

const WHITE: Rgb = hex(0xffffff);

/// Pairs each background with the text colour it carries.
const fn fills(colours: [Rgb; FAMILIES], on: [Rgb; FAMILIES]) -> [(Rgb, Rgb); FAMILIES] {
    let mut all = [([0; 3], [0; 3]); FAMILIES];
    let mut i = 0;
    while i < FAMILIES {
        all[i] = (colours[i], on[i]);
        i += 1;
    }
    all
}

// Grey as text is the labels' and borders' colour, kept well away from
// the screen's colour (the terminal's dark grey washes out on a
// projector). Families that are never a background repeat the screen.

const DARK: Palette = {
    let (screen, text) = (hex(0x14161b), hex(0xe8e8e8));
    Palette {
        screen,
        text,
        ink: [
            screen,
            hex(0xff8b82),
            hex(0x7ee787),
            hex(0xf2cc60),
            hex(0x79c0ff),
            hex(0xd2a8ff),
            hex(0x76e3ea),
            hex(0xa0a8b4),
            WHITE,
        ],
        fill: fills(
            [
                screen,
                hex(0xb62324),
                hex(0x7ee787),
                hex(0xf2cc60),
                hex(0x1f3a5f),
                screen,
                hex(0x76e3ea),
                screen,
                screen,
            ],
            [text, WHITE, screen, screen, WHITE, text, screen, text, text],
        ),
    }
};

const LIGHT: Palette = {
    let (screen, text) = (WHITE, hex(0x1f2328));
    Palette {
        screen,
        text,
        ink: [
            text,
            hex(0xb3261e),
            hex(0x116329),
            hex(0x8a5a00),
            hex(0x0550ae),
            hex(0x6639ba),
            hex(0x0e6e7a),
            hex(0x57606a),
            WHITE,
        ],
        fill: fills(
            [
                screen,
                hex(0xb3261e),
                hex(0xb7ebc2),
                hex(0xffe08a),
                hex(0xe6effc),
                screen,
                hex(0xbfeff5),
                screen,
                screen,
            ],
            [text, WHITE, text, text, text, text, text, text, text],
        ),
    }
};

const HIGH_CONTRAST: Palette = {
    let (screen, text) = (hex(0x000000), WHITE);
    Palette {
        screen,
        text,
        ink: [
            screen,
            hex(0xffa198),
            hex(0x69f0ae),
            hex(0xffe066),
            hex(0x82b1ff),
            hex(0xff99ff),
            hex(0x84ffff),
            hex(0xd0d0d0),
            WHITE,
        ],
        fill: fills(
            [
                screen,
                hex(0x9b0000),
                hex(0x69f0ae),
                hex(0xffe066),
                hex(0x001a57),
                screen,
                hex(0x84ffff),
                screen,
                screen,
            ],
            [text, WHITE, screen, screen, WHITE, text, screen, text, text],
        ),
    }
};

/// The family of a named colour; `None` for the terminal's default (and
/// for exact colours, which the view does not use).
fn family(colour: Color) -> Option<usize> {
    Some(match colour {
        Color::Black => 0,
        Color::Red | Color::LightRed => 1,
        Color::Green | Color::LightGreen => 2,
        Color::Yellow | Color::LightYellow => 3,
        Color::Blue | Color::LightBlue => 4,
        Color::Magenta | Color::LightMagenta => 5,
        Color::Cyan | Color::LightCyan => 6,
        Color::Gray | Color::DarkGray => 7,
        Color::White => 8,
        _ => return None,
    })
}

fn rgb([r, g, b]: Rgb) -> Color {
    Color::Rgb(r, g, b)
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Dark, Theme::Light, Theme::HighContrast];

    /// The next theme, for `t`.
    pub fn next(self) -> Theme {
        let at = Theme::ALL.iter().position(|&t| t == self).unwrap_or(0);
        Theme::ALL[(at + 1) % Theme::ALL.len()]
    }

    fn palette(self) -> &'static Palette {
        match self {
            Theme::Dark => &DARK,
            Theme::Light => &LIGHT,
            Theme::HighContrast => &HIGH_CONTRAST,
        }
    }

    /// What a named colour looks like as text in this theme.
    pub fn ink(self, colour: Color) -> Color {
        let palette = self.palette();
        family(colour).map_or(rgb(palette.text), |i| rgb(palette.ink[i]))
    }

    /// What a named colour looks like as a background in this theme.
    pub fn fill(self, colour: Color) -> Color {
        let palette = self.palette();
        family(colour).map_or(rgb(palette.screen), |i| rgb(palette.fill[i].0))
    }

    /// Gives every cell of a drawn frame this theme's exact colours.
    pub fn paint(self, buffer: &mut Buffer) {
        let palette = self.palette();
        for cell in &mut buffer.content {
            let (fill, on) = match family(cell.bg) {
                Some(i) => palette.fill[i],
                None => (palette.screen, palette.text),
            };
            let ink = family(cell.fg).map_or(on, |i| palette.ink[i]);
            cell.fg = rgb(ink);
            cell.bg = rgb(fill);
        }
    }
}
