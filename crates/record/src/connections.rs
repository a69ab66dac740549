//! The connections the proxy serves: at most a cap of them at once, each
//! closed once it has sent nothing for the idle timeout, and the one idle
//! longest closed to make room when the cap is reached, so that idle or
//! trickling connections (another process's, or a slow attack's) can
//! neither keep the agent waiting nor use up the process's descriptors.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// One connection's state, shared by its task and the register.
pub struct Connection {
    /// Requests being answered on it.
    requests: AtomicUsize,
    /// When it last did anything: opened, or ended an answer.
    since: Mutex<Instant>,
    /// Happened when it must close.
    pub close: Notify,
}

impl Connection {
    fn idle_since(&self) -> Option<Instant> {
        (self.requests.load(Ordering::SeqCst) == 0)
            .then(|| *self.since.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Marks a connection busy while one of its requests is being answered:
/// from the request's head until its response has been handed back.
pub struct Busy(Arc<Connection>);

impl Busy {
    pub fn new(connection: &Arc<Connection>) -> Busy {
        connection.requests.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(connection))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        *self.0.since.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.0.requests.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The connections open now.
pub struct Connections {
    open: Mutex<HashMap<u64, Arc<Connection>>>,
    next: AtomicU64,
    cap: usize,
    /// Happened when a connection has closed.
    closed: Notify,
}

impl Connections {
    pub fn new(cap: usize) -> Connections {
        Connections {
            open: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            cap: cap.max(1),
            closed: Notify::new(),
        }
    }

    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until another connection may be taken: at the cap, the one
    /// idle longest is told to close, or else one is waited for.
    pub async fn room(&self) {
        loop {
            let closed = self.closed.notified();
            {
                let open = self.open();
                if open.len() < self.cap {
                    return;
                }
                let idlest = open
                    .values()
                    .filter_map(|c| Some((c.idle_since()?, c)))
                    .min_by_key(|(since, _)| *since);
                if let Some((_, connection)) = idlest {
                    connection.close.notify_one();
                }
            }
            closed.await;
        }
    }

    /// Registers a connection just taken; its id, to let it go by.
    pub fn add(&self) -> (u64, Arc<Connection>) {
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let connection = Arc::new(Connection {
            requests: AtomicUsize::new(0),
            since: Mutex::new(Instant::now()),
            close: Notify::new(),
        });
        self.open().insert(id, Arc::clone(&connection));
        (id, connection)
    }

    pub fn remove(&self, id: u64) {
        self.open().remove(&id);
        self.closed.notify_waiters();
    }

    /// Tells every connection idle for `idle` or longer to close.
    pub fn close_idle(&self, idle: Duration) {
        for connection in self.open().values() {
            if connection
                .idle_since()
                .is_some_and(|since| since.elapsed() >= idle)
            {
                connection.close.notify_one();
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.open().len()
    }
}

/// The cap when none is given: a quarter of the descriptors the process
/// may open (each connection takes one, and its upstream another), between
/// 16 and 512.
pub fn default_cap() -> usize {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(1024);
    usize::try_from(limit / 4).unwrap_or(512).clamp(16, 512)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_the_cap_the_connection_idle_longest_is_told_to_close() {
        let connections = Connections::new(2);
        let (first, a) = connections.add();
        let (_, b) = connections.add();
        let _busy = Busy::new(&b);
        let room = connections.room();
        tokio::pin!(room);
        // The first is idle, the second busy: the first is told.
        tokio::select! {
            _ = &mut room => panic!("no room yet"),
            _ = a.close.notified() => {}
        }
        connections.remove(first);
        room.await;
        assert_eq!(connections.len(), 1);
        // A busy connection is never closed for being idle.
        connections.close_idle(Duration::ZERO);
        let told = tokio::time::timeout(Duration::from_millis(50), b.close.notified()).await;
        assert!(told.is_err());
    }
}
