//! A native transcript may give its texts in both languages: wherever a
//! text goes, `{"en": "...", "zh": "..."}` instead of a string. Loading it
//! in one language picks that language's text, or the other one when only
//! one is given. Only the texts people read are localised (titles, the
//! question, the model's words, pages and results, expectations, remarks),
//! never tool inputs, ids or names, which the replay matches on.

use serde_json::Value;

use crate::lang::Lang;

/// Replaces every localised text in `doc` with its `lang` version; true
/// when there was one.
pub fn localize(doc: &mut Value, lang: Lang) -> bool {
    let mut changed = false;
    let mut pick = |value: &mut Value| changed |= pick_text(value, lang);
    for key in ["title", "description", "question", "system"] {
        at(doc, &[key], &mut pick);
    }
    for reply in each(doc, "replies") {
        blocks(reply, &mut pick);
    }
    for message in each(doc, "history") {
        blocks(message, &mut pick);
    }
    if let Some(Value::Object(environment)) = doc.get_mut("environment") {
        for env in environment.values_mut() {
            at(env, &["date"], &mut pick);
            for page in each(env, "pages") {
                at(page, &["text"], &mut pick);
            }
        }
    }
    if let Some(Value::Object(results)) = doc.get_mut("results") {
        for result in results.values_mut() {
            at(result, &["content"], &mut pick);
        }
    }
    at(doc, &["expect", "answer"], &mut pick);
    at(doc, &["goal", "push_back"], &mut pick);
    for remark in each(doc, "remarks") {
        at(remark, &["text"], &mut pick);
    }
    changed
}

/// The text blocks of a message or reply.
fn blocks(message: &mut Value, pick: &mut impl FnMut(&mut Value)) {
    for block in each(message, "content") {
        at(block, &["text"], pick);
        at(block, &["thinking"], pick);
    }
}

fn each<'a>(value: &'a mut Value, key: &str) -> impl Iterator<Item = &'a mut Value> {
    value
        .get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

fn at(value: &mut Value, path: &[&str], pick: &mut impl FnMut(&mut Value)) {
    let mut here = Some(value);
    for key in path {
        here = here.and_then(|v| v.get_mut(*key));
    }
    if let Some(value) = here {
        pick(value);
    }
}

/// `{"en": .., "zh": ..}` becomes the string for `lang`, or the other one.
fn pick_text(value: &mut Value, lang: Lang) -> bool {
    let Value::Object(texts) = value else {
        return false;
    };
    let is_localized = !texts.is_empty() && texts.keys().all(|k| k == "en" || k == "zh");
    if !is_localized {
        return false;
    }
    let (first, second) = match lang {
        Lang::En => ("en", "zh"),
        Lang::Zh => ("zh", "en"),
    };
    let chosen = texts
        .get(first)
        .or_else(|| texts.get(second))
        .cloned()
        .unwrap_or_default();
    *value = chosen;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_language_picks_its_text_and_falls_back_to_the_other() {
        let doc = json!({
            "question": {"en": "Who?", "zh": "谁？"},
            "title": {"en": "Only English"},
            "replies": [{"content": [
                {"type": "text", "text": {"en": "Done.", "zh": "完成。"}},
                {"type": "tool_use", "id": "a", "name": "t", "input": {"en": "kept", "zh": "as is"}}
            ]}],
            "expect": {"answer": "1974"}
        });
        let mut zh = doc.clone();
        assert!(localize(&mut zh, Lang::Zh));
        assert_eq!(zh["question"], "谁？");
        assert_eq!(zh["title"], "Only English");
        assert_eq!(zh["replies"][0]["content"][0]["text"], "完成。");
        assert_eq!(
            zh["replies"][0]["content"][1]["input"],
            json!({"en": "kept", "zh": "as is"}),
            "tool input is data, never localised"
        );
        let mut en = doc;
        assert!(localize(&mut en, Lang::En));
        assert_eq!(en["question"], "Who?");
        let mut plain = json!({"question": "Who?"});
        assert!(!localize(&mut plain, Lang::Zh));
    }
}
