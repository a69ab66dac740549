//! Where the proxy sends a request: the upstream given, or the real API
//! the path belongs to.

use hyper::HeaderMap;
use hyper::Uri;

/// The API origins a request goes to when no upstream is given.
const OPENAI: &str = "https://api.openai.com";
const ANTHROPIC: &str = "https://api.anthropic.com";

/// The upstream's address for a request to `path_and_query`: the origin
/// given (a path it ends with, such as `/v1`, is not repeated), else the
/// Messages API's for Anthropic's paths and headers, OpenAI's for the rest
/// (Chat Completions, Responses, and anything else, passed through).
pub fn target(upstream: Option<&str>, path_and_query: &str, headers: &HeaderMap) -> Option<Uri> {
    let origin = match upstream {
        Some(given) => given.trim_end_matches('/'),
        None if is_anthropic(path_and_query, headers) => ANTHROPIC,
        None => OPENAI,
    };
    let path = match origin.rsplit_once('/') {
        // `https://api.deepseek.com/v1` with `/v1/chat/completions`.
        Some((_, last)) if !last.contains(':') && !last.is_empty() => {
            let prefix = format!("/{last}");
            path_and_query
                .strip_prefix(&prefix)
                .filter(|rest| rest.starts_with('/'))
                .unwrap_or(path_and_query)
        }
        _ => path_and_query,
    };
    format!("{origin}{path}").parse().ok()
}

/// Anthropic's SDKs call `/v1/messages` and send `anthropic-version`.
fn is_anthropic(path: &str, headers: &HeaderMap) -> bool {
    path.starts_with("/v1/messages") || headers.contains_key("anthropic-version")
}

/// Whether `text` can be an upstream: an `http` or `https` URL with a host.
pub fn is_upstream(text: &str) -> bool {
    text.parse::<Uri>()
        .is_ok_and(|uri| matches!(uri.scheme_str(), Some("http" | "https")) && uri.host().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to(upstream: Option<&str>, path: &str) -> String {
        target(upstream, path, &HeaderMap::new())
            .unwrap()
            .to_string()
    }

    #[test]
    fn each_sdk_path_goes_to_its_api_unless_an_upstream_is_given() {
        // OPENAI_BASE_URL includes /v1, ANTHROPIC_BASE_URL does not: both
        // SDKs then ask for /v1/… of the proxy.
        assert_eq!(
            to(None, "/v1/chat/completions"),
            "https://api.openai.com/v1/chat/completions"
        );
        assert_eq!(
            to(None, "/v1/responses"),
            "https://api.openai.com/v1/responses"
        );
        assert_eq!(
            to(None, "/v1/messages"),
            "https://api.anthropic.com/v1/messages"
        );
        let deepseek = Some("https://api.deepseek.com");
        assert_eq!(
            to(deepseek, "/v1/chat/completions"),
            "https://api.deepseek.com/v1/chat/completions"
        );
        let with_v1 = Some("http://127.0.0.1:8000/v1/");
        assert_eq!(
            to(with_v1, "/v1/chat/completions?x=1"),
            "http://127.0.0.1:8000/v1/chat/completions?x=1"
        );
        assert!(is_upstream("http://127.0.0.1:9"));
        assert!(!is_upstream("api.openai.com"));
        assert!(!is_upstream("ftp://example.com"));
    }
}
