//! `export --format cast`: an asciicast v2 recording of the screen playing
//! the run by itself. Each recording is parsed as the format demands and
//! played through a terminal emulator, as the asciinema player would, and
//! its frames are compared with the screen itself.

use crate::common;

use std::num::{NonZeroU16, NonZeroU32};

use common::exported;
use common::screen::{builtins, drive, rows};
use loopstep::narrate::Lang;
use loopstep::tui::{App, Settings};
use serde_json::Value;

/// A recording: its header, each frame's time and data, and the time of
/// its last event, an empty one that holds the last frame on screen.
struct Cast {
    header: Value,
    events: Vec<(f64, String)>,
    ends_at: f64,
}

impl Cast {
    /// What `loopstep export aurora-run ARGS --format cast` records.
    fn of_aurora(args: &[&str]) -> Cast {
        Cast::parse(&exported(
            &[&["aurora-run", "--format", "cast"], args].concat(),
        ))
    }

    /// Parses asciicast v2, failing on anything the format does not allow:
    /// a header object, then `[time, "o", data]` lines, times never going back.
    fn parse(text: &str) -> Cast {
        let mut lines = text.lines();
        let header: Value =
            serde_json::from_str(lines.next().expect("a header line")).expect("a JSON header");
        assert_eq!(header["version"], 2, "{header}");
        assert!(header["width"].as_u64().is_some_and(|w| w > 0), "{header}");
        assert!(header["height"].as_u64().is_some_and(|h| h > 0), "{header}");
        let mut events = Vec::new();
        let mut last = 0.0;
        for line in lines {
            let event: Value = serde_json::from_str(line).expect("a JSON event");
            let [time, kind, data] = event.as_array().expect("an array").as_slice() else {
                panic!("not three elements: {line}");
            };
            let time = time.as_f64().expect("a time in seconds");
            assert!(time >= last, "time goes back: {line}");
            last = time;
            assert_eq!(kind, "o", "{line}");
            events.push((time, data.as_str().expect("data as a string").to_owned()));
        }
        let (ends_at, hold) = events.pop().expect("events");
        assert_eq!(hold, "", "the last event holds the last frame");
        Cast {
            header,
            events,
            ends_at,
        }
    }

    fn size(&self) -> (u16, u16) {
        let number = |key: &str| self.header[key].as_u64().unwrap() as u16;
        (number("width"), number("height"))
    }

    /// The rows a player shows after each event. Each frame is also played
    /// on its own, on a fresh terminal, and must show the same: no frame
    /// needs the ones before it.
    fn frames(&self) -> Vec<Vec<String>> {
        let (width, height) = self.size();
        let terminal = || {
            let size = |n| NonZeroU16::new(n).expect("a size above zero");
            vt100::Parser::new(size(height), size(width), 0)
        };
        let mut player = terminal();
        self.events
            .iter()
            .map(|(time, data)| {
                assert!(
                    data.starts_with("\x1b[2J"),
                    "frame at {time} s clears first"
                );
                player.process(data.as_bytes());
                let mut alone = terminal();
                alone.process(data.as_bytes());
                assert_eq!(
                    alone.screen().contents_formatted(),
                    player.screen().contents_formatted(),
                    "the frame at {time} s shows the same on its own"
                );
                player.screen().rows(0, width).collect()
            })
            .collect()
    }
}

/// The screen opened on aurora-run as `export` opens it.
fn aurora(lang: Lang, max_turns: Option<u32>) -> App {
    let settings = Settings {
        lang,
        max_turns: max_turns.and_then(NonZeroU32::new),
        ..Settings::default()
    };
    App::new(builtins(), 0, settings)
}

/// The last frame of a recording, checked against the screen `app` shows
/// at the run's end, drawn at the recording's size: the same rows, to the
/// column.
fn ends_as_the_screen_does(cast: &Cast, mut app: App) -> Vec<String> {
    let (width, height) = cast.size();
    let last = cast.frames().pop().expect("at least one frame");
    let screen = rows(drive(&mut app, width, height, &["End"]).backend().buffer());
    let trimmed =
        |rows: &[String]| -> Vec<String> { rows.iter().map(|r| r.trim_end().to_owned()).collect() };
    assert_eq!(trimmed(&last), trimmed(&screen));
    last
}

#[test]
fn aurora_run_plays_a_step_every_one_and_a_half_seconds_to_1974() {
    let cast = Cast::of_aurora(&[]);
    assert_eq!(cast.size(), (80, 24));
    assert_eq!(
        cast.header["title"],
        "Multi-step: who directed Aurora Run, and when were they born?"
    );
    assert_eq!(cast.header["env"]["TERM"], "xterm-256color");
    let times: Vec<f64> = cast.events.iter().map(|(t, _)| *t).collect();
    let paced: Vec<f64> = (0..12).map(|n| f64::from(n) * 1.5).collect();
    assert_eq!(times, paced);
    assert_eq!(cast.ends_at, 16.5 + 3.0, "the result stays on screen");

    let frames = cast.frames();
    let first = frames[0].join("\n");
    assert!(first.contains("step 1/12 · turn 0 · start"), "{first}");
    assert!(
        first.contains("▶ playing 1×"),
        "the autoplay's footer: {first}"
    );
    assert!(
        frames[3]
            .join("\n")
            .contains("step 4/12 · turn 0 · dispatch")
    );
    let last = ends_as_the_screen_does(&cast, aurora(Lang::En, None)).join("\n");
    assert!(last.contains("The loop returns \"1974\""), "{last}");
}

#[test]
fn with_two_turns_the_last_frame_shows_none() {
    let cast = Cast::of_aurora(&["--max-turns", "2"]);
    let last = ends_as_the_screen_does(&cast, aurora(Lang::En, Some(2))).join("\n");
    assert!(last.contains("None"), "{last}");
    assert!(!last.contains("1974\""), "{last}");
}

#[test]
fn in_chinese_the_recording_speaks_chinese() {
    let cast = Cast::of_aurora(&["--lang", "zh"]);
    assert_eq!(
        cast.header["title"],
        "多步：Aurora Run 的导演是谁，生于哪一年？"
    );
    let last = ends_as_the_screen_does(&cast, aurora(Lang::Zh, None)).join("\n");
    assert!(last.contains("第 12/12 步"), "{last}");
    assert!(last.contains("\"1974\""), "{last}");
}

#[test]
fn size_sets_the_recording_terminal() {
    let cast = Cast::of_aurora(&["--size", "120x40"]);
    assert_eq!(cast.size(), (120, 40));
    let last = ends_as_the_screen_does(&cast, aurora(Lang::En, None));
    assert_eq!(last.len(), 40);
}

#[test]
fn a_run_s_own_escape_sequences_reach_the_recording_only_as_visible_marks() {
    let hostile = "answer \u{1b}]0;owned\u{7} \u{1b}[2J done";
    let mut doc = common::search_doc(vec![common::says(hostile, "end_turn")], 3);
    doc["title"] = hostile.into();
    doc["question"] = hostile.into();
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-cast.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    let cast = Cast::parse(&exported(&[path.to_str().unwrap(), "--format", "cast"]));
    let title = cast.header["title"].as_str().unwrap();
    assert!(
        !title.contains('\u{1b}') && title.contains("␛]0;owned␇"),
        "{title}"
    );
    for (time, data) in &cast.events {
        assert!(
            !data.contains("\u{1b}]0;owned"),
            "a title sequence at {time} s"
        );
        assert!(!data.contains('\u{7}'), "a bell at {time} s");
    }
    let last = cast.frames().pop().unwrap().join("\n");
    assert!(last.contains("␛]0;owned␇"), "{last}");
}

#[test]
fn characters_that_show_nothing_never_reach_the_terminal() {
    let hidden = "Which\u{200b}\u{200b} year\u{200d}\u{200d}? \u{feff}\u{2060}end \u{e0041}";
    let mut doc = common::search_doc(vec![common::says(hidden, "end_turn")], 3);
    doc["title"] = hidden.into();
    doc["question"] = format!("{hidden} 👩\u{200d}💻").into();
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zero-width-cast.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    let cast = Cast::parse(&exported(&[path.to_str().unwrap(), "--format", "cast"]));
    for (time, data) in &cast.events {
        for c in ['\u{200b}', '\u{feff}', '\u{2060}', '\u{e0041}'] {
            assert!(!data.contains(c), "{c:?} at {time} s");
        }
        let lone_joiner = data.replace("👩\u{200d}💻", "");
        assert!(
            !lone_joiner.contains('\u{200d}'),
            "a joiner outside an emoji at {time} s"
        );
    }
    let last = cast.frames().pop().unwrap().join("\n");
    assert!(last.contains("Which year? end"), "{last}");
}

#[test]
fn a_run_too_long_to_watch_is_refused_with_a_way_out() {
    let out = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args([
            "export",
            "always-search",
            "--max-turns",
            "5000",
            "--format",
            "cast",
            "-o",
            "-",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success() && out.stdout.is_empty());
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(
        error.contains("more than 2000 steps") && error.contains("--max-turns"),
        "{error}"
    );
}
