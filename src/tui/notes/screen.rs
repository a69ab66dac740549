//! `loopstep notes LESSON`: the teacher's screen beside the class's. For
//! the presenter's step: the scene and the time, the notes for the step,
//! and what comes next with its caption, so that the teacher can say it
//! before the class sees it.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use crossterm::event::{Event as TermEvent, KeyCode};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::listen::Heard;
use super::{Where, now};
use crate::dialect::Dialect;
use crate::lesson::Resolved;
use crate::narrate::Say;
use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::extents::Extents;
use crate::tui::keymap::{Binding, CTRL_C, ch, key, look_up, one, words};
use crate::tui::runtime::{Effect, Msg, Screen, Ticking};
use crate::tui::settings::Settings;
use crate::tui::theme::{self, Look};
use crate::tui::view::caption_text;

/// The notes screen's keys: it only quits.
const KEYS: &[Binding<()>] = &[one(&[ch('q'), key(KeyCode::Esc), CTRL_C], (), words::QUIT)];

/// How often the screen takes what it heard: well within the 100 ms a
/// listener has to follow the presenter.
const FOLLOW: Duration = Duration::from_millis(20);

pub struct NotesScreen {
    lesson: Resolved,
    heard: Receiver<Heard>,
    at: Option<Where>,
    /// The scene's run under the presenter's settings, on the step after
    /// the presenter's: the caption to come.
    next: Option<App>,
    look: Look,
    settings: Settings,
}

impl NotesScreen {
    pub fn new(lesson: Resolved, heard: Receiver<Heard>, settings: Settings) -> Self {
        NotesScreen {
            lesson,
            heard,
            at: None,
            next: None,
            look: Look {
                theme: settings.theme,
                monochrome: settings.monochrome,
            },
            settings,
        }
    }

    /// Where the presenter was last heard to be.
    pub fn at(&self) -> Option<&Where> {
        self.at.as_ref()
    }

    /// Takes in where the presenter is now.
    fn heard(&mut self, heard: Heard) {
        let Heard::At(at) = heard else {
            self.at = None;
            self.next = None;
            return;
        };
        let Some(scene) = self.lesson.scenes.get(at.scene) else {
            return;
        };
        let settings = Settings {
            lang: at.lang(),
            max_turns: std::num::NonZeroU32::new(at.max_turns),
            check: at.check(),
            mistake: at.mistake(),
            dialect: at.dialect(),
            autoplay: false,
            step: Some(at.step.saturating_add(2)),
            ..self.settings
        };
        self.next = Some(App::new(&scene.runs, scene.index, settings));
        self.at = Some(at);
    }

    fn lines(&self, say: Say) -> Vec<Line<'static>> {
        let Some(at) = &self.at else {
            return vec![Line::styled(say.notes_waiting(), theme::LABEL)];
        };
        let scene = &self.lesson.scenes[at.scene];
        let lang = at.lang();
        let mut lines = Vec::new();
        if at.card {
            lines.push(Line::styled(say.notes_on_card(), theme::TITLE));
            let card = scene.card.as_ref().map_or("", |c| c.get(lang));
            lines.extend(card.lines().map(|l| Line::styled(sanitize(l), theme::TEXT)));
            return lines;
        }
        let notes: Vec<&str> = scene
            .notes
            .iter()
            .filter(|(step, _)| *step == at.step)
            .map(|(_, text)| text.get(lang))
            .collect();
        lines.push(Line::styled(say.notes_now(at.step), theme::TITLE));
        if notes.is_empty() {
            lines.push(Line::styled(say.notes_none(), theme::LABEL));
        }
        for note in notes {
            lines.extend(
                note.lines()
                    .map(|l| Line::styled(sanitize(l), theme::REMARK)),
            );
        }
        lines.push(Line::raw(""));
        match &self.next {
            Some(next) if next.cursor() > at.step => {
                let step = next.step();
                let heading = say.notes_next(next.cursor(), step.turn, step.event.phase());
                lines.push(Line::styled(heading, theme::TITLE));
                lines.push(Line::styled(sanitize(&caption_text(next)), theme::TEXT));
            }
            _ => lines.push(Line::styled(say.notes_last(), theme::LABEL)),
        }
        lines
    }
}

impl Screen for NotesScreen {
    fn draw(&self, frame: &mut Frame) -> Option<Extents> {
        let lang = self.at.as_ref().map_or(self.settings.lang, Where::lang);
        let say = Say::new(lang, Dialect::default());
        let [top, body, bottom] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let title = sanitize(self.lesson.title.get(lang));
        let head = match &self.at {
            Some(at) => say.notes_title(
                &title,
                (at.scene, self.lesson.scenes.len()),
                now().saturating_sub(at.started),
            ),
            None => say.notes_title_waiting(&title),
        };
        frame.render_widget(Paragraph::new(head).style(theme::TITLE_BAR), top);
        frame.render_widget(
            Paragraph::new(self.lines(say)).wrap(Wrap { trim: false }),
            body,
        );
        frame.render_widget(Paragraph::new(say.notes_keys()).style(theme::LABEL), bottom);
        self.look.apply(frame.buffer_mut());
        None
    }

    fn update(&mut self, msg: Msg) -> Effect {
        match msg {
            Msg::Term(TermEvent::Key(key)) if look_up(KEYS, key).is_some() => {
                return Effect::Quit;
            }
            Msg::Tick => {
                while let Ok(heard) = self.heard.try_recv() {
                    self.heard(heard);
                }
            }
            _ => {}
        }
        Effect::Stay
    }

    fn ticking(&self) -> Option<Ticking> {
        Some(Ticking {
            every: FOLLOW,
            at: (0, "notes"),
        })
    }
}
