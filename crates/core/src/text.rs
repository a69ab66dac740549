//! Text from a transcript is untrusted: it may hold escape sequences that
//! would move the cursor, recolour or clear the screen. Everything shown to a
//! terminal goes through here first. Lengths here are display widths: a
//! Chinese character takes two columns, an emoji family one cluster.

use unicode_truncate::UnicodeTruncateStr;
use unicode_width::UnicodeWidthStr;

/// Replaces control characters with visible stand-ins (`␛` for ESC, `␇` for
/// BEL, ...), and drops bidirectional overrides that could reorder a line
/// and the characters that show nothing (see [`shown`]). Newlines and tabs
/// are kept; `one_line` folds them too.
pub fn sanitize(text: &str) -> String {
    shown(text.chars()).collect()
}

/// `text` on one line, as a file's name is shown: every character that
/// [`sanitize`] would change (a control, a line break, a tab, a direction
/// override, one that shows nothing) written as Rust writes it escaped
/// (`\n`, `\u{1b}`), so that a name can neither break the line it is
/// told on nor pass for another.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\n' || c == '\t' || visible(c) != Some(c) || shows_nothing(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    text.width()
}

/// A single-line preview: newlines shown as `⏎`, tabs as spaces, cut to
/// `max_width` columns with a trailing `…`, never inside a character or an
/// emoji sequence.
pub fn one_line(text: &str, max_width: usize) -> String {
    // Only the beginning can show: a long text (a 4 kB tool result in a
    // row of the messages panel) is looked at only as far as could fill
    // the line many times over, so a row costs its width, not its text.
    let limit = max_width.saturating_mul(8).saturating_add(64);
    let mut chars = text.chars();
    let mut line: String = shown(chars.by_ref().take(limit))
        .map(|c| match c {
            '\n' => '⏎',
            '\t' => ' ',
            other => other,
        })
        .collect();
    if chars.next().is_some() {
        // Cut here: `fit` cuts again if need be, else this shows the cut.
        line.push('…');
    }
    fit(&line, max_width)
}

/// `line` cut to `max_width` columns, with `…` standing for what is cut.
pub fn fit(line: &str, max_width: usize) -> String {
    if line.width() <= max_width {
        return line.to_owned();
    }
    // Whole grapheme clusters only, as many as fit beside the `…`.
    let (kept, _) = line.unicode_truncate(max_width.saturating_sub(1));
    let mut out = kept.to_owned();
    if max_width > 0 {
        out.push('…');
    }
    out
}

/// `chars` as the screen may show them: [`visible`], and with no character
/// that shows nothing. A zero-width space, a joiner outside an emoji, a
/// byte-order mark take no column by Unicode's count, yet a terminal may
/// give them one, or join them to a border: the screen would then draw out
/// of step with itself until redrawn whole. They are dropped, the joiner
/// kept after an emoji, where it builds one (👩‍💻).
fn shown(chars: impl Iterator<Item = char>) -> impl Iterator<Item = char> {
    let mut previous = None;
    chars.filter_map(move |c| {
        let joins_emoji = previous.is_some_and(is_pictographic);
        let kept = match c {
            '\u{200d}' if !joins_emoji => None,
            c if shows_nothing(c) => None,
            c => visible(c),
        };
        previous = kept.or(previous);
        kept
    })
}

/// Format characters that take no room and draw nothing: the zero-width
/// space and non-joiner, the direction marks, the word joiner and the
/// invisible operators, the byte-order mark, the Mongolian vowel separator,
/// and the tag characters (Unicode's General Category Cf, as listed in
/// https://www.unicode.org/Public/UCD/latest/ucd/extracted/DerivedGeneralCategory.txt).
fn shows_nothing(c: char) -> bool {
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{180e}' | '\u{feff}'
            | '\u{2060}'..='\u{2064}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// An emoji, or what ends one (the emoji presentation selector, a skin
/// tone): what a zero-width joiner may follow.
fn is_pictographic(c: char) -> bool {
    matches!(c, '\u{1f000}'..='\u{1faff}' | '\u{2600}'..='\u{27bf}' | '\u{fe0f}')
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

/// Writes `value` as indented JSON in which every character a terminal
/// could act on is escaped as `\uXXXX`: the C0 controls (as JSON itself
/// requires), DEL, the C1 controls (U+009B is a one-byte CSI some
/// terminals honour) and the bidirectional overrides and isolates. The
/// output stays valid JSON and reads back to the same text.
pub fn write_inert_json<W: std::io::Write>(
    writer: W,
    value: &impl serde::Serialize,
) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(writer, Inert::default());
    value.serialize(&mut serializer)
}

/// The same, as a string.
pub fn inert_json(value: &impl serde::Serialize) -> serde_json::Result<String> {
    let mut out = Vec::new();
    write_inert_json(&mut out, value)?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

/// serde_json's indented layout, with the characters it leaves raw that a
/// terminal would act on escaped.
#[derive(Default)]
struct Inert(serde_json::ser::PrettyFormatter<'static>);

fn acts_on_terminal(c: char) -> bool {
    matches!(c, '\x7f'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl serde_json::ser::Formatter for Inert {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|(_, c)| acts_on_terminal(*c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    // The layout is the pretty formatter's.
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_escaped_onto_one_line_and_kept_otherwise() {
        assert_eq!(
            escaped("new\nline\t\x1b[2J.json"),
            r"new\nline\t\u{1b}[2J.json"
        );
        assert_eq!(escaped("a\u{202e}b\u{200b}"), r"a\u{202e}b\u{200b}");
        assert_eq!(escaped("运行 é 😀.json"), "运行 é 😀.json");
    }

    #[test]
    fn json_written_for_a_terminal_escapes_what_a_terminal_acts_on() {
        let hostile = "a\u{9b}31m\u{202e}b\u{2066}\x7f\x1b[2J é 中 😀";
        let json = inert_json(&serde_json::json!({ hostile: [hostile] })).unwrap();
        assert!(
            !json
                .chars()
                .any(|c| acts_on_terminal(c) || (c.is_control() && c != '\n'))
        );
        assert!(
            json.contains(r"a\u009b31m\u202eb\u2066\u007f\u001b[2J é 中 😀"),
            "{json}"
        );
        // Still JSON, and the same text when read back.
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back[hostile][0], hostile);
        assert_eq!(
            inert_json(&serde_json::json!({"a": [1, {"b": null}]})).unwrap(),
            serde_json::to_string_pretty(&serde_json::json!({"a": [1, {"b": null}]})).unwrap()
        );
    }

    #[test]
    fn escape_sequences_become_visible_text() {
        let hostile = "ok\x1b[2J\x1b]0;pwned\x07\u{9b}31m\u{202e}done\r";
        let clean = sanitize(hostile);
        assert_eq!(clean, "ok␛[2J␛]0;pwned␇�31mdone␍");
        assert!(!clean.chars().any(|c| c.is_control()));
    }

    #[test]
    fn characters_that_show_nothing_are_dropped_but_an_emoji_s_joiner() {
        assert_eq!(sanitize("a\u{200b}b\u{feff}c\u{200d}d\u{2060}"), "abcd");
        assert_eq!(sanitize("👩\u{200d}💻 x\u{200d}"), "👩\u{200d}💻 x");
        assert_eq!(one_line("a\u{200b}\u{200b}b", 10), "ab");
        assert_eq!(width(&sanitize("\u{200b}\u{200c}\u{200e}\u{e0041}")), 0);
    }

    #[test]
    fn one_line_folds_newlines_and_cuts_long_text() {
        assert_eq!(one_line("a\nb\tc", 10), "a⏎b c");
        assert_eq!(one_line("abcdefghij", 5), "abcd…");
        assert_eq!(one_line("abcde", 5), "abcde");
        assert_eq!(one_line("日本語のテキスト", 7), "日本語…");
    }

    #[test]
    fn cuts_fall_between_characters_and_keep_their_marker() {
        // Each CJK character is two columns: 5 columns hold two and the "…".
        assert_eq!(one_line("导演出生于哪一年", 5), "导演…");
        assert_eq!(width(&one_line("导演出生于哪一年", 6)), 5);
        // An emoji family is one cluster of two columns: never split.
        let family = "👨\u{200d}👩\u{200d}👧 family";
        assert_eq!(one_line(family, 3), "👨\u{200d}👩\u{200d}👧…");
        assert_eq!(one_line(family, 2), "…");
        assert_eq!(one_line("abc", 0), "");
    }

    #[test]
    fn a_long_text_is_cut_after_looking_at_its_beginning_only() {
        let long = "x".repeat(100_000);
        assert_eq!(one_line(&long, 10), format!("{}…", "x".repeat(9)));
        // Zero-width characters past what is looked at still show the cut.
        let sneaky = format!("ab{}cd", "\u{200b}".repeat(10_000));
        assert!(one_line(&sneaky, 10).ends_with('…'));
    }
}
