//! The redactor: any text is redacted without a panic, redacting twice
//! changes nothing more, and a text it finds no secret in comes back as it
//! is, not copied.
#![no_main]

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;
use loopstep::redact::redact;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match redact(text) {
        Cow::Borrowed(same) => assert_eq!(same, text),
        Cow::Owned(redacted) => {
            assert_ne!(redacted, text, "a copy only where something changed");
            assert_eq!(redact(&redacted), redacted, "redacting twice changes nothing more");
        }
    }
});
