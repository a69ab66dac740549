//! The native loader: any text either loads as transcripts that replay to
//! an end, or is refused with an error; never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopstep::narrate::Lang;
use loopstep::transcript::Transcript;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for lang in [Lang::En, Lang::Zh] {
        if let Ok(runs) = Transcript::parse_many(text, "fuzz", lang) {
            for run in runs {
                let trace = run.replay(run.default_config());
                assert!(trace.outcome().is_some(), "every replay ends");
            }
        }
    }
});
