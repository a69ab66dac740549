//! Secrets out of every text loopstep shows or writes: API keys, tokens,
//! passwords and private keys become a marker that keeps their kind,
//! `[redacted: anthropic key]`. A best effort by pattern, not a guarantee:
//! a secret in none of the formats below, set to no telling name, stays.
//!
//! Scanned by hand in one pass rather than with the `regex` crate (or
//! `regex-lite`): the rules want a word boundary before a token, a digit
//! somewhere in it, and a look back from `=` or `:` to the name being set,
//! which regexes say awkwardly and the crate would add build time for.
//! Every rule starts on an ASCII byte and stops before one, so a cut never
//! falls inside a character; a text with no secret is returned as it is,
//! never copied, since a recording can be 50 MB.

mod assigned;
mod encoded;
mod http;
mod runs;
mod split;
mod tokens;

pub use runs::{json_value, runs, source, summary};
pub use split::{event_stream, pieces};

use std::borrow::Cow;

use assigned::assigned;
use tokens::prefixed;

/// What a secret was, as its marker says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    AnthropicKey,
    OpenAiKey,
    AwsAccessKey,
    GithubToken,
    SlackToken,
    StripeKey,
    GoogleApiKey,
    HuggingFaceToken,
    GitlabToken,
    NpmToken,
    TwilioApiKey,
    JsonWebToken,
    BearerToken,
    /// The user and password of HTTP's Basic scheme.
    BasicCredentials,
    PrivateKey,
    /// The value of `AccountKey` in an Azure Storage connection string.
    AzureStorageKey,
    /// The value of `private_key_id`, in a Google Cloud service account's
    /// key file.
    PrivateKeyId,
    /// The value of a name like `password`.
    Password,
    /// The value of a name like `secret` or `secret_access_key`.
    Secret,
    /// The value of a name like `token` or `access_token`.
    Token,
    /// The value of a name like `api_key`.
    ApiKey,
}

impl Kind {
    /// Whether secrets of this kind are tokens told by their prefix.
    fn is_token(self) -> bool {
        matches!(
            self,
            Kind::AnthropicKey
                | Kind::OpenAiKey
                | Kind::AwsAccessKey
                | Kind::GithubToken
                | Kind::SlackToken
                | Kind::StripeKey
                | Kind::GoogleApiKey
                | Kind::HuggingFaceToken
                | Kind::GitlabToken
                | Kind::NpmToken
                | Kind::TwilioApiKey
                | Kind::JsonWebToken
        )
    }

    fn label(self) -> &'static str {
        match self {
            Kind::AnthropicKey => "anthropic key",
            Kind::OpenAiKey => "openai key",
            Kind::AwsAccessKey => "aws access key",
            Kind::GithubToken => "github token",
            Kind::SlackToken => "slack token",
            Kind::StripeKey => "stripe key",
            Kind::GoogleApiKey => "google api key",
            Kind::HuggingFaceToken => "hugging face token",
            Kind::GitlabToken => "gitlab token",
            Kind::NpmToken => "npm token",
            Kind::TwilioApiKey => "twilio api key",
            Kind::JsonWebToken => "json web token",
            Kind::BearerToken => "bearer token",
            Kind::BasicCredentials => "basic credentials",
            Kind::PrivateKey => "private key",
            Kind::AzureStorageKey => "azure storage key",
            Kind::PrivateKeyId => "private key id",
            Kind::Password => "password",
            Kind::Secret => "secret",
            Kind::Token => "token",
            Kind::ApiKey => "api key",
        }
    }
}

/// How every marker begins; a value that already begins so is left alone,
/// so that redacting twice changes nothing more.
const MARKER_START: &str = "[redacted: ";

fn marker(kind: Kind) -> String {
    format!("{MARKER_START}{}]", kind.label())
}

/// A secret found: the bytes `start..end` of the text, to be replaced.
#[derive(Debug, Clone, Copy)]
pub(super) struct Found {
    start: usize,
    end: usize,
    kind: Kind,
}

/// `text` with every secret found replaced by its marker; borrowed, not
/// copied, when there is none. Redacted in passes until one finds nothing
/// more: a marker can mend what a secret had broken, a value's closing
/// quote that now ends the line it is on, so that the value around the
/// marker reads as a secret of its own the next time. Each pass that
/// changes something turns text that no marker held into a marker, so the
/// passes end; two are the rule, and `MOST_PASSES` keeps a bound on them.
pub fn redact(text: &str) -> Cow<'_, str> {
    let Cow::Owned(mut redacted) = one_pass(text) else {
        return Cow::Borrowed(text);
    };
    for _ in 1..MOST_PASSES {
        match one_pass(&redacted) {
            Cow::Borrowed(_) => break,
            Cow::Owned(more) => redacted = more,
        }
    }
    Cow::Owned(redacted)
}

/// Passes [`redact`] and [`pieces`] make at most.
const MOST_PASSES: usize = 8;

/// One pass of the redactor: secrets in plain text first, then base64
/// that decodes to a text holding one.
fn one_pass(text: &str) -> Cow<'_, str> {
    let plain = replaced(text, plain_secrets(text));
    let encoded: Vec<Found> = encoded::secrets(&plain).collect();
    if encoded.is_empty() {
        return plain;
    }
    Cow::Owned(replaced(&plain, encoded.into_iter()).into_owned())
}

/// The secrets of a text, in order, none inside another.
fn plain_secrets(text: &str) -> impl Iterator<Item = Found> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(next) = bytes[at..].iter().position(|b| STARTS[usize::from(*b)]) {
            at += next;
            match secret_at(text, at) {
                Some(found) => {
                    at = found.end;
                    return Some(found);
                }
                None => at += 1,
            }
        }
        None
    })
}

/// `text` with each secret of `found` (in order) replaced by its marker.
fn replaced(text: &str, found: impl Iterator<Item = Found>) -> Cow<'_, str> {
    let mut out: Option<String> = None;
    let mut copied = 0;
    for found in found {
        let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
        out.push_str(&text[copied..found.start]);
        push_marker(out, text, found);
        copied = found.end;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// What replaces the secret `found` of `text`, pushed onto `out`.
fn push_marker(out: &mut String, text: &str, found: Found) {
    let marker = marker(found.kind);
    if found.kind.is_token() {
        // A key wrapped over lines: each of its lines becomes the
        // marker, so that the lines around it (where a quoted value
        // stops, what starts a line) read alike the second time.
        let lines = text[found.start..found.end].split('\n');
        for (at, line) in lines.enumerate() {
            if at > 0 {
                out.push('\n');
            }
            out.push_str(&marker);
            if line.ends_with('\r') {
                out.push('\r');
            }
        }
    } else {
        out.push_str(&marker);
    }
}

/// The marker that replaces the whole value of a field whose name tells
/// it is a secret (`"password": "…"` in a tool's input): of the kind of
/// the known secret it begins with, if it does. None for an empty value,
/// or one already redacted.
fn whole_value(value: &str, kind: Kind) -> Option<String> {
    is_value(value, 0, value.len()).then(|| marker(secret_in(value, 0, value.len(), kind).kind))
}

/// Whether `start..end` holds a value still to redact: not empty, and not
/// a marker (which an unquoted value would see cut at its space).
pub(super) fn is_value(text: &str, start: usize, end: usize) -> bool {
    start < end && !text[start..].starts_with(MARKER_START)
}

/// The bytes `secret_at` looks further at, to pass over the others fast.
const STARTS: [bool; 256] = {
    let mut starts = [false; 256];
    let bytes = b"-=:BbsrAgxehnS";
    let mut i = 0;
    while i < bytes.len() {
        starts[bytes[i] as usize] = true;
        i += 1;
    }
    starts
};

/// The secret that begins at byte `at`, or for a name set with `=` or
/// `:` at `at`, the value set.
fn secret_at(text: &str, at: usize) -> Option<Found> {
    match text.as_bytes()[at] {
        b'-' => private_key(text, at),
        b'=' => assigned(text, at),
        b':' => http::url_password(text, at).or_else(|| assigned(text, at)),
        b'B' | b'b' => http::bearer(text, at).or_else(|| http::basic(text, at)),
        b's' | b'r' | b'A' | b'g' | b'x' | b'e' | b'h' | b'n' | b'S' => prefixed(text, at),
        _ => None,
    }
}

/// The secret in `start..end`, found there under `kind`: of its own kind
/// when it begins with a known secret, and running on as far as that one
/// does (a private key's lines after `key=-----BEGIN`).
pub(super) fn secret_in(text: &str, start: usize, end: usize, kind: Kind) -> Found {
    match secret_at(text, start) {
        Some(inner) if inner.start == start => Found {
            end: end.max(inner.end),
            ..inner
        },
        _ => Found { start, end, kind },
    }
}

pub(super) fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Whether a token may start at `at`: not inside a word (`task-ant…` holds
/// no `sk-ant-` key).
fn starts_word(bytes: &[u8], at: usize) -> bool {
    at == 0 || !is_word(bytes[at - 1])
}

/// A private key block, `-----BEGIN … PRIVATE KEY-----` to its
/// `-----END … PRIVATE KEY-----` (RFC 7468's textual encoding,
/// https://www.rfc-editor.org/rfc/rfc7468, and OpenSSH's and PGP's alike).
/// The block ends at the end line with the same label, as RFC 7468,
/// section 2 has generators write it; a block without one is redacted to
/// the end of the text, so that what is left never reads as another.
fn private_key(text: &str, at: usize) -> Option<Found> {
    const BEGIN: &str = "-----BEGIN ";
    const DASHES: &str = "-----";
    let label = text[at..].strip_prefix(BEGIN)?;
    // The label is short: look no further for its closing dashes.
    let head = &label.as_bytes()[..label.len().min(64)];
    let close = head
        .windows(DASHES.len())
        .position(|w| w == DASHES.as_bytes())?;
    // Labels are upper-case words (`RSA PRIVATE KEY`, `PGP PRIVATE KEY
    // BLOCK`); text that only holds the words is no block.
    let name = &label[..close];
    let upper = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' ';
    if !name.contains("PRIVATE KEY") || !name.bytes().all(upper) {
        return None;
    }
    let body = at + BEGIN.len() + close + DASHES.len();
    let end_line = format!("-----END {name}{DASHES}");
    let end = text[body..]
        .find(&end_line)
        .map_or(text.len(), |i| body + i + end_line.len());
    Some(Found {
        start: at,
        end,
        kind: Kind::PrivateKey,
    })
}

#[cfg(test)]
mod tests {
    use super::assigned::{last_word, name_kind};
    use super::*;

    #[test]
    fn a_key_wrapped_at_a_line_s_end_goes_whole_a_marker_a_line() {
        let key = "sk-proj-5okeBPMJZIScC0vPfHaithAt6rKMSe8EHx21cauvjFJIH0Eo_QnsZcyGT6kV";
        let (head, tail) = key.split_at(30);
        assert_eq!(
            redact(&format!("key: {head}\n{tail}\nnext line")),
            "key: [redacted: openai key]\n[redacted: openai key]\nnext line"
        );
        // The first piece alone is too short to tell: the prefix and no more.
        assert_eq!(
            redact(&format!(
                "The key is sk-ant-\r\napi03-{tail}\nand that is all."
            )),
            "The key is [redacted: anthropic key]\r\n[redacted: anthropic key]\nand that is all."
        );
        // What follows a whole key on the next line is no part of it.
        assert_eq!(
            redact(&format!("{key}\nModel answers\n-----BEGIN")),
            "[redacted: openai key]\nModel answers\n-----BEGIN"
        );
    }

    #[test]
    fn names_split_into_words_at_separators_and_capitals() {
        assert_eq!(last_word("apiKey"), ("api", "Key"));
        assert_eq!(
            last_word("AWS_SECRET_ACCESS_KEY"),
            ("AWS_SECRET_ACCESS", "KEY")
        );
        assert_eq!(last_word("APIKey"), ("", "APIKey"));
        assert_eq!(last_word("x-api-key_"), ("x-api", "key"));
        assert_eq!(last_word("密码"), ("", "密码"));
        assert_eq!(last_word(""), ("", ""));
    }

    #[test]
    fn a_name_tells_a_secret_by_its_last_words() {
        for (name, kind) in [
            ("password", Some(Kind::Password)),
            ("DB_PASSWORD", Some(Kind::Password)),
            ("GITHUB_TOKEN", Some(Kind::Token)),
            ("accessToken", Some(Kind::Token)),
            ("api_key", Some(Kind::ApiKey)),
            ("x-api-key", Some(Kind::ApiKey)),
            ("apikey", Some(Kind::ApiKey)),
            ("client_secret", Some(Kind::Secret)),
            ("AWS_SECRET_ACCESS_KEY", Some(Kind::Secret)),
            ("max_tokens", None),
            ("input_tokens", None),
            ("tokenizer", None),
            ("PWD", None),
            ("key", None),
            ("monkey", None),
            ("aws_access_key_id", None),
            ("AccountKey", Some(Kind::AzureStorageKey)),
            ("AZURE_STORAGE_KEY", Some(Kind::Secret)),
            ("private_key_id", Some(Kind::PrivateKeyId)),
            ("privateKeyId", Some(Kind::PrivateKeyId)),
            ("key_id", None),
            ("AccountName", None),
        ] {
            assert_eq!(name_kind(name), kind, "{name}");
        }
    }
}
