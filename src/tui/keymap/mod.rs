//! The one table of key bindings: it maps keys to actions and also feeds the
//! help overlay and the footer, so the three can never disagree.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::narrate::{Say, Tr};
use crate::tui::extents::Extents;

mod table;

pub use table::{BINDINGS, CTRL_C, words};

/// Everything the user can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Next,
    Prev,
    NextTurn,
    PrevTurn,
    Start,
    End,
    MoreTurns,
    FewerTurns,
    ResetTurns,
    NextRun,
    PrevRun,
    /// A digit: opens run n (1 to 9), or adds to the step number being
    /// typed after `:`.
    Digit(u8),
    /// `:` — type a step number to jump to, Enter to go.
    GoToStep,
    /// `/` — type a text to find, Enter to go to its first match.
    Search,
    /// The next or previous model call, tool call, user prompt.
    NextCall,
    PrevCall,
    NextTool,
    PrevTool,
    NextPrompt,
    PrevPrompt,
    /// The next step where something goes wrong, round to the first.
    NextWrong,
    /// `y`: the command that reopens this frame, to the clipboard.
    CopyLink,
    /// Enter: opens the sub-agent a tool call started; else the next step.
    Open,
    /// The next or previous match of the search (`n`, `N`); without one,
    /// the next or previous turn.
    NextMatch,
    PrevMatch,
    /// A character typed into a prompt, the last one taken back, and
    /// Enter (not keys of their own: typing maps keys to these).
    Type(char),
    Erase,
    Submit,
    ToggleCheck,
    /// Make the next of the common mistakes (after the last: the correct loop).
    NextMistake,
    /// Back to the correct loop.
    CorrectLoop,
    ScrollUp,
    ScrollDown,
    DetailUp,
    DetailDown,
    /// Detail pane: summary ↔ the JSON on the wire.
    ToggleWire,
    /// Show long texts whole, or folded again.
    ToggleExpand,
    /// Name each step as ReAct does: Thought, Action, Observation, Finish.
    ToggleReact,
    /// Switch between Chinese and English, keeping the place.
    ToggleLang,
    /// Tell the run in the next API's words, keeping the place.
    RetellNext,
    /// The next colour theme: dark, light, high contrast.
    CycleTheme,
    /// Quiz mode on or off.
    ToggleQuiz,
    /// The detail pane: what each call sends, or the step's detail.
    ToggleGrowth,
    /// Play the run by itself, a phase at a time, or pause it.
    ToggleAutoplay,
    Faster,
    Slower,
    /// The autoplay's clock struck (not a key: the event loop sends it).
    Tick,
    ToggleHelp,
    /// Esc: closes the help if it is open, stops seeking the end, else quits.
    Back,
    /// A mouse click at (column, row): on the timeline, goes to that step.
    Click(u16, u16),
    /// A click read as the step whose mark it hit (`update` makes it).
    ClickedStep(usize),
    /// The terminal changed size (not a key: it comes from the event loop).
    Resize(u16, u16),
    /// A frame was drawn, with these extents (not a key either).
    Drawn(Extents),
    Quit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

pub const fn key(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

pub const fn ch(c: char) -> Key {
    key(KeyCode::Char(c))
}

/// One row of the help: a set of keys and its action, and optionally the
/// opposite action on the same row (previous for next, down for up). The
/// actions are the main screen's, or those of another screen with a table
/// of its own (`compare`).
pub struct Binding<A: 'static = Action> {
    pub keys: &'static [Key],
    pub action: A,
    pub opposite: Option<(&'static [Key], A)>,
    /// The words for this row, in the reader's language.
    pub help: Tr,
    /// Shown in the footer when set, as "→/← step".
    pub footer: Option<Tr>,
}

impl<A: Copy> Binding<A> {
    /// Every (keys, action) pair this row binds.
    fn pairs(&self) -> impl Iterator<Item = (&'static [Key], A)> {
        std::iter::once((self.keys, self.action)).chain(self.opposite)
    }
}

pub const fn one<A: Copy>(keys: &'static [Key], action: A, help: Tr) -> Binding<A> {
    Binding {
        keys,
        action,
        opposite: None,
        help,
        footer: None,
    }
}

pub const fn pair<A: Copy>(
    keys: &'static [Key],
    action: A,
    back: &'static [Key],
    back_action: A,
    help: Tr,
) -> Binding<A> {
    Binding {
        keys,
        action,
        opposite: Some((back, back_action)),
        help,
        footer: None,
    }
}

/// The same binding, also shown in the footer under `label`.
pub const fn in_footer<A: Copy>(binding: Binding<A>, label: Tr) -> Binding<A> {
    Binding {
        footer: Some(label),
        ..binding
    }
}

/// The action for the mouse: a left click goes to the step under it (on
/// the timeline), the wheel scrolls `messages`.
pub fn action_for_mouse(event: MouseEvent) -> Option<Action> {
    match event.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(event.column, event.row)),
        MouseEventKind::ScrollUp => Some(Action::ScrollUp),
        MouseEventKind::ScrollDown => Some(Action::ScrollDown),
        _ => None,
    }
}

/// The action for a key typed into a prompt: characters are text there,
/// not commands.
pub fn typed(event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    match event.code {
        KeyCode::Char('c') if ctrl => Some(Action::Quit),
        KeyCode::Char(c) if !ctrl => Some(Action::Type(c)),
        KeyCode::Backspace => Some(Action::Erase),
        KeyCode::Enter => Some(Action::Submit),
        KeyCode::Esc => Some(Action::Back),
        _ => None,
    }
}

/// The action for a key press; `None` for releases and unbound keys.
pub fn action_for(event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    if !ctrl && event.code == KeyCode::Esc {
        return Some(Action::Back);
    }
    if let KeyCode::Char(c @ '0'..='9') = event.code
        && !ctrl
    {
        return Some(Action::Digit(c as u8 - b'0'));
    }
    look_up(BINDINGS, event)
}

/// The action `table` binds to a key press; `None` for releases and
/// unbound keys.
pub fn look_up<A: Copy>(table: &[Binding<A>], event: KeyEvent) -> Option<A> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let pressed = Key {
        code: event.code,
        ctrl: event.modifiers.contains(KeyModifiers::CONTROL),
    };
    table
        .iter()
        .flat_map(Binding::pairs)
        .find(|(keys, _)| keys.contains(&pressed))
        .map(|(_, action)| action)
}

/// How a key is written in the help and the footer.
pub fn key_name(k: &Key) -> String {
    let name = match k.code {
        KeyCode::Right => "→".to_owned(),
        KeyCode::Left => "←".to_owned(),
        KeyCode::Up => "↑".to_owned(),
        KeyCode::Down => "↓".to_owned(),
        KeyCode::Char(' ') => "Space".to_owned(),
        KeyCode::Enter => "Enter".to_owned(),
        KeyCode::Backspace => "Backspace".to_owned(),
        KeyCode::Home => "Home".to_owned(),
        KeyCode::End => "End".to_owned(),
        KeyCode::Tab => "Tab".to_owned(),
        KeyCode::BackTab => "Shift-Tab".to_owned(),
        KeyCode::Esc => "Esc".to_owned(),
        KeyCode::PageUp => "PgUp".to_owned(),
        KeyCode::PageDown => "PgDn".to_owned(),
        KeyCode::Char(c) => c.to_string(),
        other => format!("{other:?}"),
    };
    if k.ctrl {
        format!("Ctrl-{}", name.to_uppercase())
    } else {
        name
    }
}

/// Footer entries: (keys, label), e.g. ("n/p", "turn").
pub fn footer_entries(say: Say) -> Vec<(String, &'static str)> {
    footer_entries_of(BINDINGS, say)
}

/// The footer entries of any table of bindings.
pub fn footer_entries_of<A: Copy>(table: &[Binding<A>], say: Say) -> Vec<(String, &'static str)> {
    table
        .iter()
        .filter_map(|b| {
            let label = b.footer?;
            // "n/p"; a long opposite ("Shift-Tab") stays in the help only.
            let keys: Vec<String> = b
                .pairs()
                .map(|(keys, _)| key_name(&keys[0]))
                .filter(|name| name.chars().count() <= 3)
                .collect();
            Some((keys.join("/"), label.get(say.lang)))
        })
        .collect()
}

/// The run row's words in the help, which names the run-number keys too.
const RUN_OR_PICK: Tr = Tr {
    en: "next / previous run / run n",
    zh: "下一条 / 上一条 / 第 n 条记录",
};

/// What the terminal and the mouse do beside the key table: Ctrl-Z is
/// the shell's, and a click or the wheel is no key.
const BESIDE_THE_KEYS: [(&str, Tr); 2] = [
    (
        "Ctrl-Z",
        Tr {
            en: "suspend to the shell; fg comes back",
            zh: "挂起回到 shell；fg 回来",
        },
    ),
    (
        "click / wheel",
        Tr {
            en: "a step on the timeline / scroll (--no-mouse: select text)",
            zh: "点时间线上的步 / 滚动（--no-mouse：选择文字）",
        },
    ),
];

/// Help rows: (every key, description); the run row names the run-number
/// keys too, so that the help fits 24 rows.
pub fn help_rows(say: Say) -> Vec<(String, &'static str)> {
    let keys = BINDINGS.iter().map(|b| match help_row(b, say) {
        (keys, _) if b.action == Action::NextRun => {
            (format!("{keys} / 1 … 9"), RUN_OR_PICK.get(say.lang))
        }
        row => row,
    });
    let beside = BESIDE_THE_KEYS
        .iter()
        .map(|(keys, words)| ((*keys).to_owned(), words.get(say.lang)));
    keys.chain(beside).collect()
}

/// The help rows of any table of bindings.
pub fn help_rows_of<A: Copy>(table: &[Binding<A>], say: Say) -> Vec<(String, &'static str)> {
    table.iter().map(|b| help_row(b, say)).collect()
}

/// A binding's row of the help: every key of each side, and its words.
fn help_row<A: Copy>(binding: &Binding<A>, say: Say) -> (String, &'static str) {
    let sides: Vec<String> = binding
        .pairs()
        .map(|(keys, _)| keys.iter().map(key_name).collect::<Vec<_>>().join(" "))
        .collect();
    (sides.join(" / "), binding.help.get(say.lang))
}

/// Fails unless every binding of `table` has help in every language and
/// no key is bound twice.
#[cfg(test)]
pub fn check_table<A: Copy>(table: &[Binding<A>]) {
    use crate::narrate::Lang;
    let mut seen = Vec::new();
    for binding in table {
        for lang in Lang::ALL {
            assert!(!binding.help.get(lang).is_empty());
        }
        for (keys, _) in binding.pairs() {
            for key in keys {
                assert!(!seen.contains(key), "{key:?} bound twice");
                seen.push(*key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::narrate::Lang;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> Option<Action> {
        action_for(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn the_documented_keys_map_to_their_actions() {
        let none = KeyModifiers::NONE;
        for code in [KeyCode::Right, KeyCode::Char('l'), KeyCode::Char(' ')] {
            assert_eq!(press(code, none), Some(Action::Next));
        }
        assert_eq!(press(KeyCode::Enter, none), Some(Action::Open));
        for code in [KeyCode::Left, KeyCode::Char('h'), KeyCode::Backspace] {
            assert_eq!(press(code, none), Some(Action::Prev));
        }
        assert_eq!(press(KeyCode::Char(']'), none), Some(Action::NextTurn));
        assert_eq!(press(KeyCode::Char('['), none), Some(Action::PrevTurn));
        assert_eq!(press(KeyCode::Char('p'), none), Some(Action::PrevTurn));
        assert_eq!(press(KeyCode::Char('/'), none), Some(Action::Search));
        assert_eq!(press(KeyCode::Char('n'), none), Some(Action::NextMatch));
        assert_eq!(
            press(KeyCode::Char('N'), KeyModifiers::SHIFT),
            Some(Action::PrevMatch)
        );
        assert_eq!(
            press(KeyCode::Char('G'), KeyModifiers::SHIFT),
            Some(Action::End)
        );
        assert_eq!(
            press(KeyCode::Char('+'), KeyModifiers::SHIFT),
            Some(Action::MoreTurns)
        );
        assert_eq!(
            press(KeyCode::BackTab, KeyModifiers::SHIFT),
            Some(Action::PrevRun)
        );
        assert_eq!(press(KeyCode::Char('2'), none), Some(Action::Digit(2)));
        assert_eq!(
            press(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Action::Quit)
        );
        assert_eq!(press(KeyCode::Char('c'), none), Some(Action::ToggleCheck));
        assert_eq!(press(KeyCode::Esc, none), Some(Action::Back));
        assert_eq!(press(KeyCode::Char('z'), none), None);
    }

    #[test]
    fn key_releases_are_ignored() {
        let mut release = KeyEvent::new(KeyCode::Right, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for(release), None);
    }

    #[test]
    fn the_footer_groups_paired_keys() {
        let say = Say::new(Lang::En, Dialect::AnthropicMessages);
        let footer: Vec<String> = footer_entries(say)
            .into_iter()
            .map(|(keys, label)| format!("{keys} {label}"))
            .collect();
        assert_eq!(
            footer,
            [
                "→/← step",
                "n/N turn",
                "+/- max_turns",
                "Tab run",
                "m/M mistake",
                "L 中文",
                "? help",
                "q quit"
            ]
        );
    }

    #[test]
    fn every_binding_has_help_and_no_key_is_bound_twice() {
        check_table(BINDINGS);
    }
}
