//! Wrapping styled lines to a width, by display width: a line may break at
//! a space, and between any two Chinese (wide) characters, which have no
//! spaces between them; a run with no break in it is cut where it must be.
//! Knowing the wrapped lines exactly is what lets a pane scroll to its end.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// `lines` wrapped to `width` columns; each keeps its spans' styles.
pub fn wrap(lines: Vec<Line<'static>>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    lines
        .into_iter()
        .flat_map(|line| wrap_line(line, width))
        .collect()
}

/// One grapheme with its style and width.
struct Cell {
    text: String,
    style: Style,
    width: usize,
}

fn wrap_line(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    let line_style = line.style;
    let cells: Vec<Cell> = line
        .spans
        .iter()
        .flat_map(|span| {
            let style = line_style.patch(span.style);
            span.content.graphemes(true).map(move |g| Cell {
                text: g.to_owned(),
                style,
                width: g.width(),
            })
        })
        .collect();
    let mut rows: Vec<Vec<Cell>> = vec![Vec::new()];
    let mut used = 0;
    for cell in cells {
        let row = rows.last_mut().expect("there is always a row");
        if used + cell.width > width && !row.is_empty() {
            let carried = match break_before(row, &cell) {
                Some(at) => row.split_off(at),
                None => Vec::new(),
            };
            let mut next: Vec<Cell> = carried;
            // A space that ends a row is not carried to the next one.
            while next.first().is_some_and(|c| c.text == " ") {
                next.remove(0);
            }
            used = next.iter().map(|c| c.width).sum();
            rows.push(next);
        }
        let wrapped = rows.len() > 1;
        let row = rows.last_mut().expect("there is always a row");
        // A space that would open a wrapped row is the break itself.
        if cell.text == " " && row.is_empty() && wrapped {
            continue;
        }
        used += cell.width;
        row.push(cell);
    }
    rows.into_iter()
        .map(|row| Line::from(spans(row)).style(line_style))
        .collect()
}

/// Where a full `row` breaks so that `next` fits on the following one: the
/// latest place after a space or beside a wide character, except before a
/// closing mark or after an opening one (Chinese line-breaking rules: no
/// line opens with "，" or ends with "（"). `None` cuts it where it is full.
fn break_before(row: &[Cell], next: &Cell) -> Option<usize> {
    let at_cell = |at: usize| if at == row.len() { next } else { &row[at] };
    (1..=row.len()).rev().find(|&at| {
        let (before, after) = (&row[at - 1], at_cell(at));
        let opportunity = before.text == " " || before.width > 1 || after.width > 1;
        opportunity && !is_closing(&after.text) && !is_opening(&before.text)
    })
}

/// Marks that must not open a line.
fn is_closing(text: &str) -> bool {
    matches!(
        text,
        "，" | "。"
            | "、"
            | "；"
            | "："
            | "？"
            | "！"
            | "）"
            | "」"
            | "』"
            | "》"
            | "”"
            | "’"
            | "…"
    )
}

/// Marks that must not end a line.
fn is_opening(text: &str) -> bool {
    matches!(text, "（" | "「" | "『" | "《" | "“" | "‘")
}

/// Cells back into spans, one per run of a style.
fn spans(row: Vec<Cell>) -> Vec<Span<'static>> {
    let mut out: Vec<Span<'static>> = Vec::new();
    for cell in row {
        match out.last_mut() {
            Some(last) if last.style == cell.style => last.content.to_mut().push_str(&cell.text),
            _ => out.push(Span::styled(cell.text, cell.style)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn english_breaks_at_spaces_and_chinese_anywhere() {
        let lines = wrap(vec![Line::raw("the loop calls the model")], 10);
        assert_eq!(texts(&lines), ["the loop ", "calls the ", "model"]);
        let lines = wrap(vec![Line::raw("开始，第 0 轮：messages 里只有问题")], 12);
        for line in &lines {
            assert!(line.width() <= 12, "{line}");
        }
        assert_eq!(texts(&lines).concat(), "开始，第 0 轮：messages 里只有问题");
        assert_eq!(texts(&lines)[0], "开始，第 0 ");
        let lines = wrap(vec![Line::raw("必须把 None 当作")], 6);
        assert_eq!(texts(&lines), ["必须把", "None ", "当作"]);
    }

    #[test]
    fn no_line_opens_with_a_closing_mark_or_ends_with_an_opening_one() {
        // "字段，" would open the next line with "，": the break moves back.
        let lines = wrap(vec![Line::raw("循环只看字段，从不猜")], 12);
        assert_eq!(texts(&lines), ["循环只看字", "段，从不猜"]);
        let lines = wrap(vec![Line::raw("请求（tool_use）中间")], 6);
        for line in &lines {
            let text = line.to_string();
            assert!(!text.starts_with('）') && !text.ends_with('（'), "{text:?}");
        }
    }

    #[test]
    fn a_word_longer_than_the_width_is_cut_and_styles_stay() {
        let line = Line::from(vec![
            Span::styled("ab", Style::new().bold()),
            Span::raw("cdefgh"),
        ]);
        let lines = wrap(vec![line], 3);
        assert_eq!(texts(&lines), ["abc", "def", "gh"]);
        assert_eq!(lines[0].spans[0].style, Style::new().bold());
        assert!(wrap(vec![Line::raw("")], 5).len() == 1);
    }
}
