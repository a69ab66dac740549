//! The turn-budget gauge and, beside it, the outcome once the run has one.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Gauge;

use crate::engine::{Budget, Event, Outcome, SAFETY_CAP};
use crate::narrate::Say;

use crate::text::{one_line, width as width_of};
use crate::transcript::Verification;
use crate::tui::app::App;
use crate::tui::theme;

/// How much of the turn budget is left at the cursor (the names live with
/// the words that describe them).
pub use crate::narrate::GaugeState as BudgetState;

/// Where the budget stands at the cursor.
fn budget_state(app: &App) -> BudgetState {
    let step = app.step();
    if app.config().policy().budget == Budget::SafetyCap {
        BudgetState::NoBudget
    } else if matches!(step.event, Event::BudgetExhausted { .. }) {
        BudgetState::Spent
    } else if step.turn + 1 >= app.config().max_turns.get() {
        BudgetState::LastTurn
    } else {
        BudgetState::Left
    }
}

/// The gauge itself: calls used out of max_turns (or, with no budget, out
/// of the engine's safety cap), coloured by state; its label shortened
/// when it would not fit `width` columns.
pub fn budget_gauge(
    say: Say,
    used: usize,
    max_turns: u32,
    state: BudgetState,
    width: u16,
) -> Gauge<'static> {
    let limit = if state == BudgetState::NoBudget {
        SAFETY_CAP
    } else {
        max_turns
    };
    let (style, label) = match state {
        BudgetState::Left => (theme::GAUGE_LEFT, say.gauge_left(used, limit)),
        BudgetState::LastTurn => (theme::GAUGE_LAST, say.gauge_last(used, limit)),
        BudgetState::Spent => (theme::GAUGE_SPENT, say.gauge_spent(used, limit)),
        BudgetState::NoBudget => (theme::GAUGE_LAST, say.gauge_no_budget(used, limit)),
    };
    let label = if width_of(&label) + 2 > usize::from(width) {
        say.gauge_short(used, limit, state)
    } else {
        label
    };
    let ratio = (used as f64 / f64::from(limit)).clamp(0.0, 1.0);
    Gauge::default()
        .gauge_style(style)
        .ratio(ratio)
        // An unstyled label lets the gauge invert it over the filled part.
        .label(Span::styled(
            label,
            Style::new().add_modifier(Modifier::BOLD),
        ))
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let outcome = outcome_line(app, (area.width / 2).saturating_sub(2) as usize);
    let outcome_width = (outcome.width() as u16 + 1).min(area.width / 2);
    let [gauge_area, _, outcome_area] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(outcome_width),
    ])
    .areas(area);
    let gauge = budget_gauge(
        app.say(),
        app.calls_so_far(),
        app.config().max_turns.get(),
        budget_state(app),
        gauge_area.width,
    );
    frame.render_widget(gauge, gauge_area);
    frame.render_widget(outcome, outcome_area);
}

/// Columns the outcome keeps for itself beside the goal check.
const OUTCOME_ROOM: usize = 8;

/// "outcome: …" in at most `room` columns; an answer is shortened to fit,
/// the goal check never.
fn outcome_line(app: &App, room: usize) -> Line<'static> {
    let say = app.say();
    if !app.at_end() {
        return Line::from(vec![
            Span::styled(say.label(say.status()), theme::LABEL),
            Span::styled(say.outcome_pending(), theme::LABEL),
        ]);
    }
    let trace = app.trace();
    // 结果 names the return value only (an answer, or None when the budget
    // is spent): any other end is a 状态.
    let returned = matches!(
        trace.outcome(),
        Some(Outcome::Answered(_) | Outcome::BudgetExhausted)
    );
    let label = say.label(if returned {
        say.outcome()
    } else {
        say.status()
    });
    let unshown = app.config().mistake.is_some() && !trace.mistake_shown;
    let verification = app.transcript().verify(trace);
    let checked = matches!(verification, Verification::Verified(_));
    let goal = match verification {
        // "verified" would read as if the mistake did no harm.
        _ if unshown => Some(Span::styled(
            format!(" · {}", say.mistake_not_shown_label()),
            theme::LABEL,
        )),
        Verification::Verified(evidence) | Verification::ToolReported(evidence) => {
            // Name every check when the answer still fits whole beside them,
            // else the first: "verified" never stands alone.
            let answer = trace.result().map_or(0, |a| width_of(a) + 2);
            let all = format!(" · {}", say.verified_short(&evidence, checked));
            let fits = width_of(&label) + answer + width_of(&all) <= room;
            let shown = if fits {
                all
            } else {
                format!(" · {}", say.verified_short(&evidence[..1], checked))
            };
            Some(Span::styled(shown, theme::LABEL))
        }
        Verification::NotVerified(_) => Some(Span::styled(
            format!(" · {}", say.not_verified()),
            theme::ERROR,
        )),
        Verification::NotChecked => None,
    };
    // The outcome comes first: in a narrow row the goal check gives way.
    let goal = goal.filter(|g| width_of(&label) + g.width() + OUTCOME_ROOM <= room);
    let goal_width = goal.as_ref().map_or(0, Span::width);
    let text_room = room.saturating_sub(width_of(&label) + goal_width).max(4);
    let (text, style) = match trace.outcome() {
        Some(Outcome::Answered(answer)) => (
            // Two columns for the quotes.
            say.outcome_answer(&one_line(answer, text_room.saturating_sub(2))),
            theme::ANSWER,
        ),
        // The gauge beside it says that None is not an answer.
        Some(Outcome::BudgetExhausted) => (say.outcome_none().to_owned(), theme::NONE),
        Some(Outcome::Stopped(_)) => {
            // Name the stop reason when the check is what stopped the run.
            let at_check = trace
                .steps
                .iter()
                .rev()
                .nth(1)
                .and_then(|st| match &st.event {
                    Event::Check { stop_reason, .. } => Some(one_line(stop_reason, 24)),
                    _ => None,
                });
            // Name the stop reason where it fits.
            let text = at_check
                .map(|reason| say.outcome_stopped(&reason))
                .filter(|text| width_of(text) <= text_room)
                .unwrap_or_else(|| say.outcome_halted().to_owned());
            (text, theme::STOPPED)
        }
        Some(Outcome::RecordingEnded) => (say.outcome_recording_ended().to_owned(), theme::STOPPED),
        Some(Outcome::Ended(ending)) => (say.outcome_ended(ending), theme::STOPPED),
        Some(Outcome::Rejected(_)) | None => (say.outcome_rejected().to_owned(), theme::NONE),
    };
    let mut spans = vec![Span::styled(label, theme::LABEL), Span::styled(text, style)];
    spans.extend(goal);
    Line::from(spans)
}
