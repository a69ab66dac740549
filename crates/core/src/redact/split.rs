//! Secrets that arrive in pieces: a streamed answer comes as server-sent
//! events, each a few characters of its text, so one key is spread over
//! two or three events, and no event alone holds enough of it to tell.
//! The pieces are redacted as the one text they make, and each stays a
//! text of its own.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;

use super::{Found, MOST_PASSES, encoded, plain_secrets, push_marker, redact, runs};

/// `pieces` redacted as if they were one text, their concatenation: each
/// secret found in the joined text is replaced by its marker in the piece
/// it starts in, and its share of the pieces after it is dropped; the rest
/// of every piece stays in that piece. So the redacted pieces, joined,
/// read exactly as `redact` makes of the joined text, and each piece is
/// cut only where a secret starts or ends (never inside a character).
/// A piece nothing changed is borrowed, not copied.
pub fn pieces<'a>(pieces: &[&'a str]) -> Vec<Cow<'a, str>> {
    let mut pieces: Vec<Cow<'a, str>> = pieces.iter().copied().map(Cow::Borrowed).collect();
    // The passes `redact` makes, until one finds nothing more.
    for _ in 0..MOST_PASSES {
        let found;
        (pieces, found) = one_pass(pieces);
        if !found {
            break;
        }
    }
    pieces
}

/// One pass of `redact` over `pieces`: plain secrets, then base64 that
/// decodes to one in the text the first step left; and whether it found
/// any.
fn one_pass(pieces: Vec<Cow<'_, str>>) -> (Vec<Cow<'_, str>>, bool) {
    let joined = pieces.concat();
    let plain: Vec<Found> = plain_secrets(&joined).collect();
    let pieces = masked(pieces, &joined, &plain);
    let joined = if plain.is_empty() {
        joined
    } else {
        pieces.concat()
    };
    let encoded: Vec<Found> = encoded::secrets(&joined).collect();
    let found = !plain.is_empty() || !encoded.is_empty();
    (masked(pieces, &joined, &encoded), found)
}

/// `pieces`, whose concatenation is `joined`, with each secret of `found`
/// (in order, none inside another) replaced in the piece it starts in and
/// dropped from those it runs on into.
fn masked<'a>(pieces: Vec<Cow<'a, str>>, joined: &str, found: &[Found]) -> Vec<Cow<'a, str>> {
    let mut found = found.iter().peekable();
    // Where the piece starts in `joined`, and where the last secret
    // replaced ends.
    let (mut start, mut covered) = (0, 0);
    pieces
        .into_iter()
        .map(|piece| {
            let (from, end) = (start, start + piece.len());
            start = end;
            let touched =
                from < end && (covered > from || found.peek().is_some_and(|f| f.start < end));
            if !touched {
                return piece;
            }
            let mut out = String::with_capacity(piece.len());
            let mut at = covered.clamp(from, end);
            while let Some(secret) = found.next_if(|f| f.start < end) {
                out.push_str(&joined[at..secret.start]);
                push_marker(&mut out, joined, *secret);
                covered = secret.end;
                at = secret.end.min(end);
            }
            out.push_str(&joined[at..end]);
            Cow::Owned(out)
        })
        .collect()
}

/// The text of a whole stream of server-sent events (`data: {json}` lines,
/// `event:` lines, a blank line after each event), redacted as its texts
/// read once joined: the strings found at one place in the events' JSON
/// (`choices.0.delta.content` in OpenAI's Chat Completions chunks,
/// `delta.text` or `delta.partial_json` in Anthropic's
/// `content_block_delta` events, `delta` in the Responses API's) make one
/// text across the stream, redacted with [`pieces`], so that a key spread
/// over three deltas is caught; then each event's fields named like
/// secrets are replaced whole, as [`super::json_value`] does. An event
/// something changed in has its JSON written anew, on one `data:` line; the
/// others, and every line that is no data (`event:`, `id:`, comments),
/// stay byte for byte. Data that is no JSON (`[DONE]`) is redacted as a
/// text of its own. For `record`, which keeps a stream as its text.
///
/// The stream's format is the WHATWG HTML standard's "Server-sent events",
/// https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream:
/// lines end at `\n` or `\r\n`, a `data:` field's value is what follows
/// the colon less one space, and an event's data lines join with `\n`.
pub fn event_stream(text: &str) -> String {
    let mut events: Vec<Event> = blocks(text).map(Event::read).collect();
    // Every string, taken out of its event in stream order, and the
    // strings of each place (indexes into them), the places in the order
    // met.
    let mut texts: Vec<String> = Vec::new();
    let mut places: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for json in events.iter_mut().filter_map(|e| e.json.as_mut()) {
        strings(json, &mut String::new(), &mut |place, text| {
            let group = *places.entry(place.to_owned()).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[group].push(texts.len());
            texts.push(std::mem::take(text));
        });
    }
    // What redacting each place's strings together changed.
    let mut changed: Vec<Option<String>> = vec![None; texts.len()];
    for group in &groups {
        let pieces_of: Vec<&str> = group.iter().map(|&i| texts[i].as_str()).collect();
        for (&i, piece) in group.iter().zip(pieces(&pieces_of)) {
            if let Cow::Owned(new) = piece {
                changed[i] = Some(new);
            }
        }
    }
    // Each string put back in the same order, redacted where it changed.
    let mut next = 0;
    for event in &mut events {
        let Some(json) = &mut event.json else {
            continue;
        };
        strings(json, &mut String::new(), &mut |_, text| {
            *text = match changed[next].take() {
                Some(new) => {
                    event.changed = true;
                    new
                }
                None => std::mem::take(&mut texts[next]),
            };
            next += 1;
        });
        if let Some(new) = runs::json(json) {
            *json = new;
            event.changed = true;
        }
    }
    events.iter().map(Event::written).collect()
}

/// The events of a stream: each up to and with the blank line that ends
/// it, or the text's end.
fn blocks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = 0;
        for line in rest.split_inclusive('\n') {
            end += line.len();
            if matches!(line, "\n" | "\r\n") {
                break;
            }
        }
        let (block, after) = rest.split_at(end);
        rest = after;
        Some(block)
    })
}

/// The value of a line's `data` field, if it is one, its line end left
/// off.
fn data(line: &str) -> Option<&str> {
    let value = line.strip_prefix("data:")?;
    let value = value.strip_prefix(' ').unwrap_or(value);
    Some(value.trim_end_matches(['\r', '\n']))
}

/// One event of a stream.
struct Event<'a> {
    /// Its text as it came, the blank line after it included.
    text: &'a str,
    /// Its data, when that is JSON.
    json: Option<Value>,
    changed: bool,
}

impl<'a> Event<'a> {
    fn read(text: &'a str) -> Event<'a> {
        let lines: Vec<&str> = text.split_inclusive('\n').filter_map(data).collect();
        let json = (!lines.is_empty())
            .then(|| serde_json::from_str(&lines.join("\n")).ok())
            .flatten();
        Event {
            text,
            json,
            changed: false,
        }
    }

    /// The event's text: as it came, but for its data where redacting
    /// changed that.
    fn written(&self) -> Cow<'a, str> {
        let Some(json) = self.json.as_ref().filter(|_| self.changed) else {
            return match self.json {
                Some(_) => Cow::Borrowed(self.text),
                None => self.text_redacted(),
            };
        };
        let mut out = String::with_capacity(self.text.len());
        let mut written = false;
        for line in self.text.split_inclusive('\n') {
            match data(line) {
                // The JSON, on one line where its first line was.
                Some(_) if !written => {
                    written = true;
                    out.push_str("data: ");
                    out.push_str(&json.to_string());
                    out.push_str(&line[line.trim_end_matches(['\r', '\n']).len()..]);
                }
                Some(_) => {}
                None => out.push_str(line),
            }
        }
        Cow::Owned(out)
    }

    /// An event whose data is no JSON: each data line redacted on its own.
    fn text_redacted(&self) -> Cow<'a, str> {
        let lines = self.text.split_inclusive('\n');
        let redacted: Vec<Cow<str>> = lines
            .map(|line| match data(line) {
                Some(_) => redact(line),
                None => Cow::Borrowed(line),
            })
            .collect();
        if redacted.iter().all(|line| matches!(line, Cow::Borrowed(_))) {
            Cow::Borrowed(self.text)
        } else {
            Cow::Owned(redacted.concat())
        }
    }
}

/// Calls `each` with every string of `value` and its place (the names and
/// indexes on the way to it, `choices.0.delta.content`), in the order
/// they are written.
fn strings(value: &mut Value, place: &mut String, each: &mut impl FnMut(&str, &mut String)) {
    match value {
        Value::String(text) => each(place, text),
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                within(place, &index.to_string(), |place| {
                    strings(item, place, each)
                });
            }
        }
        Value::Object(fields) => {
            for (name, field) in fields {
                within(place, name, |place| strings(field, place, each));
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Runs `inside` with `step` added to `place`, and takes it off after.
fn within(place: &mut String, step: &str, inside: impl FnOnce(&mut String)) {
    let len = place.len();
    if len > 0 {
        place.push('.');
    }
    place.push_str(step);
    inside(place);
    place.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_over_pieces_is_replaced_in_the_first_and_dropped_from_the_rest() {
        let key = "sk-proj-5okeBPMJZIScC0vPfHaithAt6rKMSe8EHx21cauvjFJIH0Eo";
        let (one, rest) = key.split_at(10);
        let (two, three) = rest.split_at(20);
        let text = [
            "My key is ",
            &format!("it: {one}"),
            two,
            "",
            &format!("{three}, see?"),
        ];
        let redacted = pieces(&text);
        assert_eq!(
            redacted,
            ["My key is ", "it: [redacted: openai key]", "", "", ", see?"]
        );
        assert!(matches!(redacted[0], Cow::Borrowed(_)));
        assert!(
            matches!(redacted[3], Cow::Borrowed(_)),
            "an empty piece stays"
        );
        assert_eq!(redacted.concat(), redact(&text.concat()));
    }

    #[test]
    fn base64_over_pieces_is_found_in_the_text_the_plain_secrets_left() {
        // "OPENAI_API_KEY=sk-proj-5okeBPMJZIScC0vPfHaithAt6rKMSe8EHx21" in
        // base64, after a password.
        let encoded =
            "T1BFTkFJX0FQSV9LRVk9c2stcHJvai01b2tlQlBNSlpJU2NDMHZQZkhhaXRoQXQ2cktNU2U4RUh4MjE=";
        let (head, tail) = encoded.split_at(30);
        let text = ["password=hunter2 ", head, tail, " end"];
        let redacted = pieces(&text);
        assert_eq!(redacted.concat(), redact(&text.concat()));
        assert_eq!(redacted[1], "[redacted: openai key]");
        assert_eq!(redacted[2], "");
    }

    #[test]
    fn places_name_the_way_to_each_string() {
        let mut json = serde_json::json!({"choices": [{"delta": {"content": "a"}}], "id": "x"});
        let mut seen = Vec::new();
        strings(&mut json, &mut String::new(), &mut |place, text| {
            seen.push((place.to_owned(), text.clone()));
        });
        assert_eq!(
            seen,
            [
                ("choices.0.delta.content".to_owned(), "a".to_owned()),
                ("id".to_owned(), "x".to_owned())
            ]
        );
    }
}
