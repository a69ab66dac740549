//! The documentation's examples are real: the format's transcript parses
//! and replays as docs/format.md says, and the price list of
//! docs/recordings.md prices as it says.

use loopstep::engine::Usage;
use loopstep::prices::Prices;
use loopstep::transcript::{BUILTIN_NAMES, Transcript, Verification, builtin};

/// The documentation's JSON examples: the transcripts, and the price list.
fn json_blocks() -> (Vec<String>, Vec<String>) {
    let docs = [
        include_str!("../../docs/format.md"),
        include_str!("../../docs/recordings.md"),
    ]
    .concat();
    docs.split("```json\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap().to_owned())
        .partition(|block| !block.contains("\"cache_read\""))
}

#[test]
fn the_documented_price_list_is_one() {
    let (_, prices) = json_blocks();
    assert_eq!(prices.len(), 1);
    let prices = Prices::parse(&prices[0]).unwrap();
    let usage = Usage {
        input_tokens: 1_000_000,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
    };
    assert_eq!(prices.cost("model-b", &usage), Some(1.25));
}

#[test]
fn the_documented_transcript_replays_and_verifies() {
    let (blocks, _) = json_blocks();
    assert_eq!(blocks.len(), 2, "a full transcript and a scenario");
    let transcript = Transcript::parse(&blocks[0], "docs/format.md example").unwrap();
    let trace = transcript.replay(transcript.default_config());
    assert_eq!(trace.result(), Some("Mara Voss"));
    assert_eq!(trace.tool_calls(), 2);
    assert!(matches!(
        transcript.verify(trace.view()),
        Verification::Verified(_)
    ));

    let scenario = Transcript::parse(&blocks[1], "docs/format.md scenario").unwrap();
    assert_eq!(scenario.max_turns.get(), 2);
    assert_eq!(
        scenario.replies,
        builtin("aurora-run").unwrap().unwrap().replies
    );
}

#[test]
fn every_built_in_run_loads_and_ends() {
    for name in BUILTIN_NAMES {
        let t = builtin(name)
            .unwrap()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.id, name);
        let trace = t.replay(t.default_config());
        assert!(trace.outcome().is_some(), "{name} ends with an exit step");
    }
}

#[test]
fn the_readme_s_format_table_names_every_recording_format() {
    let readme = include_str!("../../README.md");
    for format in loopstep::transcript::Format::ALL {
        if format != loopstep::transcript::Format::Native {
            let row = format!("| `{}` |", format.flag());
            assert!(readme.contains(&row), "README lacks {row}");
        }
    }
}

#[test]
fn the_documented_run_prints_what_the_program_prints() {
    // docs/commands.md shows `run aurora-run --max-turns 2` whole.
    let docs = include_str!("../../docs/commands.md");
    let command = "$ loopstep run aurora-run --max-turns 2\n";
    let shown = docs.split(command).nth(1).unwrap();
    let shown = &shown[..shown.find("```").unwrap()];
    let printed = crate::common::printed(&["run", "aurora-run", "--max-turns", "2"]);
    assert_eq!(shown, printed);
}

#[test]
fn the_readme_stays_short_enough_to_read_and_the_rest_lives_in_docs() {
    let readme = include_str!("../../README.md");
    assert!(readme.len() <= 15_000, "README is {} bytes", readme.len());
}
