//! Text from a transcript is untrusted: it may hold escape sequences that
//! would move the cursor, recolour or clear the screen. Everything shown to a
//! terminal goes through here first.

/// Replaces control characters with visible stand-ins (`␛` for ESC, `␇` for
/// BEL, ...), and drops bidirectional overrides that could reorder a line.
/// Newlines and tabs are kept; `one_line` folds them too.
pub fn sanitize(text: &str) -> String {
    text.chars().filter_map(visible).collect()
}

/// A single-line preview: newlines shown as `⏎`, tabs as spaces, cut to
/// `max_chars` characters with a trailing `…`.
pub fn one_line(text: &str, max_chars: usize) -> String {
    let mut chars = text.chars().filter_map(visible).map(|c| match c {
        '\n' => '⏎',
        '\t' => ' ',
        other => other,
    });
    let mut out: String = chars.by_ref().take(max_chars).collect();
    if chars.next().is_some() {
        out.pop();
        out.push('…');
    }
    out
}

fn visible(c: char) -> Option<char> {
    match c {
        '\n' | '\t' => Some(c),
        // C0 controls map onto the Unicode "Control Pictures" block.
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32),
        '\x7f' => Some('␡'),
        '\u{80}'..='\u{9f}' => Some('�'),
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => None,
        other => Some(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_visible_text() {
        let hostile = "ok\x1b[2J\x1b]0;pwned\x07\u{9b}31m\u{202e}done\r";
        let clean = sanitize(hostile);
        assert_eq!(clean, "ok␛[2J␛]0;pwned␇�31mdone␍");
        assert!(!clean.chars().any(|c| c.is_control()));
    }

    #[test]
    fn one_line_folds_newlines_and_cuts_long_text() {
        assert_eq!(one_line("a\nb\tc", 10), "a⏎b c");
        assert_eq!(one_line("abcdefghij", 5), "abcd…");
        assert_eq!(one_line("abcde", 5), "abcde");
        assert_eq!(one_line("日本語のテキスト", 4), "日本語…");
    }
}
