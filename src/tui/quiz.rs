//! The quiz: before the screen reveals what the check decides (or that
//! the budget is spent), it asks the class, who answer with a digit.

use crate::engine::{Event, Step, Verdict};

/// What can happen next, numbered as the class answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guess {
    /// 1: the check sends the tools off.
    Dispatch,
    /// 2: the check returns the text as the answer.
    Answer,
    /// 3: no turn left: the loop returns None.
    BudgetSpent,
    /// 4: anything else: a halt, a pause that calls again.
    OtherStop,
}

impl Guess {
    pub const ALL: [Guess; 4] = [
        Guess::Dispatch,
        Guess::Answer,
        Guess::BudgetSpent,
        Guess::OtherStop,
    ];

    /// The guess a digit stands for.
    pub fn of_digit(digit: u8) -> Option<Guess> {
        Guess::ALL.get(usize::from(digit).checked_sub(1)?).copied()
    }

    /// What a step that is about to be revealed turns out to be, if it is
    /// one the quiz asks about.
    pub fn of_step(step: &Step) -> Option<Guess> {
        Some(match &step.event {
            Event::Check { verdict, .. } => match verdict {
                Verdict::Dispatch => Guess::Dispatch,
                Verdict::Answer => Guess::Answer,
                Verdict::Continue | Verdict::Stop(_) => Guess::OtherStop,
            },
            Event::BudgetExhausted { .. } => Guess::BudgetSpent,
            _ => return None,
        })
    }
}

/// The quiz's state while it is on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quiz {
    pub right: u32,
    pub asked: u32,
    /// The last answer: whether it was right, and what happened.
    pub last: Option<(bool, Guess)>,
}

impl Quiz {
    /// Scores `guess`, the answer to a question whose answer is `truth`.
    pub fn answer(&mut self, guess: Guess, truth: Guess) {
        self.asked += 1;
        let right = guess == truth;
        self.right += u32::from(right);
        self.last = Some((right, truth));
    }
}
