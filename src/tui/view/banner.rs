//! The phase in letters large enough for the back row, across the top of a
//! large screen: the loop's own word for it, or in Chinese the lessons'
//! word (开始, 调用, …) drawn from 16×16 glyphs (`glyphs.rs`); the line
//! under it names the step in the reader's language.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use tui_big_text::{BigText, PixelSize};

use super::glyphs::{Bitmap, glyph};
use crate::narrate::Lang;
use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::theme;

/// Rows the banner takes in `lang`: its large letters (four of Latin, eight
/// of Chinese glyphs, two pixel rows a cell) and one of words.
pub fn rows(lang: Lang) -> u16 {
    match lang {
        Lang::En => 5,
        Lang::Zh => 9,
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let step = app.step();
    let phase = step.event.phase();
    let say = app.say();
    let word = say.banner_word(phase);
    let style = if phase.is_exit() {
        theme::exit(phase)
    } else {
        theme::EDGE_TAKEN
    };
    let [letters, words] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let bitmaps: Option<Vec<&Bitmap>> = word.chars().map(glyph).collect();
    match bitmaps {
        Some(bitmaps) => draw_glyphs(frame.buffer_mut(), letters, &bitmaps, style),
        None => {
            // Eight columns a letter, four rows high, in the middle of the
            // rows the glyphs would take.
            let [_, letters, _] = Layout::vertical([
                Constraint::Fill(1),
                Constraint::Length(4),
                Constraint::Fill(1),
            ])
            .areas(letters);
            let big = BigText::builder()
                .pixel_size(PixelSize::HalfHeight)
                .style(style)
                .lines(vec![Line::from(word)])
                .centered()
                .build();
            frame.render_widget(big, letters);
        }
    }
    let title = say.step_title(
        app.cursor(),
        (app.trace().steps.len(), app.trace_complete()),
        step.turn,
        phase,
    );
    frame.render_widget(
        Line::styled(one_line(&title, usize::from(words.width)), theme::LABEL).centered(),
        words,
    );
}

/// Columns between two glyphs.
const GAP: u16 = 2;

/// Draws 16×16 glyphs side by side, centred, two pixel rows a cell in half
/// blocks: sixteen columns and eight rows a glyph.
fn draw_glyphs(buffer: &mut Buffer, area: Rect, bitmaps: &[&Bitmap], style: Style) {
    let count = bitmaps.len() as u16;
    let width = count * 16 + count.saturating_sub(1) * GAP;
    let left = area.x + area.width.saturating_sub(width) / 2;
    for (i, bitmap) in bitmaps.iter().enumerate() {
        let x0 = left + i as u16 * (16 + GAP);
        for (row, pair) in bitmap.chunks(2).enumerate() {
            let y = area.y + row as u16;
            for column in 0..16u16 {
                let lit = |bits: u16| bits & (0x8000 >> column) != 0;
                let cell = match (lit(pair[0]), lit(pair[1])) {
                    (true, true) => "█",
                    (true, false) => "▀",
                    (false, true) => "▄",
                    (false, false) => continue,
                };
                let x = x0 + column;
                if x < area.right() && y < area.bottom() {
                    buffer[(x, y)].set_symbol(cell).set_style(style);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::engine::Phase;
    use crate::narrate::Say;

    #[test]
    fn every_chinese_banner_word_has_its_glyphs() {
        for phase in Phase::ALL {
            let word = Say::new(Lang::Zh, Dialect::default()).banner_word(phase);
            let drawn = word.chars().all(|c| glyph(c).is_some());
            assert!(drawn || word == "None", "{phase:?}: {word}");
        }
    }
}
