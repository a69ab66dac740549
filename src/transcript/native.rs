//! The native JSON format read: one transcript, an array of them, runs
//! that share their history (`shared.rs`), or a scenario that changes a
//! few fields of a built-in run.

use std::num::NonZeroU32;

use serde::Deserialize;

use super::{
    BUILTIN_NAMES, LoadError, Problem, ToolErrors, Transcript, builtin_in, localize, required,
    shared, validate,
};
use crate::lang::Lang;

/// A run defined as another one with a few fields changed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    #[serde(rename = "$schema", default)]
    _schema: Option<String>,
    version: u32,
    id: String,
    title: String,
    #[serde(default)]
    description: String,
    /// The name of the built-in run this one starts from.
    base: String,
    #[serde(default, deserialize_with = "super::optional_positive_turns")]
    max_turns: Option<NonZeroU32>,
    #[serde(default)]
    tool_errors: Option<ToolErrors>,
}

impl Transcript {
    /// Parses native JSON that holds one transcript or an array of them,
    /// its texts in `lang`.
    pub fn parse_many(text: &str, origin: &str, lang: Lang) -> Result<Vec<Transcript>, LoadError> {
        if !text.trim_start().starts_with('[') {
            let doc: serde_json::Value = from_json(text, origin)?;
            if shared::is_shared(&doc) {
                return shared::parse(doc, origin, lang);
            }
            return Ok(vec![Transcript::parse_in(text, origin, lang)?]);
        }
        let localized = localized_text(text, origin, lang)?;
        let text = localized.as_deref().unwrap_or(text);
        let docs: Vec<serde_json::Value> = from_json(text, origin)?;
        let missing = docs
            .iter()
            .enumerate()
            .flat_map(|(i, doc)| required::missing(doc, &format!("[{i}]")))
            .collect();
        valid((), missing, origin)?;
        drop(docs);
        let runs: Vec<Transcript> = from_json(text, origin)?;
        let problems: Vec<Problem> = runs
            .iter()
            .enumerate()
            .flat_map(|(i, run)| {
                validate::problems(run).into_iter().map(move |p| {
                    let path = if p.path.is_empty() {
                        format!("[{i}]")
                    } else {
                        format!("[{i}].{}", p.path)
                    };
                    Problem::new(path, p.message)
                })
            })
            .collect();
        valid(runs, problems, origin)
    }

    /// Parses and validates JSON text, in English; `origin` names it in
    /// messages.
    pub fn parse(text: &str, origin: &str) -> Result<Transcript, LoadError> {
        Transcript::parse_in(text, origin, Lang::En)
    }

    /// The same, with texts given in both languages taken in `lang`.
    pub fn parse_in(text: &str, origin: &str, lang: Lang) -> Result<Transcript, LoadError> {
        let localized = localized_text(text, origin, lang)?;
        let text = localized.as_deref().unwrap_or(text);
        let top: serde_json::Value = from_json(text, origin)?;
        let Some(fields) = top.as_object() else {
            return Err(LoadError::one_problem(
                origin,
                "",
                format!(
                    "a transcript is a JSON object, but this file holds {}",
                    json_kind(&top)
                ),
            ));
        };
        // A scenario is recognised by its `base` field; it borrows a built-in run.
        let transcript = if fields.contains_key("base") {
            let scenario: Scenario = from_json(text, origin)?;
            scenario.apply(origin, lang)?
        } else {
            valid((), required::missing(&top, ""), origin)?;
            from_json(text, origin)?
        };
        let problems = validate::problems(&transcript);
        valid(transcript, problems, origin)
    }
}

impl Scenario {
    fn apply(self, origin: &str, lang: Lang) -> Result<Transcript, LoadError> {
        let Some(base) = builtin_in(&self.base, lang) else {
            return Err(LoadError::one_problem(
                origin,
                "base",
                format!(
                    "`{}` is not a built-in run; choose one of: {}",
                    self.base,
                    BUILTIN_NAMES.join(", ")
                ),
            ));
        };
        let base = base?;
        Ok(Transcript {
            version: self.version,
            id: self.id,
            title: self.title,
            description: self.description,
            max_turns: self.max_turns.unwrap_or(base.max_turns),
            tool_errors: self.tool_errors.unwrap_or(base.tool_errors),
            ..base
        })
    }
}

/// `value` if validation found no problem, else every problem found.
pub(super) fn valid<T>(value: T, problems: Vec<Problem>, origin: &str) -> Result<T, LoadError> {
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(LoadError::Invalid {
            origin: origin.to_owned(),
            problems,
        })
    }
}

/// The JSON text with its localised texts taken in `lang`, when it has
/// any; `None` when it is already plain (so errors keep their lines).
fn localized_text(text: &str, origin: &str, lang: Lang) -> Result<Option<String>, LoadError> {
    let mut doc: serde_json::Value = from_json(text, origin)?;
    let changed = match &mut doc {
        serde_json::Value::Array(runs) => runs
            .iter_mut()
            .fold(false, |any, run| localize::localize(run, lang) | any),
        one => localize::localize(one, lang),
    };
    Ok(changed.then(|| serde_json::to_string_pretty(&doc).unwrap_or_default()))
}

pub(crate) fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

fn from_json<T: for<'de> Deserialize<'de>>(text: &str, origin: &str) -> Result<T, LoadError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        LoadError::from_json(origin, path, e.into_inner())
    })?;
    deserializer
        .end()
        .map_err(|e| LoadError::from_json(origin, String::new(), e))?;
    Ok(value)
}
