//! A gauge of work under way: seeking the end of a long run, loading a file.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Gauge;

use crate::text::one_line;
use crate::tui::theme;

/// Draws `label` on a gauge filled to `ratio` (clamped to 0..=1), the
/// label cut to the width.
pub fn render(frame: &mut Frame, area: Rect, label: String, ratio: f64) {
    let label = one_line(&label, usize::from(area.width));
    let gauge = Gauge::default()
        .gauge_style(theme::PROGRESS)
        .ratio(ratio.clamp(0.0, 1.0))
        .label(label);
    frame.render_widget(gauge, area);
}
