//! The proxy's reading of a request, before anything is sent on: any
//! request head gets an answer, never a panic; only a request under the
//! recording's token is forwarded, and only to its own family's upstream,
//! with no `..` to step out of the path it was given.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopstep::record::{Admitted, Door, Family, Upstreams, admit};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split("\r\n");
    let Some((method, target)) = lines.next().and_then(|l| l.split_once(' ')) else {
        return;
    };
    let (Ok(method), Ok(uri)) = (
        hyper::Method::from_bytes(method.as_bytes()),
        target.parse::<hyper::Uri>(),
    ) else {
        return;
    };
    let mut headers = hyper::HeaderMap::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if let (Ok(name), Ok(value)) = (
            hyper::header::HeaderName::from_bytes(name.trim().as_bytes()),
            hyper::header::HeaderValue::from_str(value.trim()),
        ) {
            headers.append(name, value);
        }
    }
    let door = Door::with_token(([127, 0, 0, 1], 4000).into(), TOKEN.to_owned());
    let mut upstreams = Upstreams::default();
    upstreams.set_from_env(Family::OpenAi, "https://api.deepseek.com/v1".to_owned());
    if let Admitted::Forward {
        family,
        target,
        path,
    } = admit(&door, &upstreams, &method, &uri, &headers)
    {
        let asked = uri.path_and_query().map_or("", |p| p.as_str());
        assert!(asked.starts_with(&format!("/{TOKEN}/")), "{asked}");
        let host = match family {
            Family::OpenAi => "api.deepseek.com",
            Family::Anthropic => "api.anthropic.com",
            Family::Gemini => "generativelanguage.googleapis.com",
            Family::Bedrock => panic!("Bedrock has no upstream here"),
        };
        assert_eq!(target.host(), Some(host), "{target}");
        assert!(!path.split(['/', '?']).any(|s| s == ".."), "{path}");
    }
});
