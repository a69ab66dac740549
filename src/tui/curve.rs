//! The sweep's curve as a screen (`loopstep sweep --play`): a row per
//! budget with its bar of runs answered; Enter on a budget lists the runs
//! it cuts (those that return `None` under it); Enter on one of them opens
//! it on the run screen under that budget; Esc goes back.

use std::num::NonZeroU32;

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::extents::Extents;
use super::keymap::{Binding, CTRL_C, ch, key, look_up, one, pair, words};
use super::runtime::{Effect, Msg, Screen, run_screen};
use super::theme::{self, Look};
use super::{App, Settings, TakenTerminal, TerminalEvents};
use crate::dialect::Dialect;
use crate::narrate::{Say, Tr};
use crate::sweep::{Curve, Fate, RunEnd};
use crate::text::{one_line, sanitize};
use crate::transcript::{Localized, Opening};

/// Everything the curve screen can be asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveAction {
    Down,
    Up,
    /// On a budget, the runs it cuts; on one of them, that run.
    Open,
    /// Back to the budgets.
    Back,
    /// Esc: back to the budgets, or quit from them.
    Leave,
    Quit,
}

/// The curve screen's keys, in the shape of the other screens' tables.
pub const BINDINGS: &[Binding<CurveAction>] = &[
    pair(
        &[key(KeyCode::Down), ch('j')],
        CurveAction::Down,
        &[key(KeyCode::Up), ch('k')],
        CurveAction::Up,
        Tr {
            en: "next / previous row",
            zh: "下一行 / 上一行",
        },
    ),
    one(
        &[key(KeyCode::Enter), key(KeyCode::Right)],
        CurveAction::Open,
        Tr {
            en: "the runs a budget cuts; on a run, open it under that budget",
            zh: "某个预算截断的运行；在一条运行上：按这个预算打开它",
        },
    ),
    one(
        &[key(KeyCode::Backspace), key(KeyCode::Left)],
        CurveAction::Back,
        Tr {
            en: "back to the budgets",
            zh: "回到预算列表",
        },
    ),
    one(
        &[key(KeyCode::Esc)],
        CurveAction::Leave,
        Tr {
            en: "back to the budgets, or quit from them",
            zh: "回到预算列表；已在列表时退出",
        },
    ),
    one(&[ch('q'), CTRL_C], CurveAction::Quit, words::QUIT),
];

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
        use CurveAction as A;
        let action = look_up(BINDINGS, key)?;
        match (&mut self.cut, action) {
            (_, A::Quit) | (None, A::Leave) => self.quit = true,
            (Some(_), A::Leave | A::Back) => self.cut = None,
            (None, A::Back) => {}
            (None, A::Down) => {
                self.row = (self.row + 1).min(self.curve.points.len().saturating_sub(1))
            }
            (None, A::Up) => self.row = self.row.saturating_sub(1),
            (None, A::Open) => {
                let budget = self.curve.points.get(self.row)?.max_turns;
                let cut = (0..self.runs.len())
                    .filter(|&k| self.runs[k].under(budget) == Fate::Never)
                    .collect();
                self.cut = Some((self.row, cut, 0));
            }
            (Some((_, runs, at)), A::Down) => *at = (*at + 1).min(runs.len().saturating_sub(1)),
            (Some((_, _, at)), A::Up) => *at = at.saturating_sub(1),
            (Some((row, runs, at)), A::Open) => {
                let run = &self.runs[*runs.get(*at)?];
                return Some(Open {
                    file: run.file.clone(),
                    run: run.run.clone(),
                    max_turns: self.curve.points[*row].max_turns,
                });
            }
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

/// The curve as a screen: a run named on it opens over it, on the run
/// screen under that budget; Esc or q there comes back.
pub struct CurveScreen<'a> {
    pub view: CurveView<'a>,
    settings: Settings,
    max_size: u64,
    look: Look,
}

impl Screen for CurveScreen<'_> {
    fn draw(&self, frame: &mut Frame) -> Option<Extents> {
        self.view.draw(frame);
        self.look.apply(frame.buffer_mut());
        None
    }

    fn update(&mut self, msg: Msg) -> Effect {
        let Msg::Term(TermEvent::Key(key)) = msg else {
            return Effect::Stay;
        };
        let open = self.view.key(key);
        if self.view.quit {
            return Effect::Quit;
        }
        open.and_then(|open| self.app_on(&open))
            .map_or(Effect::Stay, |app| Effect::Open(Box::new(app)))
    }
}

impl<'a> CurveScreen<'a> {
    /// The curve of `runs` on a screen with `settings`; a run opened from
    /// it is read again, refused past `max_size`.
    pub fn new(curve: &'a Curve, runs: &'a [RunEnd], settings: Settings, max_size: u64) -> Self {
        CurveScreen {
            view: CurveView::new(curve, runs, Say::new(settings.lang, Dialect::default())),
            settings,
            max_size,
            look: Look {
                theme: settings.theme,
                monochrome: settings.monochrome,
            },
        }
    }

    /// The run screen on the run `open` names, under its budget; none when
    /// its file no longer reads as it did.
    fn app_on(&self, open: &Open) -> Option<App> {
        let opening = Opening {
            max_size: self.max_size,
            ..Opening::default()
        };
        let opened = Localized::open(&open.file, &opening).ok()?;
        let index = opened
            .iter()
            .position(|r| r.get(self.settings.lang).id == open.run)?;
        let settings = Settings {
            max_turns: NonZeroU32::new(open.max_turns),
            ..self.settings
        };
        Some(App::new(&opened, index, settings))
    }
}

/// The curve screen, until the user quits.
pub fn play_curve(
    curve: &Curve,
    runs: &[RunEnd],
    settings: Settings,
    max_size: u64,
) -> anyhow::Result<()> {
    super::needs_terminal("sweep")?;
    let mut taken = TakenTerminal::take(settings.mouse)?;
    let mut screen = CurveScreen::new(curve, runs, settings, max_size);
    run_screen(&mut taken.terminal, &mut screen, &mut TerminalEvents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_has_help_and_no_key_is_bound_twice() {
        crate::tui::keymap::check_table(BINDINGS);
    }
}
