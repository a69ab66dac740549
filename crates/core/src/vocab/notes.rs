//! What an import noticed about a recording: facts, put into words (in
//! either language) by [`crate::narrate`].
//!
//! A transcript file keeps a note as the fact it is, tagged by its `kind`
//! (`{"kind": "retried", "call": 2, ...}`), so rewording a note changes no
//! saved file; a plain string is a note a person wrote, kept as written.

use serde::{Deserialize, Serialize};

/// Something an import noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Note {
    /// A tool result that answers no call of the reply before it.
    ResultWithoutCall { id: String },
    /// A tool call with more than one recorded result.
    ManyResults { id: String },
    /// A tool-call id used for two calls.
    ReusedCallId { id: String },
    /// A tool call with no recorded result: the replay answers with an error.
    MissingResult { id: String },
    /// A call the client sent back under another id (`sent`), paired with
    /// the model's call by its item id.
    PairedByItemId { sent: String, call: String },
    /// An exchange without a request or a response.
    ExchangeIncomplete { number: usize },
    /// A request that does not repeat the history the earlier calls built.
    HistoryEdited { request: usize, from: usize },
    /// A response with several choices, of which the first is replayed.
    ManyChoices { response: usize, choices: usize },
    /// Parts of the recording left out, and how often.
    Skipped { what: Skip, count: usize },
    /// Replies whose command the agent's harness read from their text,
    /// where the API's finish reason (`said`) asked for no tool.
    CommandsFromText { commands: usize, said: String },
    /// Replies that asked for tools under another stop reason, whose
    /// calls the harness ran all the same (its log has their results).
    CallsRunUnder { replies: usize, said: String },
    /// A call the client retried after the API failed it: how often, the
    /// last error, and whether it went through in the end.
    Retried {
        call: usize,
        attempts: usize,
        error: String,
        went_through: bool,
    },
    /// A scorer's grade of a run (an eval's sample).
    Scored {
        sample: String,
        scorer: String,
        value: String,
    },
    /// The last line of a JSON Lines log, cut off mid-way: left out.
    UnfinishedLastLine { line: usize },
    /// A file of a folder (a session, a sub-agent) that could not be read.
    Unreadable { file: String, error: String },
    /// The log holds what the agent did, not its model calls (`codex exec
    /// --json`): the calls are told from the tools, those that ran
    /// together sharing one.
    CallsNotRecorded,
    /// The harness counted more model calls than the log keeps replies.
    CallsNotKept { made: usize, kept: usize },
    /// User-role messages told as the harness's own words by their
    /// opening, a template of this harness's: the run goes on after them.
    HarnessWordsByTemplate { count: usize, harness: String },
    /// User-role messages between a tool round and the next call, where
    /// the loop had not ended: the harness's, not a person's prompt.
    HarnessWordsAfterRound { count: usize },
    /// The log holds several conversations (by their system prompts and
    /// histories), each replayed as runs of its own.
    Conversations { count: usize },
    /// The harness sent its own words back this many times without
    /// keeping them in its log: each is told by what set it off.
    WordsNotKept { count: usize, harness: String },
    /// aider's own work, no model call: edits it applied from the
    /// replies' text, and commands the person gave it.
    HarnessOwnWork { edits: usize, commands: usize },
    /// The file's first line was no JSON, left out.
    FirstLineNotJson { line: String },
    /// A note as a person wrote it in a transcript file.
    #[serde(untagged)]
    Text(String),
}

/// A kind of part an import leaves out.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    /// Lines of a session log of this type.
    Lines(String),
    /// Lines of this type that carry no message.
    LinesWithoutMessage(String),
    ToolCallsNotFunctions,
    /// Responses items of this type.
    Items(String),
    UntypedItems,
    MessagesNotObjects,
    /// Messages with this role.
    Role(String),
    /// Content blocks of this type.
    Blocks(String),
    /// Parts of tool results of this type.
    ResultParts(String),
    /// Example conversations an agent shows its model before the task.
    Demonstrations,
    /// Interactions of a cassette that are no model call.
    InteractionsNotModelCalls,
    /// Events of an agent's log of this kind.
    Events(String),
    UntypedResultParts,
    /// Gemini parts of this kind (inline data, a file, code it ran).
    Parts(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_kept_as_its_fact_and_a_written_one_as_its_words() {
        let retried = Note::Retried {
            call: 2,
            attempts: 1,
            error: "HTTP 529".into(),
            went_through: true,
        };
        let json = serde_json::to_value(&retried).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "retried", "call": 2, "attempts": 1,
                "error": "HTTP 529", "went_through": true})
        );
        assert_eq!(serde_json::from_value::<Note>(json).unwrap(), retried);

        let skipped = Note::Skipped {
            what: Skip::Lines("progress".into()),
            count: 3,
        };
        let back = serde_json::to_string(&skipped).unwrap();
        assert_eq!(
            back,
            r#"{"kind":"skipped","what":{"lines":"progress"},"count":3}"#
        );
        assert_eq!(serde_json::from_str::<Note>(&back).unwrap(), skipped);

        let written = Note::Text("checked by hand".into());
        assert_eq!(
            serde_json::to_string(&written).unwrap(),
            r#""checked by hand""#
        );
        assert_eq!(
            serde_json::from_str::<Note>(r#""checked by hand""#).unwrap(),
            written
        );
        assert!(serde_json::from_str::<Note>(r#"{"kind": "no_such_note"}"#).is_err());
    }
}
