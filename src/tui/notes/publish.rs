//! The presenter's side: a Unix socket that every listener connects to,
//! and a line for each of them whenever where the presenter is changes.
//! Nothing here ever blocks: connections are taken as they come, and a
//! listener whose socket is full or closed is let go.

use std::io::{self, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};

use super::Where;

pub struct Publisher {
    path: PathBuf,
    listener: UnixListener,
    listeners: Vec<UnixStream>,
    /// The last line published, for a listener that comes later.
    last: Option<String>,
}

impl Publisher {
    /// Listens at `path`. A socket left there by a presenter that is gone
    /// is replaced; one a presenter still answers on is refused.
    pub fn bind(path: &Path) -> io::Result<Publisher> {
        super::own_socket(path)?;
        if UnixStream::connect(path).is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AddrInUse,
                "this lesson is already being presented with its notes published",
            ));
        }
        let _ = std::fs::remove_file(path);
        let listener = UnixListener::bind(path)?;
        listener.set_nonblocking(true)?;
        Ok(Publisher {
            path: path.to_owned(),
            listener,
            listeners: Vec::new(),
            last: None,
        })
    }

    /// Takes new listeners and tells everyone where the presenter is, if
    /// that changed (a new listener hears it at once either way).
    pub fn publish(&mut self, now: &Where) {
        let line = match serde_json::to_string(now) {
            Ok(json) => json + "\n",
            Err(_) => return,
        };
        let changed = self.last.as_deref() != Some(line.as_str());
        while let Ok((stream, _)) = self.listener.accept() {
            if stream.set_nonblocking(true).is_ok() {
                let mut stream = stream;
                if stream.write_all(line.as_bytes()).is_ok() {
                    self.listeners.push(stream);
                }
            }
        }
        if changed {
            self.listeners
                .retain_mut(|stream| stream.write_all(line.as_bytes()).is_ok());
            self.last = Some(line);
        }
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
