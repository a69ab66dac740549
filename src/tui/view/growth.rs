//! What each call sends: the whole conversation, again, so every request
//! is larger than the one before it. A bar per call up to the cursor, the
//! newest on the right, and the totals so far.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block as Panel, Paragraph};

use crate::engine::{Event, RequestSize, Usage};
use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::theme;

/// Columns of one bar, and between bars.
const BAR: u16 = 5;
const GAP: u16 = 1;

/// The newest `room` requests made up to the cursor, oldest first, and
/// the recorded usage of every call up to the newest. Costs what it shows:
/// the steps are walked back from the cursor only until enough calls are
/// found.
fn newest_requests(app: &App, room: usize) -> (Vec<RequestSize>, Option<Usage>) {
    let mut so_far = None;
    let mut newest: Vec<RequestSize> = app.trace().steps[..=app.cursor()]
        .iter()
        .rev()
        .filter_map(|s| match &s.event {
            Event::Call {
                request,
                usage_so_far,
                ..
            } => {
                so_far = so_far.or(Some(*usage_so_far));
                Some(*request)
            }
            _ => None,
        })
        .take(room)
        .collect();
    newest.reverse();
    (newest, so_far.flatten())
}

/// A size in few columns: 980, 12k, 3.4M.
fn short(n: usize) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..100_000 => format!("{:.0}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// `beside`: the panel shares its row with the step's detail.
pub fn render(frame: &mut Frame, area: Rect, app: &App, beside: bool) {
    let say = app.say();
    let panel = Panel::bordered()
        .border_style(theme::BORDER)
        .title(Span::styled(
            format!(" {} ", say.growth_title(beside)),
            theme::TITLE,
        ));
    let inner = panel.inner(area);
    frame.render_widget(panel, area);
    // Two lines of figures (the newest call, all calls so far) where the
    // chart keeps room to grow, and what the estimate leaves out where
    // there is more; one, the newest, on the smallest screens.
    let summary_rows = match inner.height {
        9.. => 3,
        6.. => 2,
        _ => 1,
    };
    let [summary, chart] =
        Layout::vertical([Constraint::Length(summary_rows), Constraint::Fill(1)]).areas(inner);
    // The newest calls that fit.
    let room = usize::from((chart.width + GAP) / (BAR + GAP)).max(1);
    let (shown, recorded) = newest_requests(app, room);
    let recorded = recorded.map(|usage| (usage, app.cost_of(&usage)));
    let lines = match shown.last() {
        Some(last) => say.growth_summary(last, recorded).to_vec(),
        None => vec![say.growth_nothing_sent().to_owned()],
    };
    let width = usize::from(summary.width);
    let lines: Vec<Line> = lines
        .iter()
        .take(usize::from(summary_rows))
        .map(|line| Line::styled(one_line(line, width), theme::TEXT))
        .collect();
    frame.render_widget(Paragraph::new(lines), summary);
    let bars: Vec<Bar> = shown
        .iter()
        .map(|r| {
            Bar::new(r.chars as u64)
                .label(Line::from(format!("#{}", r.number)))
                .text_value(short(r.chars))
        })
        .collect();
    let widget = BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(BAR)
        .bar_gap(GAP)
        .bar_style(theme::GROWTH)
        .value_style(theme::GROWTH_VALUE);
    frame.render_widget(widget, chart);
}
