//! The phase in letters large enough for the back row, across the top of a
//! large screen: the loop's own word for it (the font has no Chinese; the
//! line under it names the step in the reader's language).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use tui_big_text::{BigText, PixelSize};

use crate::engine::Phase;
use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::theme;

/// Rows the banner takes: four of large letters and one of words.
pub const ROWS: u16 = 5;

/// The word in large letters: short, as the loop's code would name it.
fn word(phase: Phase) -> &'static str {
    match phase {
        Phase::Start => "start",
        Phase::Call => "call",
        Phase::Check => "check",
        Phase::Dispatch => "dispatch",
        Phase::Append => "append",
        Phase::GoalCheck => "goal",
        Phase::Inserted => "insert",
        Phase::Answer => "answer",
        Phase::BudgetExhausted => "None",
        Phase::Stopped => "stop",
        Phase::RecordingEnded | Phase::Ended => "end",
        Phase::Rejected => "reject",
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let step = app.step();
    let phase = step.event.phase();
    let word = word(phase);
    let style = if phase.is_exit() {
        theme::exit(phase)
    } else {
        theme::EDGE_TAKEN
    };
    let [letters, words] =
        Layout::vertical([Constraint::Length(ROWS - 1), Constraint::Length(1)]).areas(area);
    // Eight columns a letter, four rows high.
    let pixel_size = PixelSize::HalfHeight;
    let big = BigText::builder()
        .pixel_size(pixel_size)
        .style(style)
        .lines(vec![Line::from(word)])
        .centered()
        .build();
    frame.render_widget(big, letters);
    let say = app.say();
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
