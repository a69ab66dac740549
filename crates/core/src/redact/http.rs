//! Credentials the way HTTP carries them: a token after `Bearer`, a user
//! and password after `Basic`, and a password in a URL's userinfo.

use super::{Found, Kind, is_value, secret_in, starts_word};

/// The token after `Bearer ` (the scheme's name in any case): its own
/// kind if it is a known key, a bearer token otherwise. The token is
/// RFC 6750's b64token (letters, digits, `-._~+/`, then `=`),
/// https://www.rfc-editor.org/rfc/rfc6750#section-2.1; at least 16 of
/// them with a digit, so that "the bearer of bad news" stays.
pub fn bearer(text: &str, at: usize) -> Option<Found> {
    let (start, end) = after_scheme(text.as_bytes(), at, b"bearer", b"-._~+/=")?;
    let token = &text.as_bytes()[start..end];
    let fits = token.len() >= 16 && token.iter().any(u8::is_ascii_digit);
    fits.then(|| secret_in(text, start, end, Kind::BearerToken))
}

/// Where the credentials after an authentication scheme's name at `at`
/// are (the name in any case, a word of its own, then spaces): letters,
/// digits and `also`. None when no space follows the name.
fn after_scheme(bytes: &[u8], at: usize, scheme: &[u8], also: &[u8]) -> Option<(usize, usize)> {
    let word = bytes.get(at..at + scheme.len())?;
    if !word.eq_ignore_ascii_case(scheme) || !starts_word(bytes, at) {
        return None;
    }
    let after = at + scheme.len();
    let spaces = bytes[after..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let start = after + spaces;
    let len = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || also.contains(b))
        .count();
    (spaces > 0).then_some((start, start + len))
}

/// The credentials after `Basic ` (the scheme's name in any case): RFC
/// 7617's base64 of `user-id ":" password`,
/// https://www.rfc-editor.org/rfc/rfc7617#section-2. Taken only when the
/// token decodes to text that holds the colon, so that "Basic English"
/// or "basic Instructions" stay.
pub fn basic(text: &str, at: usize) -> Option<Found> {
    let bytes = text.as_bytes();
    let (start, end) = after_scheme(bytes, at, b"basic", b"+/=")?;
    let decoded = base64(&bytes[start..end])?;
    let credentials = std::str::from_utf8(&decoded).ok()?;
    let fits = end - start >= 8
        // It ends where a header or a string does: text run on into it
        // (`…==xoxb-…`) is something else, however it is redacted.
        && bytes
            .get(end)
            .is_none_or(|b| b.is_ascii_whitespace() || b"\"'`,;)]}<>\\".contains(b))
        && credentials.contains(':')
        && !credentials.chars().any(char::is_control);
    fits.then_some(Found {
        start,
        end,
        kind: Kind::BasicCredentials,
    })
}

/// Standard base64 (RFC 4648, section 4) decoded: `None` unless every
/// byte is of the alphabet and the length is whole quadruples, `=` only
/// as the padding at the end.
fn base64(text: &[u8]) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}

/// The password in a URL's userinfo, `scheme://user:password@host`, the
/// separator at `at` being the colon after the user. The authority ends
/// at the next `/`, `?` or `#` (RFC 3986, section 3.2), and a password in
/// it is `user:password` before the `@`, a form the RFC deprecates but
/// connection strings still use (`postgres://`, `mysql://`, `redis://`,
/// `amqp://`, `mongodb+srv://`), section 3.2.1,
/// https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1. Only the
/// password goes; the user and host stay.
pub fn url_password(text: &str, at: usize) -> Option<Found> {
    /// Longer than any user, host and password: looked at no further.
    const MAX_PART: usize = 1024;
    let bytes = text.as_bytes();
    let ends_part = |b: &u8| b.is_ascii_whitespace() || b"/?#\"'<>`".contains(b);
    // Back over the user to the `//` that opens the authority.
    let user = bytes[..at]
        .iter()
        .rev()
        .take(MAX_PART)
        .take_while(|b| !ends_part(b) && !matches!(b, b'@' | b':'))
        .count();
    let slashes = at - user;
    if !bytes[..slashes].ends_with(b"://") {
        return None;
    }
    let scheme_end = slashes - 3;
    let scheme = bytes[..scheme_end]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || b"+.-".contains(b))
        .count();
    if scheme == 0 || !bytes[scheme_end - scheme].is_ascii_alphabetic() {
        return None;
    }
    // On to the last `@` before the authority ends.
    let start = at + 1;
    let rest = bytes[start..]
        .iter()
        .take(MAX_PART)
        .take_while(|b| !ends_part(b))
        .count();
    let at_sign = start
        + bytes[start..start + rest]
            .iter()
            .rposition(|b| *b == b'@')?;
    is_value(text, start, at_sign).then(|| secret_in(text, start, at_sign, Kind::Password))
}
