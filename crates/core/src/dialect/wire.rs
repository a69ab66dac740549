//! Messages as the wire carries them, in typed structures that borrow
//! their strings from the text they were parsed from. A long log is parsed
//! straight into these, never into a JSON tree first: only the fields read
//! here are kept, the rest is skipped as it is scanned, and a string with
//! no escapes in it is not copied until it becomes part of a message. The
//! same structures read a value already parsed, so a message has one
//! reading whichever way it came.
//!
//! Every field is lenient, as the importers have always been: a field of
//! an unexpected type (`"text": 5`) reads as absent rather than failing the
//! message, and anything unknown is left out and counted by the reader.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Any JSON value, kept only as far as the reading needs: a string (borrowed
/// when it has no escapes), a boolean, an object read as `O`, an array of
/// elements read as `E`, a number; null, or an absent field, is `Other`. `IgnoredAny` skips what a field does not need.
#[derive(Debug, Default)]
pub enum Json<'a, O = IgnoredAny, E = IgnoredAny> {
    Str(Cow<'a, str>),
    Bool(bool),
    Object(O),
    Array(Vec<E>),
    Number(serde_json::Number),
    /// Null, or a field that is absent.
    #[default]
    Other,
}

/// A field read only when it is a string or a boolean.
pub type Scalar<'a> = Json<'a>;

impl<'a, O, E> Json<'a, O, E> {
    pub fn str(&self) -> Option<&str> {
        match self {
            Json::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The string, or "" for anything else.
    pub fn or_empty(&self) -> &str {
        self.str().unwrap_or("")
    }

    /// The string, owned (copied only if it was borrowed).
    pub fn into_string(self) -> Option<String> {
        match self {
            Json::Str(text) => Some(text.into_owned()),
            _ => None,
        }
    }

    /// Whether it is `true` itself, as a flag is set.
    pub fn is_true(&self) -> bool {
        matches!(self, Json::Bool(true))
    }

    /// A string, boolean or number as JSON; `None` for the rest.
    pub fn into_value(self) -> Option<Value> {
        match self {
            Json::Str(text) => Some(Value::String(text.into_owned())),
            Json::Bool(value) => Some(Value::Bool(value)),
            Json::Number(number) => Some(Value::Number(number)),
            _ => None,
        }
    }

    pub fn object(self) -> Option<O> {
        match self {
            Json::Object(object) => Some(object),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a, O: Deserialize<'de>, E: Deserialize<'de>> Deserialize<'de> for Json<'a, O, E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor(PhantomData))
    }
}

struct JsonVisitor<'a, O, E>(PhantomData<(&'a (), O, E)>);

impl<'de: 'a, 'a, O: Deserialize<'de>, E: Deserialize<'de>> Visitor<'de> for JsonVisitor<'a, O, E> {
    type Value = Json<'a, O, E>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<Er>(self, text: &'de str) -> Result<Self::Value, Er> {
        Ok(Json::Str(Cow::Borrowed(text)))
    }

    fn visit_str<Er>(self, text: &str) -> Result<Self::Value, Er> {
        Ok(Json::Str(Cow::Owned(text.to_owned())))
    }

    fn visit_string<Er>(self, text: String) -> Result<Self::Value, Er> {
        Ok(Json::Str(Cow::Owned(text)))
    }

    fn visit_bool<Er>(self, value: bool) -> Result<Self::Value, Er> {
        Ok(Json::Bool(value))
    }

    fn visit_i64<Er>(self, value: i64) -> Result<Self::Value, Er> {
        Ok(Json::Number(value.into()))
    }

    fn visit_u64<Er>(self, value: u64) -> Result<Self::Value, Er> {
        Ok(Json::Number(value.into()))
    }

    fn visit_f64<Er>(self, value: f64) -> Result<Self::Value, Er> {
        // Not finite: not JSON, and read as absent.
        Ok(serde_json::Number::from_f64(value).map_or(Json::Other, Json::Number))
    }

    fn visit_unit<Er>(self) -> Result<Self::Value, Er> {
        Ok(Json::Other)
    }

    fn visit_none<Er>(self) -> Result<Self::Value, Er> {
        Ok(Json::Other)
    }

    fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
        Json::deserialize(inner)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Json::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        O::deserialize(MapAccessDeserializer::new(map)).map(Json::Object)
    }
}

/// A message's `content` (or a tool result's): a string, or a list of
/// blocks (or parts), each an object or not; an object kept as it is.
pub type Content<'a> = Json<'a, Value, Json<'a, WireBlock<'a>>>;

/// A message of the Messages or the Chat Completions shape, with the
/// fields a response line of a session log adds.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct WireMessage<'a> {
    #[serde(borrow)]
    pub role: Scalar<'a>,
    #[serde(borrow)]
    pub content: Content<'a>,
    /// DeepSeek's reasoning, beside the content.
    #[serde(borrow)]
    pub reasoning_content: Scalar<'a>,
    /// OpenAI's refusal, beside the content.
    #[serde(borrow)]
    pub refusal: Scalar<'a>,
    pub tool_calls: Option<Value>,
    #[serde(borrow)]
    pub tool_call_id: Scalar<'a>,
    /// A response's id, model, stop reason and usage, where a log keeps
    /// the response as the message.
    #[serde(borrow)]
    pub id: Scalar<'a>,
    #[serde(borrow)]
    pub model: Scalar<'a>,
    #[serde(borrow)]
    pub stop_reason: Scalar<'a>,
    pub usage: Option<Value>,
}

/// A content block of the Anthropic shape (also the shape of a tool
/// result's parts and of Responses' message parts): each kind uses some
/// of these fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct WireBlock<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Scalar<'a>,
    #[serde(borrow)]
    pub text: Scalar<'a>,
    #[serde(borrow)]
    pub thinking: Scalar<'a>,
    #[serde(borrow)]
    pub id: Scalar<'a>,
    #[serde(borrow)]
    pub name: Scalar<'a>,
    /// `null` kept as written: a tool given it answers with an error.
    #[serde(deserialize_with = "present")]
    pub input: Option<Value>,
    #[serde(borrow)]
    pub tool_use_id: Scalar<'a>,
    #[serde(borrow)]
    pub content: Box<Content<'a>>,
    pub is_error: Scalar<'a>,
    /// A web search result's fields, within a server tool's result
    /// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool).
    #[serde(borrow)]
    pub title: Scalar<'a>,
    #[serde(borrow)]
    pub url: Scalar<'a>,
    #[serde(borrow)]
    pub encrypted_content: Scalar<'a>,
    #[serde(borrow)]
    pub page_age: Scalar<'a>,
}

impl WireBlock<'_> {
    /// The block as JSON, with the fields read here that it has.
    fn into_value(self) -> Value {
        let fields = [
            ("type", self.kind),
            ("title", self.title),
            ("url", self.url),
            ("encrypted_content", self.encrypted_content),
            ("page_age", self.page_age),
            ("text", self.text),
            ("id", self.id),
            ("name", self.name),
            ("tool_use_id", self.tool_use_id),
        ];
        let object = fields
            .into_iter()
            .filter_map(|(key, value)| Some((key.to_owned(), value.into_value()?)));
        Value::Object(object.collect())
    }
}

/// A server tool's result content as JSON: an object as it was written, a
/// list of result blocks with the fields read of them.
pub fn value_of(content: Content<'_>) -> Value {
    match content {
        Json::Object(object) => object,
        Json::Array(items) => Value::Array(
            items
                .into_iter()
                .filter_map(|item| match item {
                    Json::Object(block) => Some(block.into_value()),
                    other => other.into_value(),
                })
                .collect(),
        ),
        scalar => scalar.into_value().unwrap_or(Value::Null),
    }
}

/// A field that is there, `null` included; `None` only when absent.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// Reads any value into `T`, which its lenient fields make infallible for
/// a value already parsed (a JSON tree has no duplicate keys).
pub fn from_value<'v, T: Deserialize<'v> + Default>(value: &'v Value) -> T {
    T::deserialize(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_an_unexpected_type_read_as_absent() {
        let block: WireBlock = serde_json::from_str(
            r#"{"type": "text", "text": 5, "id": null, "is_error": "yes", "extra": [1, {"a": 2}]}"#,
        )
        .unwrap();
        assert_eq!(block.kind.str(), Some("text"));
        assert_eq!(block.text.str(), None);
        assert_eq!(block.id.str(), None);
        assert!(!block.is_error.is_true());
    }

    #[test]
    fn a_null_input_is_kept_and_an_absent_one_is_none() {
        let null: WireBlock =
            serde_json::from_str(r#"{"type": "tool_use", "input": null}"#).unwrap();
        assert_eq!(null.input, Some(Value::Null));
        let absent: WireBlock = serde_json::from_str(r#"{"type": "tool_use"}"#).unwrap();
        assert_eq!(absent.input, None);
    }

    #[test]
    fn strings_without_escapes_are_borrowed_from_the_text() {
        let text = r#"{"role": "user", "content": [{"type": "text", "text": "plain"}, {"type": "text", "text": "a\nb"}, "loose"]}"#;
        let message: WireMessage = serde_json::from_str(text).unwrap();
        let Json::Array(blocks) = message.content else {
            panic!("content is a list: {:?}", message.content);
        };
        let texts: Vec<_> = blocks
            .iter()
            .map(|b| match b {
                Json::Object(block) => match &block.text {
                    Json::Str(Cow::Borrowed(t)) => format!("borrowed {t}"),
                    Json::Str(Cow::Owned(t)) => format!("owned {t}"),
                    _ => "none".to_owned(),
                },
                _ => "not an object".to_owned(),
            })
            .collect();
        assert_eq!(texts, ["borrowed plain", "owned a\nb", "not an object"]);
    }

    #[test]
    fn a_parsed_value_reads_the_same_as_its_text() {
        let text = r#"{"role": "assistant", "id": "msg_1", "stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}}]}"#;
        let value: Value = serde_json::from_str(text).unwrap();
        let from_text: WireMessage = serde_json::from_str(text).unwrap();
        let from_value: WireMessage = from_value(&value);
        assert_eq!(format!("{from_text:?}"), format!("{from_value:?}"));
    }
}
