use std::process::ExitCode;

use clap::Parser;
use loopstep::cli::{Cli, Command, DEFAULT_RUN, LoopFlags, execute, with_play_implied};
use loopstep::text::sanitize;

fn main() -> ExitCode {
    let cli = Cli::parse_from(with_play_implied(std::env::args_os().collect()));
    let lang = cli.lang();
    let command = cli.command.unwrap_or(Command::Play {
        run: DEFAULT_RUN.to_owned(),
        loop_flags: LoopFlags::default(),
        from: None,
    });
    match execute(command, lang) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("loopstep: {}", sanitize(&failure.to_string()));
            failure.exit_code()
        }
    }
}
