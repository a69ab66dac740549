//! The common mistakes the lessons warn about. Each one is a [`Policy`]
//! that differs from the correct loop's in one respect; the loop consults
//! the policy and never names a mistake itself.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mistake {
    /// Runs the tools but never appends their results.
    DropResults,
    /// Does not save the model's own tool request into `messages`.
    ForgetRequest,
    /// Appends the results before the model's own request.
    WrongOrder,
    /// Appends parallel results as one message each.
    SplitResults,
    /// Ends the run when the reply has text, without reading the stop reason.
    StopOnText,
    /// Ignores max_turns; only the engine's safety cap stops the loop.
    NoBudget,
    /// Appends the turn's results but loses one of them (the last).
    DropOneResult,
    /// Runs the tools a reply asks for before reading its stop reason.
    DispatchBeforeCheck,
    /// Follows a plan written into the loop for the task (one round of
    /// tools, then the answer) instead of the model's stop reason.
    HardCodedPlan,
}

impl Mistake {
    pub const ALL: [Mistake; 9] = [
        Mistake::DropResults,
        Mistake::ForgetRequest,
        Mistake::WrongOrder,
        Mistake::SplitResults,
        Mistake::StopOnText,
        Mistake::NoBudget,
        Mistake::DropOneResult,
        Mistake::DispatchBeforeCheck,
        Mistake::HardCodedPlan,
    ];

    /// The mistake of this name, as `name` gives it.
    pub fn named(name: &str) -> Option<Mistake> {
        Mistake::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Mistake::DropResults => "drop-results",
            Mistake::ForgetRequest => "forget-request",
            Mistake::WrongOrder => "wrong-order",
            Mistake::SplitResults => "split-results",
            Mistake::StopOnText => "stop-on-text",
            Mistake::NoBudget => "no-budget",
            Mistake::DropOneResult => "drop-one-result",
            Mistake::DispatchBeforeCheck => "dispatch-before-check",
            Mistake::HardCodedPlan => "hard-coded-plan",
        }
    }

    /// The next mistake to try, or the correct loop after the last one.
    pub fn cycle(current: Option<Mistake>) -> Option<Mistake> {
        match current {
            None => Some(Mistake::ALL[0]),
            Some(m) => {
                let i = Mistake::ALL.iter().position(|x| *x == m).unwrap_or(0);
                Mistake::ALL.get(i + 1).copied()
            }
        }
    }

    /// The loop this mistake makes.
    pub fn policy(self) -> Policy {
        let correct = Policy::CORRECT;
        match self {
            Mistake::DropResults => Policy {
                results: Results::Drop,
                ..correct
            },
            Mistake::ForgetRequest => Policy {
                reply: SaveReply::Never,
                ..correct
            },
            Mistake::WrongOrder => Policy {
                reply: SaveReply::AfterResults,
                ..correct
            },
            Mistake::SplitResults => Policy {
                results: Results::OnePerResult,
                ..correct
            },
            Mistake::StopOnText => Policy {
                text_means_done: true,
                ..correct
            },
            Mistake::NoBudget => Policy {
                budget: Budget::SafetyCap,
                ..correct
            },
            Mistake::DropOneResult => Policy {
                results: Results::DropOne,
                ..correct
            },
            Mistake::DispatchBeforeCheck => Policy {
                dispatch_first: true,
                ..correct
            },
            Mistake::HardCodedPlan => Policy {
                tool_rounds: Some(1),
                ..correct
            },
        }
    }
}

/// How a loop is written, in the respects the lessons' mistakes change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub budget: Budget,
    pub reply: SaveReply,
    pub results: Results,
    /// Takes any reply with text as the answer, before reading the stop reason.
    pub text_means_done: bool,
    /// Runs any tool request before reading the stop reason.
    pub dispatch_first: bool,
    /// The task's steps written into the loop (seed 000's "hard-coding the
    /// task's reasoning into the loop"): after this many rounds of tools,
    /// the next reply is the answer, whatever the model asks for.
    pub tool_rounds: Option<u32>,
}

impl Policy {
    /// The lesson's loop.
    pub const CORRECT: Policy = Policy {
        budget: Budget::MaxTurns,
        reply: SaveReply::AtCall,
        results: Results::AsTheApiWants,
        text_means_done: false,
        dispatch_first: false,
        tool_rounds: None,
    };
}

/// What limits the number of model calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    MaxTurns,
    /// No budget: only the engine's [`SAFETY_CAP`].
    SafetyCap,
}

/// When the model's reply goes into `messages`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveReply {
    /// As soon as it arrives, before anything else.
    AtCall,
    /// After the tool results it asked for.
    AfterResults,
    Never,
}

/// How one turn's tool results go into `messages`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Results {
    /// As the run's API wants them: one message of all results (Anthropic),
    /// or one message per call (OpenAI).
    AsTheApiWants,
    OnePerResult,
    Drop,
    /// All but the last, as the API wants them.
    DropOne,
}

/// How many model calls a loop with no budget may make before the engine
/// stops it anyway: far more than any lesson needs, few enough to replay at once.
pub const SAFETY_CAP: u32 = 100;
