//! The commands that do more than a few lines' work, a file each: the
//! flags they take and what they do.

mod compare;
mod export;
mod import;
mod play;
mod present;
#[cfg(feature = "record")]
mod record;
mod run;
mod sweep;
mod validate;

pub use compare::Compare;
pub use export::Export;
pub use import::Import;
pub use play::Play;
#[cfg(unix)]
pub use present::Notes;
pub use present::Present;
#[cfg(feature = "record")]
pub use record::Record;
pub use run::Run;
pub use sweep::{Sweep, Table};
pub use validate::Validate;
