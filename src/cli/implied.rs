//! `play` implied: a run name, a file or a loop flag where a command
//! would be opens the screen on it.

use std::ffi::OsString;

use clap::ArgAction;

use super::arguments::Cli;
use crate::transcript::{BUILTIN_NAMES, nearest_names};

/// `loopstep paris` and `loopstep --max-turns 2` mean `loopstep play …`:
/// a run name, a file or a flag of `play` where a command would be. Which
/// options every command takes, which take a value, and which are
/// `play`'s come from the command line's own definition.
pub fn with_play_implied(mut args: Vec<OsString>) -> Vec<OsString> {
    let mut command = <Cli as clap::CommandFactory>::command();
    command.build(); // adds `help`, and gives every command the global options
    // Global options (`--lang zh`, `--prices p.json`) may come first; what
    // follows them decides.
    let mut at = 1;
    while let Some(long) = args.get(at).and_then(|a| a.to_str()?.strip_prefix("--")) {
        let (name, inline_value) = match long.split_once('=') {
            Some((name, _)) => (name, true),
            None => (long, false),
        };
        let Some(option) = command
            .get_arguments()
            .find(|a| a.is_global_set() && a.get_long() == Some(name))
        else {
            break;
        };
        let separate_value = option.get_action().takes_values() && !inline_value;
        at += if separate_value { 2 } else { 1 };
    }
    let Some(first) = args.get(at).and_then(|a| a.to_str()) else {
        return args;
    };
    let implies_play = if let Some(long) = first.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        let play = command.find_subcommand("play").expect("play is a command");
        play.get_arguments().any(|a| {
            let help = matches!(a.get_action(), ArgAction::Help | ArgAction::HelpLong);
            !a.is_global_set() && !help && a.get_long() == Some(name)
        })
    } else if first.starts_with('-') {
        false
    } else {
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
        assert_eq!(implied(&["loopstep", "-V"]), ["loopstep", "-V"]);
        assert_eq!(
            implied(&["loopstep", "--prices", "p.json", "paris"]),
            ["loopstep", "--prices", "p.json", "play", "paris"]
        );
        assert_eq!(
            implied(&["loopstep", "--prices=p.json", "--no-mouse"]),
            ["loopstep", "--prices=p.json", "play", "--no-mouse"]
        );
        // Not play's: left for clap to explain.
        assert_eq!(
            implied(&["loopstep", "--format", "json"]),
            ["loopstep", "--format", "json"]
        );
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
