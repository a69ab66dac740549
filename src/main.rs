use std::process::ExitCode;

use clap::Parser;
use loopstep::cli::{
    Cli, Command, DEFAULT_RUN, LoopFlags, RedactFlag, ScreenFlags, execute, with_play_implied,
};
use loopstep::text::sanitize;

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(with_play_implied(std::env::args_os().collect())) {
        Ok(cli) => cli,
        // clap echoes what it was given; what reaches the terminal is neutralised.
        Err(error) => {
            let text = sanitize(&error.render().to_string());
            if error.use_stderr() {
                eprint!("{text}");
            } else {
                print!("{text}");
            }
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    let globals = cli.globals();
    let command = cli.command.unwrap_or(Command::Play {
        run: DEFAULT_RUN.to_owned(),
        loop_flags: LoopFlags::default(),
        from: None,
        screen_flags: ScreenFlags::default(),
        redact: RedactFlag::default(),
    });
    match execute(command, globals) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("loopstep: {}", sanitize(&failure.to_string()));
            failure.exit_code()
        }
    }
}
