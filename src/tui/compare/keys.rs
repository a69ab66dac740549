//! The compare screen's keys: its own small table, in the shape of the
//! main screen's, feeding its keys, its help and its footer alike.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::narrate::Tr;
use crate::tui::keymap::{Binding, CTRL_C, ch, in_footer, key, look_up, one, pair, words};

/// Everything the compare screen can be asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareAction {
    Next,
    Prev,
    NextTurn,
    PrevTurn,
    Start,
    End,
    /// The first step where the two runs part.
    Divergence,
    ToggleLang,
    CycleTheme,
    ToggleHelp,
    /// Esc: closes the help if it is open, else quits.
    Back,
    Quit,
}

use CompareAction as A;

pub const BINDINGS: &[Binding<CompareAction>] = &[
    in_footer(
        pair(
            &[key(KeyCode::Right), ch('l'), ch(' '), key(KeyCode::Enter)],
            A::Next,
            &[key(KeyCode::Left), ch('h'), key(KeyCode::Backspace)],
            A::Prev,
            Tr {
                en: "next / previous phase, both sides together",
                zh: "两边一起下一步 / 上一步",
            },
        ),
        words::FOOTER_STEP,
    ),
    in_footer(
        pair(
            &[ch('n'), ch(']')],
            A::NextTurn,
            &[ch('p'), ch('['), ch('N')],
            A::PrevTurn,
            words::TURN,
        ),
        words::FOOTER_TURN,
    ),
    pair(
        &[ch('g'), key(KeyCode::Home)],
        A::Start,
        &[ch('G'), key(KeyCode::End)],
        A::End,
        words::START_END,
    ),
    in_footer(
        one(
            &[ch('v')],
            A::Divergence,
            Tr {
                en: "go to the first step where the two runs part",
                zh: "跳到两边第一处分歧",
            },
        ),
        Tr {
            en: "divergence",
            zh: "分歧",
        },
    ),
    in_footer(
        one(&[ch('L')], A::ToggleLang, words::LANG),
        words::FOOTER_LANG,
    ),
    one(&[ch('t')], A::CycleTheme, words::THEME),
    in_footer(
        one(&[ch('?')], A::ToggleHelp, words::HELP),
        words::FOOTER_HELP,
    ),
    in_footer(
        one(&[ch('q'), key(KeyCode::Esc), CTRL_C], A::Quit, words::QUIT),
        words::QUIT,
    ),
];

/// The action for a key press; `None` for releases and unbound keys.
pub fn action_for(event: KeyEvent) -> Option<CompareAction> {
    let plain = !event.modifiers.contains(KeyModifiers::CONTROL);
    if plain && event.code == KeyCode::Esc && event.kind != KeyEventKind::Release {
        return Some(A::Back);
    }
    look_up(BINDINGS, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::narrate::Lang;
    use crate::narrate::Say;
    use crate::tui::keymap::{check_table, footer_entries_of};

    #[test]
    fn every_binding_has_help_and_no_key_is_bound_twice() {
        check_table(BINDINGS);
    }

    #[test]
    fn v_goes_to_the_divergence_and_esc_steps_back() {
        let press = |code| action_for(KeyEvent::new(code, KeyModifiers::NONE));
        assert_eq!(press(KeyCode::Char('v')), Some(A::Divergence));
        assert_eq!(press(KeyCode::Esc), Some(A::Back));
        assert_eq!(press(KeyCode::End), Some(A::End));
        assert_eq!(press(KeyCode::Char('n')), Some(A::NextTurn));
        assert_eq!(press(KeyCode::Char('x')), None);
    }

    #[test]
    fn the_footer_names_the_divergence_key() {
        let say = Say::new(Lang::En, Dialect::AnthropicMessages);
        let footer: Vec<String> = footer_entries_of(BINDINGS, say)
            .into_iter()
            .map(|(keys, label)| format!("{keys} {label}"))
            .collect();
        assert_eq!(
            footer,
            [
                "→/← step",
                "n/p turn",
                "v divergence",
                "L 中文",
                "? help",
                "q quit"
            ]
        );
    }
}
