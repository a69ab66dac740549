//! Where the proxy sends a request: the upstream given, or the real API
//! the path belongs to.

use hyper::HeaderMap;
use hyper::Uri;

/// The API origins a request goes to when no upstream is given.
const OPENAI: &str = "https://api.openai.com";
const ANTHROPIC: &str = "https://api.anthropic.com";

/// Where requests go: the upstream given, else per family the base URL
/// the environment set before record replaced it, else the real API.
#[derive(Debug, Clone, Default)]
pub struct Upstreams {
    pub given: Option<String>,
    pub openai: Option<String>,
    pub anthropic: Option<String>,
}

/// The upstream's address for a request to `path_and_query`: the origin
/// given (a path it ends with, such as `/v1`, is not repeated), else the
/// Messages API's for Anthropic's paths and headers, OpenAI's for the rest
/// (Chat Completions, Responses, and anything else, passed through).
pub fn target(upstreams: &Upstreams, path_and_query: &str, headers: &HeaderMap) -> Option<Uri> {
    let anthropic = is_anthropic(path_and_query, headers);
    let origin = match (&upstreams.given, anthropic) {
        (Some(given), _) => given.as_str(),
        (None, true) => upstreams.anthropic.as_deref().unwrap_or(ANTHROPIC),
        (None, false) => upstreams.openai.as_deref().unwrap_or(OPENAI),
    };
    let origin = origin.trim_end_matches('/');
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

/// Whether a path asks a model for a reply: Chat Completions, Responses,
/// Messages (not its token counting), Gemini's `generateContent` and its
/// stream, Converse and its stream. Anything else passes through
/// unrecorded.
pub fn is_model_call(path_and_query: &str) -> bool {
    let path = path_and_query.split('?').next().unwrap_or("");
    path.ends_with("/chat/completions")
        || path.ends_with("/responses")
        || path.ends_with("/messages")
        || path.ends_with(":generateContent")
        || path.ends_with(":streamGenerateContent")
        || path.ends_with("/converse")
        || path.ends_with("/converse-stream")
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
        let upstreams = Upstreams {
            given: upstream.map(str::to_owned),
            ..Upstreams::default()
        };
        target(&upstreams, path, &HeaderMap::new())
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
        // A base URL the environment set keeps its family's calls there.
        let env = Upstreams {
            openai: Some("https://api.deepseek.com/v1".into()),
            ..Upstreams::default()
        };
        let deep = target(&env, "/v1/chat/completions", &HeaderMap::new()).unwrap();
        assert_eq!(
            deep.to_string(),
            "https://api.deepseek.com/v1/chat/completions"
        );
        let messages = target(&env, "/v1/messages", &HeaderMap::new()).unwrap();
        assert_eq!(
            messages.to_string(),
            "https://api.anthropic.com/v1/messages"
        );
        assert!(is_model_call("/v1/chat/completions"));
        assert!(is_model_call(
            "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
        ));
        assert!(!is_model_call("/v1/messages/count_tokens"));
        assert!(!is_model_call("/v1/embeddings"));
        assert!(is_upstream("http://127.0.0.1:9"));
        assert!(!is_upstream("api.openai.com"));
        assert!(!is_upstream("ftp://example.com"));
    }
}
