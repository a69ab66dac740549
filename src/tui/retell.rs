//! The same run told in another API's words, in place: its stop reasons,
//! the JSON on the wire and the request rules change; the loop and the
//! step on screen do not.

use super::app::{App, Notice};
use crate::dialect::Dialect;
use crate::engine::Config;

impl App {
    /// Tells the run in the next API that has a word for each of its stops
    /// (Chat Completions has no `pause_turn`), keeping the step; the APIs
    /// passed over are noticed, each with the stop it has no word for.
    pub(super) fn retell_next(&mut self) {
        let transcript = self.transcript();
        let now = self.config().dialect;
        let all = Dialect::ALL;
        let at = all.iter().position(|d| *d == now).unwrap_or(0);
        let mut skipped = Vec::new();
        let next = (1..all.len()).map(|k| all[(at + k) % all.len()]).find(|d| {
            match transcript.untold_in(*d) {
                Some(stop) => {
                    skipped.push((*d, stop.to_owned()));
                    false
                }
                None => true,
            }
        });
        if !skipped.is_empty() {
            self.notice = Some(Notice::Untold(skipped));
        }
        if let Some(dialect) = next {
            self.set_config(Config {
                dialect,
                ..self.config()
            });
        }
    }
}
