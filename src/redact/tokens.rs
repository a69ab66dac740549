//! Keys and tokens told by their prefix (`sk-ant-`, `ghp_`, `xoxb-`…), each
//! format with its source; a key wrapped at a line's end is followed onto
//! the next line.

use std::ops::RangeInclusive;

use super::{Found, Kind, is_word, starts_word};

/// A token format told by its prefix.
struct Format {
    prefixes: &'static [&'static str],
    /// The bytes the rest of the token is made of.
    body: fn(u8) -> bool,
    /// How many of them, at least and at most.
    len: RangeInclusive<usize>,
    /// Whether the rest must hold a digit: a random key almost always
    /// does, a word (`sk-learn-contributors`) does not.
    digit: bool,
    kind: Kind,
}

fn key_byte(byte: u8) -> bool {
    is_word(byte) || byte == b'-'
}

fn upper_or_digit(byte: u8) -> bool {
    byte.is_ascii_uppercase() || byte.is_ascii_digit()
}

fn alnum_or_dash(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'-'
}

/// The formats, the more particular prefix first. Lengths are of what
/// follows the prefix, with room above today's: a longer run of the same
/// bytes is something else (and is never scanned further than that).
const FORMATS: &[Format] = &[
    // Anthropic: keys start `sk-ant-` (`sk-ant-api03-` then about 95
    // letters, digits, `-` and `_`); sources: GitLab's secret detection,
    // https://gitlab.com/gitlab-org/gitlab/-/issues/481547 ("starts with
    // sk-ant-api"), and "It starts with sk-ant-" in
    // https://github.com/StuartMeeks/ficsit-foreman/wiki/Getting-an-Anthropic-API-Key.
    Format {
        prefixes: &["sk-ant-"],
        body: key_byte,
        len: 20..=300,
        digit: true,
        kind: Kind::AnthropicKey,
    },
    // OpenAI: `sk-` then letters and digits for the older user keys,
    // `sk-proj-…` for project keys; sources: "support openai 'sk-proj-'
    // apikey format", https://github.com/microsoft/autogen/pull/2426, and
    // https://airbyte.com/agentic-data/openai-api-key ("project keys
    // (sk-proj- prefix)", sent as `Authorization: Bearer …`).
    Format {
        prefixes: &["sk-"],
        body: key_byte,
        len: 20..=300,
        digit: true,
        kind: Kind::OpenAiKey,
    },
    // AWS: an access key id is 20 upper-case letters and digits, `AKIA`
    // for a long-term key, `ASIA` for a temporary one from STS; sources:
    // STS GetAccessKeyInfo (example `AKIAIOSFODNN7EXAMPLE`; "Access key IDs
    // beginning with AKIA are long-term … ASIA are temporary"),
    // https://docs.amazonaws.cn/goto/WebAPI/sts-2011-06-15/GetAccessKeyInfo,
    // and the IAM guide's unique ID prefixes,
    // https://docs.aws.amazon.com/en_cn/IAM/latest/UserGuide/reference_identifiers.md.
    Format {
        prefixes: &["AKIA", "ASIA"],
        body: upper_or_digit,
        len: 16..=16,
        digit: false,
        kind: Kind::AwsAccessKey,
    },
    // GitHub: `ghp_` personal, `gho_` OAuth, `ghu_` user-to-server, `ghs_`
    // server-to-server and `ghr_` refresh tokens, of [A-Za-z0-9_], 36 after
    // the prefix today and "up to 255 characters" announced; source:
    // https://github.blog/changelog/2021-03-31-authentication-token-format-updates-are-generally-available.
    // Fine-grained personal tokens: `github_pat_` and 82 more; sources:
    // https://boostsecurityio.github.io/bagel/detectors/github-token and
    // keyhog's detector, https://docs.rs/crate/keyhog-core/latest/source/detectors/github-pat.toml.
    Format {
        prefixes: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        body: is_word,
        len: 30..=255,
        digit: false,
        kind: Kind::GithubToken,
    },
    // Slack: `xoxb-` bot, `xoxp-` user and `xapp-` app-level tokens
    // (https://api.slack.com/authentication/token-types), `xoxe.xoxp-`
    // configuration tokens (https://luke.carrier.im/notes/o5o62ke7zhoq6njjjopno9t/),
    // `xoxc-`/`xoxd-` a browser session's (docs/01-authentication-setup.md
    // of https://github.com/korotovsky/slack-mcp-server); `xoxe-` refresh,
    // `xoxa-`, `xoxr-`, `xoxs-` older ones, as secret scanners list them
    // (https://github.com/secretlint/secretlint/issues/16).
    Format {
        prefixes: &[
            "xoxb-",
            "xoxp-",
            "xapp-",
            "xoxe.xoxp-",
            "xoxe-",
            "xoxa-",
            "xoxr-",
            "xoxs-",
            "xoxc-",
            "xoxd-",
        ],
        body: alnum_or_dash,
        len: 10..=300,
        digit: true,
        kind: Kind::SlackToken,
    },
    // Stripe: live secret keys `sk_live_` and restricted keys `rk_live_`;
    // test keys and publishable `pk_` keys are left, as Stripe's own
    // security engineer advised GitLab's secret detection: "We only care
    // about live API keys, as test keys cannot take any live actions
    // against the API … pk keys are intended to be published, but rk keys
    // are restricted. We also support longer key lengths",
    // `(sk|rk)_live_[0-9a-z]{10,128}` (case-insensitive),
    // https://gitlab.com/gitlab-org/gitlab/-/issues/458019; the key types:
    // https://docs.stripe.com/keys.
    Format {
        prefixes: &["sk_live_", "rk_live_"],
        body: |b| b.is_ascii_alphanumeric(),
        len: 10..=128,
        digit: true,
        kind: Kind::StripeKey,
    },
];

/// A token known by its prefix, starting at `at`.
pub(super) fn prefixed(text: &str, at: usize) -> Option<Found> {
    let bytes = text.as_bytes();
    if !starts_word(bytes, at) {
        return None;
    }
    FORMATS.iter().find_map(|format| format.token_at(bytes, at))
}

impl Format {
    fn token_at(&self, bytes: &[u8], at: usize) -> Option<Found> {
        let prefix = self
            .prefixes
            .iter()
            .find(|p| bytes[at..].starts_with(p.as_bytes()))?;
        let start = at + prefix.len();
        let body = |from: usize| {
            bytes[from..]
                .iter()
                .take(self.len.end() + 1)
                .take_while(|b| (self.body)(**b))
                .count()
        };
        let mut len = body(start);
        let mut end = start + len;
        let mut digit = bytes[start..end].iter().any(u8::is_ascii_digit);
        // A key wrapped at a line's end (a terminal's width, a log's) goes
        // on at the next line's start, where that line begins with more of
        // it that looks random (not a word, nor `-----BEGIN`).
        while let Some(next) = after_line_break(bytes, end) {
            let piece = body(next);
            if piece == 0
                || !looks_random(&bytes[next..next + piece])
                || len + piece > *self.len.end()
            {
                break;
            }
            digit |= bytes[next..next + piece].iter().any(u8::is_ascii_digit);
            len += piece;
            end = next + piece;
        }
        let fits = self.len.contains(&len)
            && (!self.digit || digit)
            && !bytes.get(end).is_some_and(u8::is_ascii_alphanumeric);
        fits.then_some(Found {
            start: at,
            end,
            kind: self.kind,
        })
    }
}

/// Whether `piece` has what a word rarely has and a random key almost
/// always does: a digit, or a capital right after a small letter.
fn looks_random(piece: &[u8]) -> bool {
    piece.iter().any(u8::is_ascii_digit)
        || piece
            .windows(2)
            .any(|pair| pair[0].is_ascii_lowercase() && pair[1].is_ascii_uppercase())
}

/// Where the next line begins, when a line ends at `at` (`\n` or `\r\n`).
fn after_line_break(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at..)? {
        [b'\n', ..] => Some(at + 1),
        [b'\r', b'\n', ..] => Some(at + 2),
        _ => None,
    }
}
