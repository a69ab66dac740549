//! What a drawn frame tells the app about itself, as plain data: `update`
//! reads these facts (how far a pane can scroll, where a click landed) and
//! never calls into the view.

/// How far each pane can scroll, from what the frame actually drew, and
/// where the timeline's marks were.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extents {
    /// Rows the detail pane can scroll past.
    pub detail: usize,
    /// Messages the `messages` panel can scroll back.
    pub messages: usize,
    /// Rows the help can scroll past, when it does not fit.
    pub help: usize,
    /// Whether what each call sends was shown.
    pub growth: bool,
    /// Where the timeline's marks were.
    pub timeline: Marks,
}

/// Where the marks were drawn, so that a click can be read back as a step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// The row and the column of the first mark.
    pub row: u16,
    pub column: u16,
    /// The step of the first mark, and how many marks follow it.
    pub first: usize,
    pub count: usize,
}

impl Marks {
    /// The step whose mark is at (`column`, `row`), if one is.
    pub fn step_at(&self, column: u16, row: u16) -> Option<usize> {
        let offset = usize::from(column.checked_sub(self.column)?);
        (row == self.row && offset < self.count).then_some(self.first + offset)
    }
}
