//! The recording: one exchange a line (loopstep's exchange log, in JSON
//! Lines), each appended whole the moment its response has ended, so that
//! an agent killed mid-run still leaves a valid recording of every call it
//! finished. Headers are never written; bodies are redacted unless asked.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::redact;

/// One call as it crossed the proxy.
pub struct Exchange<'a> {
    /// The path asked for, for the importer to read a model from.
    pub url: &'a str,
    pub request: &'a [u8],
    pub status: u16,
    pub response: &'a [u8],
}

pub struct Log {
    file: Mutex<File>,
    redact: bool,
    written: AtomicUsize,
}

impl Log {
    /// A new recording at `path`: created, never over an existing file
    /// unless `force`.
    pub fn create(path: &Path, force: bool) -> std::io::Result<Log> {
        let mut options = File::options();
        options.write(true);
        if force {
            options.create(true).truncate(true);
        } else {
            options.create_new(true);
        }
        Ok(Log {
            file: Mutex::new(options.open(path)?),
            redact: true,
            written: AtomicUsize::new(0),
        })
    }

    pub fn redacting(mut self, redact: bool) -> Log {
        self.redact = redact;
        self
    }

    /// How many exchanges are written so far.
    pub fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }

    /// Appends an exchange as one line, written and flushed whole.
    pub fn append(&self, exchange: &Exchange) -> Result<(), Append> {
        let mut line = self.line(exchange).ok_or(Append::Unrecorded)?;
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes()).map_err(Append::Io)?;
        file.flush().map_err(Append::Io)?;
        self.written.fetch_add(1, Ordering::SeqCst);
        Ok(())
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
    fn an_exchange_is_one_line_its_stream_kept_as_text_its_secrets_replaced() {
        let dir = std::env::temp_dir().join(format!("loopstep-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        let _ = std::fs::remove_file(&path);
        let log = Log::create(&path, false).unwrap();
        let request = br#"{"model": "m", "messages": [{"role": "user", "content": "my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}]}"#;
        log.append(&Exchange {
            url: "/v1/chat/completions",
            request,
            status: 200,
            response: b"data: {\"a\": 1}\n\ndata: [DONE]\n\n",
        })
        .unwrap();
        assert!(matches!(
            log.append(&Exchange {
                url: "/v1/models",
                request: b"",
                status: 200,
                response: b"{}"
            }),
            Err(Append::Unrecorded)
        ));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(!text.contains("sk-proj-abcdefghij"), "{text}");
        let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert!(line["response"].as_str().unwrap().starts_with("data:"));
        assert_eq!(log.written(), 1);
        // Never over an existing file without force.
        assert!(Log::create(&path, false).is_err());
        assert!(Log::create(&path, true).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
