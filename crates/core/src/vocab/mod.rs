//! The conversation's vocabulary, which every layer above speaks: messages
//! and their blocks, a model's reply and why it stopped, a conversation's
//! shared history, the rules an API holds a request to, and times. Below
//! the dialects, which map their wire formats onto it, and the engine,
//! which runs the loop over it.

pub mod history;
pub mod message;
pub mod notes;
pub mod rules;
pub mod stop;
pub mod timing;

pub use history::{Conversation, History, Log, Messages};
pub use message::{Block, Message, Reply, Role, ToolCall, ToolDef, Usage, server_result_line};
pub use notes::{Note, Skip};
pub use rules::{Rejection, RequestRule};
pub use stop::StopReason;
pub use timing::{LONG_MILLIS, Stamp, Timing};
