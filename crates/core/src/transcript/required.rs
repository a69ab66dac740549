//! The fields a native transcript must have, all checked before it is read,
//! so that `validate` names every missing one at once rather than stopping
//! at the first as a typed parse does. `tests/it/schema.rs` holds this table to
//! the `required` lists of transcripts/transcript.schema.json.

use serde_json::Value;

use super::{Problem, Why};

/// Required fields of an object, and the fields that hold further objects.
struct Shape {
    required: &'static [&'static str],
    inner: &'static [(&'static str, Holds, &'static Shape)],
}

/// How a field holds objects of an inner shape.
enum Holds {
    One,
    List,
    /// A map from keys to objects.
    Map,
}

impl Shape {
    /// An object with required fields and no objects of its own to check.
    const fn leaf(required: &'static [&'static str]) -> Self {
        Shape {
            required,
            inner: &[],
        }
    }
}

const MESSAGE: Shape = Shape::leaf(&["role", "content"]);

const TIME: Shape = Shape::leaf(&["started", "seconds"]);

const TRANSCRIPT: Shape = Shape {
    required: &[
        "version",
        "id",
        "title",
        "question",
        "model",
        "max_turns",
        "replies",
    ],
    inner: &[
        (
            "replies",
            Holds::List,
            &Shape {
                required: &["content", "stop_reason"],
                inner: &[
                    (
                        "usage",
                        Holds::One,
                        &Shape::leaf(&["input_tokens", "output_tokens"]),
                    ),
                    ("time", Holds::One, &TIME),
                ],
            },
        ),
        ("tools", Holds::List, &Shape::leaf(&["name"])),
        ("history", Holds::List, &MESSAGE),
        (
            "inserted",
            Holds::List,
            &Shape {
                required: &["before_call", "messages"],
                inner: &[("messages", Holds::List, &MESSAGE)],
            },
        ),
        ("remarks", Holds::List, &Shape::leaf(&["call", "text"])),
        (
            "goal",
            Holds::One,
            &Shape::leaf(&["tool_succeeded", "push_back"]),
        ),
        ("ending", Holds::One, &Shape::leaf(&["by", "status"])),
        ("compaction", Holds::One, &Shape::leaf(&["replaced"])),
        (
            "results",
            Holds::Map,
            &Shape {
                required: &["content"],
                inner: &[("time", Holds::One, &TIME)],
            },
        ),
    ],
};

/// Every required field missing from the transcript `doc`, with its path;
/// `at` prefixes the paths (`[2]` for the third of an array of transcripts).
pub(super) fn missing(doc: &Value, at: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    walk(doc, &TRANSCRIPT, at, &mut found);
    found
}

fn walk(value: &Value, shape: &Shape, at: &str, found: &mut Vec<Problem>) {
    // What is not an object is for the typed parse to explain.
    let Some(fields) = value.as_object() else {
        return;
    };
    for field in shape.required {
        if !fields.contains_key(*field) {
            found.push(Problem::new(at, Why::MissingField { field }));
        }
    }
    for (field, holds, inner) in shape.inner {
        let Some(held) = fields.get(*field) else {
            continue;
        };
        let at = if at.is_empty() {
            (*field).to_owned()
        } else {
            format!("{at}.{field}")
        };
        match holds {
            Holds::One => walk(held, inner, &at, found),
            Holds::List => {
                for (i, item) in held.as_array().into_iter().flatten().enumerate() {
                    walk(item, inner, &format!("{at}[{i}]"), found);
                }
            }
            Holds::Map => {
                for (key, item) in held.as_object().into_iter().flatten() {
                    walk(item, inner, &format!("{at}.{key}"), found);
                }
            }
        }
    }
}
