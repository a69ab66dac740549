//! The timeline: one mark per step, the turns set apart, the cursor lit and
//! the run's exit in its colour. A click on a mark goes to that step.
//!
//! ```text
//! steps •┃•••┃•••┃•■
//! ```
//!
//! Each call, where a turn begins, is a bar; other steps are dots; the exit
//! is a square, green for an answer, red for None, yellow for another stop.
//! A recorded call or tool that took long, or came after a long pause, is
//! yellow too.
//! A run longer than the row shows the steps around the cursor.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use crate::engine::{Phase, Step, Timing, time_before};
use crate::tui::app::App;
use crate::tui::extents::Marks;
use crate::tui::theme;

/// The first step to show so that `cursor` sits in the middle of `room`
/// marks, without running past either end of the `known` steps.
fn first_shown(cursor: usize, known: usize, room: usize) -> usize {
    cursor
        .saturating_sub(room / 2)
        .min(known.saturating_sub(room))
}

/// A step's mark, as it shows once reached; `previous` is the time of the
/// last timed step before it. The marks sit on a border: their colour is
/// set, or they would take the border's grey.
fn mark(step: &Step, previous: Option<&Timing>) -> (&'static str, Style) {
    let phase = step.event.phase();
    let slow = step
        .event
        .time()
        .is_some_and(|time| time.stands_out_after(previous));
    let reached = if slow {
        theme::SLOW
    } else {
        Style::new().fg(Color::Reset)
    };
    match phase {
        _ if phase.is_exit() => ("■", theme::exit(phase)),
        Phase::Call => ("┃", reached),
        _ => ("•", reached),
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) -> Marks {
    let say = app.say();
    let label = format!(" {} ", say.timeline_label());
    let label_width = crate::text::width(&label) as u16;
    let steps = &app.trace().steps;
    // A cell at the end says there are steps not replayed (or not shown)
    // yet. In quiz mode the marks stop at the cursor: how many steps are
    // left would tell the class how the run ends.
    let more = !app.trace_complete() || (app.quiz.is_some() && !app.at_end());
    let room = usize::from(area.width.saturating_sub(label_width + u16::from(more)));
    let first = first_shown(app.cursor(), steps.len(), room);
    let last = match app.quiz {
        Some(_) => app.cursor() + 1,
        None => steps.len(),
    };
    let shown = &steps[first..last.min(first + room)];
    let mut spans = vec![Span::styled(label, theme::LABEL)];
    // The time of the last timed step so far. The steps before the row are
    // searched only once a shown step has a time: an untimed run pays nothing.
    let mut previous = None;
    let mut looked_back = false;
    for (index, step) in (first..).zip(shown) {
        let ahead = index > app.cursor();
        let time = step.event.time();
        if time.is_some() && !looked_back {
            previous = time_before(steps, first);
            looked_back = true;
        }
        let mark = mark(step, previous);
        previous = time.or(previous);
        let (symbol, style) = match mark {
            (symbol, _) if ahead && !step.event.phase().is_exit() => (symbol, theme::LABEL),
            (symbol, _) if index == app.cursor() => (symbol, theme::NODE_CURRENT),
            mark => mark,
        };
        spans.push(Span::styled(symbol, style));
    }
    if more {
        spans.push(Span::styled("…", theme::LABEL));
    }
    frame.render_widget(Line::from(spans), area);
    Marks {
        row: area.y,
        column: area.x + label_width,
        first,
        count: shown.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_stays_in_the_middle_until_an_end_is_near() {
        assert_eq!(first_shown(0, 12, 60), 0);
        assert_eq!(first_shown(11, 12, 60), 0);
        assert_eq!(first_shown(500, 1000, 60), 470);
        assert_eq!(first_shown(990, 1000, 60), 940);
        assert_eq!(first_shown(5, 1000, 60), 0);
    }

    #[test]
    fn a_click_reads_back_as_the_step_under_it() {
        let marks = Marks {
            row: 20,
            column: 7,
            first: 100,
            count: 10,
        };
        assert_eq!(marks.step_at(7, 20), Some(100));
        assert_eq!(marks.step_at(16, 20), Some(109));
        assert_eq!(marks.step_at(17, 20), None);
        assert_eq!(marks.step_at(6, 20), None);
        assert_eq!(marks.step_at(8, 21), None);
    }
}
