//! The loop as a small diagram: the current phase lit, the branch just
//! taken marked.
//!
//! ```text
//! ╭▶ call ─ budget spent ▶ None
//! │   │
//! │  check ─ end_turn ──▶ answer
//! │   │ tool_use  other ▶ stop
//! │  dispatch
//! │   │
//! ╰─ append
//! ```

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::engine::{Event, Verdict};
use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::strings as s;
use crate::tui::theme;

/// Columns the diagram panel takes, borders included.
pub const WIDTH: u16 = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Call,
    Check,
    Dispatch,
    Append,
    Answer,
    None,
    Stop,
}

/// The arrows that can be marked as just taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// append (or a paused check) back to call.
    Loop,
    ToNone,
    ToAnswer,
    ToDispatch,
    ToStop,
}

/// One piece of a diagram line: plain, a node, or an edge.
enum Part {
    Plain(&'static str),
    Node(Node, &'static str),
    Edge(Edge, &'static str),
}

fn lines() -> [Vec<Part>; 7] {
    use Part::{Edge as E, Node as N, Plain as P};
    [
        vec![
            E(Edge::Loop, "╭▶ "),
            N(Node::Call, s::NODE_CALL),
            E(Edge::ToNone, s::EDGE_BUDGET),
            N(Node::None, s::NODE_NONE),
        ],
        vec![E(Edge::Loop, "│"), P("   │")],
        vec![
            E(Edge::Loop, "│"),
            P("  "),
            N(Node::Check, s::NODE_CHECK),
            E(Edge::ToAnswer, s::EDGE_ANSWER),
            N(Node::Answer, s::NODE_ANSWER),
        ],
        vec![
            E(Edge::Loop, "│"),
            E(Edge::ToDispatch, s::EDGE_TOOL),
            E(Edge::ToStop, s::EDGE_OTHER),
            N(Node::Stop, s::NODE_STOP),
        ],
        vec![
            E(Edge::Loop, "│"),
            P("  "),
            N(Node::Dispatch, s::NODE_DISPATCH),
        ],
        vec![E(Edge::Loop, "│"), P("   │")],
        vec![E(Edge::Loop, "╰─ "), N(Node::Append, s::NODE_APPEND)],
    ]
}

/// Where the cursor is, and which arrow led there.
fn position(app: &App) -> (Node, Option<Edge>) {
    let step = app.step();
    match &step.event {
        Event::Call { .. } => (Node::Call, (step.turn > 0).then_some(Edge::Loop)),
        Event::Check { verdict, .. } => (
            Node::Check,
            Some(match verdict {
                Verdict::Dispatch => Edge::ToDispatch,
                Verdict::Answer => Edge::ToAnswer,
                Verdict::Continue => Edge::Loop,
                Verdict::Stop { .. } => Edge::ToStop,
            }),
        ),
        Event::Dispatch { .. } => (Node::Dispatch, Some(Edge::ToDispatch)),
        Event::Append { .. } => (Node::Append, Some(Edge::ToDispatch)),
        // The client's own additions join the history where results do.
        Event::Inserted { .. } => (Node::Append, None),
        Event::Answer { .. } => (Node::Answer, Some(Edge::ToAnswer)),
        Event::BudgetExhausted { .. } => (Node::None, Some(Edge::ToNone)),
        Event::Stopped { .. } | Event::RecordingEnded | Event::Rejected { .. } => {
            (Node::Stop, Some(Edge::ToStop))
        }
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let (current, taken) = position(app);
    let mut text: Vec<Line> = lines()
        .into_iter()
        .map(|parts| {
            let spans: Vec<Span> = parts
                .into_iter()
                .map(|part| match part {
                    Part::Plain(text) => Span::styled(text, theme::EDGE),
                    Part::Node(node, text) if node == current => {
                        Span::styled(text, theme::NODE_CURRENT)
                    }
                    Part::Node(_, text) => Span::styled(text, theme::NODE),
                    Part::Edge(edge, text) if Some(edge) == taken => {
                        Span::styled(text, theme::EDGE_TAKEN)
                    }
                    Part::Edge(_, text) => Span::styled(text, theme::EDGE),
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    // Below the diagram, where there is room: the turns so far, newest last.
    let room = (area.height as usize).saturating_sub(2 + text.len() + 2);
    if room > 0 {
        text.push(Line::raw(""));
        text.push(Line::styled(s::TURNS_SO_FAR, theme::LABEL));
        let turns = turn_lines(app);
        let skip = turns.len().saturating_sub(room);
        text.extend(turns.into_iter().skip(skip));
    }
    let block = Block::bordered()
        .border_style(theme::BORDER)
        .title(Span::styled(format!(" {} ", s::LOOP_TITLE), theme::TITLE));
    frame.render_widget(Paragraph::new(text).block(block), area);
}

/// One line per turn reached so far: what the check read and what followed.
fn turn_lines(app: &App) -> Vec<Line<'static>> {
    let steps = &app.trace().steps[..=app.cursor()];
    let current = app.step().turn;
    let last = steps.last().map_or(0, |s| s.turn);
    (0..=last)
        .map(|turn| {
            let in_turn = || steps.iter().filter(move |s| s.turn == turn);
            let tools = in_turn()
                .filter(|s| matches!(s.event, Event::Dispatch { .. }))
                .count();
            let checked = in_turn().find_map(|s| match &s.event {
                Event::Check {
                    stop_reason,
                    verdict,
                } => Some((stop_reason.as_str(), verdict)),
                _ => None,
            });
            let exit = in_turn()
                .find(|s| s.event.phase().is_exit())
                .map(|s| &s.event);
            let what = match (checked, exit) {
                (_, Some(Event::BudgetExhausted { .. })) => s::turn_budget(),
                (Some((stop, Verdict::Dispatch)), _) => s::turn_tools(stop, tools),
                (Some((stop, Verdict::Continue)), _) => s::turn_continue(stop),
                (Some((stop, Verdict::Answer)), _) => s::turn_answer(stop),
                (Some((stop, Verdict::Stop { .. })), _) => s::turn_stop(stop),
                (None, Some(exit)) => exit.phase().as_str().to_owned(),
                (None, None) => s::TURN_CALLING.to_owned(),
            };
            let style = if turn == current {
                theme::TITLE
            } else {
                theme::LABEL
            };
            Line::styled(
                one_line(&s::turn_line(turn, &what), WIDTH as usize - 2),
                style,
            )
        })
        .collect()
}
