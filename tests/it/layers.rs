//! The layers of ARCHITECTURE.md hold where the compiler cannot see them:
//! between the crates it does (loopstep-core knows neither the screen, the
//! command line nor the proxy; the proxy knows only the core), inside a
//! crate a module imports only from the layers below it, and the screen's
//! update never reaches into its view.

use std::collections::BTreeSet;
use std::path::Path;

/// Each top-level module's layer, from the bottom; modules of one layer do
/// not import each other upward either, as none is above another.
fn layer(module: &str) -> Option<u8> {
    Some(match module {
        "lang" | "text" => 0,
        "vocab" => 1,
        "dialect" => 2,
        "engine" => 3,
        "transcript" => 4,
        "redact" | "prices" | "lesson" => 5,
        "narrate" | "write_file" => 6,
        "report" | "compare" | "tui" | "sweep" => 7,
        "cli" => 8,
        _ => return None,
    })
}

/// Every `.rs` file under `dir`, as its path below `src/`.
fn sources(dir: &Path, below: &Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, below, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path
                .strip_prefix(below)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            found.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The top-level modules a file names as `crate::module`, comments aside.
fn imports(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| line.split("crate::").skip(1))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn layers_no_module_imports_from_a_layer_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    // The core's modules, and the screen's and the command line's, each
    // named by its path below its crate's `src/`.
    for crate_src in [root.join("crates/core/src"), root.join("src")] {
        sources(&crate_src, &crate_src, &mut files);
    }
    assert!(files.len() > 100, "every source file is read");
    let mut upward = BTreeSet::new();
    for (name, text) in &files {
        let module = name.split('/').next().unwrap().trim_end_matches(".rs");
        let Some(own) = layer(module) else { continue };
        for import in imports(text) {
            if layer(&import).is_some_and(|theirs| theirs > own) {
                upward.insert((name.clone(), import));
            }
        }
    }
    assert!(upward.is_empty(), "imports from a layer above: {upward:?}");
}

#[test]
fn layers_the_screen_s_update_never_reads_its_view() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    for file in [
        "update.rs",
        "app.rs",
        "jumps.rs",
        "keymap/mod.rs",
        "keymap/table.rs",
    ] {
        let text = std::fs::read_to_string(tui.join(file)).unwrap();
        let code: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        assert!(
            !code.iter().any(|line| line.contains("view::")),
            "{file} reaches into the view"
        );
    }
}

#[test]
fn layers_no_source_file_is_longer_than_600_lines() {
    // A file a reader can hold: past this, a module has two subjects.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for crate_src in ["crates/core/src", "crates/record/src", "src"] {
        let dir = root.join(crate_src);
        sources(&dir, &dir, &mut files);
    }
    let long: Vec<(String, usize)> = files
        .iter()
        .map(|(name, text)| (name.clone(), text.lines().count()))
        .filter(|(_, lines)| *lines > 600)
        .collect();
    assert!(long.is_empty(), "{long:?}");
}
