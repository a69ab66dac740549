//! The proxy itself: each request forwarded to its upstream as it came
//! (but for the headers that belong to one connection, and
//! `accept-encoding`, so that the body comes back readable), the response
//! handed back as it arrives, frame by frame, never buffered, and copied
//! aside to be written to the recording once it has ended.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use tokio::sync::mpsc;

use super::log::{Append, Exchange, Log};
use super::route;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Upstream = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// What the proxy tells as it works.
pub enum Told {
    /// A request passed through that the recording does not hold.
    Unrecorded { method: String, path: String },
    /// The upstream could not be reached, or refused the connection.
    UpstreamFailed { target: String, error: String },
    /// The recording could not be written.
    WriteFailed { error: String },
}

pub struct Proxy {
    client: Upstream,
    upstreams: route::Upstreams,
    log: Arc<Log>,
    tell: Box<dyn Fn(Told) + Send + Sync>,
    /// Responses still streaming, whose exchange is not yet written.
    pub pending: tokio::sync::watch::Sender<usize>,
}

impl Proxy {
    pub fn new(
        upstreams: route::Upstreams,
        log: Arc<Log>,
        tell: Box<dyn Fn(Told) + Send + Sync>,
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
            log,
            tell,
            pending: tokio::sync::watch::Sender::new(0),
        }
    }

    /// Answers one request of the agent's.
    pub async fn handle(
        self: Arc<Self>,
        request: Request<Incoming>,
    ) -> Result<Response<Relay>, Infallible> {
        let (parts, body) = request.into_parts();
        let path = parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned();
        let sent = match body.collect().await {
            Ok(body) => body.to_bytes(),
            Err(error) => return Ok(failure(StatusCode::BAD_REQUEST, &error.to_string())),
        };
        let Some(target) = route::target(&self.upstreams, &path, &parts.headers) else {
            return Ok(failure(
                StatusCode::BAD_GATEWAY,
                "no upstream for this path",
            ));
        };
        // A place in the recording, in the order the requests came; other
        // requests (a token count, a list of models) pass through.
        let place = route::is_model_call(&path).then(|| self.log.reserve());
        if place.is_none() {
            (self.tell)(Told::Unrecorded {
                method: parts.method.to_string(),
                path: path.clone(),
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
                (self.tell)(Told::UpstreamFailed {
                    target: crate::redact::redact(&target.to_string()).into_owned(),
                    error: error.clone(),
                });
                if let Some(place) = place {
                    self.finished(place, None);
                }
                return Ok(failure(StatusCode::BAD_GATEWAY, &error));
            }
        };
        let (mut head, mut incoming) = response.into_parts();
        for name in HOP_BY_HOP {
            head.headers.remove(name);
        }
        let status = head.status.as_u16();
        let (frames, relay) = mpsc::channel(32);
        self.pending.send_modify(|n| *n += 1);
        let proxy = Arc::clone(&self);
        tokio::spawn(async move {
            let mut copy = Vec::new();
            let (mut broken, mut cancelled) = (None, false);
            while let Some(frame) = incoming.frame().await {
                let frame = frame.map_err(Error::from);
                match &frame {
                    Ok(frame) => copy.extend_from_slice(frame.data_ref().map_or(&[][..], |d| d)),
                    Err(error) => broken = Some(error.to_string()),
                }
                let stop = frame.is_err();
                // The agent may have gone: the recording still gets the rest.
                cancelled |= frames.send(frame).await.is_err();
                if stop {
                    break;
                }
            }
            if let Some(place) = place {
                let exchange = Exchange {
                    url: &path,
                    request: &sent,
                    status,
                    response: &copy,
                    broken,
                    cancelled,
                };
                proxy.finished(place, Some(&exchange));
            }
            proxy.pending.send_modify(|n| *n -= 1);
        });
        Ok(Response::from_parts(head, Relay(Some(relay), None)))
    }
}

impl Proxy {
    /// Puts an exchange, or nothing, in its place in the recording, and
    /// tells what went wrong.
    fn finished(&self, place: u64, exchange: Option<&Exchange>) {
        match self.log.finish(place, exchange) {
            Ok(()) => {}
            Err(Append::Unrecorded) => (self.tell)(Told::Unrecorded {
                method: "POST".to_owned(),
                path: exchange.map_or("", |e| e.url).to_owned(),
            }),
            Err(Append::Io(error)) => (self.tell)(Told::WriteFailed {
                error: error.to_string(),
            }),
        }
    }
}

/// The headers of one connection, which a proxy must not pass on (RFC
/// 9110, 7.6.1), and `accept-encoding`: the upstream then answers in plain
/// bytes, which the recording can read.
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

fn forwarded(headers: &HeaderMap) -> HeaderMap {
    let mut out = headers.clone();
    for name in HOP_BY_HOP
        .iter()
        .chain(&["host", "accept-encoding", "transfer-encoding"])
    {
        out.remove(*name);
    }
    out
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

/// The proxy's own answer when it cannot forward: a JSON error, as the
/// APIs give theirs, so that an SDK shows the message.
fn failure(status: StatusCode, message: &str) -> Response<Relay> {
    let body = serde_json::json!({
        "error": {"type": "loopstep_record", "message": format!("loopstep record: {message}")}
    });
    let mut response = Response::new(Relay(None, Some(Bytes::from(body.to_string()))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The body handed back: the upstream's frames as they come, or the
/// proxy's own answer whole.
pub struct Relay(
    Option<mpsc::Receiver<Result<Frame<Bytes>, Error>>>,
    Option<Bytes>,
);

impl Body for Relay {
    type Data = Bytes;
    type Error = Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Error>>> {
        if let Some(whole) = self.1.take() {
            return Poll::Ready(Some(Ok(Frame::data(whole))));
        }
        match &mut self.0 {
            Some(frames) => frames.poll_recv(cx),
            None => Poll::Ready(None),
        }
    }
}
