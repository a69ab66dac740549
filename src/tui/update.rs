//! `update`, the only place the run screen's state changes: a key's
//! action, taken by whatever has the keys (the run, the help, a prompt),
//! or a tick of the autoplay, or a frame drawn.

use std::num::NonZeroU32;

use super::app::{App, Mode, Notice, SPEEDS};
use super::keymap::Action;
use super::link;
use super::quiz::{Guess, Quiz};
use super::search::Search;
use crate::engine::{CheckPolicy, Config, Event, MAX_TURNS, Mistake, Query};

/// Rows one PageUp / PageDown moves the detail pane.
const DETAIL_PAGE: usize = 5;

pub fn update(app: &mut App, action: Action) {
    // Enter opens the sub-agent a tool call started; anywhere else, and in
    // a prompt or the help, it is the next step.
    let free = app.mode == Mode::Normal;
    let action = match action {
        Action::Open if free && app.open_subagent() => return,
        Action::Open => Action::Next,
        other => other,
    };
    // A notice stays until the next key.
    if !matches!(action, Action::Drawn(_) | Action::Resize(..) | Action::Tick) {
        app.notice = None;
    }
    // A click that is not on a timeline mark does nothing at all: it must
    // not stop the autoplay or take back a question.
    let action = match action {
        Action::Click(column, row) => match app.extents.timeline.step_at(column, row) {
            Some(step) => Action::ClickedStep(step),
            None => return,
        },
        other => other,
    };
    let action = match app.mode {
        Mode::Help => return update_help(app, action),
        Mode::GoTo(_) => return update_go_to(app, action),
        Mode::Search(_) => return update_search(app, action),
        Mode::Question(truth) => match update_question(app, truth, action) {
            Some(action) => action,
            None => return,
        },
        Mode::Normal => action,
    };
    if app.seeking_end {
        match action {
            Action::Drawn(extents) => {
                app.extents = extents;
                return app.clamp_scrolls();
            }
            Action::Resize(..) | Action::Tick => return,
            // Esc and End call the seeking off and do nothing else; any
            // other key calls it off and does what it always does.
            Action::Back | Action::End => {
                app.seeking_end = false;
                // The cursor's turn may be only part replayed yet.
                return app.look_ahead();
            }
            _ => app.seeking_end = false,
        }
    }
    // In quiz mode, a step the class is to guess is not shown before the guess.
    if matches!(action, Action::Next | Action::Tick)
        && app.quiz.is_some()
        && app.mode == Mode::Normal
        && (action == Action::Next || app.playing)
    {
        let next = app.replay.steps().get(app.cursor + 1);
        if let Some(truth) = next.and_then(Guess::of_step) {
            app.mode = Mode::Question(truth);
            app.playing = false;
            return;
        }
    }
    // A key that moves the cursor takes over from the autoplay.
    let moves = matches!(
        action,
        Action::Next
            | Action::Prev
            | Action::NextTurn
            | Action::PrevTurn
            | Action::Start
            | Action::End
            | Action::NextRun
            | Action::PrevRun
            | Action::Digit(_)
            | Action::ClickedStep(_)
            | Action::NextMatch
            | Action::PrevMatch
            | Action::NextCall
            | Action::PrevCall
            | Action::NextTool
            | Action::PrevTool
            | Action::NextPrompt
            | Action::PrevPrompt
            | Action::NextWrong
    );
    if moves {
        app.playing = false;
        // A move of one's own overrides a jump the search still owes.
        if let Some(search) = &mut app.search
            && !matches!(action, Action::NextMatch | Action::PrevMatch)
        {
            search.forget_jump();
        }
    }
    let steps = app.replay.steps();
    match action {
        Action::Tick => app.tick(),
        Action::ToggleAutoplay => {
            // Played to its end, a run plays again from the start.
            if !app.playing && app.at_end() {
                app.move_to(0);
            }
            app.playing = !app.playing;
        }
        Action::Faster => app.speed = (app.speed + 1).min(SPEEDS.len() - 1),
        Action::Slower => app.speed = app.speed.saturating_sub(1),
        Action::Next => app.move_to(app.cursor + 1),
        Action::Prev => app.move_to(app.cursor.saturating_sub(1)),
        Action::NextTurn => {
            let turn = app.step().turn;
            let next = steps.partition_point(|s| s.turn <= turn);
            app.move_to(next);
        }
        Action::PrevTurn => {
            let turn = app.step().turn;
            let start_of = |t: u32| steps.partition_point(|s| s.turn < t);
            let this_start = start_of(turn);
            let target = if app.cursor > this_start || turn == 0 {
                this_start
            } else {
                start_of(turn - 1)
            };
            app.move_to(target);
        }
        Action::Start => app.move_to(0),
        Action::End => app.seek_end(),
        Action::MoreTurns => {
            if let Some(more) = app
                .config()
                .max_turns
                .checked_add(1)
                .filter(|n| n.get() <= MAX_TURNS)
            {
                app.set_max_turns(more);
            }
        }
        Action::FewerTurns => {
            if let Some(fewer) = NonZeroU32::new(app.config().max_turns.get() - 1) {
                app.set_max_turns(fewer);
            }
        }
        Action::ResetTurns => app.set_max_turns(app.transcript().max_turns),
        // Another run by choice leaves the sub-agents' trail behind.
        Action::NextRun => {
            app.trail.clear();
            app.open_run((app.current + 1) % app.runs.len());
        }
        Action::PrevRun => {
            app.trail.clear();
            app.open_run((app.current + app.runs.len() - 1) % app.runs.len());
        }
        Action::Digit(0) => {}
        Action::Digit(run) => {
            app.trail.clear();
            app.open_run(usize::from(run) - 1);
        }
        Action::GoToStep => app.mode = Mode::GoTo(String::new()),
        Action::Search => app.mode = Mode::Search(String::new()),
        Action::NextCall => app.jump(true, false, |e| matches!(e, Event::Call { .. })),
        Action::PrevCall => app.jump(false, false, |e| matches!(e, Event::Call { .. })),
        Action::NextTool => app.jump(true, false, |e| matches!(e, Event::Dispatch { .. })),
        Action::PrevTool => app.jump(false, false, |e| matches!(e, Event::Dispatch { .. })),
        Action::NextPrompt => app.next_prompt(true),
        Action::PrevPrompt => app.next_prompt(false),
        Action::NextWrong => app.jump(true, true, Event::goes_wrong),
        Action::CopyLink => {
            let (command, tabs) = link::command(app);
            app.to_copy = Some(command.clone());
            app.notice = Some(Notice::Link(command, tabs));
        }
        Action::NextMatch => app.next_match(true),
        Action::PrevMatch => app.next_match(false),
        // Text typed outside a prompt: nothing to type into.
        Action::Type(_) | Action::Erase | Action::Submit => {}
        Action::Back if app.search.is_some() => app.search = None,
        Action::Back if !app.trail.is_empty() => app.leave_subagent(),
        Action::NextMistake => app.set_config(Config {
            mistake: Mistake::cycle(app.config().mistake),
            ..app.config()
        }),
        Action::CorrectLoop => app.set_config(Config {
            mistake: None,
            ..app.config()
        }),
        Action::ToggleCheck => app.set_config(Config {
            check: match app.config().check {
                CheckPolicy::Lesson => CheckPolicy::Production,
                CheckPolicy::Production => CheckPolicy::Lesson,
            },
            ..app.config()
        }),
        Action::ScrollUp => app.scroll_back = (app.scroll_back + 1).min(app.extents.messages),
        Action::ScrollDown => app.scroll_back = app.scroll_back.saturating_sub(1),
        Action::DetailDown => {
            app.detail_scroll = (app.detail_scroll + DETAIL_PAGE).min(app.extents.detail);
        }
        Action::DetailUp => app.detail_scroll = app.detail_scroll.saturating_sub(DETAIL_PAGE),
        Action::ToggleWire => {
            app.detail = app.detail.next();
            app.detail_scroll = 0;
        }
        Action::ToggleLang => app.toggle_lang(),
        Action::RetellNext => app.retell_next(),
        Action::CycleTheme => app.theme = app.theme.next(),
        Action::ToggleExpand => app.expanded = !app.expanded,
        Action::ToggleReact => app.react = !app.react,
        Action::ToggleGrowth => app.growth = Some(!app.extents.growth),
        Action::ClickedStep(step) => app.move_to(step),
        // Read as a step above, or dropped.
        Action::Click(..) => {}
        // Read as a sub-agent or the next step above.
        Action::Open => {}
        Action::ToggleQuiz => {
            app.mode = Mode::Normal;
            app.quiz = match app.quiz {
                Some(_) => None,
                None => Some(Quiz::default()),
            }
        }
        // The next frame is drawn at the new size and reports its extents.
        Action::Resize(..) => {}
        Action::Drawn(extents) => {
            app.extents = extents;
            app.clamp_scrolls();
        }
        Action::ToggleHelp => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Action::Back | Action::Quit => app.should_quit = true,
    }
}

/// The help is modal: it closes on its own keys, and quitting still works.
/// A quiz question takes a digit as the class's answer, and shows the
/// step; Esc takes the question back; any other key takes it back and is
/// the run's, as are the frame's own events, which leave it asked.
fn update_question(app: &mut App, truth: Guess, action: Action) -> Option<Action> {
    match action {
        Action::Digit(digit) => {
            if let (Some(guess), Some(quiz)) = (Guess::of_digit(digit), &mut app.quiz) {
                quiz.answer(guess, truth);
                app.mode = Mode::Normal;
                app.move_to(app.cursor + 1);
            }
            None
        }
        Action::Drawn(_) | Action::Resize(..) | Action::Tick | Action::Quit => Some(action),
        Action::Back => {
            app.mode = Mode::Normal;
            None
        }
        other => {
            app.mode = Mode::Normal;
            Some(other)
        }
    }
}

fn update_help(app: &mut App, action: Action) {
    match action {
        Action::Drawn(extents) => app.extents = extents,
        Action::ToggleHelp | Action::Back => app.mode = Mode::Normal,
        Action::ToggleLang => app.toggle_lang(),
        Action::CycleTheme => app.theme = app.theme.next(),
        Action::ScrollUp | Action::DetailUp => {
            app.help_scroll = app.help_scroll.saturating_sub(1);
        }
        Action::ScrollDown | Action::DetailDown => {
            app.help_scroll = (app.help_scroll + 1).min(app.extents.help);
        }
        Action::Quit => app.should_quit = true,
        _ => {}
    }
}

/// `:` takes every key until Enter or Esc: a letter typed there is no
/// command, and only digits count.
fn update_go_to(app: &mut App, action: Action) {
    let Mode::GoTo(typed) = &mut app.mode else {
        return;
    };
    match action {
        // Nine digits are more steps than any run has.
        Action::Type(c @ '0'..='9') if typed.len() < 9 => typed.push(c),
        Action::Erase => {
            typed.pop();
        }
        Action::Submit => {
            let number = typed.parse().ok().filter(|n| *n >= 1);
            app.mode = Mode::Normal;
            if let Some(number) = number {
                app.playing = false;
                app.go_to_step(number);
            }
        }
        Action::Back => app.mode = Mode::Normal,
        Action::Quit => app.should_quit = true,
        Action::Drawn(extents) => app.extents = extents,
        _ => {}
    }
}

/// `/` takes every key as text until Enter (find it) or Esc.
fn update_search(app: &mut App, action: Action) {
    let Mode::Search(typed) = &mut app.mode else {
        return;
    };
    match action {
        Action::Type(c) => typed.push(c),
        Action::Erase => {
            typed.pop();
        }
        Action::Submit => {
            app.search = Query::new(typed).map(|query| Search::new(query, app.cursor));
            app.mode = Mode::Normal;
            app.playing = false;
        }
        Action::Back => app.mode = Mode::Normal,
        Action::Quit => app.should_quit = true,
        Action::Drawn(extents) => app.extents = extents,
        _ => {}
    }
}
