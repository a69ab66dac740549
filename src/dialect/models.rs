//! How much a model takes in at once, its context window, where its
//! maker's documentation says: a short table of the models loopstep's
//! runs and fixtures are recorded with, each row read from the page cited,
//! on the date given. A model not here has no window shown; a run is never
//! judged by a figure loopstep does not know.

/// Model id prefixes (a dated snapshot id begins with its alias) and their
/// context windows in tokens.
const WINDOWS: &[(&str, u64)] = &[
    // The comparison table of https://platform.claude.com/docs/en/models/overview,
    // read 2026-12-02: Claude Opus 5.5 and Sonnet 5 "1M tokens", Haiku 4.5
    // "200K tokens".
    ("claude-opus-5-5", 1_000_000),
    ("claude-sonnet-5", 1_000_000),
    ("claude-haiku-4-5", 200_000),
];

/// The context window of `model`, in tokens, if the table knows it.
pub fn context_window(model: &str) -> Option<u64> {
    WINDOWS
        .iter()
        .filter(|(prefix, _)| model.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|&(_, window)| window)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_is_known_for_a_documented_model_and_its_dated_ids_only() {
        assert_eq!(context_window("claude-opus-5-5"), Some(1_000_000));
        assert_eq!(context_window("claude-haiku-4-5-20251001"), Some(200_000));
        assert_eq!(context_window("deepseek-chat"), None);
        assert_eq!(context_window("claude-opus"), None);
    }
}
