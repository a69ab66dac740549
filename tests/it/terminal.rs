//! The real binary in a real pseudo-terminal: start it, press keys, read the
//! screen, quit, and check the terminal was given back.
//!
//! The PTY comes from `script` (util-linux, part of every Debian base
//! system); a tiny interpreter below turns what the program wrote into the
//! grid of characters a terminal would show.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const COLS: usize = 100;
const ROWS: usize = 30;

/// What a terminal shows after reading `bytes`, and whether it is still in
/// the alternate screen. Understands cursor moves, clears and the alternate
/// screen switch; skips colours and every other sequence.
/// Marks the column a wide character covers beside its own.
const WIDE_TAIL: char = '\0';

struct Screen {
    grid: Vec<Vec<char>>,
    alternate: bool,
}

impl Screen {
    fn parse(bytes: &[u8]) -> Screen {
        let text = String::from_utf8_lossy(bytes);
        let mut screen = Screen {
            grid: vec![vec![' '; COLS]; ROWS],
            alternate: false,
        };
        let (mut row, mut col) = (0usize, 0usize);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\u{1b}' => match chars.next() {
                    Some('[') => {
                        let mut params = String::new();
                        let mut end = ' ';
                        for p in chars.by_ref() {
                            if ('@'..='~').contains(&p) {
                                end = p;
                                break;
                            }
                            params.push(p);
                        }
                        match (end, params.as_str()) {
                            ('H', _) => {
                                let mut nums =
                                    params.split(';').map(|n| n.parse::<usize>().unwrap_or(1));
                                row = nums.next().unwrap_or(1).saturating_sub(1);
                                col = nums.next().unwrap_or(1).saturating_sub(1);
                            }
                            ('J', "2") => screen.grid = vec![vec![' '; COLS]; ROWS],
                            ('h', "?1049") => screen.alternate = true,
                            ('l', "?1049") => screen.alternate = false,
                            _ => {}
                        }
                    }
                    Some(']') => {
                        // An OSC string ends with BEL or ESC \.
                        while let Some(p) = chars.next() {
                            if p == '\u{7}' || (p == '\u{1b}' && chars.next_if_eq(&'\\').is_some())
                            {
                                break;
                            }
                        }
                    }
                    _ => {}
                },
                '\r' => col = 0,
                '\n' => row += 1,
                c if c.is_control() => {}
                c => {
                    if row < ROWS && col < COLS {
                        screen.grid[row][col] = c;
                    }
                    // A wide character takes two columns; the second holds
                    // nothing of its own.
                    let width = unicode_width::UnicodeWidthChar::width(c).unwrap_or(1);
                    for covered in 1..width {
                        if row < ROWS && col + covered < COLS {
                            screen.grid[row][col + covered] = WIDE_TAIL;
                        }
                    }
                    col += width.max(1);
                }
            }
        }
        screen
    }

    fn text(&self) -> String {
        self.grid
            .iter()
            .map(|r| r.iter().filter(|c| **c != WIDE_TAIL).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// How long a screen may take to show what is awaited before the test
/// fails: a bound on a hang, not a speed target (the speed targets are
/// benchmarks); generous because each look parses all the output so far,
/// and the tests share two cores.
const PATIENCE: Duration = Duration::from_secs(30);

struct Session {
    child: Child,
    output: Arc<Mutex<Vec<u8>>>,
    reader: Option<thread::JoinHandle<()>>,
}

impl Session {
    fn start(args: &str) -> Session {
        Session::start_in("C.UTF-8", args)
    }

    /// Starts loopstep with `LANG` set to `locale` and no other locale
    /// variable, whatever the machine running the tests has.
    fn start_in(locale: &str, args: &str) -> Session {
        let binary = env!("CARGO_BIN_EXE_loopstep");
        Session::spawn(
            locale,
            &format!("stty cols {COLS} rows {ROWS} && exec '{binary}' {args}"),
        )
    }

    /// An interactive bash with job control in the pseudo-terminal, which
    /// starts loopstep as a job of its own, as a user's shell does.
    fn start_in_a_shell() -> Session {
        let binary = env!("CARGO_BIN_EXE_loopstep");
        let mut session = Session::spawn("C.UTF-8", "exec bash --norc --noprofile -i");
        session.press(&format!("stty cols {COLS} rows {ROWS}; '{binary}'\n"));
        session
    }

    fn spawn(locale: &str, command: &str) -> Session {
        let mut child = Command::new("script")
            .args(["-qfec", command, "/dev/null"])
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env("LANG", locale)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("`script` (util-linux) runs the program in a pseudo-terminal");
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut stdout = child.stdout.take().unwrap();
        let sink = Arc::clone(&output);
        let reader = thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Session {
            child,
            output,
            reader: Some(reader),
        }
    }

    fn screen(&self) -> Screen {
        Screen::parse(&self.output.lock().unwrap())
    }

    /// Waits (up to `PATIENCE`) until the screen shows `text`.
    fn wait_for(&self, text: &str) -> Screen {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.screen();
            if screen.text().contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "{text:?} never appeared; the screen shows:\n{}",
                screen.text()
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    fn press(&mut self, keys: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(keys.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Presses `keys` and waits (up to `PATIENCE`) until what is written
    /// after them holds `text`: for what the screen grid does not keep,
    /// such as the shell's own lines or a control sequence.
    fn press_and_wait(&mut self, keys: &str, text: &str) {
        let before = self.output.lock().unwrap().len();
        self.press(keys);
        let deadline = Instant::now() + PATIENCE;
        while !String::from_utf8_lossy(&self.output.lock().unwrap()[before..]).contains(text) {
            assert!(
                Instant::now() < deadline,
                "{text:?} never came after {keys:?}"
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (up to `PATIENCE`) for the program to exit and returns its code.
    fn exit_code(&mut self) -> i32 {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // All output is in once the reader has seen the end of it.
                self.reader.take().map(thread::JoinHandle::join);
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                self.child.kill().unwrap();
                panic!(
                    "the program did not exit; screen:\n{}",
                    self.screen().text()
                );
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A session a failed test leaves is ended with it: a presenter left
/// running would keep its lesson's socket.
impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_screen_runs_in_a_real_terminal_and_gives_it_back() {
    let mut session = Session::start("");
    let first = session.wait_for("step 1/12 · turn 0 · start");
    assert!(first.alternate, "the screen uses the alternate screen");
    assert!(
        first
            .text()
            .contains("In which year was the director of Aurora Run born?")
    );

    session.press("lll");
    session.wait_for("step 4/12 · turn 0 · dispatch");
    session.wait_for("Aurora Run is a 1998 novel by the Norwegian writer");

    session.press("G");
    session.wait_for("outcome: \"1974\"");
    session.press("--------");
    session.wait_for("outcome: None");

    session.press("?");
    session.wait_for("show or hide this help");
    session.press("q");
    assert_eq!(session.exit_code(), 0);
    let last = session.screen();
    assert!(!last.alternate, "the terminal left the alternate screen");
    let raw = session.output.lock().unwrap().clone();
    let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(64)..]).into_owned();
    assert!(
        tail.contains("\u{1b}[?1049l"),
        "ends by leaving the alternate screen: {tail:?}"
    );
}

#[test]
fn a_missing_file_fails_before_the_screen_opens() {
    let mut session = Session::start("play no-such-file.json");
    assert_eq!(session.exit_code(), 2);
    let screen = session.wait_for("no-such-file.json");
    assert!(!screen.alternate);
}

/// Ctrl-Z gives the terminal back and stops the program; resumed, it takes
/// the terminal again and draws the screen whole. Under `script` the
/// program's process group has no parent in its session, so the kernel
/// does not stop it (a shell's `fg` is the test after this one): what is checked is
/// the terminal handed back and taken again, and the screen redrawn.
#[test]
fn ctrl_z_hands_the_terminal_back_and_takes_it_again_whole() {
    let mut session = Session::start("");
    session.wait_for("step 1/12 · turn 0 · start");
    session.press("lll");
    session.wait_for("step 4/12 · turn 0 · dispatch");
    let before = session.output.lock().unwrap().len();
    session.press("\u{1a}");
    let deadline = Instant::now() + PATIENCE;
    let after = loop {
        let after = session.output.lock().unwrap()[before..].to_vec();
        let text = String::from_utf8_lossy(&after).into_owned();
        if text.contains("step 4/12 · turn 0 · dispatch") {
            break text;
        }
        assert!(Instant::now() < deadline, "never redrawn: {text:?}");
        thread::sleep(Duration::from_millis(50));
    };
    let left = after
        .find("\u{1b}[?1049l")
        .expect("left the alternate screen");
    let back = after.find("\u{1b}[?1049h").expect("took it again");
    assert!(left < back);
    assert!(
        after[back..].contains("In which year was the director of Aurora Run born?"),
        "drawn whole, not only what changed: {after:?}"
    );
    // The keys work as before: raw mode is back.
    session.press("l");
    session.wait_for("step 5/12 · turn 0 · append");
    session.press("q");
    assert_eq!(session.exit_code(), 0);
}

/// Ctrl-Z and then `fg` in a real shell: the program stops, the shell
/// gets the terminal, and once continued the keys act again every time.
/// (The stop could take hold a moment after the program had taken raw mode
/// back, which the shell then undid: keys echoed as `^[[C` until Enter.)
#[test]
fn ctrl_z_then_fg_in_a_shell_gives_back_a_screen_that_takes_keys() {
    let mut session = Session::start_in_a_shell();
    session.wait_for("step 1/12 · turn 0 · start");
    for round in 1..=3 {
        session.press_and_wait("\u{1a}", "Stopped");
        session.press("clear; fg\n");
        session.wait_for("In which year was the director of Aurora Run born?");
        session.press("l");
        session.wait_for(&format!("step {}/12", round + 1));
    }
    // The screen given back for good, the shell takes its own input again.
    session.press_and_wait("q", "\u{1b}[?1049l");
    session.press("exit\n");
    assert_eq!(session.exit_code(), 0);
}

/// Far more than the first kilobyte, which is all crossterm's default
/// event source took of a burst until more input came.
#[test]
fn a_burst_of_2000_keys_typed_at_once_moves_2000_steps() {
    let mut session = Session::start("always-search --max-turns 3000");
    session.wait_for("step 1/");
    session.press(&"l".repeat(2000));
    session.wait_for("step 2001/");
    session.press("q");
    assert_eq!(session.exit_code(), 0);
}

#[test]
fn a_chinese_locale_opens_the_screen_in_chinese() {
    let mut session = Session::start_in("zh_CN.UTF-8", "");
    let first = session.wait_for("Aurora Run 的导演出生于哪一年？");
    assert!(first.text().contains("开始"));
    session.press("L");
    session.wait_for("In which year was the director of Aurora Run born?");
    session.press("q");
    assert_eq!(session.exit_code(), 0);
}

#[test]
fn the_notes_follow_a_presenter_in_another_terminal_step_by_step() {
    // A copy of the example lesson of its own: its socket is no other
    // test's. The notes start first and wait for the presenter.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("notes-pty");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lesson = dir.join("lesson.toml");
    std::fs::copy("lessons/seed-000.toml", &lesson).unwrap();
    let lesson = lesson.display().to_string();
    let mut notes = Session::start(&format!("notes '{lesson}'"));
    notes.wait_for("Waiting for the presenter");
    let mut presenter = Session::start(&format!("present '{lesson}' --publish-notes"));
    presenter.wait_for("scene 1/8");
    notes.wait_for("The class reads the scene's title card");
    // Each step the presenter takes (the first opens the run), the notes
    // show, with its note and the step to come.
    let mut slowest = Duration::ZERO;
    for (step, shows) in [
        (1, "(no note for this step)"),
        (2, "Every call sends the whole messages list"),
        (3, "The branch is read from stop_reason"),
    ] {
        let pressed = Instant::now();
        presenter.press("\x1b[C");
        notes.wait_for(&format!("Now, step {step}: your notes"));
        notes.wait_for(shows);
        slowest = slowest.max(pressed.elapsed());
    }
    // The next scene, and the language the presenter switches to.
    presenter.press("]");
    notes.wait_for("scene 2/8");
    presenter.press("\r");
    presenter.press("L");
    notes.wait_for("现在是第 1 步");
    eprintln!("the notes followed each step within {slowest:?}");
    presenter.press("q");
    assert_eq!(presenter.exit_code(), 0);
    // The presenter gone, the notes wait for the next one, and follow it
    // once it is back.
    notes.wait_for("Waiting for the presenter");
    let mut again = Session::start(&format!("present '{lesson}' --publish-notes"));
    again.wait_for("scene 1/8");
    again.press("\r");
    notes.wait_for("Now, step 1: your notes");
    again.press("q");
    assert_eq!(again.exit_code(), 0);
    notes.press("q");
    assert_eq!(notes.exit_code(), 0);
}
