//! The "dispatch" phase: tools behind a trait, and the replay tool box that
//! answers from a recording or from a small, deterministic tool environment.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::vocab::Timing;
use crate::vocab::{ToolCall, ToolDef};

/// What a tool gives back to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolOutput {
    /// Shared with the conversation's result block: kept once however often replayed.
    pub content: Arc<str>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// The harness could not run the call at all (no such tool, input that
    /// is no JSON object): the error is its own, no tool's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_run: bool,
    /// When the recorded tool started and how long it ran, where the
    /// recording says; the dispatch step shows it as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Timing>,
}

impl ToolOutput {
    pub fn ok(content: impl Into<Arc<str>>) -> Self {
        ToolOutput {
            content: content.into(),
            is_error: false,
            not_run: false,
            time: None,
        }
    }

    pub fn error(content: impl Into<Arc<str>>) -> Self {
        ToolOutput {
            is_error: true,
            ..ToolOutput::ok(content)
        }
    }
}

/// What a recording holds for one tool-call id: its result, or, when the
/// recorded run used the id for several calls, one result per use in order
/// (a JSON list).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Recorded {
    Once(ToolOutput),
    PerUse(Vec<ToolOutput>),
}

impl Recorded {
    /// The result of the id's `nth` use, counted from 0.
    pub fn of_use(&self, nth: usize) -> Option<&ToolOutput> {
        match self {
            Recorded::Once(output) => (nth == 0).then_some(output),
            Recorded::PerUse(outputs) => outputs.get(nth),
        }
    }

    /// Adds the result of the id's next use.
    pub fn push(&mut self, output: ToolOutput) {
        match self {
            Recorded::Once(first) => *self = Recorded::PerUse(vec![first.clone(), output]),
            Recorded::PerUse(outputs) => outputs.push(output),
        }
    }

    pub fn uses(&self) -> usize {
        match self {
            Recorded::Once(_) => 1,
            Recorded::PerUse(outputs) => outputs.len(),
        }
    }
}

// By hand rather than untagged, so that an error inside a result keeps
// its own message and path instead of "matches no variant".
impl<'de> Deserialize<'de> for Recorded {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
        use serde::de::{MapAccess, SeqAccess, Visitor};

        struct OneOrList;
        impl<'de> Visitor<'de> for OneOrList {
            type Value = Recorded;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a tool result object, or a list of them (one per use of the id)")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Recorded, A::Error> {
                ToolOutput::deserialize(MapAccessDeserializer::new(map)).map(Recorded::Once)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Recorded, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Recorded::PerUse)
            }
        }
        d.deserialize_any(OneOrList)
    }
}

/// Anything that can run the model's tool requests.
pub trait ToolBox {
    /// Always answers: failures come back as an `is_error` output so that the
    /// model can see them and correct itself.
    fn run(&mut self, call: ToolCall<'_>) -> ToolOutput;
}

/// A deterministic stand-in for a real tool, described in the transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToolEnv {
    /// Looks the `query` input up in a fixed set of pages.
    Search { pages: Vec<Page> },
    /// Returns a fixed date, whatever the real clock says.
    Today { date: String },
}

/// One page of the search environment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    pub title: String,
    /// Other queries that find this page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    pub text: String,
}

/// Why the replay's tools could not run a call: a fact, which the harness
/// puts into words (in the run's language) for the model to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolFailure {
    /// The model named a tool that is not declared.
    UnknownTool {
        name: String,
        available: Vec<String>,
    },
    /// The arguments text is not JSON.
    UnparsableInput { error: String, raw: String },
    /// The input is JSON but not an object.
    InputNotObject { got: String },
    /// The search tool was called without a `query`.
    MissingQuery,
    /// No recorded result and no environment to run the tool in.
    NoReplay { id: String, name: String },
}

/// The harness's own words to the model, which the narration supplies in
/// the run's language: a search that found nothing, a call that cannot run.
pub trait ToolWords {
    fn no_match(&self) -> String;
    fn failure(&self, failure: &ToolFailure) -> String;
}

impl ToolEnv {
    fn run(
        &self,
        input: &Map<String, Value>,
        words: &dyn ToolWords,
    ) -> Result<ToolOutput, ToolFailure> {
        match self {
            ToolEnv::Search { pages } => match input.get("query").and_then(Value::as_str) {
                Some(query) => Ok(ToolOutput::ok(
                    search(pages, query).map_or_else(|| words.no_match(), str::to_owned),
                )),
                None => Err(ToolFailure::MissingQuery),
            },
            ToolEnv::Today { date } => Ok(ToolOutput::ok(date.clone())),
        }
    }
}

fn search<'p>(pages: &'p [Page], query: &str) -> Option<&'p str> {
    pages
        .iter()
        .find(|page| {
            std::iter::once(&page.title)
                .chain(&page.aliases)
                .any(|name| normalized(name).eq(normalized(query)))
        })
        .map(|page| page.text.as_str())
}

/// The text's words in lower case, one space between them: case,
/// punctuation and spacing do not matter to the search. An iterator, so
/// that a search allocates nothing; a long replay searches at every turn.
fn normalized(text: &str) -> impl Iterator<Item = char> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .enumerate()
        .flat_map(|(n, word)| {
            let space = (n > 0).then_some(' ');
            space
                .into_iter()
                .chain(word.chars().flat_map(char::to_lowercase))
        })
}

/// What a replay's tools answer from: the run's declared tools, their
/// stand-in environments, and the results recorded for particular calls.
pub trait ToolSource {
    fn definitions(&self) -> &[ToolDef];
    fn environment(&self) -> &BTreeMap<String, ToolEnv>;
    fn recorded(&self) -> &BTreeMap<String, Recorded>;
}

/// A run's tools, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct ToolsOf<'a> {
    pub definitions: &'a [ToolDef],
    pub environment: &'a BTreeMap<String, ToolEnv>,
    pub recorded: &'a BTreeMap<String, Recorded>,
}

impl ToolSource for ToolsOf<'_> {
    fn definitions(&self) -> &[ToolDef] {
        self.definitions
    }

    fn environment(&self) -> &BTreeMap<String, ToolEnv> {
        self.environment
    }

    fn recorded(&self) -> &BTreeMap<String, Recorded> {
        self.recorded
    }
}

/// Answers tool calls for a replay: a result recorded for the call's id
/// wins; otherwise the declared tool runs in its environment. A call that
/// cannot run comes back as an error result, worded by `words`.
pub struct ReplayTools<S> {
    source: S,
    words: Box<dyn ToolWords>,
    /// How often each id has been called so far: a reused id's n-th call
    /// gets the n-th recorded result.
    uses: HashMap<String, usize>,
}

impl<S: ToolSource> ReplayTools<S> {
    pub fn new(source: S, words: Box<dyn ToolWords>) -> Self {
        ReplayTools {
            source,
            words,
            uses: HashMap::new(),
        }
    }

    fn try_run(&mut self, call: ToolCall<'_>) -> Result<ToolOutput, ToolFailure> {
        if let Some(recorded) = self.source.recorded().get(call.id) {
            let uses = self.uses.entry(call.id.to_owned()).or_default();
            let nth = *uses;
            *uses += 1;
            if let Some(output) = recorded.of_use(nth) {
                return Ok(output.clone());
            }
        }
        let definitions = self.source.definitions();
        if !definitions.iter().any(|d| d.name == call.name) {
            return Err(ToolFailure::UnknownTool {
                name: call.name.to_owned(),
                available: definitions.iter().map(|d| d.name.clone()).collect(),
            });
        }
        let input = parse_input(call.input)?;
        match self.source.environment().get(call.name) {
            Some(env) => env.run(&input, &*self.words),
            None => Err(ToolFailure::NoReplay {
                id: call.id.to_owned(),
                name: call.name.to_owned(),
            }),
        }
    }
}

impl<S: ToolSource> ToolBox for ReplayTools<S> {
    fn run(&mut self, call: ToolCall<'_>) -> ToolOutput {
        self.try_run(call).unwrap_or_else(|failure| {
            let not_run = matches!(
                failure,
                ToolFailure::UnknownTool { .. }
                    | ToolFailure::UnparsableInput { .. }
                    | ToolFailure::InputNotObject { .. }
            );
            ToolOutput {
                not_run,
                ..ToolOutput::error(self.words.failure(&failure))
            }
        })
    }
}

/// Tool input must be a JSON object; a string is raw arguments text to parse.
fn parse_input(input: &Value) -> Result<Map<String, Value>, ToolFailure> {
    let parsed;
    let value = match input {
        Value::String(raw) => {
            parsed =
                serde_json::from_str::<Value>(raw).map_err(|e| ToolFailure::UnparsableInput {
                    error: e.to_string(),
                    raw: raw.clone(),
                })?;
            &parsed
        }
        other => other,
    };
    match value {
        Value::Object(map) => Ok(map.clone()),
        other => Err(ToolFailure::InputNotObject {
            got: other.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pages() -> Vec<Page> {
        vec![Page {
            title: "Aurora Run".into(),
            aliases: vec!["Aurora Run film".into()],
            text: "A 2011 film.".into(),
        }]
    }

    /// The failure itself, in its debug form: the real words are narrate's.
    struct Plain;

    impl ToolWords for Plain {
        fn no_match(&self) -> String {
            "NoMatch".to_owned()
        }

        fn failure(&self, failure: &ToolFailure) -> String {
            format!("{failure:?}")
        }
    }

    fn with_tools(
        recorded: BTreeMap<String, Recorded>,
        f: impl FnOnce(&mut ReplayTools<ToolsOf<'_>>),
    ) {
        let definitions = vec![ToolDef {
            api_type: None,
            name: "search".into(),
            description: String::new(),
            input_schema: json!({}),
        }];
        let environment =
            BTreeMap::from([("search".to_owned(), ToolEnv::Search { pages: pages() })]);
        let source = ToolsOf {
            definitions: &definitions,
            environment: &environment,
            recorded: &recorded,
        };
        let mut tools = ReplayTools::new(source, Box::new(Plain));
        f(&mut tools);
    }

    fn call<'a>(name: &'a str, input: &'a Value) -> ToolCall<'a> {
        ToolCall {
            id: "t1",
            name,
            input,
        }
    }

    #[test]
    fn search_matches_titles_and_aliases_loosely_and_misses_plainly() {
        with_tools(BTreeMap::new(), |tools| {
            let hit = tools.run(call("search", &json!({"query": "  aurora RUN! "})));
            assert_eq!(hit, ToolOutput::ok("A 2011 film."));
            let alias = tools.run(call("search", &json!({"query": "aurora run film"})));
            assert_eq!(alias, ToolOutput::ok("A 2011 film."));
            let dashed = tools.run(call("search", &json!({"query": "AURORA-run"})));
            assert_eq!(dashed, ToolOutput::ok("A 2011 film."));
            let joined = tools.run(call("search", &json!({"query": "AuroraRun"})));
            assert_eq!(joined, ToolOutput::ok("NoMatch"));
            let miss = tools.run(call("search", &json!({"query": "Aurora"})));
            assert_eq!(miss, ToolOutput::ok("NoMatch"));
        });
    }

    #[test]
    fn unknown_tools_and_bad_input_come_back_as_errors() {
        with_tools(BTreeMap::new(), |tools| {
            let unknown = tools.run(call("browse", &json!({})));
            assert!(unknown.is_error);
            assert!(
                unknown.content.starts_with("UnknownTool"),
                "{}",
                unknown.content
            );
            assert!(unknown.content.contains("search"));
            let broken = tools.run(call("search", &json!("{\"query\": ")));
            assert!(broken.is_error);
            assert!(broken.content.starts_with("UnparsableInput"));
            let wrong_type = tools.run(call("search", &json!([1])));
            assert!(wrong_type.content.starts_with("InputNotObject"));
            let no_query = tools.run(call("search", &json!({"q": "x"})));
            assert_eq!(&*no_query.content, "MissingQuery");
            let raw_ok = tools.run(call("search", &json!("{\"query\": \"Aurora Run\"}")));
            assert_eq!(raw_ok, ToolOutput::ok("A 2011 film."));
        });
    }

    #[test]
    fn a_recorded_result_wins_over_the_environment() {
        let timeout = Recorded::Once(ToolOutput::error("timeout"));
        let recorded = BTreeMap::from([("t1".to_owned(), timeout)]);
        with_tools(recorded, |tools| {
            let out = tools.run(call("search", &json!({"query": "Aurora Run"})));
            assert_eq!(out, ToolOutput::error("timeout"));
        });
    }

    #[test]
    fn a_reused_id_gets_its_recorded_results_in_order_then_the_environment() {
        let mut per_use = Recorded::Once(ToolOutput::ok("first"));
        per_use.push(ToolOutput::ok("second"));
        let recorded = BTreeMap::from([("t1".to_owned(), per_use)]);
        with_tools(recorded, |tools| {
            let query = json!({"query": "Aurora Run"});
            assert_eq!(tools.run(call("search", &query)), ToolOutput::ok("first"));
            assert_eq!(tools.run(call("search", &query)), ToolOutput::ok("second"));
            // Past what was recorded, the tool runs in its environment.
            let third = tools.run(call("search", &query));
            assert_eq!(third, ToolOutput::ok("A 2011 film."));
        });
    }

    #[test]
    fn a_result_list_reads_back_as_one_result_per_use() {
        let one: Recorded = serde_json::from_value(json!({"content": "x"})).unwrap();
        assert_eq!(one, Recorded::Once(ToolOutput::ok("x")));
        let two: Recorded =
            serde_json::from_value(json!([{"content": "x"}, {"content": "y", "is_error": true}]))
                .unwrap();
        assert_eq!(two.uses(), 2);
        assert_eq!(two.of_use(1), Some(&ToolOutput::error("y")));
        let wrong = serde_json::from_value::<Recorded>(json!({"content": "x", "extra": 1}));
        assert!(wrong.unwrap_err().to_string().contains("extra"));
    }

    #[test]
    fn today_returns_its_fixed_date() {
        let env = ToolEnv::Today {
            date: "2026-10-08".into(),
        };
        assert_eq!(
            env.run(&Map::new(), &Plain),
            Ok(ToolOutput::ok("2026-10-08"))
        );
    }
}
