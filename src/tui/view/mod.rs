//! Drawing: a pure function of the app state, one small module per panel.

mod banner;
mod budget;
mod caption;
mod compare;
mod detail;
mod diagram;
mod glyphs;
mod growth;
mod help;
mod highlight;
mod messages;
mod progress;
mod timeline;
mod title;
mod wire_view;
mod wrap;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::app::{App, Mode, Notice};
use super::keymap::{footer_entries, help_rows};
use super::theme::{self, Look};
use crate::narrate::Say;
use crate::text::one_line;
use crate::transcript::Stage;

pub use super::extents::{Extents, Marks};
pub use budget::{BudgetState, budget_gauge};
pub use caption::caption as caption_text;
pub use compare::draw as draw_compare;
pub use diagram::{Mark, marked as diagram_marks};

/// The smallest terminal the full screen fits in.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// Rows for a caption of one or two sentences at 80 columns.
const CAPTION_ROWS: u16 = 4;
/// Rows that every layout gives to the one-line areas and the caption.
const FIXED_ROWS: u16 = 1 + 1 + 1 + CAPTION_ROWS + 1;
const DIAGRAM_ROWS: u16 = 10;
/// Rows under the diagram a large screen keeps for the turns so far.
const TURN_ROWS: u16 = 6;

/// A screen at least this large gets the roomy layout: the phase in large
/// letters across the top, a wider diagram column, and what each call
/// sends beside the step's detail.
pub const WIDE_WIDTH: u16 = 120;
pub const WIDE_HEIGHT: u16 = 40;

/// Where each panel goes on a screen of a given size.
struct Areas {
    title: Rect,
    question: Rect,
    banner: Option<Rect>,
    diagram: Rect,
    messages: Rect,
    /// The step's detail, what each call sends, or both side by side.
    detail: Option<Rect>,
    growth: Option<Rect>,
    /// Over the bottom border of the detail and growth panels.
    timeline: Rect,
    budget: Rect,
    caption: Rect,
    footer: Rect,
}

/// The layout, or `None` when the screen is below the minimum size.
/// `growth` is whether what each call sends is asked for (`x`), or left to
/// the room there is.
fn areas(
    area: Rect,
    (diagram_width, banner_rows): (u16, u16),
    growth: Option<bool>,
) -> Option<Areas> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let wide = area.width >= WIDE_WIDTH && area.height >= WIDE_HEIGHT;
    // The banner takes its rows only where the loop pane keeps room for
    // its turns beside it: the Chinese one, twice as tall, needs a taller
    // screen than the English one.
    let room_left = |rows: u16| (area.height - FIXED_ROWS).saturating_sub(rows) * 3 / 5;
    let banner_rows = if wide && room_left(banner_rows) >= DIAGRAM_ROWS + TURN_ROWS {
        banner_rows
    } else {
        0
    };
    let flexible = area.height - FIXED_ROWS - banner_rows;
    let middle_rows = (flexible * 3 / 5).max(DIAGRAM_ROWS);
    let [
        title,
        question,
        banner,
        middle,
        lower,
        budget,
        caption,
        footer,
    ] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(banner_rows),
        Constraint::Length(middle_rows),
        Constraint::Length(flexible - middle_rows),
        Constraint::Length(1),
        Constraint::Length(CAPTION_ROWS),
        Constraint::Length(1),
    ])
    .areas(area);
    let left_width = if wide {
        diagram_width.max(area.width / 4)
    } else {
        diagram_width
    };
    let [diagram, messages] =
        Layout::horizontal([Constraint::Length(left_width), Constraint::Fill(1)]).areas(middle);
    let (detail, growth) = match (growth.unwrap_or(wide), wide) {
        (false, _) => (Some(lower), None),
        (true, false) => (None, Some(lower)),
        (true, true) => {
            let [detail, growth] =
                Layout::horizontal([Constraint::Fill(1), Constraint::Fill(1)]).areas(lower);
            (Some(detail), Some(growth))
        }
    };
    // Along the bottom border of the detail (of what each call sends when
    // that has the whole row).
    let under = detail.unwrap_or(lower);
    let timeline = Rect {
        x: under.x + 1,
        y: under.bottom().saturating_sub(1),
        width: under.width.saturating_sub(2),
        height: under.height.min(1),
    };
    Some(Areas {
        title,
        question,
        banner: (banner_rows > 0).then_some(banner),
        diagram,
        messages,
        detail,
        growth,
        timeline,
        budget,
        caption,
        footer,
    })
}

/// The first frame, while a file loads: what is opened and how far.
pub fn loading(frame: &mut Frame, (say, look): (Say, Look), what: &str, stage: Stage) {
    let area = frame.area();
    let middle = Rect {
        y: area.height.saturating_sub(4) / 2,
        height: area.height.min(4),
        ..area
    };
    let [title, gauge, _, keys] = Layout::vertical([Constraint::Length(1); 4]).areas(middle);
    let width = usize::from(area.width);
    let centred = |text: &str| Paragraph::new(one_line(text, width)).alignment(Alignment::Center);
    frame.render_widget(centred(&say.loading_title(what)).style(theme::TITLE), title);
    let (label, ratio) = match stage {
        Stage::Reading { read, size } => (
            say.loading_read(read, size),
            if size == 0 {
                0.0
            } else {
                read as f64 / size as f64
            },
        ),
        Stage::Parsing => (say.loading_parse().to_owned(), 1.0),
    };
    progress::render(frame, gauge, label, ratio);
    frame.render_widget(centred(say.loading_keys()).style(theme::LABEL), keys);
    look.apply(frame.buffer_mut());
}

/// The bottom line: a prompt being typed, else the quiz's or the search's
/// state, else the keys.
fn render_footer(frame: &mut Frame, area: Rect, app: &App) {
    let say = app.say();
    let (text, style) = if let Mode::GoTo(typed) = app.mode() {
        (say.go_to_prompt(typed), theme::KEY)
    } else if let Mode::Search(typed) = app.mode() {
        (say.search_prompt(typed), theme::KEY)
    } else if let Some(notice) = &app.notice {
        let text = match notice {
            Notice::Link(command, tabs) => say.link_copied(command, *tabs),
            Notice::Untold(skipped) => say.retell_skipped(skipped),
        };
        (text, theme::KEY)
    } else if let Some(quiz) = &app.quiz {
        let last = quiz.last.map(|(right, _)| right);
        (
            say.quiz_status(quiz.right, quiz.asked, last),
            theme::PLAYING,
        )
    } else if let Some(search) = &app.search {
        let tally = search.tally(app.cursor());
        (say.search_status(search.query().text(), tally), theme::KEY)
    } else {
        let playing = app.playing.then(|| app.speed());
        return help::render_footer(frame, area, say, playing, footer_entries(say));
    };
    let text = one_line(&text, usize::from(area.width).saturating_sub(1));
    frame.render_widget(Line::styled(format!(" {text}"), style), area);
}

/// Instead of the screen, on a terminal below the minimum: how large it
/// needs to be, whole and centred, in as many rows as it takes (as fit).
fn render_too_small(frame: &mut Frame, say: Say) {
    let area = frame.area();
    let message = say.too_small(area.width, area.height, MIN_WIDTH, MIN_HEIGHT);
    let lines = wrap::wrap(vec![Line::raw(message)], usize::from(area.width));
    let height = (lines.len() as u16).min(area.height);
    let middle = Rect {
        y: (area.height - height) / 2,
        height,
        ..area
    };
    frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center), middle);
}

pub fn draw(frame: &mut Frame, app: &App) -> Extents {
    let extents = draw_panels(frame, app);
    let look = Look {
        theme: app.theme,
        monochrome: app.monochrome,
    };
    look.apply(frame.buffer_mut());
    extents
}

/// Every panel, in the view's named colours; the help over them when open.
fn draw_panels(frame: &mut Frame, app: &App) -> Extents {
    let area = frame.area();
    let say = app.say();
    let sizes = (diagram::width(say), banner::rows(say.lang));
    let Some(areas) = areas(area, sizes, app.growth) else {
        render_too_small(frame, say);
        return Extents::default();
    };
    title::render_title(frame, areas.title, app);
    title::render_question(frame, areas.question, app);
    if let Some(banner) = areas.banner {
        banner::render(frame, banner, app);
    }
    diagram::render(frame, areas.diagram, app);
    let messages = messages::render(frame, areas.messages, app);
    let detail = areas
        .detail
        .map_or(0, |area| detail::render(frame, area, app));
    if let Some(area) = areas.growth {
        growth::render(frame, area, app, areas.detail.is_some());
    }
    let timeline = timeline::render(frame, areas.timeline, app);
    budget::render(frame, areas.budget, app);
    match app.seeking() {
        Some((made, most)) => {
            let label = say.seeking(made, most);
            let row = Rect {
                height: 1,
                ..areas.caption
            };
            progress::render(frame, row, label, f64::from(made) / f64::from(most));
        }
        None => caption::render(frame, areas.caption, app),
    }
    render_footer(frame, areas.footer, app);
    if let Some(search) = &app.search {
        for area in [Some(areas.messages), areas.detail].into_iter().flatten() {
            highlight::matches(frame.buffer_mut(), area, search.query());
        }
    }
    let help = if *app.mode() == Mode::Help {
        // In a lesson presented, its scene keys come first: they take ] and [.
        let mut rows = help_rows(say);
        if app.scene().is_some() {
            rows.retain(|(keys, _)| keys != "r");
            let lesson = crate::tui::keymap::help_rows_of(crate::tui::present::BINDINGS, say);
            rows.splice(0..0, lesson);
        }
        help::render_overlay(frame, area, say, rows, app.help_scroll)
    } else {
        0
    };
    Extents {
        detail,
        messages,
        help,
        growth: areas.growth.is_some(),
        timeline,
    }
}
