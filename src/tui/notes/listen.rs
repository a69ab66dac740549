//! The listener's side: a thread that connects to the presenter's socket,
//! waiting for it to appear, reads where it is line by line, and when the
//! presenter goes away waits for it again.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use super::Where;

/// What the listener hears.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    At(Where),
    /// The presenter went away (or is not there yet).
    Gone,
}

/// The longest line a presenter sends, and far more.
const MOST_LINE: u64 = 64 * 1024;

/// How often the listener looks for a presenter that is not there yet.
const LOOK_AGAIN: Duration = Duration::from_millis(100);

/// Starts listening on `path`; what is heard comes through the receiver.
pub fn listen(path: PathBuf) -> Receiver<Heard> {
    let (tell, heard) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            // Only a presenter of this user's is listened to.
            let Ok(stream) = super::own_socket(&path).and_then(|()| UnixStream::connect(&path))
            else {
                std::thread::sleep(LOOK_AGAIN);
                continue;
            };
            let mut reader = BufReader::new(stream);
            let mut line = String::new();
            loop {
                line.clear();
                // A line is a few hundred bytes: one far longer is no
                // presenter's, and is not read whole.
                match (&mut reader).take(MOST_LINE).read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if let Ok(at) = serde_json::from_str::<Where>(&line)
                    && tell.send(Heard::At(at)).is_err()
                {
                    return;
                }
            }
            if tell.send(Heard::Gone).is_err() {
                return;
            }
            std::thread::sleep(LOOK_AGAIN);
        }
    });
    heard
}
