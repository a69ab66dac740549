//! The top two lines: which run, which check, the question and the model.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::text::{one_line, width};
use crate::tui::app::App;
use crate::tui::theme;

pub fn render_title(frame: &mut Frame, area: Rect, app: &App) {
    let say = app.say();
    let (index, count) = app.runs();
    let label = (format!(" {} │ ", say.app_name()), theme::TITLE);
    // In a sub-agent, the runs it was opened from come first.
    let title = match app.trail.is_empty() {
        true => app.transcript().title.clone(),
        false => say.breadcrumb(&app.breadcrumb()),
    };
    let title = (&title, Style::new());
    // A deliberate mistake turns the bar red and names itself.
    let (right, styles) = match app.config().mistake {
        Some(mistake) => {
            let banner = say.mistake_banner(say.mistake_name(mistake));
            // In a lesson, the scene stays named beside the mistake.
            let banner = match app.scene() {
                Some((scene, of)) => format!(" {} ·{banner}", say.scene_position(scene, of)),
                None => banner,
            };
            (banner, (theme::MISTAKE_BAR, theme::MISTAKE_BAR))
        }
        None => {
            let position = match app.scene() {
                Some((scene, of)) => say.scene_position(scene, of),
                None => say.run_position(index, count, app.loading),
            };
            let mut right = format!(" {position} · ");
            // A run told in another API than its own names it (A).
            if app.config().dialect != app.transcript().dialect() {
                right += &format!("{} · ", say.w.api);
            }
            right += &format!("{} ", say.check_label(app.config().check));
            if let (wrong @ 1.., more) = app.wrong_count() {
                right += &format!("· {} ", say.wrong_count(wrong, more));
            }
            (right, (theme::TITLE_BAR, theme::TITLE_BAR))
        }
    };
    two_sided(frame, area, label, title, right, styles);
}

pub fn render_question(frame: &mut Frame, area: Rect, app: &App) {
    let say = app.say();
    let transcript = app.transcript();
    let label = (format!(" {}", say.label(say.question())), theme::LABEL);
    let question = (&transcript.question, theme::TITLE);
    let model = format!(
        "{}{} ",
        say.label(say.model()),
        one_line(&transcript.model, 40)
    );
    two_sided(
        frame,
        area,
        label,
        question,
        model,
        (Style::new(), theme::LABEL),
    );
}

/// A labelled text on the left, cut to fit, and a fixed text on the right;
/// `styles` are the base styles of the left and the right part.
fn two_sided(
    frame: &mut Frame,
    area: Rect,
    (label, label_style): (String, Style),
    (text, text_style): (&String, Style),
    right: String,
    (left_style, right_style): (Style, Style),
) {
    // By display width: Chinese takes two columns a character. The right
    // part (run, check, errors) may take three fifths.
    let right = one_line(&right, usize::from(area.width * 3 / 5));
    let right_width = width(&right) as u16;
    let [left_area, right_area] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(right_width)]).areas(area);
    let room = usize::from(left_area.width).saturating_sub(width(&label) + 1);
    let left = Line::from(vec![
        Span::styled(label, label_style),
        Span::styled(one_line(text, room), text_style),
    ]);
    frame.render_widget(left.style(left_style), left_area);
    frame.render_widget(Line::styled(right, right_style), right_area);
}
