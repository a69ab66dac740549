//! The run screen as a scene of a lesson presented: the title names the
//! scene, the lesson's remarks join the run's own, the lesson's pace.

use super::app::{App, SPEEDS};
use crate::lesson::Text;

impl App {
    /// The screen as scene `scene` (0-based) of `of` of a lesson, with the
    /// lesson's remarks at their steps.
    pub fn in_scene(mut self, (scene, of): (usize, usize), remarks: Vec<(usize, Text)>) -> Self {
        self.scene = Some((scene, of));
        self.lesson_remarks = remarks;
        self
    }

    /// Playing by itself at `pace` (0.5, 1, 2 or 4), where it plays.
    pub fn at_pace(mut self, pace: f64) -> Self {
        if let Some(speed) = SPEEDS.iter().position(|(s, _)| *s == pace) {
            self.speed = speed;
        }
        self
    }

    /// The lesson's remark at the step on screen, in the screen's language.
    pub fn lesson_remark(&self) -> Option<&str> {
        self.lesson_remarks
            .iter()
            .find(|(step, _)| *step == self.cursor)
            .map(|(_, text)| text.get(self.lang))
    }

    /// The scene on screen and how many the lesson has, when presenting.
    pub fn scene(&self) -> Option<(usize, usize)> {
        self.scene
    }
}
