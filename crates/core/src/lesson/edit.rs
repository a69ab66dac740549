//! A note added to a lesson file from the screen: the file's text with one
//! more note in the scene's `notes`, everything else (comments, order,
//! layout) as the teacher wrote it.

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

use super::steps::StepName;

/// `text` with `note` added at `at` to scene `scene` (0-based); `None`
/// when the text is no lesson with that scene.
pub fn with_note(text: &str, scene: usize, at: &StepName, note: &str) -> Option<String> {
    let mut document: DocumentMut = text.parse().ok()?;
    let scenes = document.get_mut("scene")?.as_array_of_tables_mut()?;
    let scene = scenes.get_mut(scene)?;
    let at_value: Value = match at {
        StepName::Number(n) => Value::from(i64::try_from(*n).ok()?),
        name => Value::from(name.to_string()),
    };
    match scene.get_mut("notes") {
        // `notes = [ … ]`: one more inline table, on a line of its own
        // where the others are.
        Some(Item::Value(Value::Array(notes))) => {
            let mut entry = InlineTable::new();
            entry.insert("at", at_value);
            entry.insert("text", Value::from(note));
            push_like_the_rest(notes, Value::InlineTable(entry));
        }
        // `[[scene.notes]]` tables: one more.
        Some(Item::ArrayOfTables(notes)) => {
            let mut entry = Table::new();
            entry.insert("at", Item::Value(at_value));
            entry.insert("text", Item::Value(Value::from(note)));
            notes.push(entry);
        }
        Some(_) => return None,
        None => {
            let mut entry = InlineTable::new();
            entry.insert("at", at_value);
            entry.insert("text", Value::from(note));
            let mut notes = Array::new();
            notes.push(Value::InlineTable(entry));
            scene.insert("notes", Item::Value(Value::Array(notes)));
        }
    }
    Some(document.to_string())
}

/// Adds `value` to `array`, laid out as its last item is (a multi-line
/// list keeps one item a line).
fn push_like_the_rest(array: &mut Array, value: Value) {
    let last = array.iter().last().map(|v| v.decor().clone());
    array.push(value);
    if let (Some(mut decor), Some(new)) = (last, array.iter_mut().last()) {
        // On one line, the first item has no space before it; the rest do.
        let bare = decor
            .prefix()
            .and_then(|p| p.as_str())
            .is_none_or(str::is_empty);
        if bare {
            decor.set_prefix(" ");
        }
        *new.decor_mut() = decor;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = r#"# A lesson for the class.
title = "t"

[[scene]]
run = "paris"  # the one-shot
notes = [
  { at = "turn 0 call", text = "first" },
]

[[scene]]
run = "aurora-run"
"#;

    #[test]
    fn a_note_joins_the_scene_s_notes_and_the_rest_stays_as_written() {
        let at = StepName::parse("turn 0 check").unwrap();
        let text = with_note(LESSON, 0, &at, "second").unwrap();
        assert!(
            text.starts_with("# A lesson for the class.\ntitle = \"t\""),
            "{text}"
        );
        assert!(text.contains("run = \"paris\"  # the one-shot"), "{text}");
        assert!(
            text.contains("{ at = \"turn 0 call\", text = \"first\" },\n  { at = \"turn 0 check\", text = \"second\" }"),
            "{text}"
        );
        let lesson = crate::lesson::parse(&text).unwrap();
        assert_eq!(lesson.scenes[0].notes.len(), 2);
        // A scene without notes gets them.
        let text = with_note(LESSON, 1, &StepName::Number(3), "third \"quoted\"").unwrap();
        let lesson = crate::lesson::parse(&text).unwrap();
        assert_eq!(lesson.scenes[1].notes[0].at, StepName::Number(3));
        assert_eq!(
            lesson.scenes[1].notes[0].text.get(crate::lang::Lang::En),
            "third \"quoted\""
        );
        assert!(with_note(LESSON, 5, &at, "x").is_none(), "no such scene");
    }
}
