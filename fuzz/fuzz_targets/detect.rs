//! Format detection: any text is recognised as a format and read, or
//! refused with what was tried and seen.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopstep::narrate::Lang;
use loopstep::transcript::import;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(source) = import::load(text.to_owned(), "fuzz", "fuzz", None, Lang::Zh) {
        for run in &source.runs {
            let trace = run.replay(run.default_config());
            assert!(trace.outcome().is_some(), "every replay ends");
        }
    }
});
