//! The same run told in another API's words, in place: its stop reasons,
//! the JSON on the wire and the request rules change; the loop and the
//! step on screen do not.

use super::app::App;
use crate::dialect::Dialect;
use crate::engine::Config;

impl App<'_> {
    /// Tells the run in the next API that has a word for each of its stops
    /// (Chat Completions has no `pause_turn`), keeping the step.
    pub(super) fn retell_next(&mut self) {
        let transcript = self.transcript();
        let now = self.config().dialect;
        let all = Dialect::ALL;
        let at = all.iter().position(|d| *d == now).unwrap_or(0);
        let next = (1..all.len())
            .map(|k| all[(at + k) % all.len()])
            .find(|d| transcript.untold_in(*d).is_none());
        if let Some(dialect) = next {
            self.set_config(Config {
                dialect,
                ..self.config()
            });
        }
    }
}
