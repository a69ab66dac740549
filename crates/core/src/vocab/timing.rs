//! When a recorded call or tool started and how long it took: data read
//! from the recording, never measured, so a replay stays the same on every
//! machine. The start is kept as the recording wrote it (RFC 3339), so the
//! screen shows the recording's own clock; its parsed instant only serves
//! to subtract one time from another.

use serde::{Deserialize, Serialize};

/// A pause or a duration longer than this is worth pointing out.
pub const LONG_MILLIS: u64 = 30_000;

/// An instant as recorded: RFC 3339, `2025-06-01T12:00:03.120Z`. A time
/// without an offset, as OpenHands writes them, is read as it stands: its
/// differences with the same log's other times are still right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    text: String,
    /// Milliseconds since 1970-01-01T00:00:00Z (offset applied).
    millis: i64,
}

impl Stamp {
    /// `None` for anything that is not an RFC 3339 date and time.
    pub fn parse(text: &str) -> Option<Stamp> {
        Some(Stamp {
            millis: parse_millis(text)?,
            text: text.to_owned(),
        })
    }

    /// The time as recorded.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `HH:MM:SS` on the recording's own clock.
    pub fn clock(&self) -> &str {
        // Parsing checked that bytes 11..19 are the ASCII `HH:MM:SS`.
        &self.text[11..19]
    }

    /// Milliseconds from `self` to `later`; `None` when `later` is earlier.
    pub fn millis_until(&self, later: &Stamp) -> Option<u64> {
        u64::try_from(later.millis - self.millis).ok()
    }
}

/// One call's or one tool's time, as the recording has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawTiming", into = "RawTiming")]
pub struct Timing {
    pub started: Stamp,
    pub millis: u64,
}

impl Timing {
    /// From two recorded instants; `None` when the end comes before the start.
    pub fn between(started: &Stamp, ended: &Stamp) -> Option<Timing> {
        Some(Timing {
            millis: started.millis_until(ended)?,
            started: started.clone(),
        })
    }

    pub fn seconds(&self) -> f64 {
        self.millis as f64 / 1000.0
    }

    /// Whether it took long enough to point out.
    pub fn is_long(&self) -> bool {
        self.millis > LONG_MILLIS
    }

    /// Milliseconds between the end of `self` and the start of `next`;
    /// `None` when they overlap.
    pub fn pause_before(&self, next: &Timing) -> Option<u64> {
        let ended = self.started.millis + self.millis as i64;
        u64::try_from(next.started.millis - ended).ok()
    }

    /// Milliseconds by which this began before `earlier` ended (a tool the
    /// client started while the reply that asked for it was still
    /// streaming); `None` when it began after.
    pub fn began_before_end_of(&self, earlier: &Timing) -> Option<u64> {
        let ended = earlier.started.millis + earlier.millis as i64;
        u64::try_from(ended - self.started.millis)
            .ok()
            .filter(|early| *early > 0)
    }

    /// A pause long enough to point out since `previous` ended, if any.
    pub fn long_pause_after(&self, previous: Option<&Timing>) -> Option<u64> {
        previous?
            .pause_before(self)
            .filter(|pause| *pause > LONG_MILLIS)
    }

    /// Whether this step stands out in time: it took long, or came after
    /// a long pause.
    pub fn stands_out_after(&self, previous: Option<&Timing>) -> bool {
        self.is_long() || self.long_pause_after(previous).is_some()
    }
}

/// The transcript's shape: `{"started": "…", "seconds": 4.2}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTiming {
    started: String,
    seconds: f64,
}

impl TryFrom<RawTiming> for Timing {
    type Error = String;

    fn try_from(raw: RawTiming) -> Result<Timing, String> {
        let started = Stamp::parse(&raw.started)
            .ok_or_else(|| format!("`{}` is not an RFC 3339 time", raw.started))?;
        // Up to a year: anything more is a broken recording, not a pause.
        if !(0.0..=31_536_000.0).contains(&raw.seconds) {
            return Err(format!("{} is not a number of seconds", raw.seconds));
        }
        Ok(Timing {
            started,
            millis: (raw.seconds * 1000.0).round() as u64,
        })
    }
}

impl From<Timing> for RawTiming {
    fn from(timing: Timing) -> RawTiming {
        RawTiming {
            seconds: timing.seconds(),
            started: timing.started.text,
        }
    }
}

/// `YYYY-MM-DD(T| )HH:MM:SS(.fraction)?(Z|±HH:MM)?` to milliseconds.
fn parse_millis(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 19 || !text.is_ascii() {
        return None;
    }
    let num = |from: usize, to: usize| digits(&text[from..to]);
    let punctuated = b[4] == b'-' && b[7] == b'-' && b[13] == b':' && b[16] == b':';
    if !punctuated || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let valid = (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && hour < 24
        && minute < 60
        && second <= 60;
    if !valid {
        return None;
    }
    let mut rest = &text[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let count = fraction.bytes().take_while(u8::is_ascii_digit).count();
        millis = digits_of_fraction(&fraction[..count.min(3)])?;
        rest = &fraction[count..];
    }
    let offset_minutes = match rest.as_bytes() {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let hours = digits(&rest[1..3]).filter(|h| *h < 24)?;
            let minutes = digits(&rest[4..6]).filter(|m| *m < 60)?;
            let total = hours * 60 + minutes;
            if *sign == b'+' { total } else { -total }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some(seconds * 1000 + millis)
}

/// The number a run of ASCII digits spells; `None` if any is no digit
/// (`parse` alone would take a sign).
fn digits(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Milliseconds of a fraction's first (up to three) digits: "5" is 500.
fn digits_of_fraction(first: &str) -> Option<i64> {
    let scale = [100, 10, 1].get(first.len().checked_sub(1)?)?;
    Some(digits(first)? * scale)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`, http://howardhinnant.github.io/date_algorithms.html).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> i64 {
        parse_millis(text).unwrap_or_else(|| panic!("{text} did not parse"))
    }

    #[test]
    fn reads_rfc_3339_with_fractions_and_offsets() {
        assert_eq!(at("1970-01-01T00:00:00Z"), 0);
        assert_eq!(at("1970-01-02T00:00:01.5Z"), 86_401_500);
        assert_eq!(at("2000-03-01T00:00:00Z"), 951_868_800_000);
        assert_eq!(at("2025-05-12T20:27:36-04:00"), at("2025-05-13T00:27:36Z"));
        assert_eq!(
            at("2025-01-27T23:16:54.105108"),
            at("2025-01-27T23:16:54.105Z")
        );
        assert_eq!(at("2024-02-29 10:00:00+00:00"), at("2024-02-29T10:00:00Z"));
    }

    #[test]
    fn refuses_what_is_not_a_time_without_panicking() {
        for bad in [
            "",
            "yesterday",
            "2025-13-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2025-01-01T24:00:00Z",
            "2025-01-01T00:00:00.Z",
            "2025-01-01T00:00:00+5",
            "2025-01-01T00:00:00Zjunk",
            "2025-01-01X00:00:00Z",
            "2025-01-01T00:00:00é",
            "+025-01-01T00:00:00Z",
        ] {
            assert_eq!(parse_millis(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_timing_reads_and_writes_seconds_and_shows_the_recorded_clock() {
        let timing: Timing =
            serde_json::from_str(r#"{"started": "2025-06-01T12:00:03.120Z", "seconds": 4.2}"#)
                .unwrap();
        assert_eq!(timing.millis, 4200);
        assert_eq!(timing.started.clock(), "12:00:03");
        let back = serde_json::to_string(&timing).unwrap();
        assert_eq!(
            back,
            r#"{"started":"2025-06-01T12:00:03.120Z","seconds":4.2}"#
        );
        let negative = r#"{"started": "2025-06-01T12:00:03Z", "seconds": -1}"#;
        assert!(serde_json::from_str::<Timing>(negative).is_err());
        let garbled = r#"{"started": "noon", "seconds": 1}"#;
        let error = serde_json::from_str::<Timing>(garbled).unwrap_err();
        assert!(error.to_string().contains("RFC 3339"), "{error}");
    }

    #[test]
    fn pauses_run_from_one_end_to_the_next_start() {
        let stamp = |t: &str| Stamp::parse(t).unwrap();
        let first = Timing::between(
            &stamp("2025-01-01T00:00:00Z"),
            &stamp("2025-01-01T00:00:10Z"),
        )
        .unwrap();
        let second = Timing {
            started: stamp("2025-01-01T00:00:50Z"),
            millis: 0,
        };
        assert_eq!(first.pause_before(&second), Some(40_000));
        assert_eq!(second.pause_before(&first), None);
        assert!(Timing::between(&second.started, &first.started).is_none());
    }
}
