//! What a message in the user's role is to the loop: a person's prompt,
//! which starts a run, or the harness's own words within a run (its
//! push-back after an answer, a nudge after a tool round, another agent's
//! work handed over as context). Tool results, the client's additions
//! (Claude Code's `isMeta` lines), interruptions and compactions are told
//! apart by the importers from what their formats record; this module
//! decides for the rest, the plain texts, and every importer that cuts a
//! conversation into runs asks it (through `segment::cut_runs`).
//!
//! It decides by where the loop stands, then by the words:
//!
//! | where the loop stands              | words of a known template | other words    |
//! |------------------------------------|---------------------------|----------------|
//! | no reply yet in the run, or it ended (interrupted) | a prompt | a prompt |
//! | the last reply asked for tools and every result came back | the harness's, of its kind | the harness's |
//! | the last reply asked for tools, some results never came   | the harness's, of its kind | a prompt (the turn was cut) |
//! | the last reply asked for no tool (an answer)              | the harness's push-back    | a prompt       |
//!
//! Between a tool round and the next call the loop has not ended, so no
//! person's prompt can start there: whatever text comes is the harness's.
//! After an answer, nothing in a plain conversation tells a person's next
//! prompt from a harness sending the model back to work; the templates
//! below, each the fixed words of a harness's source, do.

use crate::engine::PushBack;

/// Where the loop stands when a user-role text comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// No reply yet since the run's prompt, or no run at all.
    Unanswered,
    /// The last reply asked for tools and all their results are in.
    RoundDone,
    /// The last reply asked for tools, and some of them got no result.
    RoundCut,
    /// The last reply asked for no tool.
    Answered,
    /// The run was ended, by the user's interruption or its harness.
    Ended,
    /// The agent ended the run with its own call (`finish`), which its
    /// harness may yet refuse.
    Finished,
}

/// What a user-role text is, as [`tell`] decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// A person's prompt: a run of its own.
    Prompt,
    /// The harness's own words within the run, and the template that
    /// told them, where one did.
    Harness(Option<&'static Template>),
}

/// The fixed opening words of what harnesses send the model within a
/// run, the harness named for the import's note, and what they are for.
/// Each is quoted from the harness's source at the revision cited; an
/// opening is long enough that no person's prompt starts with it.
pub const TEMPLATES: &[Template] = &[
    // mini-swe-agent 1.x (MIT), agents/default.py at v1.17.5 (68d367bf)
    // and the configs' `format_error_template`: a reply with no bash
    // block, or more than one.
    template(
        "Please always provide EXACTLY ONE action in triple backticks",
        "mini-swe-agent",
        PushBack::FormatError,
    ),
    // mini-swe-agent 2.x (MIT), config/mini.yaml and default.yaml at
    // v2.4.6 (a83fcae8): `format_error_template`, for tool-calling and for
    // text-based models, and its branch for a reply cut at the limit.
    template(
        "Tool call error:\n<error>",
        "mini-swe-agent",
        PushBack::FormatError,
    ),
    template(
        "Format error:\n<error>",
        "mini-swe-agent",
        PushBack::FormatError,
    ),
    template(
        "Your previous response reached the output token limit",
        "mini-swe-agent",
        PushBack::FormatError,
    ),
    // SWE-agent (MIT), sweagent/tools/parsing.py at 3ea751c0: the
    // parsers' `error_message`s, and the blocklist's and shell check's
    // templates (sweagent/tools/tools.py, sweagent/agent/agents.py).
    template(
        "Your last output did not use any tool calls!",
        "SWE-agent",
        PushBack::FormatError,
    ),
    template(
        "Your last output included multiple tool calls!",
        "SWE-agent",
        PushBack::FormatError,
    ),
    template(
        "Your action could not be parsed properly:",
        "SWE-agent",
        PushBack::FormatError,
    ),
    template(
        "Your output was not formatted correctly.",
        "SWE-agent",
        PushBack::FormatError,
    ),
    template(
        "We did not detect the right number of bash code blocks in your output.",
        "SWE-agent",
        PushBack::FormatError,
    ),
    template(
        "Your bash command contained syntax errors and was NOT executed.",
        "SWE-agent",
        PushBack::FormatError,
    ),
    // Inspect AI (MIT), solver/_basic_agent.py and agent/_types.py at
    // 499e6152: the continue message when a reply calls no tool, and the
    // message after a submission scored wrong.
    template(
        "Please proceed to the next step using your best judgement.",
        "Inspect",
        PushBack::Nudge,
    ),
    template(
        "Your submission was incorrect.",
        "Inspect",
        PushBack::GoalCheck,
    ),
    // crewAI (MIT), translations/en.json and agents/parser.py at f4731f50:
    // the nudge after a tool round, and the ReAct parser's errors.
    template("Analyze the tool result.", "crewAI", PushBack::Nudge),
    template(
        "I did it wrong. Invalid Format:",
        "crewAI",
        PushBack::FormatError,
    ),
    template(
        "Sorry, I didn't use the right format.",
        "crewAI",
        PushBack::FormatError,
    ),
    // Google ADK (Apache-2.0), flows/llm_flows/contents.py (1.x, 2.0) and
    // context/_fencing.py (2.8): another agent's events, told to this one.
    template("For context: [", "Google ADK", PushBack::Handoff),
    template(
        "For context: below is a transcript of what another agent did",
        "Google ADK",
        PushBack::Handoff,
    ),
    // Cline (Apache-2.0), src/core/prompts/responses.ts at v3.20.0
    // (e8aaa614): `noToolsUsed`, after a reply that used no tool.
    template(
        "[ERROR] You did not use a tool",
        "Cline",
        PushBack::FormatError,
    ),
    // OpenHands (MIT), evaluation/utils/shared.py at 156d0686 and the
    // benchmarks' fake_user_response.py: the stand-in user's answer when
    // the agent asks instead of acting; and the SDK's nudge,
    // agent/response_dispatch.py at 611629e6.
    template(
        "Please continue working on the task on whatever approach you think is suitable.",
        "OpenHands",
        PushBack::Nudge,
    ),
    template(
        "Your last response did not include a function call or a message.",
        "OpenHands",
        PushBack::Nudge,
    ),
    // The OpenHands CLI (MIT), openhands_cli/tui/utils/critic/refinement.py
    // at 6b3838ce: its critic's iterative refinement, as a user message.
    template(
        "The task appears incomplete (iteration",
        "the OpenHands CLI",
        PushBack::GoalCheck,
    ),
    // aider (Apache-2.0), aider/coders/base_coder.py at 5dc9490b: its
    // reflections after the files a reply named were added
    // (prompts.py `added_files`), and after lint errors (linter.py).
    template("I added these files to the chat:", "aider", PushBack::Nudge),
    template(
        "# Fix any errors below, if possible.",
        "aider",
        PushBack::GoalCheck,
    ),
    // Pydantic AI (MIT), pydantic_ai_slim/pydantic_ai/messages.py at
    // 4fda3898, `RetryPromptPart.model_response`: an output that failed
    // its validation, sent back as a user message when no tool carried it
    // (the other form opens with a count of errors, no fixed words).
    template("Validation feedback:", "Pydantic AI", PushBack::FormatError),
    // Claude Code 2.1.332 (its npm package; no public source): a Stop
    // hook's reason, written back as an `isMeta` line.
    template("Stop hook feedback:", "Claude Code", PushBack::GoalCheck),
];

const fn template(opening: &'static str, harness: &'static str, by: PushBack) -> Template {
    Template {
        opening,
        harness,
        by,
    }
}

/// One harness's fixed words.
#[derive(Debug, PartialEq, Eq)]
pub struct Template {
    pub opening: &'static str,
    pub harness: &'static str,
    pub by: PushBack,
}

/// The template whose opening words `text` starts with, if any, blank
/// space compared as blank space of any length (a harness's versions
/// differ in their blank lines: mini-swe-agent 2.2 writes "Tool call
/// error:" and "<error>" a blank line apart).
pub fn template_of(text: &str) -> Option<&'static Template> {
    TEMPLATES
        .iter()
        .find(|t| starts_with_words(text, t.opening))
}

/// Whether `text` starts with `opening`, word for word.
fn starts_with_words(text: &str, opening: &str) -> bool {
    let mut text = text.split_whitespace();
    let mut words = opening.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match text.next() {
            // The last word may go on in the text ("Format error:" ends a
            // word; "actions." may be followed by more).
            Some(said) if words.peek().is_none() => return said.starts_with(word),
            Some(said) if said == word => {}
            _ => return false,
        }
    }
    true
}

/// What the user-role `text` is, the loop standing as it does.
pub fn tell(text: &str, standing: Standing) -> Speaker {
    match (standing, template_of(text)) {
        (Standing::Unanswered | Standing::Ended, _) => Speaker::Prompt,
        (_, Some(template)) => Speaker::Harness(Some(template)),
        (Standing::Finished, None) => Speaker::Prompt,
        (Standing::RoundDone, None) => Speaker::Harness(None),
        (Standing::RoundCut | Standing::Answered, None) => Speaker::Prompt,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_the_loop_stands_decides_first_then_the_words() {
        let format_error = "Please always provide EXACTLY ONE action in triple backticks, found 2.";
        let plain = "Now do it for /var too.";
        let harness = |told: Speaker| match told {
            Speaker::Harness(template) => template.map(|t| t.by),
            Speaker::Prompt => panic!("told a prompt"),
        };
        assert_eq!(tell(format_error, Standing::Unanswered), Speaker::Prompt);
        assert_eq!(tell(format_error, Standing::Ended), Speaker::Prompt);
        for standing in [Standing::Answered, Standing::RoundDone, Standing::RoundCut] {
            let by = harness(tell(format_error, standing));
            assert_eq!(by, Some(PushBack::FormatError), "{standing:?}");
        }
        assert_eq!(harness(tell(plain, Standing::RoundDone)), None);
        assert_eq!(tell(plain, Standing::RoundCut), Speaker::Prompt);
        assert_eq!(tell(plain, Standing::Answered), Speaker::Prompt);
    }

    #[test]
    fn a_template_is_found_past_the_blank_lines_a_harness_opens_with() {
        // Inspect's incorrect-submission message opens with a line break.
        let text = "\nYour submission was incorrect. Please proceed and attempt to find the \
                    correct answer.\n";
        let found = template_of(text).expect("Inspect's template");
        assert_eq!((found.harness, found.by), ("Inspect", PushBack::GoalCheck));
        // Only an opening counts: the words quoted inside a prompt do not,
        // nor a prompt that opens with a template's first words only.
        assert_eq!(template_of("Why does it say \"For context:\" here?"), None);
        assert_eq!(template_of("For context: I am writing a quiz."), None);
        assert_eq!(
            template_of("Please continue working on the task, add tests."),
            None
        );
        let adk = "For context:\n[planner] said: do x";
        assert_eq!(template_of(adk).map(|t| t.harness), Some("Google ADK"));
        // Blank space of any length between the words.
        let two_lines_apart = "Tool call error:\n\n<error>\nMissing 'command' argument\n</error>";
        assert_eq!(
            template_of(two_lines_apart).map(|t| t.harness),
            Some("mini-swe-agent")
        );
    }

    #[test]
    fn no_opening_is_the_start_of_another_s() {
        for a in TEMPLATES {
            for b in TEMPLATES {
                if !std::ptr::eq(a, b) {
                    assert!(!b.opening.starts_with(a.opening), "{:?} {:?}", a, b);
                }
            }
        }
    }
}
