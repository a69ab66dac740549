//! Where a command's output goes: standard output, or a file written
//! without ever costing the user one.

use std::path::Path;

use anyhow::Context;

use super::failure::Failure;

/// Refuses an output that is the input itself, or that exists without
/// `force`: an import is lossy, an export is no recording at all, and
/// neither must ever cost the user a recording.
pub(super) fn may_write(input: &Path, output: &Path, force: bool) -> Result<(), Failure> {
    if !output.exists() {
        return Ok(());
    }
    if output.is_dir() {
        return Err(Failure::Refused(format!(
            "{} is a folder; give the name of a file to write",
            output.display()
        )));
    }
    let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same(input, output) {
        return Err(Failure::Refused(format!(
            "{} is the recording being read; write to another file",
            output.display()
        )));
    }
    if !force {
        return Err(Failure::Refused(format!(
            "{} exists; add --force to replace it",
            output.display()
        )));
    }
    Ok(())
}

/// Writes `text` to a file beside `path`, then renames it over `path`, so
/// that a failure leaves the old file whole and no half-written new one.
pub(super) fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        // Nothing half-written stays behind; the write's own error is the one to report.
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Writes to standard output. A reader that went away (`| head`) is not an
/// error worth a message: the output was simply not wanted any more.
pub(super) fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.context("could not write to standard output"),
    }
}

/// Writes a JSON report to standard output as it is serialized, so that a
/// large report is never held whole in memory; inert in a terminal.
pub(super) fn write_json(report: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::{BufWriter, ErrorKind, Write};
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = crate::text::write_inert_json(&mut out, report)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        result => result.context("could not write the JSON report"),
    }
}
