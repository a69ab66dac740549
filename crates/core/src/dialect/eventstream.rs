//! AWS's event-stream framing (`application/vnd.amazon.eventstream`), in
//! which Bedrock's ConverseStream sends its events: a frame is its total
//! length and its headers' length (4-byte big-endian each), a CRC-32 of
//! those eight bytes, the headers, the payload, and a CRC-32 of
//! everything before it. A header is its name's length (1 byte), the
//! name, a value type (1 byte) and the value; the event's kind is the
//! string header `:event-type`.
//! (https://docs.aws.amazon.com/lexv2/latest/dg/event-stream-encoding.html)

use serde_json::Value;

/// A frame's prelude, its two CRCs: the least a frame can be.
const OVERHEAD: usize = 16;

/// The events of a body, each `{eventType: payload}` (an exception the
/// service sent in the stream as `{exceptionType: payload}`); `None` when
/// the bytes are not whole, checked frames of JSON payloads.
pub fn events(mut bytes: &[u8]) -> Option<Vec<Value>> {
    let mut events = Vec::new();
    while !bytes.is_empty() {
        let total = usize::try_from(be_u32(bytes.get(0..4)?)).ok()?;
        let headers = usize::try_from(be_u32(bytes.get(4..8)?)).ok()?;
        if total < OVERHEAD {
            return None;
        }
        let frame = bytes.get(..total)?;
        let (body, crc) = frame.split_at(total - 4);
        let prelude_ok = crc32fast::hash(&frame[..8]) == be_u32(&frame[8..12]);
        if !prelude_ok || crc32fast::hash(body) != be_u32(crc) {
            return None;
        }
        let payload_at = headers.checked_add(12)?;
        let header_bytes = body.get(12..payload_at)?;
        let payload = body.get(payload_at..)?;
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

/// The `:event-type` header's value, or an exception's `:exception-type`;
/// the other headers are stepped over by their type's size.
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
        if kind == 7 && matches!(name, b":event-type" | b":exception-type") {
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
    fn a_frame_too_short_or_claiming_too_much_is_no_stream() {
        // A total below the prelude and CRCs, with its prelude CRC right.
        let mut short = 4u32.to_be_bytes().to_vec();
        short.extend(0u32.to_be_bytes());
        short.extend(crc32fast::hash(&short).to_be_bytes());
        short.extend([0; 4]);
        assert_eq!(events(&short), None);
        // Headers that claim more than the frame holds.
        let mut frame = frame(&[(":event-type", "messageStart")], "{}");
        frame[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(events(&frame), None);
    }

    #[test]
    fn an_exception_in_the_stream_is_named_by_its_type() {
        let body = frame(
            &[
                (":exception-type", "modelStreamErrorException"),
                (":message-type", "exception"),
            ],
            r#"{"message":"stream broke"}"#,
        );
        let events = events(&body).unwrap();
        assert_eq!(
            events[0]["modelStreamErrorException"]["message"],
            "stream broke"
        );
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
