//! How the screen sets up the loop and itself when it opens.

use std::num::NonZeroU32;

use super::theme::Theme;
use crate::dialect::Dialect;
use crate::engine::{CheckPolicy, Mistake};
use crate::narrate::Lang;

/// How the screen sets up the loop when it opens.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    /// Overrides the run's own budget.
    pub max_turns: Option<NonZeroU32>,
    /// Tells the run in another API than its own.
    pub dialect: Option<Dialect>,
    pub check: CheckPolicy,
    pub mistake: Option<Mistake>,
    /// Draw without colour (the `NO_COLOR` convention); emphasis stays.
    pub monochrome: bool,
    pub theme: Theme,
    /// Take the mouse from the terminal, for clicks on the timeline.
    pub mouse: bool,
    pub lang: Lang,
    /// Open playing the run by itself.
    pub autoplay: bool,
    /// Open on this step (1-based) instead of the first.
    pub step: Option<usize>,
    /// Open in quiz mode.
    pub quiz: bool,
    /// Open with the ReAct lens on.
    pub react: bool,
    /// The runs' secrets were replaced as they loaded (`--redact`).
    pub redacted: bool,
}
