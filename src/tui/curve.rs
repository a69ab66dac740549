//! The sweep's curve as a screen (`loopstep sweep --play`): a row per
//! budget with its bar of runs answered; Enter on a budget lists the runs
//! it cuts (those that return `None` under it); Enter on one of them opens
//! it on the run screen under that budget; Esc goes back.

use std::io::{self, IsTerminal};
use std::num::NonZeroU32;

use anyhow::{Context, bail};
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::{self, Look};
use super::{App, EventSource, Settings, TakenTerminal, TerminalEvents, run_app};
use crate::dialect::Dialect;
use crate::narrate::{Say, Trouble};
use crate::sweep::{Curve, Ending, RunEnd};
use crate::text::{one_line, sanitize};
use crate::transcript::{Localized, Opening};

/// What the curve screen shows, and where its cursor is.
pub struct CurveView<'a> {
    curve: &'a Curve,
    runs: &'a [RunEnd],
    say: Say,
    /// The budget row the cursor is on.
    row: usize,
    /// The runs the chosen budget cuts, and the one the cursor is on.
    cut: Option<(usize, Vec<usize>, usize)>,
    pub quit: bool,
}

/// A run to open under a budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Open {
    pub file: String,
    pub run: String,
    pub max_turns: u32,
}

impl<'a> CurveView<'a> {
    pub fn new(curve: &'a Curve, runs: &'a [RunEnd], say: Say) -> Self {
        CurveView {
            curve,
            runs,
            say,
            row: 0,
            cut: None,
            quit: false,
        }
    }

    /// A key: moves, opens a list, or names a run to open.
    pub fn key(&mut self, key: KeyEvent) -> Option<Open> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let down = matches!(key.code, KeyCode::Down | KeyCode::Char('j'));
        let up = matches!(key.code, KeyCode::Up | KeyCode::Char('k'));
        // Ctrl-C quits here as on every screen.
        let interrupt =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        match (&mut self.cut, key.code) {
            _ if interrupt => self.quit = true,
            (_, KeyCode::Char('q')) => self.quit = true,
            (None, KeyCode::Esc) => self.quit = true,
            (Some(_), KeyCode::Esc | KeyCode::Backspace | KeyCode::Left) => self.cut = None,
            (None, _) if down => {
                self.row = (self.row + 1).min(self.curve.points.len().saturating_sub(1))
            }
            (None, _) if up => self.row = self.row.saturating_sub(1),
            (None, KeyCode::Enter | KeyCode::Right) => {
                let budget = self.curve.points.get(self.row)?.max_turns;
                let cut = (0..self.runs.len())
                    .filter(|&k| self.runs[k].under(budget) == Ending::Never)
                    .collect();
                self.cut = Some((self.row, cut, 0));
            }
            (Some((_, runs, at)), _) if down => *at = (*at + 1).min(runs.len().saturating_sub(1)),
            (Some((_, _, at)), _) if up => *at = at.saturating_sub(1),
            (Some((row, runs, at)), KeyCode::Enter | KeyCode::Right) => {
                let run = &self.runs[*runs.get(*at)?];
                return Some(Open {
                    file: run.file.clone(),
                    run: run.run.clone(),
                    max_turns: self.curve.points[*row].max_turns,
                });
            }
            _ => {}
        }
        None
    }

    pub fn draw(&self, frame: &mut Frame) {
        let say = self.say;
        let [title, body, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let width = usize::from(frame.area().width);
        let height = usize::from(body.height);
        let (heading, count, selected, footer) = match &self.cut {
            None => (
                say.sweep_view_title(self.curve.runs),
                self.curve.points.len(),
                self.row,
                say.sweep_view_keys(),
            ),
            Some((row, runs, at)) => {
                let budget = self.curve.points[*row].max_turns;
                (
                    say.sweep_view_cuts(runs.len(), budget),
                    runs.len(),
                    *at,
                    say.sweep_view_run_keys(budget),
                )
            }
        };
        // Only the rows in view are written out, the cursor's among them.
        let header = usize::from(self.cut.is_none());
        let room = height.saturating_sub(header).max(1);
        let first = selected.saturating_sub(room - 1);
        let row_text = |k: usize| match &self.cut {
            None => {
                let p = &self.curve.points[k];
                let bar = crate::sweep::bar(p.answered, self.curve.runs, 30);
                let own = if p.own > 0 { " ◆" } else { "" };
                format!(
                    "{:>9}  {:>8}  {:>6}  {:>6}  {:>6}  {bar}{own}",
                    p.max_turns, p.answered, p.none, p.halted, p.ended
                )
            }
            Some((_, runs, _)) => {
                let run = &self.runs[runs[k]];
                // Names from the files themselves: made safe for a terminal.
                let (name, file) = (sanitize(&run.run), sanitize(&run.file));
                say.sweep_view_run(run.needs, run.ending.label(), &name, &file)
            }
        };
        frame.render_widget(
            Paragraph::new(one_line(&heading, width)).style(theme::TITLE_BAR),
            title,
        );
        let mut shown: Vec<Line> = Vec::new();
        if header == 1 {
            shown.push(Line::styled(crate::sweep::header(say), theme::LABEL));
        }
        for k in first..count.min(first + room) {
            let style = if k == selected {
                theme::NODE_CURRENT
            } else {
                theme::TEXT
            };
            shown.push(Line::from(Span::styled(
                one_line(&row_text(k), width),
                style,
            )));
        }
        frame.render_widget(Paragraph::new(shown), body);
        frame.render_widget(
            Paragraph::new(one_line(&footer, width)).style(theme::LABEL),
            keys,
        );
    }
}

/// The curve screen, until the user quits; a run opened from it shows on
/// the run screen, and Esc or q there comes back.
pub fn play_curve(
    curve: &Curve,
    runs: &[RunEnd],
    settings: Settings,
    max_size: u64,
) -> anyhow::Result<()> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        bail!(Trouble::NeedsTerminal {
            what: "sweep".to_owned()
        });
    }
    let mut taken = TakenTerminal::take(settings.mouse)?;
    let say = Say::new(settings.lang, Dialect::default());
    let look = Look {
        theme: settings.theme,
        monochrome: settings.monochrome,
    };
    let mut view = CurveView::new(curve, runs, say);
    let mut events = TerminalEvents;
    while !view.quit {
        taken
            .terminal
            .draw(|frame| {
                view.draw(frame);
                look.apply(frame.buffer_mut());
            })
            .context(Trouble::WriteTerminal)?;
        let Some(TermEvent::Key(key)) = events.next_event().context(Trouble::ReadTerminal)? else {
            continue;
        };
        let Some(open) = view.key(key) else {
            continue;
        };
        // A file that no longer reads as it did is passed over.
        let opening = Opening {
            max_size,
            ..Opening::default()
        };
        let Ok(opened) = Localized::open(&open.file, &opening) else {
            continue;
        };
        let Some(index) = opened
            .iter()
            .position(|r| r.get(settings.lang).id == open.run)
        else {
            continue;
        };
        let settings = Settings {
            max_turns: NonZeroU32::new(open.max_turns),
            ..settings
        };
        let mut app = App::new(&opened, index, settings);
        run_app(&mut taken.terminal, &mut app, &mut events)?;
    }
    Ok(())
}
