//! What `--redact` costs on a large recording: 50 MB of text with no
//! secret (scanned, never copied), the same with a secret every 4 kB, and
//! the runs of a 50 MB log redacted in place as `run --redact` does.
//!
//! Run with `cargo bench --bench redact`.

use std::borrow::Cow;

use loopstep::narrate::Lang;
use loopstep::redact::{self, redact};
use loopstep::transcript::import;

#[path = "../tests/it/common/generated.rs"]
mod generated;
use generated::conversation;

fn main() {
    divan::main();
}

/// About 50 MB: 5 prompts × 400 tool rounds × 25 kB pages, as JSON text.
fn fifty_megabytes() -> String {
    let text = conversation(5, 400, 25_000);
    assert!(text.len() > 50_000_000 && text.is_ascii());
    text
}

#[divan::bench(sample_count = 5)]
fn text_50_mb_without_secrets(bencher: divan::Bencher) {
    let text = fifty_megabytes();
    bencher.bench(|| assert!(matches!(redact(&text), Cow::Borrowed(_))));
}

#[divan::bench(sample_count = 5)]
fn text_50_mb_with_a_secret_every_4_kb(bencher: divan::Bencher) {
    let plain = fifty_megabytes();
    let secret = " OPENAI_API_KEY=sk-proj-5okeBPMJZIScC0vPfHaithAt6rKMSe8EHx21cauvjFJIH0Eo ";
    // ASCII, so any byte is a character's boundary.
    let chunks = plain
        .as_bytes()
        .chunks(4096)
        .map(|c| std::str::from_utf8(c).unwrap());
    let text = chunks.collect::<Vec<_>>().join(secret);
    bencher.bench(|| match redact(&text) {
        Cow::Owned(redacted) => redacted.len(),
        Cow::Borrowed(_) => unreachable!("the secrets were missed"),
    });
}

#[divan::bench(sample_count = 5)]
fn runs_of_a_50_mb_log(bencher: divan::Bencher) {
    let source = import::load(fifty_megabytes(), "bench", "bench", None, Lang::En).unwrap();
    bencher
        .with_inputs(|| source.clone())
        .bench_local_values(|mut source| {
            redact::source(&mut source);
            source
        });
}
