//! `loopstep present LESSON`: a lesson's scenes, one after another, on the
//! run screen. Each scene opens under the lesson's settings, on its title
//! card first where it has one; `]` / `[` (and PageDown / PageUp, which a
//! presenter's clicker sends) go to the next / previous scene; inside a
//! scene the run screen's keys work as ever, and what they change (`-` to
//! see None) stays until the scene is left; `r` brings the lesson's
//! settings back.

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::app::App;
use super::extents::Extents;
use super::keymap::{Binding, CTRL_C, ch, key, look_up, one, pair, words};
use super::runtime::{Effect, Msg, Screen};
use super::settings::Settings;
use super::theme::{self, Look};
use crate::dialect::Dialect;
use crate::lesson::Resolved;
use crate::narrate::{Say, Tr};
use crate::text::sanitize;

pub struct Present {
    lesson: Resolved,
    /// The scene on screen (0-based).
    scene: usize,
    /// Its title card is up, before its run.
    card: bool,
    app: App,
    /// How the presenter opened it: the look, the quiz, the lens.
    base: Settings,
    /// Where the notes screen hears where the presenter is.
    #[cfg(unix)]
    publisher: Option<super::notes::Publisher>,
    /// When the presentation started (seconds since the Unix epoch).
    #[cfg(unix)]
    started: u64,
    /// The lesson's file, where `i` writes a note.
    file: Option<std::path::PathBuf>,
    /// The note being typed, after `i`.
    typing: Option<String>,
    /// What the last note's saving came to, until the next key.
    said: Option<String>,
}

/// How often a presenter that publishes its notes takes new listeners
/// while nothing else happens.
#[cfg(unix)]
const TAKE_LISTENERS: std::time::Duration = std::time::Duration::from_millis(50);

/// What a key asks of the lesson, before the scene's run sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    NextScene,
    PrevScene,
    /// The lesson's settings for this scene again, on the same step.
    Restore,
    /// A note for this step, typed and saved into the lesson file.
    Note,
    /// On a title card: the run.
    Open,
    Quit,
}

/// The lesson's own keys, which come before the run screen's: in the
/// shape of every screen's table, feeding the help too.
pub const BINDINGS: &[Binding<Move>] = &[
    pair(
        &[ch(']'), key(KeyCode::PageDown)],
        Move::NextScene,
        &[ch('['), key(KeyCode::PageUp)],
        Move::PrevScene,
        Tr {
            en: "next / previous scene of the lesson (turns: n / p)",
            zh: "课程的下一幕 / 上一幕（按轮跳转：n / p）",
        },
    ),
    one(
        &[ch('r')],
        Move::Restore,
        Tr {
            en: "the lesson's settings for this scene again, on this step",
            zh: "在这一步恢复课程为这一幕设定的设置",
        },
    ),
    one(
        &[ch('i')],
        Move::Note,
        Tr {
            en: "write a note for this step into the lesson file",
            zh: "为这一步写一条讲稿，存入课程文件",
        },
    ),
];

/// On a title card, the keys that open its run, and those that quit.
const CARD: &[Binding<Move>] = &[
    one(
        &[key(KeyCode::Right), ch('l'), ch(' '), key(KeyCode::Enter)],
        Move::Open,
        Tr {
            en: "open the scene's run",
            zh: "打开这一幕",
        },
    ),
    one(
        &[ch('q'), key(KeyCode::Esc), CTRL_C],
        Move::Quit,
        words::QUIT,
    ),
];

impl Present {
    /// The lesson's first scene, its card first; `base` holds the flags
    /// the presenter gave (the language until a scene sets its own).
    pub fn new(lesson: Resolved, base: Settings) -> Self {
        let app = scene_app(&lesson, 0, base, None);
        let card = lesson.scenes[0].card.is_some();
        Present {
            lesson,
            scene: 0,
            card,
            app,
            base,
            #[cfg(unix)]
            publisher: None,
            #[cfg(unix)]
            started: super::notes::now(),
            file: None,
            typing: None,
            said: None,
        }
    }

    /// The same, `i` writing a note at the step on screen into `file`.
    pub fn writing_notes_to(mut self, file: &std::path::Path) -> Self {
        self.file = Some(file.to_owned());
        self
    }

    /// Saves `note` at the step on screen into the lesson's file, through
    /// the writer every file goes through; and into this presentation's
    /// copy of the lesson, so that an export from it would hold it.
    fn save_note(&mut self, note: String) -> String {
        let say = self.app.say();
        let Some(file) = self.file.clone() else {
            return String::new();
        };
        let step = self.app.step();
        let at = crate::lesson::StepName::Phase {
            turn: step.turn,
            phase: step.event.phase().as_str().to_owned(),
        };
        let shown = crate::transcript::shown_path(&file);
        // The lesson reads its steps under the scene's own settings: a note
        // at a step those settings do not reach, or reach elsewhere (after
        // `-`, `m` or `c`), would not load where it was written.
        let own = crate::lesson::scene_steps(&self.lesson.scenes[self.scene]);
        if crate::lesson::find_step(&own, &at) != Some(self.app.cursor()) {
            return say.note_off_lesson();
        }
        let written = std::fs::read_to_string(&file)
            .ok()
            .and_then(|text| crate::lesson::with_note(&text, self.scene, &at, &note))
            .ok_or_else(|| say.note_not_saved(&shown))
            .and_then(|text| {
                let output =
                    crate::write_file::OutputFile::check(std::path::Path::new(""), &file, true)
                        .map_err(|refusal| say.refusal(&refusal))?;
                output
                    .write(|out| out.write_all(text.as_bytes()))
                    .map_err(|error| say.note_not_written(&shown, &error.to_string()))
            });
        match written {
            Ok(()) => {
                let cursor = self.app.cursor();
                self.lesson.scenes[self.scene]
                    .notes
                    .push((cursor, crate::lesson::Text::Same(note)));
                say.note_saved(&at.to_string(), &shown)
            }
            Err(why) => why,
        }
    }

    /// A key while a note is typed: its text, Enter to save, Esc to drop.
    fn typed(&mut self, key: KeyEvent) -> Effect {
        let Some(typing) = &mut self.typing else {
            return Effect::Stay;
        };
        if key.kind == KeyEventKind::Release {
            return Effect::Stay;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => return Effect::Quit,
            // A note is a line, and a long one at that: no more.
            KeyCode::Char(c) if !ctrl && typing.chars().count() < 500 => typing.push(c),
            KeyCode::Backspace => {
                typing.pop();
            }
            KeyCode::Esc => self.typing = None,
            KeyCode::Enter => {
                let note = self.typing.take().unwrap_or_default();
                if !note.trim().is_empty() {
                    self.said = Some(self.save_note(note.trim().to_owned()));
                }
            }
            _ => {}
        }
        Effect::Stay
    }

    /// The same, telling the notes screen where it is through `publisher`.
    #[cfg(unix)]
    pub fn publishing(mut self, publisher: super::notes::Publisher) -> Self {
        self.publisher = Some(publisher);
        self.publish();
        self
    }

    /// Tells the listeners where the presenter is now.
    #[cfg(unix)]
    fn publish(&mut self) {
        let at = super::notes::Where::new(
            self.scene,
            self.card,
            self.app.cursor(),
            self.app.lang,
            self.app.config(),
            self.started,
        );
        if let Some(publisher) = &mut self.publisher {
            publisher.publish(&at);
        }
    }

    /// The scene on screen (0-based), and whether its card is up.
    pub fn at(&self) -> (usize, bool) {
        (self.scene, self.card)
    }

    pub fn app(&self) -> &App {
        &self.app
    }

    /// The presenter's settings as they are now: the flags given, with the
    /// language and colours switched to since, which carry to every scene.
    fn presenters(&self) -> Settings {
        Settings {
            lang: self.app.lang,
            theme: self.app.theme(),
            ..self.base
        }
    }

    /// Opens scene `scene`, its card first when `card` and it has one.
    fn open(&mut self, scene: usize, card: bool) {
        self.app = scene_app(&self.lesson, scene, self.presenters(), None);
        self.scene = scene;
        self.card = card && self.lesson.scenes[scene].card.is_some();
    }

    fn moved(&mut self, to: Move) {
        let last = self.lesson.scenes.len() - 1;
        match to {
            Move::NextScene if self.scene < last => self.open(self.scene + 1, true),
            Move::PrevScene if self.card && self.scene > 0 => self.open(self.scene - 1, false),
            // Back from a run goes to its own card, where it has one.
            Move::PrevScene if !self.card && self.lesson.scenes[self.scene].card.is_some() => {
                self.open(self.scene, true)
            }
            Move::PrevScene if self.scene > 0 => self.open(self.scene - 1, false),
            Move::Restore if !self.card => {
                let step = self.app.cursor();
                self.app = scene_app(&self.lesson, self.scene, self.presenters(), Some(step));
            }
            _ => {}
        }
    }
}

/// The run screen on every scene of `lesson`, each at its start, for a
/// handout of the whole lesson.
pub fn scene_apps(lesson: &Resolved, base: Settings) -> Vec<App> {
    (0..lesson.scenes.len())
        .map(|scene| {
            scene_app(
                lesson,
                scene,
                Settings {
                    autoplay: false,
                    ..base
                },
                Some(0),
            )
        })
        .collect()
}

/// The run screen on scene `scene` of `lesson`, under the lesson's
/// settings over `base`; on `step` (0-based) when given, else where the
/// scene opens.
fn scene_app(lesson: &Resolved, scene: usize, base: Settings, step: Option<usize>) -> App {
    let s = &lesson.scenes[scene];
    let settings = Settings {
        max_turns: s.max_turns,
        dialect: s.dialect,
        check: s.check.unwrap_or(base.check),
        mistake: s.mistake,
        lang: s.lang.unwrap_or(base.lang),
        autoplay: s.autoplay.is_some() || base.autoplay,
        step: step.or(s.open_at).map(|n| n + 1),
        ..base
    };
    let app = App::new(&s.runs, s.index, settings)
        .in_scene((scene, lesson.scenes.len()), s.remarks.clone());
    match s.autoplay {
        Some(pace) => app.at_pace(pace),
        None => app,
    }
}

impl Screen for Present {
    fn draw(&self, frame: &mut Frame) -> Option<Extents> {
        if !self.card {
            let extents = self.app.draw(frame);
            // The note being typed, or what its saving came to, over the
            // key bar.
            let say = self.app.say();
            let line = match (&self.typing, &self.said) {
                (Some(typed), _) => Some(say.note_prompt(&sanitize(typed))),
                (None, Some(said)) => Some(said.clone()),
                (None, None) => None,
            };
            if let Some(line) = line {
                let area = frame.area();
                let bottom = ratatui::layout::Rect {
                    y: area.bottom().saturating_sub(1),
                    height: 1.min(area.height),
                    ..area
                };
                frame.render_widget(ratatui::widgets::Clear, bottom);
                frame.render_widget(Paragraph::new(line).style(theme::TITLE_BAR), bottom);
            }
            return extents;
        }
        let scene = &self.lesson.scenes[self.scene];
        let lang = self.app.lang;
        let say = Say::new(lang, Dialect::default());
        let look = Look {
            theme: self.app.theme(),
            monochrome: self.base.monochrome,
        };
        let title = format!(
            " {} · {}",
            sanitize(self.lesson.title.get(lang)),
            say.scene_position(self.scene, self.lesson.scenes.len())
        );
        let card = scene.card.as_ref().map_or("", |c| c.get(lang));
        let lines: Vec<Line> = card.lines().map(|l| Line::from(sanitize(l))).collect();
        let [top, middle, bottom] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        frame.render_widget(Paragraph::new(title).style(theme::TITLE_BAR), top);
        let height = (lines.len() as u16).min(middle.height);
        let [text] = Layout::vertical([Constraint::Length(height)])
            .flex(Flex::Center)
            .areas(middle);
        let [text] = Layout::horizontal([Constraint::Max(72)])
            .flex(Flex::Center)
            .areas(text);
        frame.render_widget(
            Paragraph::new(lines)
                .style(theme::TEXT)
                .wrap(Wrap { trim: false }),
            text,
        );
        frame.render_widget(
            Paragraph::new(say.present_card_keys()).style(theme::LABEL),
            bottom,
        );
        look.apply(frame.buffer_mut());
        None
    }

    fn update(&mut self, msg: Msg) -> Effect {
        let effect = self.take(msg);
        #[cfg(unix)]
        self.publish();
        effect
    }

    fn working(&self) -> bool {
        !self.card && Screen::working(&self.app)
    }

    fn ticking(&self) -> Option<super::runtime::Ticking> {
        // While a note is typed the run holds still.
        let playing = (!self.card && self.typing.is_none())
            .then(|| self.app.ticking())
            .flatten();
        // A run playing by itself ticks at its own pace, and its ticks take
        // new listeners too; a still one ticks for them alone, and those
        // ticks never reach the run.
        #[cfg(unix)]
        if playing.is_none() && self.publisher.is_some() {
            return Some(super::runtime::Ticking {
                every: TAKE_LISTENERS,
                at: (self.app.cursor(), "publishing"),
            });
        }
        playing
    }
}

impl Present {
    /// A message for the lesson or, inside a scene, for its run.
    fn take(&mut self, msg: Msg) -> Effect {
        if let Msg::Term(TermEvent::Key(key)) = &msg {
            if self.typing.is_some() {
                return self.typed(*key);
            }
            self.said = None;
            let on_card = self.card.then(|| look_up(CARD, *key)).flatten();
            match on_card.or_else(|| look_up(BINDINGS, *key)) {
                Some(Move::Note) if !self.card && self.file.is_some() => {
                    self.typing = Some(String::new());
                    return Effect::Stay;
                }
                Some(Move::Open) => {
                    self.card = false;
                    return Effect::Stay;
                }
                Some(Move::Quit) => return Effect::Quit,
                Some(to @ (Move::NextScene | Move::PrevScene | Move::Restore)) => {
                    self.moved(to);
                    return Effect::Stay;
                }
                _ => {}
            }
        }
        if self.card {
            return Effect::Stay;
        }
        // The publisher's own ticks are no autoplay's, and a run holds
        // still while a note is typed at its step.
        if matches!(msg, Msg::Tick) && (self.app.ticking().is_none() || self.typing.is_some()) {
            return Effect::Stay;
        }
        self.app.update(msg)
    }
}

/// Takes over the terminal and presents `lesson` until the presenter
/// quits, telling where it is on the socket `notes` names, if given;
/// always gives the terminal back.
pub fn present(
    lesson: Resolved,
    settings: Settings,
    what: &str,
    notes: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    super::needs_terminal(what)?;
    let mut screen = Present::new(lesson, settings).writing_notes_to(std::path::Path::new(what));
    if let Some(socket) = notes {
        screen = publish_on(screen, socket)?;
    }
    let mut taken = super::TakenTerminal::take(settings.mouse)?;
    super::run_screen(&mut taken.terminal, &mut screen, &mut super::TerminalEvents)
}

#[cfg(unix)]
fn publish_on(screen: Present, socket: &std::path::Path) -> anyhow::Result<Present> {
    use anyhow::Context;
    let publisher = super::notes::Publisher::bind(socket).with_context(|| {
        crate::narrate::Trouble::PublishNotes {
            shown: crate::transcript::shown_path(socket),
        }
    })?;
    Ok(screen.publishing(publisher))
}

#[cfg(not(unix))]
fn publish_on(_: Present, _: &std::path::Path) -> anyhow::Result<Present> {
    anyhow::bail!("speaker notes need a Unix socket, which this system does not have")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_has_help_and_no_key_is_bound_twice() {
        crate::tui::keymap::check_table(BINDINGS);
        crate::tui::keymap::check_table(CARD);
    }
}
