//! The recording: one exchange a line (loopstep's exchange log, in JSON
//! Lines), each appended whole as soon as its response has ended, whatever
//! is still streaming beside it, so that an agent or a record killed
//! mid-run still leaves every call it finished. A line's `seq` is the
//! place its request came in; the importer puts lines back in that order.
//! Headers are never written, nor a credential in a URL's query; bodies
//! are redacted unless asked. The files are the user's alone (0600).

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use serde_json::{Value, json};

use super::route::without_credentials;
use crate::redact;

/// One call as it crossed the proxy.
pub struct Exchange<'a> {
    /// The path asked for, for the importer to read a model from.
    pub url: &'a str,
    pub request: &'a [u8],
    pub status: u16,
    /// What came of the response, whole or not.
    pub response: &'a [u8],
    pub ended: Ended,
}

/// How a response ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// Whole.
    Whole,
    /// The upstream's stream broke off, with this error.
    Broken(String),
    /// The agent went away before it ended (it cancelled, or timed out
    /// and will ask again).
    Cancelled,
    /// Still streaming when record stopped.
    Unfinished,
    /// Larger than the size limit, in bytes: relayed whole, not kept.
    TooLarge(u64),
}

pub struct Log {
    file: Mutex<File>,
    redact: bool,
    written: AtomicUsize,
    unfinished: AtomicUsize,
    asked: AtomicU64,
}

impl Log {
    /// A new recording at `path`: created, never over an existing file
    /// unless `force`.
    pub fn create(path: &Path, force: bool) -> std::io::Result<Log> {
        Ok(Log {
            file: Mutex::new(Log::create_file(path, force)?),
            redact: true,
            written: AtomicUsize::new(0),
            unfinished: AtomicUsize::new(0),
            asked: AtomicU64::new(0),
        })
    }

    /// A file of record's, created as the recording is: never over an
    /// existing one unless `force`, readable by its owner only (it holds
    /// the agent's prompts, and with `--no-redact` its secrets).
    pub fn create_file(path: &Path, force: bool) -> std::io::Result<File> {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let mut options = File::options();
        options.write(true).mode(0o600);
        if force {
            options.create(true).truncate(true);
        } else {
            options.create_new(true);
        }
        let file = options.open(path)?;
        // A file that existed keeps its mode through open: set it.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        Ok(file)
    }

    /// A place in the order of requests, for one that has just come in.
    pub fn reserve(&self) -> u64 {
        self.asked.fetch_add(1, Ordering::SeqCst)
    }

    pub fn redacting(mut self, redact: bool) -> Log {
        self.redact = redact;
        self
    }

    /// How many exchanges are written so far.
    pub fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }

    /// How many of them were still streaming when record stopped.
    pub fn unfinished(&self) -> usize {
        self.unfinished.load(Ordering::SeqCst)
    }

    /// Appends the exchange whose request came in at place `seq`, written
    /// and flushed whole.
    pub fn write(&self, seq: u64, exchange: &Exchange) -> Result<(), Append> {
        let mut line = self.line(seq, exchange).ok_or(Append::Unrecorded)?;
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes()).map_err(Append::Io)?;
        file.flush().map_err(Append::Io)?;
        self.written.fetch_add(1, Ordering::SeqCst);
        if exchange.ended == Ended::Unfinished {
            self.unfinished.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }

    /// The exchange's line; `None` for no model call loopstep can read: a
    /// request that is no JSON object, a whole response neither JSON nor
    /// events.
    fn line(&self, seq: u64, exchange: &Exchange) -> Option<String> {
        let request: Value = serde_json::from_slice(exchange.request).ok()?;
        if !request.is_object() {
            return None;
        }
        let response = match (&exchange.ended, response_body(exchange.response)) {
            (Ended::TooLarge(_), _) => Value::Null,
            (_, Some(body)) => body,
            (Ended::Whole, None) => return None,
            // What came of a response cut short is kept as its text.
            (_, None) => Value::String(String::from_utf8_lossy(exchange.response).into_owned()),
        };
        let mut line = json!({
            "seq": seq,
            "url": without_credentials(exchange.url),
            "status": exchange.status,
            "request": request,
            "response": response,
        });
        match &exchange.ended {
            Ended::Whole => {}
            Ended::Broken(error) => line["error"] = json!(error),
            Ended::Cancelled => line["cancelled"] = json!(true),
            Ended::Unfinished => {
                line["cancelled"] = json!(true);
                line["unfinished"] = json!(true);
            }
            Ended::TooLarge(size) => {
                line["error"] = json!(format!(
                    "the response was larger than the size limit ({size} bytes); not kept"
                ));
            }
        }
        if self.redact {
            // A stream's text first, as its deltas read once joined: a key
            // the upstream sent over several events is whole only there.
            if let Value::String(events) = &mut line["response"] {
                *events = redact::event_stream(events);
            }
            redact::json_value(&mut line);
        }
        Some(line.to_string())
    }
}

/// A response's body as the recording keeps it: its JSON, or a stream
/// kept as the text of its events, as recorders do.
fn response_body(bytes: &[u8]) -> Option<Value> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(body) => Some(body),
        Err(_) => match std::str::from_utf8(bytes) {
            Ok(text) if is_events(text) => Some(Value::String(text.to_owned())),
            _ => None,
        },
    }
}

/// Why an exchange is not in the recording.
#[derive(Debug)]
pub enum Append {
    /// No model call loopstep can read.
    Unrecorded,
    Io(std::io::Error),
}

/// Server-sent events: `data:`, `event:` or comment lines.
fn is_events(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.starts_with("data:") || l.starts_with("event:") || l.starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_exchange_is_written_as_it_ends_with_its_place_secrets_go_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rec.jsonl");
        let log = Log::create(&path, false).unwrap();
        let request = br#"{"model": "m", "messages": [{"role": "user", "content": "my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}]}"#;
        let exchange = |request: &'static [u8], response: &'static [u8], ended| Exchange {
            url: "/v1beta/models/g:generateContent?key=AIzaSyA-0123456789abcdefghijklmnopqrstu",
            request,
            status: 200,
            response,
            ended,
        };
        let (first, second) = (log.reserve(), log.reserve());
        // The second ends first: it is written at once, not held back
        // behind the first, which may stream for ever.
        log.write(
            second,
            &exchange(request, br#"{"choices": []}"#, Ended::Whole),
        )
        .unwrap();
        assert_eq!(log.written(), 1);
        let stream = b"data: {\"a\": 1}\n\ndata: [DO";
        log.write(first, &exchange(request, stream, Ended::Unfinished))
            .unwrap();
        assert_eq!((log.written(), log.unfinished()), (2, 1));
        let third = log.reserve();
        assert!(matches!(
            log.write(third, &exchange(b"", b"{}", Ended::Whole)),
            Err(Append::Unrecorded)
        ));
        // A broken response that is no JSON is still kept, as text.
        log.write(
            third,
            &exchange(request, b"{\"cho", Ended::Broken("cut".into())),
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["seq"], 1);
        assert_eq!(lines[1]["seq"], 0);
        assert_eq!(lines[1]["unfinished"], true);
        assert_eq!(lines[2]["response"], "{\"cho");
        assert!(!text.contains("sk-proj-abcdefghij"), "{text}");
        assert!(!text.contains("AIzaSyA"), "{text}");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // Never over an existing file without force; with it, private too.
        assert!(Log::create(&path, false).is_err());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(Log::create(&path, true).is_ok());
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
