//! The recorded runs shipped inside the binary, so it works from any folder.

use super::{LoadError, Transcript};

/// Built-in runs in the order the screen cycles through them.
const BUILTINS: [(&str, &str); 3] = [
    (
        "aurora-run",
        include_str!("../../transcripts/aurora-run.json"),
    ),
    ("paris", include_str!("../../transcripts/paris.json")),
    (
        "aurora-run-max-turns-2",
        include_str!("../../transcripts/aurora-run-max-turns-2.json"),
    ),
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

/// The built-in run called `name`, parsed and validated, if there is one.
pub fn builtin(name: &str) -> Option<Result<Transcript, LoadError>> {
    let (_, source) = BUILTINS.iter().find(|(n, _)| *n == name)?;
    Some(Transcript::parse(source, &format!("built-in run `{name}`")))
}
