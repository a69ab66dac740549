//! Secrets passed on in base64: a key in a Kubernetes secret's `data`, a
//! `.env` file or a Docker `auth` sent encoded. A run of base64 long
//! enough to hold a key, that decodes to text in which a secret is found,
//! is replaced whole by the marker of the first secret inside. Base64 that
//! decodes to anything else (an image, a hash, a word) stays.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

use super::{Found, plain_secrets, starts_word};

/// The shortest run looked into: 18 bytes decoded, under the shortest key
/// (an AWS access key id is 20).
const SHORTEST: usize = 24;
/// The longest: a whole `.env` or kubeconfig file, not an image.
const LONGEST: usize = 64 << 10;

/// The bytes of base64, standard (`+/`) and URL-safe (`-_`) alike (RFC
/// 4648, sections 4 and 5).
fn is_base64(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'-' | b'_')
}

/// The encoded secrets of a text, in order.
pub(super) fn secrets(text: &str) -> impl Iterator<Item = Found> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            if !is_base64(bytes[at]) {
                at += 1;
                continue;
            }
            let start = at;
            at += bytes[at..].iter().take_while(|b| is_base64(**b)).count();
            let digits = at;
            // Up to two `=` of padding belong to the run.
            at += bytes[at..]
                .iter()
                .take(2)
                .take_while(|b| **b == b'=')
                .count();
            let fits =
                (SHORTEST..=LONGEST).contains(&(digits - start)) && starts_word(bytes, start);
            if let Some(found) = fits.then(|| secret_inside(&bytes[start..digits])).flatten() {
                return Some(Found {
                    start,
                    end: at,
                    kind: found.kind,
                });
            }
        }
        None
    })
}

/// The first secret in the text `run` decodes to, if it is text.
fn secret_inside(run: &[u8]) -> Option<Found> {
    let url_safe = run.iter().any(|b| matches!(b, b'-' | b'_'));
    let engine = if url_safe {
        URL_SAFE_NO_PAD
    } else {
        STANDARD_NO_PAD
    };
    let decoded = engine.decode(run).ok()?;
    let text = std::str::from_utf8(&decoded).ok()?;
    plain_secrets(text).next()
}
