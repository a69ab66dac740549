//! Where the proxy sends a request: to an upstream of the API family the
//! request belongs to, and never to another family's. The family is told
//! by the credential the request carries first (whose key it is), then by
//! its path; a request of no family is refused, never guessed.

use hyper::HeaderMap;
use hyper::Uri;

/// The APIs record tells apart, each with an upstream of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// OpenAI's Chat Completions and Responses, and the many APIs that
    /// speak them (DeepSeek, a local server).
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
    /// Google's Gemini API (generateContent).
    Gemini,
    /// Amazon Bedrock's runtime (Converse).
    Bedrock,
}

impl Family {
    pub const ALL: [Family; 4] = [
        Family::OpenAi,
        Family::Anthropic,
        Family::Gemini,
        Family::Bedrock,
    ];

    /// The name `--upstream FAMILY=URL` takes.
    pub fn name(self) -> &'static str {
        match self {
            Family::OpenAi => "openai",
            Family::Anthropic => "anthropic",
            Family::Gemini => "gemini",
            Family::Bedrock => "bedrock",
        }
    }

    /// The environment variable its SDKs read for the API's address, which
    /// the agent is started with pointing at the proxy.
    /// - OpenAI's SDKs: `OPENAI_BASE_URL`, which includes `/v1`
    ///   (https://github.com/openai/openai-python#configuring-the-http-client).
    /// - Anthropic's SDKs: `ANTHROPIC_BASE_URL`, without `/v1`.
    /// - Google Gen AI SDK and Gemini CLI: `GOOGLE_GEMINI_BASE_URL`, without
    ///   the API version (python-genai's `_base_url.py`).
    /// - AWS SDKs: `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`, the service-specific
    ///   endpoint (AWS SDKs and Tools Reference Guide, "Service-specific
    ///   endpoints").
    pub fn base_url_variable(self) -> &'static str {
        match self {
            Family::OpenAi => "OPENAI_BASE_URL",
            Family::Anthropic => "ANTHROPIC_BASE_URL",
            Family::Gemini => "GOOGLE_GEMINI_BASE_URL",
            Family::Bedrock => "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
        }
    }

    /// What the family's base URL adds to the proxy's address.
    pub fn base_path(self) -> &'static str {
        match self {
            Family::OpenAi => "/v1",
            _ => "",
        }
    }

    /// The real API's origin. Bedrock has none that record can use: its
    /// SDKs sign each request (SigV4) for the address it is sent to, the
    /// proxy's, which AWS would refuse.
    fn real_api(self) -> Option<&'static str> {
        match self {
            Family::OpenAi => Some("https://api.openai.com"),
            Family::Anthropic => Some("https://api.anthropic.com"),
            Family::Gemini => Some("https://generativelanguage.googleapis.com"),
            Family::Bedrock => None,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The family a request belongs to: by its credential first, since a key
/// must only ever go to its own company, then by its path.
pub fn family(path_and_query: &str, headers: &HeaderMap) -> Option<Family> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    // SigV4: `Authorization: AWS4-HMAC-SHA256 Credential=…`
    // (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-signing-elements.html).
    if header("authorization").is_some_and(|a| a.starts_with("AWS4-"))
        || headers.contains_key("x-amz-date")
    {
        return Some(Family::Bedrock);
    }
    // Gemini's key travels in `x-goog-api-key` or the `key` query
    // parameter (https://ai.google.dev/api#authentication).
    if headers.contains_key("x-goog-api-key") || query_names(query).any(|n| n == "key") {
        return Some(Family::Gemini);
    }
    if headers.contains_key("anthropic-version") || headers.contains_key("x-api-key") {
        return Some(Family::Anthropic);
    }
    // Bedrock runtime's operations are under /model/{modelId}/
    // (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
    if path.starts_with("/model/") {
        Some(Family::Bedrock)
    } else if ["/v1beta/", "/v1alpha/", "/upload/"]
        .iter()
        .any(|p| path.starts_with(p))
        || is_gemini_method(path)
    {
        Some(Family::Gemini)
    } else if path.starts_with("/v1/messages") || path.starts_with("/v1/complete") {
        Some(Family::Anthropic)
    } else if path.starts_with("/v1/") || path == "/v1" || is_openai_root(path) {
        Some(Family::OpenAi)
    } else {
        None
    }
}

/// OpenAI's paths with no version before them, as a client asks for them
/// whose base URL has none (DeepSeek documents both forms).
fn is_openai_root(path: &str) -> bool {
    [
        "/chat/completions",
        "/responses",
        "/completions",
        "/embeddings",
        "/models",
    ]
    .iter()
    .any(|root| path == *root || path.starts_with(&format!("{root}/")))
}

/// `/v1/models/gemini-2.5-pro:generateContent`: a model's method after a
/// colon, as only Gemini's paths have.
fn is_gemini_method(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|last| last.contains(':'))
        && path.contains("/models/")
}

fn query_names(query: &str) -> impl Iterator<Item = String> + '_ {
    query
        .split('&')
        .map(|pair| pair.split('=').next().unwrap_or("").to_ascii_lowercase())
}

/// Where requests go: the upstream given for a family, else the one given
/// for every family, else the base URL the environment set for the family
/// before record replaced it, else the family's real API.
#[derive(Debug, Clone, Default)]
pub struct Upstreams {
    /// `--upstream URL`: every request, whatever its family.
    pub every: Option<String>,
    /// `--upstream FAMILY=URL`, a family each.
    pub each: [Option<String>; 4],
    /// The base URLs the environment had set, a family each.
    pub from_env: [Option<String>; 4],
}

impl Upstreams {
    pub fn set(&mut self, family: Family, url: String) {
        self.each[family.index()] = Some(url);
    }

    pub fn set_from_env(&mut self, family: Family, url: String) {
        self.from_env[family.index()] = Some(url);
    }

    /// The origin a family's requests go to; none for Bedrock without an
    /// upstream given.
    pub fn origin(&self, family: Family) -> Option<&str> {
        let i = family.index();
        self.each[i]
            .as_deref()
            .or(self.every.as_deref())
            .or(self.from_env[i].as_deref())
            .or(family.real_api())
    }
}

/// The upstream's address for a request of `family` to `path_and_query`:
/// its origin (a path it ends with, such as `/v1`, is not repeated).
pub fn target(upstreams: &Upstreams, family: Family, path_and_query: &str) -> Option<Uri> {
    let origin = upstreams.origin(family)?.trim_end_matches('/');
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

/// `--upstream`'s value: `URL` for every family, or `FAMILY=URL`.
pub fn parse_upstream(text: &str) -> Result<(Option<Family>, String), UpstreamError> {
    let (family, url) = match text.split_once('=') {
        // A URL's own `=` comes after `://`.
        Some((name, url)) if !name.contains("://") => {
            let family = Family::ALL
                .into_iter()
                .find(|f| f.name().eq_ignore_ascii_case(name))
                .ok_or(UpstreamError::Family)?;
            (Some(family), url)
        }
        _ => (None, text),
    };
    if is_upstream(url) {
        Ok((family, url.to_owned()))
    } else {
        Err(UpstreamError::Url)
    }
}

/// What is wrong with an `--upstream`.
#[derive(Debug, PartialEq, Eq)]
pub enum UpstreamError {
    /// `NAME=` names no family.
    Family,
    /// No http:// or https:// URL with a host.
    Url,
}

/// The path and query as they may be written or printed: the values of
/// query parameters that carry credentials (Gemini's `key`, a presigned
/// URL's signature) replaced, whatever else is redacted.
pub fn without_credentials(path_and_query: &str) -> String {
    let Some((path, query)) = path_and_query.split_once('?') else {
        return path_and_query.to_owned();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_credential(name) => format!("{name}=redacted"),
            _ => pair.to_owned(),
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

/// Query parameters that carry a credential: API keys, OAuth tokens, and
/// AWS's presigned-URL parameters
/// (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html).
fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace(['-', '_'], "");
    [
        "key",
        "apikey",
        "accesstoken",
        "token",
        "auth",
        "authorization",
        "sig",
        "signature",
        "xamzsignature",
        "xamzcredential",
        "xamzsecuritytoken",
        "password",
        "secret",
        "clientsecret",
        "code",
    ]
    .contains(&name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn to(upstreams: &Upstreams, path: &str, headers: &HeaderMap) -> Option<String> {
        let family = family(path, headers)?;
        target(upstreams, family, path).map(|uri| uri.to_string())
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn each_family_goes_to_its_own_api_unless_an_upstream_is_given() {
        let none = Upstreams::default();
        let plain = HeaderMap::new();
        assert_eq!(
            to(&none, "/v1/chat/completions", &plain).unwrap(),
            "https://api.openai.com/v1/chat/completions"
        );
        assert_eq!(
            to(&none, "/v1/messages", &plain).unwrap(),
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            to(
                &none,
                "/v1beta/models/gemini-2.5-pro:generateContent",
                &plain
            )
            .unwrap(),
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"
        );
        // Bedrock's requests are signed for the proxy's address: no real
        // API takes them.
        assert_eq!(to(&none, "/model/m/converse", &plain), None);
        let every = Upstreams {
            every: Some("http://127.0.0.1:8000/v1/".into()),
            ..Upstreams::default()
        };
        assert_eq!(
            to(&every, "/v1/chat/completions?x=1", &plain).unwrap(),
            "http://127.0.0.1:8000/v1/chat/completions?x=1"
        );
        assert!(is_model_call(
            "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
        ));
        assert!(!is_model_call("/v1/messages/count_tokens"));
        assert!(is_upstream("http://127.0.0.1:9"));
        assert!(!is_upstream("api.openai.com"));
    }

    #[test]
    fn a_key_never_goes_to_another_family_s_upstream() {
        // OPENAI_BASE_URL was set (DeepSeek): Gemini's and Bedrock's
        // requests, and Anthropic's, still go to their own.
        let mut env = Upstreams::default();
        env.set_from_env(Family::OpenAi, "https://api.deepseek.com/v1".into());
        let gemini = headers(&[("x-goog-api-key", "AIzaSyA-0123456789abcdefghijklmnopqrstu")]);
        let target = to(&env, "/v1beta/models/g:generateContent", &gemini).unwrap();
        assert!(target.starts_with("https://generativelanguage.googleapis.com/v1beta/"));
        // Gemini's key in the query, on a v1 path.
        let target = to(
            &env,
            "/v1/models/g:generateContent?key=AIza",
            &HeaderMap::new(),
        );
        assert!(target.unwrap().starts_with("https://generativelanguage"));
        let sigv4 = headers(&[(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261203/us-east-1/bedrock/aws4_request",
        )]);
        assert_eq!(to(&env, "/model/m/converse", &sigv4), None);
        // Even on an OpenAI-looking path, a SigV4 request is Bedrock's.
        assert_eq!(to(&env, "/v1/chat/completions", &sigv4), None);
        assert_eq!(
            to(&env, "/v1/messages", &HeaderMap::new()).unwrap(),
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            to(&env, "/v1/chat/completions", &HeaderMap::new()).unwrap(),
            "https://api.deepseek.com/v1/chat/completions"
        );
        // An upstream given for one family is that family's only.
        let mut given = Upstreams::default();
        given.set(Family::Bedrock, "http://127.0.0.1:7000/bedrock".into());
        assert_eq!(
            to(&given, "/model/m/converse", &sigv4).unwrap(),
            "http://127.0.0.1:7000/bedrock/model/m/converse"
        );
        assert!(
            to(&given, "/v1/chat/completions", &HeaderMap::new())
                .unwrap()
                .starts_with("https://api.openai.com/")
        );
        // A path of no family is refused, not sent to OpenAI.
        assert_eq!(family("/", &HeaderMap::new()), None);
        assert_eq!(family("*", &HeaderMap::new()), None);
        assert_eq!(family("/v1beta", &HeaderMap::new()), None);
        assert_eq!(family("/chatter", &HeaderMap::new()), None);
        // A base URL without /v1, as DeepSeek allows.
        assert_eq!(
            family("/chat/completions", &HeaderMap::new()),
            Some(Family::OpenAi)
        );
    }

    #[test]
    fn an_upstream_is_a_url_or_a_family_and_a_url() {
        assert_eq!(
            parse_upstream("https://api.deepseek.com"),
            Ok((None, "https://api.deepseek.com".into()))
        );
        assert_eq!(
            parse_upstream("gemini=http://127.0.0.1:1/x?a=b"),
            Ok((Some(Family::Gemini), "http://127.0.0.1:1/x?a=b".into()))
        );
        assert_eq!(
            parse_upstream("http://h/?a=b"),
            Ok((None, "http://h/?a=b".into()))
        );
        assert_eq!(
            parse_upstream("vertex=http://h"),
            Err(UpstreamError::Family)
        );
        assert_eq!(parse_upstream("openai=h"), Err(UpstreamError::Url));
    }

    #[test]
    fn credentials_in_a_query_are_never_kept() {
        assert_eq!(
            without_credentials("/v1beta/models/g:generateContent?alt=sse&key=AIzaSyA-secret"),
            "/v1beta/models/g:generateContent?alt=sse&key=redacted"
        );
        assert_eq!(
            without_credentials("/x?X-Amz-Signature=abc&API_KEY=sk&access-token=t&page=2"),
            "/x?X-Amz-Signature=redacted&API_KEY=redacted&access-token=redacted&page=2"
        );
        assert_eq!(without_credentials("/v1/messages"), "/v1/messages");
    }
}
