//! The one table of key bindings: it maps keys to actions and also feeds the
//! help overlay and the footer, so the three can never disagree.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::strings as s;

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
    /// Open run number n (0-based).
    PickRun(usize),
    ToggleCheck,
    /// Make the next of the common mistakes (after the last: the correct loop).
    NextMistake,
    /// Back to the correct loop.
    CorrectLoop,
    ScrollUp,
    ScrollDown,
    DetailUp,
    DetailDown,
    /// Detail pane: summary → Anthropic wire → OpenAI wire.
    ToggleWire,
    /// Show long texts whole, or folded again.
    ToggleExpand,
    ToggleHelp,
    /// Esc: closes the help if it is open, else quits.
    Back,
    Quit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn key(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn ch(c: char) -> Key {
    key(KeyCode::Char(c))
}

pub struct Binding {
    pub keys: &'static [Key],
    pub action: Action,
    pub help: &'static str,
    /// Shown in the footer when set; bindings next to each other with the
    /// same label share one footer entry ("n/p turn").
    pub footer: Option<&'static str>,
}

const fn bind(keys: &'static [Key], action: Action, help: (&'static str, &'static str)) -> Binding {
    Binding {
        keys,
        action,
        help: help.0,
        footer: Some(help.1),
    }
}

const fn bind_quiet(keys: &'static [Key], action: Action, help: &'static str) -> Binding {
    Binding {
        keys,
        action,
        help,
        footer: None,
    }
}

pub const BINDINGS: &[Binding] = &[
    bind(
        &[key(KeyCode::Right), ch('l'), ch(' '), key(KeyCode::Enter)],
        Action::Next,
        s::KEY_NEXT,
    ),
    bind(
        &[key(KeyCode::Left), ch('h'), key(KeyCode::Backspace)],
        Action::Prev,
        s::KEY_PREV,
    ),
    bind(&[ch('n'), ch(']')], Action::NextTurn, s::KEY_NEXT_TURN),
    bind(&[ch('p'), ch('[')], Action::PrevTurn, s::KEY_PREV_TURN),
    bind_quiet(&[ch('g'), key(KeyCode::Home)], Action::Start, s::KEY_START),
    bind_quiet(&[ch('G'), key(KeyCode::End)], Action::End, s::KEY_END),
    bind(&[ch('+'), ch('=')], Action::MoreTurns, s::KEY_MORE_TURNS),
    bind(&[ch('-'), ch('_')], Action::FewerTurns, s::KEY_FEWER_TURNS),
    bind_quiet(&[ch('r')], Action::ResetTurns, s::KEY_RESET_TURNS),
    bind(&[key(KeyCode::Tab)], Action::NextRun, s::KEY_NEXT_RUN),
    bind_quiet(&[key(KeyCode::BackTab)], Action::PrevRun, s::KEY_PREV_RUN),
    bind(&[ch('c')], Action::ToggleCheck, s::KEY_CHECK),
    bind_quiet(&[ch('m')], Action::NextMistake, s::KEY_MISTAKE),
    bind_quiet(&[ch('M')], Action::CorrectLoop, s::KEY_CORRECT),
    bind_quiet(
        &[key(KeyCode::Up), ch('k')],
        Action::ScrollUp,
        s::KEY_SCROLL_UP,
    ),
    bind_quiet(
        &[key(KeyCode::Down), ch('j')],
        Action::ScrollDown,
        s::KEY_SCROLL_DOWN,
    ),
    bind_quiet(
        &[key(KeyCode::PageUp), ch('K')],
        Action::DetailUp,
        s::KEY_DETAIL_UP,
    ),
    bind_quiet(
        &[key(KeyCode::PageDown), ch('J')],
        Action::DetailDown,
        s::KEY_DETAIL_DOWN,
    ),
    bind_quiet(&[ch('w')], Action::ToggleWire, s::KEY_WIRE),
    bind_quiet(&[ch('e')], Action::ToggleExpand, s::KEY_EXPAND),
    bind(&[ch('?')], Action::ToggleHelp, s::KEY_HELP),
    bind(
        &[
            ch('q'),
            key(KeyCode::Esc),
            Key {
                code: KeyCode::Char('c'),
                ctrl: true,
            },
        ],
        Action::Quit,
        s::KEY_QUIT,
    ),
];

/// The action for a key press; `None` for releases and unbound keys.
pub fn action_for(event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    if !ctrl && event.code == KeyCode::Esc {
        return Some(Action::Back);
    }
    if let KeyCode::Char(c @ '1'..='9') = event.code
        && !ctrl
    {
        return Some(Action::PickRun(c as usize - '1' as usize));
    }
    BINDINGS
        .iter()
        .find(|b| {
            b.keys.contains(&Key {
                code: event.code,
                ctrl,
            })
        })
        .map(|b| b.action)
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
pub fn footer_entries() -> Vec<(String, &'static str)> {
    let mut entries: Vec<(String, &'static str)> = Vec::new();
    for binding in BINDINGS {
        let Some(label) = binding.footer else {
            continue;
        };
        let first = key_name(&binding.keys[0]);
        match entries.last_mut() {
            Some((keys, last)) if *last == label => {
                keys.push('/');
                keys.push_str(&first);
            }
            _ => entries.push((first, label)),
        }
    }
    entries
}

/// Help rows: (all keys, description), plus the run-number row.
pub fn help_rows() -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, &'static str)> = BINDINGS
        .iter()
        .map(|b| {
            let keys: Vec<String> = b.keys.iter().map(key_name).collect();
            (keys.join(" "), b.help)
        })
        .collect();
    let after_runs = BINDINGS
        .iter()
        .position(|b| b.action == Action::PrevRun)
        .map_or(rows.len(), |i| i + 1);
    rows.insert(after_runs, ("1 … 9".to_owned(), s::KEY_PICK_RUN));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> Option<Action> {
        action_for(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn the_documented_keys_map_to_their_actions() {
        let none = KeyModifiers::NONE;
        for code in [
            KeyCode::Right,
            KeyCode::Char('l'),
            KeyCode::Char(' '),
            KeyCode::Enter,
        ] {
            assert_eq!(press(code, none), Some(Action::Next));
        }
        for code in [KeyCode::Left, KeyCode::Char('h'), KeyCode::Backspace] {
            assert_eq!(press(code, none), Some(Action::Prev));
        }
        assert_eq!(press(KeyCode::Char(']'), none), Some(Action::NextTurn));
        assert_eq!(press(KeyCode::Char('['), none), Some(Action::PrevTurn));
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
        assert_eq!(press(KeyCode::Char('2'), none), Some(Action::PickRun(1)));
        assert_eq!(
            press(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Action::Quit)
        );
        assert_eq!(press(KeyCode::Char('c'), none), Some(Action::ToggleCheck));
        assert_eq!(press(KeyCode::Esc, none), Some(Action::Back));
        assert_eq!(press(KeyCode::Char('x'), none), None);
    }

    #[test]
    fn key_releases_are_ignored() {
        let mut release = KeyEvent::new(KeyCode::Right, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for(release), None);
    }

    #[test]
    fn the_footer_groups_paired_keys() {
        let footer: Vec<String> = footer_entries()
            .into_iter()
            .map(|(keys, label)| format!("{keys} {label}"))
            .collect();
        assert_eq!(
            footer,
            [
                "→ next",
                "← back",
                "n/p turn",
                "+/- max_turns",
                "Tab run",
                "c check",
                "? help",
                "q quit"
            ]
        );
    }

    #[test]
    fn every_binding_has_help_and_no_key_is_bound_twice() {
        let mut seen = Vec::new();
        for binding in BINDINGS {
            assert!(!binding.help.is_empty());
            for key in binding.keys {
                assert!(!seen.contains(key), "{key:?} bound twice");
                seen.push(*key);
            }
        }
    }
}
