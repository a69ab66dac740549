//! A secret by the name it is set to: `password=…`, `"api_key": "…"`,
//! `token: …` at the start of a line; the value found after the name.

use super::{Found, Kind, is_value, is_word, secret_in};

/// The value set at the separator `at` to a name that tells it is a
/// secret: `"password": "…"` (JSON, also escaped inside a JSON string),
/// `API_KEY=…` (an environment line, a flag `--token=…`), or `token: …`
/// at the start of a line (YAML, a header). An unquoted `name: value`
/// elsewhere is prose ("the token: it expires"), and stays.
pub(super) fn assigned(text: &str, at: usize) -> Option<Found> {
    let bytes = text.as_bytes();
    let name = name_before(text, at)?;
    let kind = name_kind(name.text)?;
    // `=>` and `:=` set too; `==` compares.
    let mut value_at = at + 1;
    match (bytes[at], bytes.get(value_at)) {
        (b'=', Some(b'=')) => return None,
        (b'=', Some(b'>')) | (b':', Some(b'=')) => value_at += 1,
        _ => {}
    }
    value_at += bytes[value_at..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let yaml = bytes[at] == b':' && !name.quoted;
    let value = value_after(bytes, value_at, yaml)?;
    if yaml && !value.quoted && !starts_line(bytes, name.start) {
        return None;
    }
    is_value(text, value.start, value.end).then(|| secret_in(text, value.start, value.end, kind))
}

/// A name before a separator, and where it starts (its opening quote
/// included).
struct Name<'a> {
    text: &'a str,
    quoted: bool,
    start: usize,
}

fn is_name_byte(byte: u8) -> bool {
    is_word(byte) || matches!(byte, b'-' | b'.')
}

/// The name before the separator at `at`, spaces between them skipped:
/// bare, or in quotes (`"api_key"`, `'api_key'`, `\"api_key\"` inside a
/// JSON string).
fn name_before(text: &str, at: usize) -> Option<Name<'_>> {
    let bytes = text.as_bytes();
    let mut end = at;
    while end > 0 && matches!(bytes[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    let quote = bytes[..end]
        .last()
        .copied()
        .filter(|b| matches!(b, b'"' | b'\''));
    end -= usize::from(quote.is_some());
    let escaped = quote.is_some() && end > 0 && bytes[end - 1] == b'\\';
    end -= usize::from(escaped);
    // No limit: a separator ends every name, so each byte is looked back
    // over once; and a name's last words decide alike however long it is,
    // so redacting a token inside it decides nothing anew.
    let len = bytes[..end]
        .iter()
        .rev()
        .take_while(|b| is_name_byte(**b))
        .count();
    if len == 0 {
        return None;
    }
    let start = end - len;
    let opening: &[u8] = match (quote, escaped) {
        (Some(q), true) => &[b'\\', q],
        (Some(q), false) => &[q],
        (None, _) => &[],
    };
    if !bytes[..start].ends_with(opening) {
        return None;
    }
    Some(Name {
        text: &text[start..end],
        quoted: quote.is_some(),
        start: start - opening.len(),
    })
}

/// Whether only spaces or a YAML list's `-` stand between the line's start
/// and `at` (looked at no further back than an indentation goes).
fn starts_line(bytes: &[u8], at: usize) -> bool {
    const MAX_INDENT: usize = 64;
    bytes[..at]
        .iter()
        .rev()
        .take(MAX_INDENT)
        .find(|b| !matches!(b, b' ' | b'\t' | b'-'))
        .is_none_or(|b| matches!(b, b'\n' | b'\r'))
}

/// Where a value is in the text.
struct Span {
    start: usize,
    end: usize,
    quoted: bool,
}

/// The value that starts at `at`: what its quotes hold (none if they are
/// not closed on the line: `getpass("Password: ")`), or else a bare value.
fn value_after(bytes: &[u8], at: usize, yaml: bool) -> Option<Span> {
    let (opening, quote, escaped) = match bytes.get(at)? {
        b'\\' if bytes.get(at + 1) == Some(&b'"') => (2, b'"', true),
        q @ (b'"' | b'\'') => (1, *q, false),
        _ => return bare_value(bytes, at, yaml),
    };
    let start = at + opening;
    Some(Span {
        start,
        end: closing(bytes, start, quote, escaped)?,
        quoted: true,
    })
}

/// An unquoted value: the rest of the line after a YAML-like `name:`,
/// else up to a space or a delimiter (`KEY=value`, `?password=…&`). None
/// for code (`getpass()`, `os.environ[…]`), a variable (`$TOKEN`,
/// `${{ secrets.TOKEN }}`) or a literal (`null`, `true`).
fn bare_value(bytes: &[u8], at: usize, yaml: bool) -> Option<Span> {
    let stop: fn(&u8) -> bool = if yaml {
        |b| matches!(b, b'\n' | b'\r')
    } else {
        |b| b.is_ascii_whitespace() || b"\"'`,;&()[]{}<>".contains(b)
    };
    // Inside a JSON string (`"KEY=value\" …"`) the value ends before the
    // backslash that escapes the string's closing quote.
    let escapes_quote =
        |i: usize| bytes[i] == b'\\' && !yaml && matches!(bytes.get(i + 1), Some(b'"' | b'\''));
    let len = (at..bytes.len())
        .position(|i| stop(&bytes[i]) || escapes_quote(i))
        .unwrap_or(bytes.len() - at);
    let value = bytes[at..at + len].trim_ascii_end();
    let end = at + value.len();
    let code = matches!(bytes.get(end), Some(b'(' | b'['));
    let literal = ["null", "none", "true", "false"]
        .iter()
        .any(|word| value.eq_ignore_ascii_case(word.as_bytes()));
    if code || literal || value.starts_with(b"$") {
        return None;
    }
    Some(Span {
        start: at,
        end,
        quoted: false,
    })
}

/// Where the quoted text from `start` ends: before its closing quote
/// (`\"` when `escaped`), a backslash escaping the byte after it. None
/// when the line or the text ends first.
fn closing(bytes: &[u8], start: usize, quote: u8, escaped: bool) -> Option<usize> {
    let mut at = start;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\n' | b'\r' => return None,
            b'\\' if escaped && bytes.get(at + 1) == Some(&quote) => return Some(at),
            // A backslash escapes no line break: the line ends the value
            // there, whatever a marker put before it the first time.
            b'\\' if !matches!(bytes.get(at + 1), Some(b'\n' | b'\r')) => at += 2,
            b'\\' => at += 1,
            // Inside `\"…\"`, a bare `"` ends the string around them.
            b if b == quote => return (!escaped).then_some(at),
            _ => at += 1,
        }
    }
    None
}

/// The kind of secret a name says its value is: its last word `password`,
/// `token`, `secret` or `apikey`, or `key` after `api`, `secret`,
/// `private`, `access`… Words split at `_`, `-`, `.` and a capital after a
/// small letter, in any case: `GITHUB_TOKEN`, `accessToken`, `x-api-key`,
/// `AWS_SECRET_ACCESS_KEY`; `max_tokens` and `tokenizer` are no secrets.
/// `pwd` is not taken: `PWD` is the working directory.
///
/// Two names tell their kind more closely. `AccountKey` is the key of an
/// Azure Storage connection string (`…;AccountName=…;AccountKey=…;…`,
/// https://learn.microsoft.com/en-us/azure/storage/common/storage-configure-connection-string).
/// `private_key_id` names the key in a Google Cloud service account's key
/// file, beside its `private_key`
/// (https://cloud.google.com/iam/docs/keys-create-delete): not the key,
/// but what finds it among the account's keys, which a handout need not
/// show.
pub(super) fn name_kind(name: &str) -> Option<Kind> {
    let (rest, last) = last_word(name);
    let (rest, before) = last_word(rest);
    let (_, earlier) = last_word(rest);
    let is = |word: &str, names: &[&str]| names.iter().any(|n| word.eq_ignore_ascii_case(n));
    if is(last, &["password", "passwd", "passphrase"]) {
        Some(Kind::Password)
    } else if is(last, &["token"]) {
        Some(Kind::Token)
    } else if is(last, &["apikey"]) || is(last, &["key"]) && is(before, &["api"]) {
        Some(Kind::ApiKey)
    } else if is(name, &["AccountKey"]) {
        Some(Kind::AzureStorageKey)
    } else if is(last, &["id"]) && is(before, &["key"]) && is(earlier, &["private"]) {
        Some(Kind::PrivateKeyId)
    } else if is(last, &["secret"])
        || is(last, &["key"])
            && is(
                before,
                &[
                    "secret",
                    "private",
                    "access",
                    "signing",
                    "encryption",
                    "account",
                    "storage",
                ],
            )
    {
        Some(Kind::Secret)
    } else {
        None
    }
}

/// What comes before a name's last word, and the word: `apiKey` →
/// (`api`, `Key`), `API_KEY` → (`API`, `KEY`).
pub(super) fn last_word(name: &str) -> (&str, &str) {
    const SEPARATORS: [char; 3] = ['_', '-', '.'];
    let name = name.trim_end_matches(SEPARATORS);
    let bytes = name.as_bytes();
    let mut start = bytes.len();
    while start > 0 && !SEPARATORS.contains(&char::from(bytes[start - 1])) {
        start -= 1;
        let camel =
            start > 0 && bytes[start].is_ascii_uppercase() && bytes[start - 1].is_ascii_lowercase();
        if camel {
            break;
        }
    }
    (name[..start].trim_end_matches(SEPARATORS), &name[start..])
}
