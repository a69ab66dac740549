//! The recorded runs shipped inside the binary, so it works from any folder.

use super::{LoadError, Transcript};
use crate::lang::Lang;

/// A built-in run: its name and the transcript file of that name.
macro_rules! run {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../../transcripts/", $name, ".json")),
        )
    };
}

/// Built-in runs in the order the screen cycles through them: the three
/// lesson runs, then the edge cases.
const BUILTINS: [(&str, &str); 20] = [
    run!("aurora-run"),
    run!("paris"),
    run!("aurora-run-max-turns-2"),
    run!("search-miss"),
    run!("parallel-tools"),
    run!("always-search"),
    run!("tool-failure"),
    run!("tool-failure-raises"),
    run!("tool-timeout"),
    run!("streamed-reply"),
    run!("retried-call"),
    run!("compacted-context"),
    run!("malformed-request"),
    run!("max-tokens"),
    run!("refusal"),
    run!("pause-turn"),
    run!("todays-date"),
    run!("answered-not-verified"),
    run!("not-done-yet"),
    run!("pending-tool-call"),
];

pub const BUILTIN_NAMES: [&str; BUILTINS.len()] = {
    let mut names = [""; BUILTINS.len()];
    let mut i = 0;
    while i < BUILTINS.len() {
        names[i] = BUILTINS[i].0;
        i += 1;
    }
    names
};

/// The transcript file of the built-in run called `name`, as shipped: its
/// texts in both languages.
pub fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The built-in run called `name`, parsed and validated, if there is one.
pub fn builtin(name: &str) -> Option<Result<Transcript, LoadError>> {
    builtin_in(name, Lang::En)
}

/// The same, its texts in `lang`.
pub fn builtin_in(name: &str, lang: Lang) -> Option<Result<Transcript, LoadError>> {
    let (_, source) = BUILTINS.iter().find(|(n, _)| *n == name)?;
    Some(Transcript::parse_in(
        source,
        &format!("built-in run `{name}`"),
        lang,
    ))
}
