//! `play` implied: a run name, a file or a loop flag where a command
//! would be opens the screen on it.

use std::ffi::OsString;

use super::arguments::Cli;
use crate::transcript::{BUILTIN_NAMES, nearest_names};

/// `loopstep paris` and `loopstep --max-turns 2` mean `loopstep play …`:
/// a run name, a file or a loop flag where a command would be.
pub fn with_play_implied(mut args: Vec<OsString>) -> Vec<OsString> {
    // Global options (`--lang zh`, `--max-size 2GiB`) may come first; what
    // follows them decides.
    let mut at = 1;
    while let Some(arg) = args.get(at).and_then(|a| a.to_str()) {
        at += match arg {
            "--lang" | "--max-size" => 2,
            a if a.starts_with("--lang=") || a.starts_with("--max-size=") => 1,
            _ => break,
        };
    }
    let Some(first) = args.get(at).and_then(|a| a.to_str()) else {
        return args;
    };
    let flag = first.split('=').next().unwrap_or(first);
    let implies_play = if first.starts_with('-') {
        [
            "--max-turns",
            "--check",
            "--mistake",
            "--from",
            "--autoplay",
            "--step",
            "--quiz",
            "--theme",
            "--no-mouse",
            "--redact",
        ]
        .contains(&flag)
    } else {
        let mut command = <Cli as clap::CommandFactory>::command();
        command.build(); // adds `help`
        let commands: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        // A word that is no command is a run, unless it is a typo of a
        // command (clap then suggests the command); `play` says what a
        // misspelt run is nearest to.
        let mistyped_command = !nearest_names(first, &commands).is_empty()
            && nearest_names(first, &BUILTIN_NAMES).is_empty();
        !commands.contains(&first) && !mistyped_command
    };
    if implies_play {
        args.insert(at, "play".into());
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    fn implied(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        with_play_implied(args)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn a_run_name_or_loop_flag_alone_means_play() {
        assert_eq!(
            implied(&["loopstep", "paris"]),
            ["loopstep", "play", "paris"]
        );
        assert_eq!(
            implied(&["loopstep", "--max-turns=2"]),
            ["loopstep", "play", "--max-turns=2"]
        );
        assert_eq!(
            implied(&["loopstep", "run", "paris"]),
            ["loopstep", "run", "paris"]
        );
        assert_eq!(implied(&["loopstep", "list"]), ["loopstep", "list"]);
        assert_eq!(implied(&["loopstep", "--help"]), ["loopstep", "--help"]);
        // A typo of a command: left for clap to explain (and suggest `list`).
        assert_eq!(implied(&["loopstep", "lst"]), ["loopstep", "lst"]);
        assert_eq!(implied(&["loopstep", "help"]), ["loopstep", "help"]);
        // Any other word is a run: `play` names the runs nearest to it.
        assert_eq!(
            implied(&["loopstep", "pariss"]),
            ["loopstep", "play", "pariss"]
        );
        assert_eq!(implied(&["loopstep"]), ["loopstep"]);
        assert_eq!(
            implied(&["loopstep", "--redact", "log.jsonl"]),
            ["loopstep", "play", "--redact", "log.jsonl"]
        );
        assert_eq!(
            implied(&["loopstep", "--lang", "zh", "paris"]),
            ["loopstep", "--lang", "zh", "play", "paris"]
        );
        assert_eq!(
            implied(&["loopstep", "--lang=en", "--max-turns", "2"]),
            ["loopstep", "--lang=en", "play", "--max-turns", "2"]
        );
        assert_eq!(
            implied(&["loopstep", "--max-size", "2GiB", "--lang", "zh", "paris"]),
            [
                "loopstep",
                "--max-size",
                "2GiB",
                "--lang",
                "zh",
                "play",
                "paris"
            ]
        );
    }
}
