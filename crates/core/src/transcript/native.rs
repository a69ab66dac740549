//! The native JSON format read: one transcript, an array of them, runs
//! that share their history (`shared.rs`), or a scenario that changes a
//! few fields of a built-in run.

use std::num::NonZeroU32;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{
    FORMAT_VERSION, JsonKind, LoadError, Problem, ToolErrors, Transcript, Why, builtin_in,
    localize, required, shared, validate,
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
        let doc = from_json(text, origin)?;
        Transcript::from_document(doc, text, origin, lang)
    }

    /// The same, from the document `text` holds, already parsed: the text
    /// is parsed again only to say where a field has the wrong shape.
    pub fn from_document(
        doc: Value,
        text: &str,
        origin: &str,
        lang: Lang,
    ) -> Result<Vec<Transcript>, LoadError> {
        let mut docs = match doc {
            Value::Array(docs) => docs,
            doc if shared::is_shared(&doc) => return shared::parse(doc, origin, lang),
            doc => return Ok(vec![Transcript::from_value(doc, text, origin, lang)?]),
        };
        let localized = docs
            .iter_mut()
            .fold(false, |any, doc| localize::localize(doc, lang) | any);
        let missing = docs
            .iter()
            .enumerate()
            .flat_map(|(i, doc)| required::missing(doc, &format!("[{i}]")))
            .collect();
        valid((), missing, origin)?;
        let runs: Vec<Transcript> = typed(&Value::Array(docs), (text, localized), origin)?;
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
                    Problem::new(path, p.why)
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
        let doc = from_json(text, origin)?;
        Transcript::from_value(doc, text, origin, lang)
    }

    /// One transcript (or scenario) from its document, parsed from `text`.
    fn from_value(
        mut top: Value,
        text: &str,
        origin: &str,
        lang: Lang,
    ) -> Result<Transcript, LoadError> {
        let localized = localize::localize(&mut top, lang);
        let Some(fields) = top.as_object() else {
            return Err(LoadError::one_problem(
                origin,
                "",
                Why::NotAnObject {
                    held: JsonKind::of(&top),
                },
            ));
        };
        // A scenario is recognised by its `base` field; it borrows a built-in run.
        let transcript = if fields.contains_key("base") {
            let scenario: Scenario = typed(&top, (text, localized), origin)?;
            scenario.apply(origin, lang)?
        } else {
            return checked(top, (text, localized), origin);
        };
        let problems = validate::problems(&transcript);
        valid(transcript, problems, origin)
    }
}

/// A stand-in for a top-level field that is missing or mistyped, so that
/// the rest is still read and checked: `validate` then lists every
/// problem in one pass, not one more each time the last is mended.
fn stand_in(field: &str) -> Option<Value> {
    Some(match field {
        "version" => FORMAT_VERSION.into(),
        "id" | "title" | "question" | "model" => "-".into(),
        "max_turns" => 1.into(),
        "replies" => Value::Array(Vec::new()),
        _ => return None,
    })
}

/// The top-level field a problem's path is in.
fn top_field(path: &str) -> &str {
    path.split(['.', '[']).next().unwrap_or(path)
}

/// One transcript from its document, every problem found: the missing
/// fields, the mistyped ones (each a stand-in then, where the field has
/// one, so reading goes on) and what `validate` finds in the rest.
fn checked(
    mut top: Value,
    (text, localized): (&str, bool),
    origin: &str,
) -> Result<Transcript, LoadError> {
    let mut problems = required::missing(&top, "");
    let mut stood_in: Vec<String> = Vec::new();
    for problem in &problems {
        if let (Why::MissingField { field }, "") = (&problem.why, problem.path.as_str())
            && let (Some(value), Some(fields)) = (stand_in(field), top.as_object_mut())
        {
            fields.insert((*field).to_owned(), value);
            stood_in.push((*field).to_owned());
        }
    }
    // A missing field deeper down has no stand-in: its object is not read.
    if problems.len() > stood_in.len() {
        return Err(invalid(origin, problems));
    }
    loop {
        match serde_path_to_error::deserialize::<_, Transcript>(&top) {
            Ok(transcript) => {
                problems.extend(
                    validate::problems(&transcript)
                        .into_iter()
                        .filter(|p| !stood_in.iter().any(|f| f == top_field(&p.path))),
                );
                return valid(transcript, problems, origin);
            }
            Err(error) => {
                let path = error.path().to_string();
                // Where the document is still the file's, the file says
                // where the value is.
                let at = match stood_in.is_empty() && !localized {
                    true => located(text, &path),
                    false => None,
                };
                problems.push(Problem::new(
                    path.clone(),
                    Why::Mistyped {
                        message: super::error::without_position(error.inner()),
                        at,
                    },
                ));
                let field = top_field(&path).to_owned();
                match (stand_in(&field), top.as_object_mut()) {
                    (Some(value), Some(fields)) if !stood_in.contains(&field) => {
                        fields.insert(field.clone(), value);
                        stood_in.push(field);
                    }
                    _ => return Err(invalid(origin, problems)),
                }
            }
        }
    }
}

/// The line and column of the value at `path` in `text`, as parsing the
/// text as a transcript finds them, when that parse stops there.
fn located(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, Transcript>(&mut deserializer) {
        Err(e) if e.path().to_string() == path && e.inner().line() > 0 => {
            Some((e.inner().line(), e.inner().column()))
        }
        _ => None,
    }
}

impl Scenario {
    fn apply(self, origin: &str, lang: Lang) -> Result<Transcript, LoadError> {
        let Some(base) = builtin_in(&self.base, lang) else {
            return Err(LoadError::one_problem(
                origin,
                "base",
                Why::NoSuchBase {
                    base: self.base.clone(),
                },
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
        Err(invalid(origin, problems))
    }
}

fn invalid(origin: &str, problems: Vec<Problem>) -> LoadError {
    LoadError::Invalid {
        origin: origin.to_owned(),
        problems,
    }
}

/// `doc` as a `T`. Where it has the wrong shape, the error is the one
/// parsing its text as a `T` finds, with a line and a column: `text`, the
/// file's, or where `localize` picked its texts for a language, the
/// document as picked, written out (as a reader of the error sees it).
fn typed<T: DeserializeOwned>(
    doc: &Value,
    (text, localized): (&str, bool),
    origin: &str,
) -> Result<T, LoadError> {
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let picked;
        let text = if localized {
            picked = serde_json::to_string_pretty(doc).unwrap_or_default();
            picked.as_str()
        } else {
            text
        };
        match from_json::<T>(text, origin) {
            Err(located) => located,
            Ok(_) => LoadError::from_json(origin, e.path().to_string(), e.into_inner()),
        }
    })
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
