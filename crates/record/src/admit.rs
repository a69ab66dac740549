//! What the proxy makes of a request before anything is sent on: whether
//! it is the agent's at all (sent to this recording's own address, with a
//! token no other process or web page can know), which family it belongs
//! to, and where it goes. Pure, so that it can be tested and fuzzed
//! without a socket.

use std::io::Read;
use std::net::{IpAddr, SocketAddr};

use hyper::{HeaderMap, Method, Uri};

use super::route::{self, Family, Upstreams};

/// The proxy's address as the agent is told it, and the secret path
/// prefix every request must start with.
#[derive(Debug, Clone)]
pub struct Door {
    /// `127.0.0.1:PORT`: what the agent is handed (loopback when the
    /// proxy listens on every address).
    pub address: SocketAddr,
    /// The `Host` values the agent's requests may carry: the address
    /// handed out, and `localhost` with its port. Another one is a request
    /// made to some other name that resolved here (DNS rebinding).
    hosts: Vec<String>,
    token: String,
}

impl Door {
    /// The door for a proxy listening on `local`, with a fresh token.
    pub fn new(local: SocketAddr) -> std::io::Result<Door> {
        Ok(Door::with_token(local, fresh_token()?))
    }

    pub fn with_token(local: SocketAddr, token: String) -> Door {
        let ip = match local.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::from([127, 0, 0, 1]),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        let address = SocketAddr::new(ip, local.port());
        let port = local.port();
        let mut hosts = vec![address.to_string(), format!("localhost:{port}")];
        if ip.is_loopback() {
            hosts.extend([format!("127.0.0.1:{port}"), format!("[::1]:{port}")]);
        }
        Door {
            address,
            hosts,
            token,
        }
    }

    /// The base URL handed to the agent: `http://127.0.0.1:PORT/TOKEN`.
    pub fn url(&self) -> String {
        format!("http://{}/{}", self.address, self.token)
    }
}

/// 128 bits from the system's random source, in hex: a path segment
/// every SDK keeps in its base URL.
fn fresh_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What to do with a request.
#[derive(Debug, PartialEq, Eq)]
pub enum Admitted {
    /// Send it to `target`; `path` is the request's own, the token taken
    /// off.
    Forward {
        family: Family,
        target: Uri,
        path: String,
    },
    /// `OPTIONS *` asks about the server itself, not a resource (RFC
    /// 9110, 9.3.7): the proxy answers it, nothing is forwarded.
    AboutServer,
    Refused(Refusal),
}

/// Why a request goes no further than the proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its `Host` is not the proxy's address.
    Host,
    /// Its path does not start with this recording's token: not the
    /// agent's request.
    Token,
    /// Its path and headers belong to no API family record knows.
    NoFamily,
    /// Its family has no upstream: Bedrock without `--upstream`.
    NoUpstream(Family),
}

impl Refusal {
    /// The HTTP status the agent is answered with.
    pub fn status(self) -> u16 {
        match self {
            Refusal::Host => 421,
            Refusal::Token => 403,
            Refusal::NoFamily => 404,
            Refusal::NoUpstream(_) => 502,
        }
    }
}

/// Decides what to do with a request of `method` for `uri` with `headers`.
pub fn admit(
    door: &Door,
    upstreams: &Upstreams,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
) -> Admitted {
    let host = headers
        .get(hyper::header::HOST)
        .and_then(|h| h.to_str().ok());
    if !host.is_some_and(|host| door.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))) {
        return Admitted::Refused(Refusal::Host);
    }
    if method == Method::OPTIONS && uri.path() == "*" {
        return Admitted::AboutServer;
    }
    let asked = uri.path_and_query().map_or("/", |p| p.as_str());
    let Some(path) = asked
        .strip_prefix('/')
        .and_then(|rest| rest.strip_prefix(door.token.as_str()))
        .filter(|rest| rest.starts_with('/'))
    else {
        return Admitted::Refused(Refusal::Token);
    };
    // `/TOKEN/../x` must not step out of the prefix on the upstream.
    if path
        .split(['/', '?'])
        .any(|segment| segment == ".." || segment == ".")
    {
        return Admitted::Refused(Refusal::NoFamily);
    }
    let Some(family) = route::family(path, headers) else {
        return Admitted::Refused(Refusal::NoFamily);
    };
    match route::target(upstreams, family, path) {
        Some(target) => Admitted::Forward {
            family,
            target,
            path: path.to_owned(),
        },
        None => Admitted::Refused(Refusal::NoUpstream(family)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn door() -> Door {
        Door::with_token(SocketAddr::from(([127, 0, 0, 1], 4000)), "t0k".into())
    }

    fn ask(method: Method, uri: &str, host: &'static str) -> Admitted {
        let mut headers = HeaderMap::new();
        headers.insert("host", HeaderValue::from_static(host));
        let uri: Uri = uri.parse().unwrap();
        admit(&door(), &Upstreams::default(), &method, &uri, &headers)
    }

    #[test]
    fn only_the_agent_s_requests_to_this_recording_s_address_go_on() {
        let ok = ask(Method::POST, "/t0k/v1/chat/completions", "127.0.0.1:4000");
        assert_eq!(
            ok,
            Admitted::Forward {
                family: Family::OpenAi,
                target: "https://api.openai.com/v1/chat/completions"
                    .parse()
                    .unwrap(),
                path: "/v1/chat/completions".into(),
            }
        );
        let refused = |uri, host| match ask(Method::POST, uri, host) {
            Admitted::Refused(why) => Some(why),
            _ => None,
        };
        assert_eq!(
            refused("/v1/chat/completions", "127.0.0.1:4000"),
            Some(Refusal::Token)
        );
        assert_eq!(
            refused("/t0kx/v1/chat/completions", "127.0.0.1:4000"),
            Some(Refusal::Token)
        );
        assert_eq!(
            refused("/t0k/v1/chat/completions", "evil.example:4000"),
            Some(Refusal::Host)
        );
        assert_eq!(
            refused("/t0k/../v1/chat/completions", "localhost:4000"),
            Some(Refusal::NoFamily)
        );
        assert_eq!(
            refused("/t0k/model/m/converse", "localhost:4000"),
            Some(Refusal::NoUpstream(Family::Bedrock))
        );
        assert_eq!(
            refused("http://evil.example/t0k/v1/x", "127.0.0.1:4000"),
            None,
            "absolute form: the path is what counts, and it goes to OpenAI's own host"
        );
        assert_eq!(
            ask(Method::OPTIONS, "*", "127.0.0.1:4000"),
            Admitted::AboutServer
        );
    }

    #[test]
    fn a_proxy_on_every_address_hands_out_loopback() {
        let door = Door::with_token(SocketAddr::from(([0, 0, 0, 0], 5)), "t".into());
        assert_eq!(door.url(), "http://127.0.0.1:5/t");
        assert_eq!(fresh_token().unwrap().len(), 32);
        assert_ne!(fresh_token().unwrap(), fresh_token().unwrap());
    }
}
