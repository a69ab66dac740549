//! The recording: one exchange a line (loopstep's exchange log, in JSON
//! Lines), each appended whole once its response has ended and those
//! asked before it are written, so that lines keep the order the requests
//! came in and an agent killed mid-run still leaves a valid recording of
//! every call it finished. Headers are never written; bodies are redacted
//! unless asked.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::redact;

/// One call as it crossed the proxy.
pub struct Exchange<'a> {
    /// The path asked for, for the importer to read a model from.
    pub url: &'a str,
    pub request: &'a [u8],
    pub status: u16,
    pub response: &'a [u8],
    /// The upstream's stream broke off, with this error.
    pub broken: Option<String>,
    /// The agent went away before the response ended (it cancelled, or
    /// timed out and will ask again).
    pub cancelled: bool,
}

pub struct Log {
    file: Mutex<Ordered>,
    redact: bool,
    written: AtomicUsize,
    asked: AtomicU64,
}

/// The file, and the lines done but waiting for an earlier one.
struct Ordered {
    file: File,
    next: u64,
    waiting: BTreeMap<u64, Option<String>>,
}

impl Log {
    /// A new recording at `path`: created, never over an existing file
    /// unless `force`.
    pub fn create(path: &Path, force: bool) -> std::io::Result<Log> {
        Ok(Log {
            file: Mutex::new(Ordered {
                file: Log::create_file(path, force)?,
                next: 0,
                waiting: BTreeMap::new(),
            }),
            redact: true,
            written: AtomicUsize::new(0),
            asked: AtomicU64::new(0),
        })
    }

    /// A file of record's, created as the recording is: never over an
    /// existing one unless `force`.
    pub fn create_file(path: &Path, force: bool) -> std::io::Result<File> {
        let mut options = File::options();
        options.write(true);
        if force {
            options.create(true).truncate(true);
        } else {
            options.create_new(true);
        }
        options.open(path)
    }

    /// A place in the recording for a request that has just come in.
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

    /// Puts the exchange of place `at` in the recording (none: the place
    /// holds nothing), and writes every line whose turn has come, each
    /// written and flushed whole.
    pub fn finish(&self, at: u64, exchange: Option<&Exchange>) -> Result<(), Append> {
        let line = exchange.map(|e| self.line(e).ok_or(Append::Unrecorded));
        let (line, unrecorded) = match line {
            Some(Err(unrecorded)) => (None, Some(unrecorded)),
            Some(Ok(line)) => (Some(line), None),
            None => (None, None),
        };
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let ordered = &mut *guard;
        ordered.waiting.insert(at, line);
        while let Some(line) = ordered.waiting.remove(&ordered.next) {
            ordered.next += 1;
            if let Some(mut line) = line {
                line.push('\n');
                ordered
                    .file
                    .write_all(line.as_bytes())
                    .map_err(Append::Io)?;
                ordered.file.flush().map_err(Append::Io)?;
                self.written.fetch_add(1, Ordering::SeqCst);
            }
        }
        unrecorded.map_or(Ok(()), Err)
    }

    /// The exchange's line; `None` for no model call loopstep can read: a
    /// request that is no JSON object, a response neither JSON nor events.
    fn line(&self, exchange: &Exchange) -> Option<String> {
        let request: Value = serde_json::from_slice(exchange.request).ok()?;
        if !request.is_object() {
            return None;
        }
        let response = match serde_json::from_slice::<Value>(exchange.response) {
            Ok(body) => body,
            // A stream is kept as the text of its events, as recorders do.
            Err(_) => match std::str::from_utf8(exchange.response) {
                Ok(text) if is_events(text) => Value::String(text.to_owned()),
                _ => return None,
            },
        };
        let mut line = json!({
            "url": exchange.url,
            "status": exchange.status,
            "request": request,
            "response": response,
        });
        if let Some(error) = &exchange.broken {
            line["error"] = json!(error);
        }
        if exchange.cancelled {
            line["cancelled"] = json!(true);
        }
        if self.redact {
            redact::json_value(&mut line);
        }
        Some(line.to_string())
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
    fn exchanges_keep_the_order_of_their_requests_streams_stay_text_secrets_go() {
        let dir = std::env::temp_dir().join(format!("loopstep-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        let _ = std::fs::remove_file(&path);
        let log = Log::create(&path, false).unwrap();
        let request = br#"{"model": "m", "messages": [{"role": "user", "content": "my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}]}"#;
        let exchange = |request: &'static [u8], response: &'static [u8]| Exchange {
            url: "/v1/chat/completions",
            request,
            status: 200,
            response,
            broken: None,
            cancelled: false,
        };
        let (first, second) = (log.reserve(), log.reserve());
        // The second ends first: it waits for the first.
        log.finish(second, Some(&exchange(request, br#"{"choices": []}"#)))
            .unwrap();
        assert_eq!(log.written(), 0);
        let stream = b"data: {\"a\": 1}\n\ndata: [DONE]\n\n";
        log.finish(first, Some(&exchange(request, stream))).unwrap();
        assert_eq!(log.written(), 2);
        let third = log.reserve();
        assert!(matches!(
            log.finish(third, Some(&exchange(b"", b"{}"))),
            Err(Append::Unrecorded)
        ));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(!text.contains("sk-proj-abcdefghij"), "{text}");
        let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert!(line["response"].as_str().unwrap().starts_with("data:"));
        // Never over an existing file without force.
        assert!(Log::create(&path, false).is_err());
        assert!(Log::create(&path, true).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
