//! The loop as a small diagram: the current phase lit, the branch just
//! taken marked.
//!
//! ```text
//!    start
//! ╭▶ call ─ budget spent ▶ None
//! │   │
//! │  check ─ end_turn ─▶ answer
//! │   │ tool_use  other ▶ halt
//! │  dispatch
//! │   │
//! ╰─ append
//! ```
//!
//! The edge labels are the run's own stop reasons: `stop` and `tool_calls`
//! in an OpenAI Chat run. The exit that is no answer is `halt`, never
//! `stop`, which OpenAI uses for a finished answer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::engine::{Event, Mistake, Verdict};
use crate::narrate::Say;

use crate::text::one_line;
use crate::tui::app::App;
use crate::tui::theme;

/// Columns the diagram panel takes at least, borders included.
const MIN_WIDTH: u16 = 32;

/// Columns the diagram panel takes for a run: wider when the run's API has
/// longer names for its stop reasons.
pub fn width(say: Say) -> u16 {
    let widest = lines(say)
        .iter()
        .map(|parts| parts.iter().map(Part::width).sum::<usize>())
        .max()
        .unwrap_or(0);
    // Borders, and a column of air before the right one.
    MIN_WIDTH.max(widest as u16 + 3)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Start,
    Call,
    Check,
    Dispatch,
    Append,
    Answer,
    None,
    Halt,
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
    Edge(Edge, String),
}

impl Part {
    fn width(&self) -> usize {
        match self {
            Part::Plain(text) | Part::Node(_, text) => crate::text::width(text),
            Part::Edge(_, text) => crate::text::width(text),
        }
    }
}

fn lines(say: Say) -> [Vec<Part>; 8] {
    use Part::{Node as N, Plain as P};
    let e = |edge, text: &str| Part::Edge(edge, text.to_owned());
    [
        vec![P("   "), N(Node::Start, say.node_start())],
        vec![
            e(Edge::Loop, "╭▶ "),
            N(Node::Call, say.node_call()),
            e(Edge::ToNone, say.edge_budget()),
            N(Node::None, say.node_none()),
        ],
        vec![e(Edge::Loop, "│"), P("   │")],
        vec![
            e(Edge::Loop, "│"),
            P("  "),
            N(Node::Check, say.node_check()),
            e(Edge::ToAnswer, &say.edge_answer()),
            N(Node::Answer, say.node_answer()),
        ],
        vec![
            e(Edge::Loop, "│"),
            e(Edge::ToDispatch, &say.edge_tool()),
            e(Edge::ToStop, say.edge_other()),
            N(Node::Halt, say.node_halt()),
        ],
        vec![
            e(Edge::Loop, "│"),
            P("  "),
            N(Node::Dispatch, say.node_dispatch()),
        ],
        vec![e(Edge::Loop, "│"), P("   │")],
        vec![e(Edge::Loop, "╰─ "), N(Node::Append, say.node_append())],
    ]
}

/// Where the cursor is, and which arrow led there.
fn position(app: &App) -> (Node, Option<Edge>) {
    let step = app.step();
    match &step.event {
        Event::Start => (Node::Start, None),
        Event::Call { .. } => (Node::Call, (step.turn > 0).then_some(Edge::Loop)),
        // The mistaken loop goes from the call straight to its tools: the
        // check is the step it skips, so it is not lit.
        Event::Check {
            verdict: Verdict::Dispatch,
            ..
        } if app.config().mistake == Some(Mistake::DispatchBeforeCheck) => (Node::Dispatch, None),
        Event::Check { verdict, .. } => (
            Node::Check,
            Some(match verdict {
                Verdict::Dispatch => Edge::ToDispatch,
                Verdict::Answer => Edge::ToAnswer,
                Verdict::Continue => Edge::Loop,
                Verdict::Stop(_) => Edge::ToStop,
            }),
        ),
        Event::Dispatch { .. } => (Node::Dispatch, Some(Edge::ToDispatch)),
        Event::Append { .. } => (Node::Append, Some(Edge::ToDispatch)),
        // The client's own additions join the history where results do.
        Event::Inserted { .. } => (Node::Append, None),
        // The goal check stands between the check and the answer: met, it
        // leads there; missed, its push-back is appended and the loop turns.
        Event::GoalCheck { passed: true, .. } => (Node::Answer, Some(Edge::ToAnswer)),
        Event::GoalCheck { passed: false, .. } => (Node::Append, Some(Edge::Loop)),
        // A recorded harness's push-back likewise: appended, the loop turns.
        Event::PushedBack { .. } => (Node::Append, Some(Edge::Loop)),
        Event::Answer { .. } => (Node::Answer, Some(Edge::ToAnswer)),
        Event::BudgetExhausted { .. } => (Node::None, Some(Edge::ToNone)),
        Event::Stopped(_) | Event::RecordingEnded | Event::Ended(_) | Event::Rejected { .. } => {
            (Node::Halt, Some(Edge::ToStop))
        }
    }
}

/// How a piece of the diagram shows at a step. The handouts mark the same
/// pieces the screen lights, from this one reading of the diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A line or arrow the loop did not just take.
    Edge,
    /// A phase the cursor is not on.
    Node,
    /// The phase the cursor is on.
    Current,
    /// The arrow the loop just took.
    Taken,
}

/// The diagram's lines at the cursor's step, each as its pieces and marks.
pub fn marked(app: &App) -> Vec<Vec<(Mark, String)>> {
    let (current, taken) = position(app);
    lines(app.say())
        .into_iter()
        .map(|parts| {
            parts
                .into_iter()
                .map(|part| match part {
                    Part::Plain(text) => (Mark::Edge, text.to_owned()),
                    Part::Node(node, text) if node == current => (Mark::Current, text.to_owned()),
                    Part::Node(_, text) => (Mark::Node, text.to_owned()),
                    Part::Edge(edge, text) if Some(edge) == taken => (Mark::Taken, text),
                    Part::Edge(_, text) => (Mark::Edge, text),
                })
                .collect()
        })
        .collect()
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let say = app.say();
    let mut text: Vec<Line> = marked(app)
        .into_iter()
        .map(|parts| {
            let spans: Vec<Span> = parts
                .into_iter()
                .map(|(mark, text)| {
                    let style = match mark {
                        Mark::Edge => theme::EDGE,
                        Mark::Node => theme::NODE,
                        Mark::Current => theme::NODE_CURRENT,
                        Mark::Taken => theme::EDGE_TAKEN,
                    };
                    Span::styled(text, style)
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    // Below the diagram, where there is room: the turns so far, newest last.
    let room = (area.height as usize).saturating_sub(2 + text.len() + 2);
    if room > 0 {
        text.push(Line::raw(""));
        text.push(Line::styled(say.turns_so_far(), theme::LABEL));
        text.extend(turn_lines(app, room));
    }
    let block = Block::bordered()
        .border_style(theme::BORDER)
        .title(Span::styled(
            format!(" {} ", say.loop_title()),
            theme::TITLE,
        ));
    frame.render_widget(Paragraph::new(text).block(block), area);
}

/// One line for each of the last `room` turns reached so far: what the
/// check read and what followed. Costs what it shows: the turns' steps are
/// found by binary search, as turns only grow along the trace.
fn turn_lines(app: &App, room: usize) -> Vec<Line<'static>> {
    let say = app.say();
    let all = &app.trace().steps;
    let current = app.step().turn;
    let first = current.saturating_sub(room.saturating_sub(1) as u32);
    let start = all.partition_point(|s| s.turn < first);
    (first..=current)
        .map(|turn| {
            // The turn's steps in the whole trace; those reached so far.
            let from = start + all[start..].partition_point(|s| s.turn < turn);
            let to = from + all[from..].partition_point(|s| s.turn <= turn);
            let whole = &all[from..to];
            let reached = &all[from..to.min(app.cursor() + 1)];
            // The tools the reply asked for, dispatched yet or not.
            let tools = whole
                .iter()
                .filter(|s| matches!(s.event, Event::Dispatch { .. }))
                .count();
            let checked = reached.iter().find_map(|s| match &s.event {
                Event::Check {
                    stop_reason,
                    verdict,
                } => Some((stop_reason.as_str(), verdict)),
                _ => None,
            });
            let exit = reached
                .iter()
                .find(|s| s.event.phase().is_exit())
                .map(|s| &s.event);
            let pushed_back = reached
                .iter()
                .any(|s| matches!(s.event, Event::GoalCheck { passed: false, .. }));
            let what = match (checked, exit) {
                // The last turn's tools ran; then the budget was spent.
                (Some((stop, Verdict::Dispatch)), Some(Event::BudgetExhausted { .. })) => {
                    format!("{} → None", say.turn_tools(stop, tools))
                }
                (_, Some(Event::BudgetExhausted { .. })) => say.turn_budget().to_owned(),
                (Some((stop, Verdict::Answer)), _) if pushed_back => say.turn_not_done(stop),
                (Some((stop, Verdict::Dispatch)), _) => say.turn_tools(stop, tools),
                (Some((stop, Verdict::Continue)), _) => say.turn_continue(stop),
                (Some((stop, Verdict::Answer)), _) => say.turn_answer(stop),
                (Some((stop, Verdict::Stop { .. })), _) => say.turn_stop(stop),
                (None, Some(exit)) => exit.phase().as_str().to_owned(),
                (None, None) if app.cursor() == 0 => say.turn_start().to_owned(),
                (None, None) => say.turn_calling().to_owned(),
            };
            let style = if turn == current {
                theme::TITLE
            } else {
                theme::LABEL
            };
            Line::styled(
                one_line(&say.turn_line(turn, &what), width(say) as usize - 2),
                style,
            )
        })
        .collect()
}
