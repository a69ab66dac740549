//! clap's errors in the reader's language: the language is read from the
//! command line itself (`--lang`), as parsing failed before it was set,
//! else from the locale. English is clap's own rendering; Chinese names
//! the same facts from the error's context, and a kind it does not know
//! stays in clap's English.

use std::ffi::OsString;

use clap::ValueEnum;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use super::arguments::LangArg;

use crate::lang::Lang;
use crate::narrate::{ArgumentProblem, Say, TurnsProblem};

/// The language `args` ask for, or the locale's.
pub fn lang_of_args(args: &[OsString]) -> Lang {
    let args: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
    let asked = args.iter().enumerate().find_map(|(i, arg)| {
        arg.strip_prefix("--lang=").or_else(|| {
            (*arg == "--lang")
                .then(|| args.get(i + 1).copied())
                .flatten()
        })
    });
    // Read as clap reads the flag's value; a value it would refuse is none.
    LangArg::chosen(asked.and_then(|value| LangArg::from_str(value, false).ok()))
}

/// What to print for `error` in `lang`.
pub fn render(error: &clap::Error, lang: Lang) -> String {
    let english = || error.render().to_string();
    if lang == Lang::En {
        return english();
    }
    match problem(error) {
        Some(problem) => {
            Say::new(lang, crate::dialect::Dialect::default()).argument_problem(&problem)
        }
        None => english(),
    }
}

/// The facts of an error whose kind has words of its own.
fn problem(error: &clap::Error) -> Option<ArgumentProblem> {
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        _ => None,
    };
    let list = |kind| match error.get(kind) {
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    };
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    Some(match error.kind() {
        ErrorKind::InvalidValue => ArgumentProblem::InvalidValue {
            arg,
            value: text(ContextKind::InvalidValue).unwrap_or_default(),
            valid: list(ContextKind::ValidValue),
        },
        ErrorKind::ValueValidation => ArgumentProblem::Rejected {
            arg,
            value: text(ContextKind::InvalidValue).unwrap_or_default(),
            why: std::error::Error::source(error)
                .and_then(|e| e.downcast_ref::<TurnsProblem>())
                .cloned(),
        },
        ErrorKind::UnknownArgument => ArgumentProblem::Unknown {
            arg,
            suggested: list(ContextKind::SuggestedArg),
        },
        ErrorKind::InvalidSubcommand => ArgumentProblem::UnknownCommand {
            command: text(ContextKind::InvalidSubcommand).unwrap_or_default(),
            suggested: list(ContextKind::SuggestedSubcommand),
        },
        ErrorKind::MissingRequiredArgument => ArgumentProblem::Missing {
            args: list(ContextKind::InvalidArg),
        },
        _ => return None,
    })
}
