//! Projector themes: every pair of colours drawn is readable, by the WCAG
//! contrast ratio, and without colour the spent budget still shows.

use crate::common;

use common::screen::{builtins, drive};
use loopstep::transcript::BUILTIN_NAMES;
use loopstep::tui::theme::Theme;
use loopstep::tui::{App, Settings};
use ratatui::buffer::Buffer;
use ratatui::style::Color;

/// The relative luminance of an sRGB colour, and the contrast ratio of two
/// colours, as WCAG 2.1 defines them:
/// https://www.w3.org/TR/WCAG21/#dfn-relative-luminance and
/// https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio
fn luminance(colour: Color) -> f64 {
    let Color::Rgb(r, g, b) = colour else {
        panic!("a theme draws every cell in exact colours, not {colour:?}");
    };
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

fn contrast(a: Color, b: Color) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

fn app(run: &str, theme: Theme) -> App {
    let index = BUILTIN_NAMES.iter().position(|n| *n == run).unwrap();
    App::new(
        builtins(),
        index,
        Settings {
            theme,
            ..Settings::default()
        },
    )
}

/// Frames that between them draw every style the screen has: each step of
/// every built-in run, the help, the wire and growth views, the quiz, a
/// mistake, a spent budget, Chinese.
fn frames(theme: Theme, width: u16, height: u16) -> Vec<(String, Buffer)> {
    let mut frames = Vec::new();
    for run in BUILTIN_NAMES {
        // One app stepped along: each frame a step on from the last.
        let mut stepped = app(run, theme);
        for steps in 0..14 {
            let keys: &[&str] = if steps == 0 { &[] } else { &["Right"] };
            let terminal = drive(&mut stepped, width, height, keys);
            frames.push((
                format!("{run} after {steps} steps"),
                terminal.backend().buffer().clone(),
            ));
        }
    }
    let mut keep = |name: String, run: &str, keys: &[&str]| {
        let terminal = drive(&mut app(run, theme), width, height, keys);
        frames.push((name, terminal.backend().buffer().clone()));
    };
    let extras: [&[&str]; 11] = [
        &["/", "m", "a", "r", "a", "Enter"],
        &["?"],
        &["Right", "w"],
        &["Right", "Right", "Right", "Right", "Right", "x"],
        &["Q", "Right"],
        &["Q", "Right", "Right", "1"],
        &["m", "End"],
        &["End", "-", "-", "-", "-", "-", "-", "-", "-"],
        &["L", "End"],
        &["a"],
        &[":", "3"],
    ];
    for keys in extras {
        keep(format!("aurora-run after {keys:?}"), "aurora-run", keys);
    }
    frames
}

/// The lowest contrast of any character drawn, and where.
fn lowest_contrast(frames: &[(String, Buffer)]) -> (f64, String) {
    let mut lowest = (f64::INFINITY, String::new());
    for (name, buffer) in frames {
        for (i, cell) in buffer.content().iter().enumerate() {
            if cell.symbol().trim().is_empty() {
                continue; // a blank shows only its background
            }
            let ratio = contrast(cell.fg, cell.bg);
            if ratio < lowest.0 {
                let (x, y) = buffer.pos_of(i);
                lowest = (
                    ratio,
                    format!("{:?} at ({x}, {y}) of {name}", cell.symbol()),
                );
            }
        }
    }
    lowest
}

#[test]
fn every_pair_drawn_meets_its_themes_contrast() {
    for theme in Theme::ALL {
        let least = if theme == Theme::HighContrast {
            7.0
        } else {
            4.5
        };
        for (width, height) in [(80, 24), (200, 50)] {
            let (ratio, where_) = lowest_contrast(&frames(theme, width, height));
            assert!(
                ratio >= least,
                "{theme:?} at {width}×{height}: {ratio:.2}:1 for {where_}, below {least}:1"
            );
        }
    }
}

#[test]
fn the_contrast_formula_matches_wcags_own_figures() {
    // Black on white is the largest ratio there is, 21:1; a colour on itself 1:1.
    let (black, white) = (Color::Rgb(0, 0, 0), Color::Rgb(255, 255, 255));
    assert!((contrast(black, white) - 21.0).abs() < 1e-9);
    assert!((contrast(white, white) - 1.0).abs() < 1e-9);
    // #767676 on white is the classic grey just at 4.5:1.
    let grey = contrast(Color::Rgb(0x76, 0x76, 0x76), white);
    assert!((4.5..4.6).contains(&grey), "{grey}");
}

#[test]
fn t_cycles_the_themes_and_the_colours_follow() {
    let mut app = app("aurora-run", Theme::Dark);
    let mut backgrounds = Vec::new();
    for _ in 0..4 {
        let theme = app.theme();
        let terminal = drive(&mut app, 80, 24, &[]);
        let screen = terminal.backend().buffer()[(40, 12)].bg;
        assert_eq!(screen, theme.fill(Color::Reset), "{theme:?}");
        backgrounds.push(screen);
        drive(&mut app, 80, 24, &["t"]);
    }
    assert_eq!(
        app.theme(),
        Theme::Light,
        "after four presses, one round and one more"
    );
    assert_eq!(backgrounds[0], backgrounds[3], "dark again after three");
    assert!(backgrounds[0] != backgrounds[1] && backgrounds[1] != backgrounds[2]);
}

/// A frame as its text and its styles (ratatui's own listing of them).
fn styled(run: &str, theme: Theme, monochrome: bool, size: (u16, u16), keys: &[&str]) -> String {
    let index = BUILTIN_NAMES.iter().position(|n| *n == run).unwrap();
    let settings = Settings {
        theme,
        monochrome,
        ..Settings::default()
    };
    let mut app = App::new(builtins(), index, settings);
    let terminal = drive(&mut app, size.0, size.1, keys);
    format!("{:?}", terminal.backend().buffer())
}

const LOWERED_TO_2: [&str; 9] = ["End", "-", "-", "-", "-", "-", "-", "-", "-"];

#[test]
fn the_same_frames_in_each_theme() {
    for theme in Theme::ALL {
        for size in [(80, 24), (200, 50)] {
            let name = format!("{theme:?}_{}x{}", size.0, size.1).to_lowercase();
            let dispatch = styled("aurora-run", theme, false, size, &["Right"; 3]);
            insta::assert_snapshot!(format!("dispatch_{name}"), dispatch);
            let spent = styled("aurora-run", theme, false, size, &LOWERED_TO_2);
            insta::assert_snapshot!(format!("spent_{name}"), spent);
        }
    }
}

#[test]
fn without_colour_the_spent_budget_still_reads_as_spent() {
    let spent = styled("aurora-run", Theme::Dark, true, (80, 24), &LOWERED_TO_2);
    assert!(!spent.contains("fg: Rgb") && !spent.contains("bg: Rgb"));
    assert!(spent.contains("spent → None"), "{spent}");
    assert!(spent.contains("outcome: None"), "{spent}");
    insta::assert_snapshot!("spent_no_color_80x24", spent);
}
