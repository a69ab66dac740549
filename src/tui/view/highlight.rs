//! The search's matches marked where they show, in whatever panel drew
//! them: the drawn rows are read back and each match's cells restyled.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::engine::Query;
use crate::text::width;
use crate::tui::theme;

/// Marks every match of `query` within `area` of a drawn frame.
pub fn matches(buffer: &mut Buffer, area: Rect, query: &Query) {
    for y in area.top()..area.bottom() {
        // The row's characters, each with the columns it takes.
        let mut row: Vec<(&str, u16)> = Vec::new();
        let mut x = area.left();
        while x < area.right() {
            let symbol = buffer[(x, y)].symbol();
            let columns = (width(symbol) as u16).max(1);
            row.push((symbol, x));
            x += columns;
        }
        let found: Vec<(u16, u16)> = spans_of(&row, query).collect();
        for (from, to) in found {
            for x in from..to.min(area.right()) {
                buffer[(x, y)].set_style(theme::SEARCH_MATCH);
            }
        }
    }
}

/// The column ranges where `query` begins and ends in `row`.
fn spans_of<'r>(row: &'r [(&str, u16)], query: &'r Query) -> impl Iterator<Item = (u16, u16)> + 'r {
    let length = query.text().chars().count();
    (0..row.len().saturating_sub(length.saturating_sub(1))).filter_map(move |start| {
        let text: String = row[start..start + length].iter().map(|(s, _)| *s).collect();
        query.found_in(&text).then(|| {
            let (last, x) = row[start + length - 1];
            (row[start].1, x + (width(last) as u16).max(1))
        })
    })
}
