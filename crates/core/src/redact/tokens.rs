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
    /// What the rest must look like: a random key almost always holds a
    /// digit, a word (`sk-learn-contributors`) does not.
    random: fn(&[u8]) -> bool,
    kind: Kind,
}

fn has_digit(body: &[u8]) -> bool {
    body.iter().any(u8::is_ascii_digit)
}

/// For a format whose prefix and length are enough to tell it.
fn any_body(_: &[u8]) -> bool {
    true
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

fn alnum(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
}

/// A GitLab token's bytes: URL-safe base64, and the dots of a routable
/// token's parts.
fn key_byte_or_dot(byte: u8) -> bool {
    key_byte(byte) || byte == b'.'
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
        random: has_digit,
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
        random: has_digit,
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
        random: any_body,
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
        random: any_body,
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
        random: has_digit,
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
        body: alnum,
        len: 10..=128,
        random: has_digit,
        kind: Kind::StripeKey,
    },
    // Google: API keys are `AIza` and 35 letters, digits, `-` and `_`, 39
    // in all; sources: "the key is exactly 39 characters long … letters
    // and numbers … dashes and underlines",
    // https://yeahexp.com/validate-google-api-key/, and the detectors'
    // `AIza[0-9A-Za-z_-]` (https://regexvault.io/library/google-api-key/python).
    Format {
        prefixes: &["AIza"],
        body: key_byte,
        len: 35..=35,
        random: looks_random,
        kind: Kind::GoogleApiKey,
    },
    // Hugging Face: user access tokens are `hf_` and 34 letters; sources:
    // https://huggingface.co/docs/hub/security-tokens ("hf_…") and the
    // detectors Hugging Face scans with, `hf_[a-zA-Z]{34}` (gitleaks'
    // huggingface-access-token rule, and detect-secrets'). Letters only,
    // so the mix of cases tells a token from a long word.
    Format {
        prefixes: &["hf_"],
        body: |b| b.is_ascii_alphabetic(),
        len: 34..=34,
        random: looks_random,
        kind: Kind::HuggingFaceToken,
    },
    // GitLab: the prefixes of its token overview's "Token prefixes" table,
    // https://docs.gitlab.com/17.5/ee/security/tokens/#token-prefixes (`glpat-`
    // personal, project and group access tokens, `gloas-` OAuth
    // application secrets, `gldt-` deploy, `glrt-` runner, `glcbt-` CI/CD
    // job, `glptt-` pipeline trigger, `glft-` feed, `glimt-` incoming
    // mail, `glagent-` agent, `glsoat-` SCIM, `glffct-` feature flag
    // client tokens), then 20 of URL-safe base64, or a routable token's
    // longer payload and its dotted parts, `glpat-<27 to 300>.<2>.<9>`
    // (https://handbook.gitlab.com/handbook/engineering/architecture/design-documents/cells/routable_tokens/,
    // and https://github.com/gitleaks/gitleaks/issues/1655).
    Format {
        prefixes: &[
            "glpat-", "gloas-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-",
            "glagent-", "glsoat-", "glffct-",
        ],
        body: key_byte_or_dot,
        len: 20..=400,
        random: looks_random,
        kind: Kind::GitlabToken,
    },
    // npm: `npm_` and 36 letters and digits, the last six a CRC32 checksum;
    // source: "Announcing npm's new access token format",
    // https://github.blog/2021-09-23-announcing-npms-new-access-token-format/.
    Format {
        prefixes: &["npm_"],
        body: alnum,
        len: 36..=36,
        random: has_digit,
        kind: Kind::NpmToken,
    },
    // Twilio: an API key's SID is `SK` and 32 hex digits; source: the Key
    // resource, "Pattern: ^SK[0-9a-fA-F]{32}$",
    // https://www.twilio.com/docs/iam/api-keys/key-resource-v1, and "a
    // two-letter prefix followed by 32 hexadecimal digits",
    // https://www.twilio.com/docs/glossary/what-is-a-sid.
    Format {
        prefixes: &["SK"],
        body: |b| b.is_ascii_hexdigit(),
        len: 32..=32,
        random: has_digit,
        kind: Kind::TwilioApiKey,
    },
];

/// A token known by its prefix, starting at `at`.
pub(super) fn prefixed(text: &str, at: usize) -> Option<Found> {
    let bytes = text.as_bytes();
    if !starts_word(bytes, at) {
        return None;
    }
    FORMATS
        .iter()
        .find_map(|format| format.token_at(bytes, at))
        .or_else(|| jwt(bytes, at))
}

/// A JSON Web Token in its compact form (RFC 7519, section 3.1,
/// https://www.rfc-editor.org/rfc/rfc7519#section-3.1): base64url parts
/// joined by dots, three for a signed or an unsecured token (its last part
/// empty then), five for an encrypted one (the compact serialisations of
/// RFC 7515, section 7.1, and RFC 7516, section 7.1). The first part is
/// the JOSE header, a JSON object, so it starts `eyJ` (`{"` encoded), and
/// names its `alg` ("This Header Parameter MUST be present", RFC 7515,
/// section 4.1.1): base64 that merely starts so is no token.
fn jwt(bytes: &[u8], at: usize) -> Option<Found> {
    /// Longer than any header (an algorithm, a type, a key's id).
    const MAX_HEADER: usize = 2 << 10;
    /// Longer than any claims or signature: looked at no further.
    const MAX_PART: usize = 16 << 10;
    if !bytes[at..].starts_with(b"eyJ") {
        return None;
    }
    let part = |from: usize, max: usize| {
        let len = bytes[from..]
            .iter()
            .take(max + 1)
            .take_while(|b| key_byte(**b))
            .count();
        (len <= max).then_some(len)
    };
    let header = part(at, MAX_HEADER)?;
    if !names_alg(&bytes[at..at + header]) {
        return None;
    }
    // Where each part ends.
    let mut ends = [at + header; 5];
    let mut parts = 1;
    while parts < ends.len() && bytes.get(ends[parts - 1]) == Some(&b'.') {
        let from = ends[parts - 1] + 1;
        ends[parts] = from + part(from, MAX_PART)?;
        parts += 1;
    }
    // A fourth part is a sentence's dot after a signed token, not the
    // token's.
    let end = match parts {
        5 => ends[4],
        3 | 4 => ends[2],
        _ => return None,
    };
    // Two empty parts after the header hold nothing to hide.
    (end > ends[0] + 2).then_some(Found {
        start: at,
        end,
        kind: Kind::JsonWebToken,
    })
}

/// Whether a JWT's first part decodes to a JSON object that names `alg`.
fn names_alg(header: &[u8]) -> bool {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .is_ok_and(|json| json.starts_with(b"{") && json.windows(5).any(|w| w == b"\"alg\""))
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
            len += piece;
            end = next + piece;
        }
        // A dot that ends a token ends its sentence instead.
        let dots = bytes[start..end]
            .iter()
            .rev()
            .take_while(|b| **b == b'.')
            .count();
        len -= dots;
        end -= dots;
        let fits = self.len.contains(&len)
            && (self.random)(&bytes[start..end])
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
