//! The README's examples are real: its transcript parses and replays as it says.

use loopstep::transcript::{BUILTIN_NAMES, Transcript, Verification, builtin};

fn json_blocks() -> Vec<String> {
    let readme = include_str!("../README.md");
    readme
        .split("```json\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_documented_transcript_replays_and_verifies() {
    let blocks = json_blocks();
    assert_eq!(blocks.len(), 2, "a full transcript and a scenario");
    let transcript = Transcript::parse(&blocks[0], "README example").unwrap();
    let trace = transcript.replay(transcript.default_config());
    assert_eq!(trace.result(), Some("Mara Voss"));
    assert_eq!(trace.tool_calls(), 2);
    assert!(matches!(
        transcript.verify(trace.view()),
        Verification::Verified(_)
    ));

    let scenario = Transcript::parse(&blocks[1], "README scenario").unwrap();
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
