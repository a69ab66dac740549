//! How far the load of a file has got, for a gauge drawn on another thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Written by the loading thread, read by the screen; each figure on its
/// own, so a reader may see one a moment older than the other.
#[derive(Debug, Default)]
pub struct Progress {
    size: AtomicU64,
    read: AtomicU64,
    read_all: AtomicBool,
}

/// Where a load stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the file: `read` bytes of `size` (0 when the size is not
    /// known beforehand, as for a pipe).
    Reading { read: u64, size: u64 },
    /// The text is in; it is parsed and imported, which has no measure.
    Parsing,
}

impl Progress {
    pub fn stage(&self) -> Stage {
        if self.read_all.load(Ordering::Relaxed) {
            Stage::Parsing
        } else {
            Stage::Reading {
                read: self.read.load(Ordering::Relaxed),
                size: self.size.load(Ordering::Relaxed),
            }
        }
    }

    pub(super) fn sized(&self, size: u64) {
        self.size.store(size, Ordering::Relaxed);
    }

    pub(super) fn read(&self, bytes: u64) {
        self.read.store(bytes, Ordering::Relaxed);
    }

    pub(super) fn read_all(&self) {
        self.read_all.store(true, Ordering::Relaxed);
    }
}
