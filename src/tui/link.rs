//! `y`: the command that opens this exact frame again — the run, the step,
//! and every setting that differs from the run's own — for a teacher's
//! notes or a bug report. It goes to the clipboard through the terminal
//! (OSC 52) where the terminal allows, and always shows in the footer.

use crate::engine::CheckPolicy;
use crate::narrate::Lang;

use super::app::App;

/// Where the runs the screen opened came from: the name or path given on
/// the command line, and the index of its first run (built-in lessons come
/// before it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub what: String,
    pub first: usize,
    /// Opened with `--redact`: the command opens it so again, or it would
    /// show every secret the screen hid.
    pub redacted: bool,
}

/// The command, and how many runs on from the one it opens the frame is
/// (a file of several runs opens on its first; Tab goes on).
pub fn command(app: &App) -> (String, usize) {
    let current = app.runs().0;
    let (run, tabs) = match &app.opened {
        Some(opened) if current >= opened.first => (opened.what.clone(), current - opened.first),
        // A built-in lesson, by its name.
        _ => (app.transcript().id.clone(), 0),
    };
    let mut command = format!("loopstep play {} --step {}", quoted(&run), app.cursor() + 1);
    let config = app.config();
    if config.max_turns != app.transcript().max_turns {
        command += &format!(" --max-turns {}", config.max_turns);
    }
    if config.check == CheckPolicy::Lesson {
        command += " --check lesson";
    }
    if let Some(mistake) = config.mistake {
        command += &format!(" --mistake {}", mistake.name());
    }
    if app.lang == Lang::Zh {
        command += " --lang zh";
    }
    if app.opened.as_ref().is_some_and(|o| o.redacted) {
        command += " --redact";
    }
    (command, tabs)
}

/// A path as a POSIX shell reads it back: as it is when it is plain, else
/// in single quotes, or as `$'…'` with its control characters escaped
/// (bash, zsh and ksh read those) so that a pasted line holds no raw
/// newline or escape. One that starts with `-` gets `./`, or it would read
/// as a flag.
fn quoted(word: &str) -> String {
    let word = match word.starts_with('-') {
        true => format!("./{word}"),
        false => word.to_owned(),
    };
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c));
    if plain {
        word
    } else if word.chars().any(char::is_control) {
        let escaped: String = word
            .chars()
            .map(|c| match c {
                '\\' | '\'' => format!("\\{c}"),
                c if c.is_control() => format!("\\x{:02x}", u32::from(c)),
                c => c.to_string(),
            })
            .collect();
        format!("$'{escaped}'")
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_quoted_only_when_the_shell_needs_it() {
        assert_eq!(quoted("runs/aurora.json"), "runs/aurora.json");
        assert_eq!(quoted("my runs/it's.json"), r"'my runs/it'\''s.json'");
        assert_eq!(quoted("$(rm -rf ~)"), "'$(rm -rf ~)'");
        assert_eq!(quoted(""), "''");
        assert_eq!(quoted("-x.json"), "./-x.json");
        assert_eq!(quoted("a\nb\u{1b}c's"), r"$'a\x0ab\x1bc\'s'");
    }
}
