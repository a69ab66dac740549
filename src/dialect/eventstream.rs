//! AWS's event-stream framing (`application/vnd.amazon.eventstream`), in
//! which Bedrock's ConverseStream sends its events: a frame is its total
//! length and its headers' length (4-byte big-endian each), a CRC-32 of
//! those eight bytes, the headers, the payload, and a CRC-32 of
//! everything before it. A header is its name's length (1 byte), the
//! name, a value type (1 byte) and the value; the event's kind is the
//! string header `:event-type`.
//! (https://docs.aws.amazon.com/lexv2/latest/dg/event-stream-encoding.html)

use serde_json::Value;

/// The events of a body, each `{eventType: payload}`; `None` when the
/// bytes are not whole, checked frames of JSON payloads.
pub fn events(mut bytes: &[u8]) -> Option<Vec<Value>> {
    let mut events = Vec::new();
    while !bytes.is_empty() {
        let total = usize::try_from(be_u32(bytes.get(0..4)?)).ok()?;
        let headers = usize::try_from(be_u32(bytes.get(4..8)?)).ok()?;
        let frame = bytes.get(..total)?;
        let (body, crc) = frame.split_at(total.checked_sub(4)?);
        let prelude_ok = crc32fast::hash(&frame[..8]) == be_u32(frame.get(8..12)?);
        if !prelude_ok || crc32fast::hash(body) != be_u32(crc) {
            return None;
        }
        let header_bytes = body.get(12..12 + headers)?;
        let payload = body.get(12 + headers..)?;
        let kind = event_type(header_bytes)?;
        let payload: Value = serde_json::from_slice(payload).ok()?;
        events.push(serde_json::json!({ kind: payload }));
        bytes = &bytes[total..];
    }
    (!events.is_empty()).then_some(events)
}

fn be_u32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0, |n, b| (n << 8) | u32::from(*b))
}

/// The `:event-type` header's value; the other headers are stepped over
/// by their type's size.
fn event_type(mut headers: &[u8]) -> Option<String> {
    let mut found = None;
    while !headers.is_empty() {
        let name_len = usize::from(*headers.first()?);
        let name = headers.get(1..1 + name_len)?;
        let kind = *headers.get(1 + name_len)?;
        let rest = headers.get(2 + name_len..)?;
        let size = match kind {
            0 | 1 => 0,
            2 => 1,
            3 => 2,
            4 => 4,
            5 | 8 => 8,
            9 => 16,
            // Bytes and strings carry their length in two bytes.
            6 | 7 => 2 + usize::try_from(be_u32(rest.get(..2)?)).ok()?,
            _ => return None,
        };
        let value = rest.get(..size)?;
        if kind == 7 && name == b":event-type" {
            found = Some(String::from_utf8(value[2..].to_vec()).ok()?);
        }
        headers = &rest[size..];
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One frame with string headers, as the service writes it.
    fn frame(headers: &[(&str, &str)], payload: &str) -> Vec<u8> {
        let mut head = Vec::new();
        for (name, value) in headers {
            head.push(name.len() as u8);
            head.extend(name.as_bytes());
            head.push(7);
            head.extend((value.len() as u16).to_be_bytes());
            head.extend(value.as_bytes());
        }
        let total = 16 + head.len() + payload.len();
        let mut out = Vec::new();
        out.extend((total as u32).to_be_bytes());
        out.extend((head.len() as u32).to_be_bytes());
        out.extend(crc32fast::hash(&out).to_be_bytes());
        out.extend(head);
        out.extend(payload.as_bytes());
        out.extend(crc32fast::hash(&out).to_be_bytes());
        out
    }

    #[test]
    fn frames_become_events_named_by_their_event_type() {
        let mut body = frame(
            &[(":event-type", "messageStart"), (":message-type", "event")],
            r#"{"role":"assistant","p":"abcd"}"#,
        );
        body.extend(frame(
            &[(":event-type", "messageStop")],
            r#"{"stopReason":"end_turn"}"#,
        ));
        let events = events(&body).unwrap();
        assert_eq!(events[0]["messageStart"]["role"], "assistant");
        assert_eq!(events[1]["messageStop"]["stopReason"], "end_turn");
    }

    #[test]
    fn a_damaged_or_cut_frame_is_no_stream() {
        let whole = frame(&[(":event-type", "messageStart")], "{}");
        let mut damaged = whole.clone();
        damaged[20] ^= 1;
        assert_eq!(events(&damaged), None);
        assert_eq!(events(&whole[..whole.len() - 1]), None);
        assert_eq!(events(b"{\"a\": 1}"), None);
    }
}
