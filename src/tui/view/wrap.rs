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
    // Where the current row may break: the index of the first cell of the
    // next row if it breaks there.
    let mut break_at: Option<usize> = None;
    for cell in cells {
        let row = rows.last_mut().expect("there is always a row");
        if used + cell.width > width && !row.is_empty() {
            let carried = match break_at {
                Some(at) if at > 0 && at < row.len() => row.split_off(at),
                _ => Vec::new(),
            };
            let mut next: Vec<Cell> = carried;
            // A space that ends a row is not carried to the next one.
            while next.first().is_some_and(|c| c.text == " ") {
                next.remove(0);
            }
            used = next.iter().map(|c| c.width).sum();
            rows.push(next);
            break_at = None;
        }
        let wide = cell.width > 1;
        let space = cell.text == " ";
        let wrapped = rows.len() > 1;
        let row = rows.last_mut().expect("there is always a row");
        // A space that would open a wrapped row is the break itself.
        if space && row.is_empty() && wrapped {
            continue;
        }
        if wide && !row.is_empty() {
            break_at = Some(row.len());
        }
        used += cell.width;
        row.push(cell);
        if space || wide {
            break_at = Some(row.len());
        }
    }
    rows.into_iter()
        .map(|row| Line::from(spans(row)).style(line_style))
        .collect()
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
