//! The compare screen: a title, the row that says where the two runs
//! part, then a column a side — its label, the loop diagram, `messages`,
//! its step, the budget gauge and outcome, its caption — drawn by the main
//! screen's own panels.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::{MIN_HEIGHT, MIN_WIDTH, WIDE_HEIGHT, WIDE_WIDTH};
use super::{budget, caption, diagram, help, messages, progress, render_too_small};
use crate::narrate::{Say, Side};
use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::compare::{BINDINGS, Compare, Parting};
use crate::tui::keymap::{footer_entries_of, help_rows_of};
use crate::tui::theme;

/// Marks the divergence while both sides are on it.
const HERE: &str = "◆ ";

pub fn draw(frame: &mut Frame, compare: &Compare) {
    draw_panels(frame, compare);
    compare.look.apply(frame.buffer_mut());
}

fn draw_panels(frame: &mut Frame, compare: &Compare) {
    let say = compare.side(Side::Left).say();
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return render_too_small(frame, say);
    }
    let wide = area.width >= WIDE_WIDTH && area.height >= WIDE_HEIGHT;
    let [title, parting, columns, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    render_title(frame, title, compare);
    render_parting(frame, parting, compare);
    let [left, right] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Fill(1)]).areas(columns);
    render_side(frame, left, compare, Side::Left, wide);
    render_side(frame, right, compare, Side::Right, wide);
    help::render_footer(frame, footer, say, None, footer_entries_of(BINDINGS, say));
    if compare.show_help {
        help::render_overlay(frame, area, say, help_rows_of(BINDINGS, say), 0);
    }
}

/// "loopstep │ compare │ question: …"; both questions when they differ.
fn render_title(frame: &mut Frame, area: Rect, compare: &Compare) {
    let say = compare.side(Side::Left).say();
    let question = |side| &compare.side(side).transcript().question;
    let (left, right) = (question(Side::Left), question(Side::Right));
    let asked = match left == right {
        true => left.clone(),
        false => format!("{left} ⇄ {right}"),
    };
    let head = format!(" {} │ {} │ ", say.app_name(), say.compare_title());
    let room = usize::from(area.width).saturating_sub(crate::text::width(&head));
    let text = say.label(say.question()) + &asked;
    let line = Line::from(vec![
        Span::styled(head, theme::TITLE),
        Span::raw(one_line(&text, room)),
    ]);
    frame.render_widget(line.style(theme::TITLE_BAR), area);
}

/// Where the two runs part, lit when both sides are on that step.
fn render_parting(frame: &mut Frame, area: Rect, compare: &Compare) {
    let say = compare.side(Side::Left).say();
    let (text, style) = match compare.parting() {
        Parting::Looking { same } => (say.divergence_looking(same), theme::LABEL),
        Parting::Nowhere => {
            let steps = compare.side(Side::Left).trace().steps.len();
            (say.no_divergence(steps), theme::LABEL)
        }
        Parting::At(index) => {
            let brief = |side| {
                let app = compare.side(side);
                let step = app.trace().steps.get(index)?;
                Some(app.say().step_brief(&step.event))
            };
            let text = say.divergence(index + 1, brief(Side::Left), brief(Side::Right));
            match compare.step() == index {
                true => (format!("{HERE}{text}"), theme::SEARCH_MATCH),
                false => (text + say.divergence_key(), theme::TITLE),
            }
        }
    };
    let text = one_line(&text, usize::from(area.width).saturating_sub(1));
    frame.render_widget(Line::styled(format!(" {text}"), style), area);
}

/// One side's column.
fn render_side(frame: &mut Frame, area: Rect, compare: &Compare, side: Side, wide: bool) {
    let app = compare.side(side);
    // A column of air between the two sides' labels.
    let area = match side {
        Side::Left => Rect {
            width: area.width.saturating_sub(1),
            ..area
        },
        Side::Right => area,
    };
    let [
        label,
        diagram_area,
        messages_area,
        step,
        budget_area,
        caption_area,
    ] = Layout::vertical([
        Constraint::Length(1),
        // On a large screen the turns so far show under the diagram.
        Constraint::Length(if wide { 15 } else { 10 }),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
        // A caption of two sentences, in half the width.
        Constraint::Length(if wide { 6 } else { 3 }),
    ])
    .areas(area);
    render_label(frame, label, app, side);
    diagram::render(frame, diagram_area, app);
    messages::render(frame, messages_area, app);
    render_step(frame, step, compare, app);
    budget::render(frame, budget_area, app);
    match app.seeking() {
        Some((made, most)) => {
            let label = app.say().seeking(made, most);
            let row = Rect {
                height: 1,
                ..caption_area
            };
            progress::render(frame, row, label, f64::from(made) / f64::from(most));
        }
        None => caption::render(frame, caption_area, app),
    }
}

/// "left · aurora-run · max_turns 10 · production check", red when the
/// side makes a mistake on purpose.
fn render_label(frame: &mut Frame, area: Rect, app: &App, side: Side) {
    let say = app.say();
    let config = app.config();
    let settings = say.run_settings(
        config.policy().budget,
        config.max_turns.get(),
        config.check,
        config.mistake,
    );
    let run = one_line(&app.transcript().id, 40);
    let text = format!(" {} · {run} · {settings}", say.side(side));
    let style = match config.mistake {
        Some(_) => theme::MISTAKE_BAR,
        None => theme::TITLE_BAR,
    };
    let text = one_line(&text, usize::from(area.width));
    frame.render_widget(Line::from(text).style(style), area);
}

/// "step 10/12 · turn 2 · call"; marked on the parting, and saying so
/// where the side has ended before the step both are on.
fn render_step(frame: &mut Frame, area: Rect, compare: &Compare, app: &App) {
    let say: Say = app.say();
    let trace = app.trace();
    let step = app.step();
    let title = say.step_title(
        app.cursor(),
        (trace.steps.len(), app.trace_complete()),
        step.turn,
        step.event.phase(),
    );
    let here = compare.parting() == Parting::At(compare.step());
    let (mark, style) = match here {
        true => (HERE, theme::SEARCH_MATCH),
        false => ("", theme::TITLE),
    };
    // First, where a narrow column would cut it.
    let ended = (app.cursor() < compare.step())
        .then(|| Span::styled(format!(" {} ·", say.side_ended()), theme::STOPPED));
    let title = Span::styled(format!(" {mark}{title}"), style);
    let line = Line::from_iter(ended.into_iter().chain([title]));
    let width = usize::from(area.width);
    let line = if line.width() > width {
        Line::styled(one_line(&line.to_string(), width), style)
    } else {
        line
    };
    frame.render_widget(line, area);
}
