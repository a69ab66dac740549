//! A step named so that it survives a re-recording: by its turn and phase
//! (`turn 1 dispatch`), or by its number (1-based), as the screen shows it.

use std::fmt;

use serde::{Deserialize, Deserializer};

use crate::engine::Step;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepName {
    /// The n-th step, from 1.
    Number(usize),
    /// The first step of this phase in this turn.
    Phase { turn: u32, phase: String },
}

impl StepName {
    /// Reads `turn 1 dispatch` or `7`; `None` for anything else.
    pub fn parse(text: &str) -> Option<StepName> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [number] => number
                .parse()
                .ok()
                .filter(|n| *n >= 1)
                .map(StepName::Number),
            ["turn", turn, phase] => Some(StepName::Phase {
                turn: turn.parse().ok()?,
                phase: phase.to_string(),
            }),
            _ => None,
        }
    }
}

impl fmt::Display for StepName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepName::Number(n) => write!(f, "{n}"),
            StepName::Phase { turn, phase } => write!(f, "turn {turn} {phase}"),
        }
    }
}

impl<'de> Deserialize<'de> for StepName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(usize),
            Words(String),
        }
        let wrong = || {
            serde::de::Error::custom(
                "a step is its number (from 1) or its turn and phase, such as \"turn 1 dispatch\"",
            )
        };
        match Written::deserialize(d)? {
            Written::Number(n) if n >= 1 => Ok(StepName::Number(n)),
            Written::Number(_) => Err(wrong()),
            Written::Words(words) => StepName::parse(&words).ok_or_else(wrong),
        }
    }
}

/// Where `name` is among `steps` (0-based), if the run has it.
pub fn find_step(steps: &[Step], name: &StepName) -> Option<usize> {
    match name {
        StepName::Number(n) => (*n <= steps.len()).then(|| n - 1),
        StepName::Phase { turn, phase } => steps
            .iter()
            .position(|s| s.turn == *turn && s.event.phase().as_str() == phase),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_is_named_by_number_or_by_turn_and_phase() {
        assert_eq!(StepName::parse("7"), Some(StepName::Number(7)));
        assert_eq!(
            StepName::parse("turn 1 dispatch"),
            Some(StepName::Phase {
                turn: 1,
                phase: "dispatch".into()
            })
        );
        assert_eq!(StepName::parse("0"), None);
        assert_eq!(StepName::parse("turn one call"), None);
        assert_eq!(StepName::parse("dispatch"), None);
        assert_eq!(
            StepName::parse("turn 2 budget_exhausted")
                .unwrap()
                .to_string(),
            "turn 2 budget_exhausted"
        );
    }
}
