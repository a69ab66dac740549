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
    // Each model's own page, read 2026-12-06 ("Context window: …"):
    // https://platform.claude.com/docs/en/models/opus-4-8/overview,
    // …/opus-4-6/overview and …/sonnet-4-6/overview "1M tokens";
    // …/sonnet-4-5/overview "200K tokens" (1M only with a beta, which a
    // recording does not show).
    ("claude-opus-4-8", 1_000_000),
    ("claude-opus-4-6", 1_000_000),
    ("claude-sonnet-4-6", 1_000_000),
    ("claude-sonnet-4-5", 200_000),
    // Google's model pages, read 2026-12-06, "Input token limit
    // 1,048,576": https://ai.google.dev/gemini-api/docs/models/gemini-2.0-flash,
    // …/gemini-3-pro-preview and …/gemini-3.1-pro-preview; Gemini 2.5 Pro
    // and 3 Flash from Google Cloud's pages
    // (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/models/gemini/3-flash).
    ("gemini-2.0-flash", 1_048_576),
    ("gemini-2.5-pro", 1_048_576),
    ("gemini-3-pro-preview", 1_048_576),
    ("gemini-3-flash-preview", 1_048_576),
    ("gemini-3.1-pro-preview", 1_048_576),
    // DeepSeek's Models & Pricing page, https://api-docs.deepseek.com/quick_start/pricing
    // (as archived 2026-04-26): "CONTEXT LENGTH 1M". Its aliases
    // deepseek-chat and deepseek-reasoner had 64K, then 128K, before they
    // came to stand for this model: a recording's date would decide, so
    // they claim nothing.
    ("deepseek-v4-flash", 1_000_000),
    // OpenAI's model pages, read 2026-12-06 from stored copies of them:
    // https://developers.openai.com/api/docs/models/gpt-4o and …/gpt-4o-mini
    // "128,000 context window" (the snapshots gpt-4o-2024-08-06 and
    // gpt-4o-mini-2024-07-18 are their defaults); …/gpt-5.5 "1,050,000
    // context window".
    ("gpt-4o", 128_000),
    ("gpt-4o-mini", 128_000),
    ("gpt-5.5", 1_050_000),
    // Anthropic's models overview, read 2026-12-06 from stored copies:
    // https://platform.claude.com/docs/en/about-claude/models/overview,
    // legacy models, Claude Opus 4.1 and Claude Sonnet 4 "200k tokens"; its
    // earlier version at https://docs.anthropic.com/en/docs/about-claude/models/overview,
    // claude-3-5-sonnet-20241022 and claude-3-opus-20240229 "200K".
    ("claude-opus-4-1", 200_000),
    ("claude-sonnet-4-0", 200_000),
    ("claude-sonnet-4-20250514", 200_000),
    ("claude-3-5-sonnet", 200_000),
    ("claude-3-opus", 200_000),
    // No maker's page for GPT-5 or its codex models was found to read:
    // none is claimed.
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
        assert_eq!(context_window("claude-sonnet-4-5-20250929"), Some(200_000));
        assert_eq!(
            context_window("gemini-3.1-pro-preview-customtools"),
            Some(1_048_576)
        );
        assert_eq!(context_window("gemini-3-pro-preview"), Some(1_048_576));
        assert_eq!(context_window("gpt-4o-2024-08-06"), Some(128_000));
        assert_eq!(context_window("gpt-4o-mini-2024-07-18"), Some(128_000));
        assert_eq!(context_window("claude-sonnet-4-20250514"), Some(200_000));
        assert_eq!(context_window("claude-3-opus-20240229"), Some(200_000));
        assert_eq!(context_window("gpt-5"), None);
        assert_eq!(context_window("gpt-5.1-codex"), None);
        assert_eq!(context_window("claude-opus"), None);
    }
}
