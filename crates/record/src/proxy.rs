//! The proxy itself: each request the agent sends to this recording's
//! address forwarded to its family's upstream as it came (but for the
//! headers that belong to one connection, and `accept-encoding`, so that
//! the body comes back readable), the response handed back as it arrives,
//! frame by frame, never buffered, and copied aside to be written to the
//! recording once it has ended.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use tokio::sync::{mpsc, watch};

use super::admit::{Admitted, Door, Refusal, admit};
use super::connections::Busy;
use super::log::{Append, Ended, Exchange, Log};
use super::route;
use crate::narrate::Say;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Upstream = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// What the proxy tells as it works. Paths are told without the
/// credentials of their query.
pub enum Happened {
    /// A request passed through that the recording does not hold.
    Unrecorded { method: String, path: String },
    /// A request that went no further than the proxy.
    Refused {
        method: String,
        path: String,
        why: Refusal,
    },
    /// A request or response over the size limit.
    TooLarge { path: String, limit: u64 },
    /// The upstream could not be reached, or refused the connection.
    UpstreamFailed { target: String, error: String },
    /// The recording could not be written.
    WriteFailed { error: String },
}

/// How far the proxy lets a connection go.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest request or response body, in bytes.
    pub max_size: u64,
    /// How long a connection may send nothing: no request, or no more of
    /// its headers or body.
    pub idle: Duration,
    /// How many connections are served at once.
    pub connections: usize,
}

pub struct Proxy {
    client: Upstream,
    upstreams: route::Upstreams,
    pub door: Door,
    log: Arc<Log>,
    tell: Box<dyn Fn(Happened) + Send + Sync>,
    pub limits: Limits,
    /// The words of a refusal, which the agent's SDK shows.
    say: Say,
    /// Responses still streaming, whose exchange is not yet written.
    pub pending: watch::Sender<usize>,
    /// Set when record stops: responses still streaming are written as
    /// they are.
    pub stopping: watch::Sender<bool>,
}

impl Proxy {
    pub fn new(
        upstreams: route::Upstreams,
        door: Door,
        log: Arc<Log>,
        limits: Limits,
        say: Say,
        tell: Box<dyn Fn(Happened) + Send + Sync>,
    ) -> Proxy {
        // The platform's roots are not read: the webpki roots are built in,
        // the same on every machine.
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(hyper_util::rt::TokioExecutor::new()).build(https);
        Proxy {
            client,
            upstreams,
            door,
            log,
            tell,
            limits,
            say,
            pending: watch::Sender::new(0),
            stopping: watch::Sender::new(false),
        }
    }

    /// Answers one request of the agent's; `busy` marks its connection
    /// busy until the response has been handed back.
    pub async fn handle(
        self: Arc<Self>,
        busy: Busy,
        request: Request<Incoming>,
    ) -> Result<Response<Relay>, Infallible> {
        let (parts, body) = request.into_parts();
        let asked = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let (target, path) = match admit(
            &self.door,
            &self.upstreams,
            &parts.method,
            &parts.uri,
            &parts.headers,
        ) {
            Admitted::Forward { target, path, .. } => (target, path),
            Admitted::AboutServer => return Ok(about_server(busy)),
            Admitted::Refused(why) => {
                (self.tell)(Happened::Refused {
                    method: parts.method.to_string(),
                    path: route::without_credentials(asked),
                    why,
                });
                return Ok(failure(busy, why.status(), super::reason(self.say, why)));
            }
        };
        let shown = route::without_credentials(&path);
        let sent = match read_body(body, &parts.headers, &self.limits).await {
            Ok(sent) => sent,
            Err(BodyError::TooLarge) => {
                (self.tell)(Happened::TooLarge {
                    path: shown,
                    limit: self.limits.max_size,
                });
                return Ok(failure(
                    busy,
                    413,
                    "the request is larger than the size limit",
                ));
            }
            Err(BodyError::Idle) => {
                return Ok(failure(busy, 408, "the request's body stopped arriving"));
            }
            Err(BodyError::Broken(error)) => return Ok(failure(busy, 400, &error)),
        };
        // A place in the order of requests; other requests (a token count,
        // a list of models) pass through.
        let place = route::is_model_call(&path).then(|| self.log.reserve());
        if place.is_none() {
            (self.tell)(Happened::Unrecorded {
                method: parts.method.to_string(),
                path: shown.clone(),
            });
        }
        let mut forward = Request::builder()
            .method(parts.method.clone())
            .uri(target.clone())
            .body(Full::new(sent.clone()))
            .expect("a method and a URI that parsed make a request");
        *forward.headers_mut() = forwarded(&parts.headers);
        if let Some(host) = target.authority() {
            let host =
                HeaderValue::from_str(host.as_str()).expect("an authority is a header value");
            forward.headers_mut().insert(header::HOST, host);
        }
        let response = match self.client.request(forward).await {
            Ok(response) => response,
            Err(error) => {
                let error = error_chain(&error);
                let shown_target = format!(
                    "{}{}",
                    crate::redact::redact(&origin_of(&target)),
                    route::without_credentials(target.path_and_query().map_or("", |p| p.as_str()))
                );
                (self.tell)(Happened::UpstreamFailed {
                    target: shown_target,
                    error: error.clone(),
                });
                return Ok(failure(busy, 502, &error));
            }
        };
        let (mut head, incoming) = response.into_parts();
        without_hop_by_hop(&mut head.headers);
        let status = head.status.as_u16();
        let (frames, relay) = mpsc::channel(32);
        self.pending.send_modify(|n| *n += 1);
        let proxy = Arc::clone(&self);
        tokio::spawn(async move {
            let mut copy = Copy::new(proxy.limits.max_size);
            let mut stopping = proxy.stopping.subscribe();
            let ended = tokio::select! {
                ended = pass_on(incoming, &frames, &mut copy) => ended,
                _ = stopping.wait_for(|stopping| *stopping) => Ended::Unfinished,
            };
            let ended = match copy.over {
                Some(size) => {
                    (proxy.tell)(Happened::TooLarge {
                        path: shown,
                        limit: proxy.limits.max_size,
                    });
                    Ended::TooLarge(size)
                }
                None => ended,
            };
            if let Some(place) = place {
                let exchange = Exchange {
                    url: &path,
                    request: &sent,
                    status,
                    response: &copy.bytes,
                    ended,
                };
                proxy.written(place, &exchange);
            }
            proxy.pending.send_modify(|n| *n -= 1);
        });
        Ok(Response::from_parts(
            head,
            Relay {
                frames: Some(relay),
                whole: None,
                _busy: busy,
            },
        ))
    }

    /// Writes an exchange to the recording, and tells what went wrong.
    fn written(&self, place: u64, exchange: &Exchange) {
        match self.log.write(place, exchange) {
            Ok(()) => {}
            Err(Append::Unrecorded) => (self.tell)(Happened::Unrecorded {
                method: "POST".to_owned(),
                path: route::without_credentials(exchange.url),
            }),
            Err(Append::Io(error)) => (self.tell)(Happened::WriteFailed {
                error: error.to_string(),
            }),
        }
    }
}

/// Hands the upstream's frames to the agent as they come, copying them
/// aside, until the response ends, breaks off, or the agent goes away:
/// then the upstream is let go too (its connection dropped), rather than
/// read on for a recording of what nobody received.
async fn pass_on(
    mut incoming: Incoming,
    frames: &mpsc::Sender<Result<Frame<Bytes>, Error>>,
    copy: &mut Copy,
) -> Ended {
    while let Some(frame) = incoming.frame().await {
        let (frame, ended) = match frame {
            Ok(frame) => {
                if let Some(data) = frame.data_ref() {
                    copy.push(data);
                }
                (Ok(frame), None)
            }
            Err(error) => {
                let ended = Ended::Broken(error.to_string());
                (Err(Error::from(error)), Some(ended))
            }
        };
        if frames.send(frame).await.is_err() {
            return Ended::Cancelled;
        }
        if let Some(ended) = ended {
            return ended;
        }
    }
    Ended::Whole
}

/// A response's copy for the recording, kept up to the size limit; past
/// it, none (the relay goes on).
struct Copy {
    bytes: Vec<u8>,
    limit: u64,
    /// The size reached when it went past the limit.
    over: Option<u64>,
}

impl Copy {
    fn new(limit: u64) -> Copy {
        Copy {
            bytes: Vec::new(),
            limit,
            over: None,
        }
    }

    fn push(&mut self, data: &[u8]) {
        if let Some(size) = &mut self.over {
            *size += data.len() as u64;
            return;
        }
        let size = (self.bytes.len() + data.len()) as u64;
        if size > self.limit {
            self.over = Some(size);
            self.bytes = Vec::new();
        } else {
            self.bytes.extend_from_slice(data);
        }
    }
}

/// Why a request's body was not read.
enum BodyError {
    TooLarge,
    /// Nothing more came for the idle timeout.
    Idle,
    Broken(String),
}

/// The request's body, as long as it comes in time and stays within the
/// size limit; the memory is taken as its length says, never as the
/// limit does.
async fn read_body(
    mut body: Incoming,
    headers: &HeaderMap,
    limits: &Limits,
) -> Result<Bytes, BodyError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.max_size) {
        return Err(BodyError::TooLarge);
    }
    let mut bytes = Vec::with_capacity(declared.unwrap_or(0) as usize);
    loop {
        match tokio::time::timeout(limits.idle, body.frame()).await {
            Err(_) => return Err(BodyError::Idle),
            Ok(None) => return Ok(Bytes::from(bytes)),
            Ok(Some(Err(error))) => return Err(BodyError::Broken(error.to_string())),
            Ok(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    if (bytes.len() + data.len()) as u64 > limits.max_size {
                        return Err(BodyError::TooLarge);
                    }
                    bytes.extend_from_slice(data);
                }
            }
        }
    }
}

/// The headers of one connection, which a proxy must not pass on (RFC
/// 9110, 7.6.1): those `Connection` names, and the ones named there.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "upgrade",
];

/// Takes off the headers of one connection, the ones `Connection` names
/// among them.
fn without_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

/// The agent's headers as they go upstream: without those of one
/// connection, nor `accept-encoding` (the upstream then answers in plain
/// bytes, which the recording can read).
fn forwarded(headers: &HeaderMap) -> HeaderMap {
    let mut out = headers.clone();
    without_hop_by_hop(&mut out);
    for name in ["host", "accept-encoding", "transfer-encoding"] {
        out.remove(name);
    }
    out
}

fn origin_of(target: &hyper::Uri) -> String {
    match (target.scheme_str(), target.authority()) {
        (Some(scheme), Some(authority)) => format!("{scheme}://{authority}"),
        _ => String::new(),
    }
}

/// What went wrong, with what caused it: "client error (Connect): tcp
/// connect error: Connection refused".
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}

/// `OPTIONS *`: what the proxy allows (RFC 9110, 9.3.7).
fn about_server(busy: Busy) -> Response<Relay> {
    let mut response = Response::new(Relay {
        frames: None,
        whole: None,
        _busy: busy,
    });
    response.headers_mut().insert(
        header::ALLOW,
        HeaderValue::from_static("GET, POST, OPTIONS"),
    );
    response
}

/// The proxy's own answer when it cannot forward: a JSON error, as the
/// APIs give theirs, so that an SDK shows the message.
fn failure(busy: Busy, status: u16, message: &str) -> Response<Relay> {
    let body = serde_json::json!({
        "error": {"type": "loopstep_record", "message": format!("loopstep record: {message}")}
    });
    let mut response = Response::new(Relay {
        frames: None,
        whole: Some(Bytes::from(body.to_string())),
        _busy: busy,
    });
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The body handed back: the upstream's frames as they come, or the
/// proxy's own answer whole. Its connection is busy until it is dropped.
pub struct Relay {
    frames: Option<mpsc::Receiver<Result<Frame<Bytes>, Error>>>,
    whole: Option<Bytes>,
    _busy: Busy,
}

impl Body for Relay {
    type Data = Bytes;
    type Error = Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Error>>> {
        if let Some(whole) = self.whole.take() {
            return Poll::Ready(Some(Ok(Frame::data(whole))));
        }
        match &mut self.frames {
            Some(frames) => frames.poll_recv(cx),
            None => Poll::Ready(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_that_connection_names_are_not_passed_on() {
        let mut headers = HeaderMap::new();
        headers.insert("connection", HeaderValue::from_static("close, X-Secret"));
        headers.insert("x-secret", HeaderValue::from_static("1"));
        headers.insert("keep-alive", HeaderValue::from_static("timeout=5"));
        headers.insert("authorization", HeaderValue::from_static("Bearer k"));
        headers.insert("accept-encoding", HeaderValue::from_static("gzip"));
        let out = forwarded(&headers);
        let names: Vec<&str> = out.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, ["authorization"]);
    }

    #[test]
    fn a_copy_past_the_limit_is_let_go_and_its_size_kept() {
        let mut copy = Copy::new(4);
        copy.push(b"abc");
        assert_eq!(copy.bytes, b"abc");
        copy.push(b"de");
        copy.push(b"fg");
        assert_eq!((copy.bytes.len(), copy.over), (0, Some(7)));
    }
}
