//! `cargo xtask book` step 4 (also alone: `cargo xtask book-commands`): every `bdtree` line the
//! README and the book print is run, and the output they quote is compared with what it
//! prints, so a quoted figure cannot go stale.
//!
//! * **Command lines**: in every `sh` block, each line that starts with `bdtree ` or
//!   `cargo run --release --bin bdtree -- ` (a trailing `# comment` dropped). They run with the
//!   dev build of the `bdtree` binary `cargo test` builds (27 s for the 23 lines, the demo's
//!   100 chairs among them), one scratch directory per
//!   document under `target/book-commands/` (a line may read what an earlier line of its
//!   document wrote; `fixtures` is a link to the repository's, and every `-o` path's folder is
//!   made there, so nothing in the repository is written). A line that fails fails the check.
//! * **Quoted output**: a `text` block right after an `sh` block (nothing but blank lines
//!   between) is what that block prints. Each of its non-blank lines must be a line of the
//!   block's output (stdout and stderr, runs of spaces compared as one; `…` matches anything);
//!   a missing line is reported with the printed line most like it, so a stale figure shows
//!   next to the current one.
//! * **Not run**: synopses (a line with `[`, `|`, `…` or a placeholder in capitals such as
//!   `MESH` or `TREE.bdt`), and the lines of [`SKIPPED`], each with its reason — both printed.
//!   A [`SKIPPED`] entry that matches no line is a failure (it would hide a line that changed).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::book::{code_blocks, documents};
use crate::root;

/// Lines not run: (document, the line's start, why). Printed by every run.
pub(crate) const SKIPPED: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "cargo run --release --bin bdtree -- demo --pile --chairs 125",
        "a heap of 125 chairs through its settling: minutes in the dev build this check runs",
    ),
    (
        "docs/src/performance/chairs.md",
        "cargo run --release --bin bdtree -- demo --pile --chairs 125",
        "a heap of 125 chairs through its settling: minutes in the dev build this check runs",
    ),
    (
        "docs/src/performance/chairs.md",
        "cargo run --release --bin bdtree -- demo --pile --chairs 3601",
        "the paper's 3,601 chairs: hours in the dev build this check runs",
    ),
    (
        "docs/src/performance/chairs.md",
        "cargo run --release --bin bdtree -- demo --pile --chairs 1000",
        "a heap of 1,000 chairs through its settling: 17 min in a release build, hours in the dev build this check runs",
    ),
    (
        "docs/src/concepts/medial.md",
        "bdtree build blob20k.obj",
        "build times on the meshes `examples/medial_scenes.rs` writes (not in the repository)",
    ),
    (
        "docs/src/concepts/medial.md",
        "bdtree build torus100k.obj",
        "build times on the meshes `examples/medial_scenes.rs` writes (not in the repository)",
    ),
    (
        "docs/src/concepts/medial.md",
        "bdtree build chair.obj",
        "the chair with the demo's modes, written by `examples/medial_scenes.rs`",
    ),
    (
        "docs/src/concepts/medial.md",
        "bdtree render spheres chair-median.bdt",
        "the pictures of the chair's trees, from the images the lines above build",
    ),
    (
        "docs/src/images.md",
        "bdtree compact full.bdt",
        "an example on the reader's own image (full.bdt is not in the repository)",
    ),
    (
        "docs/src/images.md",
        "bdtree inspect arm.bdt",
        "an example on the reader's own image (arm.bdt, full.bdt are not in the repository)",
    ),
];

/// A `bdtree` line of the documentation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// 1-based line in its document.
    pub line: usize,
    /// The command as written, comment dropped.
    pub text: String,
    /// Its arguments after `bdtree`.
    pub args: Vec<String>,
}

/// One `sh` block's `bdtree` lines and the output the document quotes for it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block {
    pub lines: Vec<Line>,
    /// (1-based line, text) of the quoted output; empty when the document quotes none.
    pub quoted: Vec<(usize, String)>,
}

/// The words of a shell line (single and double quotes grouped, no expansion); `None` from
/// the first unquoted `#` on is dropped.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quote, mut any) = (None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, '#') if word.is_empty() => break,
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

/// The arguments of a `bdtree` command line, `None` for any other line.
fn bdtree_args(line: &str) -> Option<Vec<String>> {
    let w = words(line);
    let rest = match w.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["bdtree", ..] => 1,
        ["cargo", "run", "--release", "--bin", "bdtree", "--", ..] => 6,
        _ => return None,
    };
    Some(w[rest..].to_vec())
}

/// Why a line is a synopsis rather than a command (`None` for a command).
fn synopsis(args: &[String]) -> Option<String> {
    for a in args {
        if a.contains(['[', '|', '…']) {
            return Some(format!("a synopsis (`{a}`)"));
        }
        let stem = a.split('.').next().unwrap_or("");
        if stem.len() >= 2 && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            return Some(format!("a synopsis (placeholder `{a}`)"));
        }
    }
    None
}

/// The `sh` blocks of a markdown text that hold `bdtree` lines, with their quoted output.
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let all = code_blocks(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (k, (at, info, body)) in all.iter().enumerate() {
        if info != "sh" {
            continue;
        }
        let commands: Vec<Line> = body
            .lines()
            .enumerate()
            .filter_map(|(i, l)| {
                let args = bdtree_args(l.trim())?;
                let text = match l.find(" #") {
                    Some(c) => l[..c].trim(),
                    None => l.trim(),
                };
                Some(Line {
                    line: at + 1 + i,
                    text: text.to_string(),
                    args,
                })
            })
            .collect();
        if commands.is_empty() {
            continue;
        }
        // The block's closing fence is `at + body lines + 1`; a `text` block opening after
        // only blank lines is its output.
        let close = at + body.lines().count() + 1;
        let quoted = match all.get(k + 1) {
            Some((next, info, body))
                if info == "text"
                    && lines
                        .get(close..next - 1)
                        .is_some_and(|between| between.iter().all(|l| l.trim().is_empty())) =>
            {
                body.lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(i, l)| (next + 1 + i, l.to_string()))
                    .collect()
            }
            _ => Vec::new(),
        };
        out.push(Block {
            lines: commands,
            quoted,
        });
    }
    out
}

/// Runs of whitespace as one space, ends trimmed.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a printed line matches a quoted one (`…` matching anything, spaces squeezed).
fn matches(printed: &str, quoted: &str) -> bool {
    let (printed, quoted) = (squeeze(printed), squeeze(quoted));
    let mut parts = quoted.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = printed.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    if parts.is_empty() {
        return rest.is_empty();
    }
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The quoted lines `output` does not print, each with the printed line sharing most words.
pub(crate) fn stale(quoted: &[(usize, String)], output: &str) -> Vec<(usize, String, String)> {
    let printed: Vec<&str> = output.lines().collect();
    quoted
        .iter()
        .filter(|(_, q)| !printed.iter().any(|p| matches(p, q)))
        .map(|(line, q)| {
            let words: Vec<&str> = q.split_whitespace().collect();
            let nearest = printed
                .iter()
                .max_by_key(|p| words.iter().filter(|w| p.contains(*w)).count())
                .map_or(String::new(), |p| squeeze(p));
            (*line, q.clone(), nearest)
        })
        .collect()
}

/// The `bdtree` binary `cargo test` builds (the workspace's test build: after `cargo test`, as
/// in CI, nothing is compiled; `cargo build -p bdtree-std` would unify features differently and
/// compile bdtree-std again, 3 min on a loaded 2-core machine); its path.
fn build_bdtree() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let args = [
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ];
    println!("$ cargo {}", args.join(" "));
    let out = Command::new(cargo)
        .args(args)
        .current_dir(root())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`cargo {}` failed ({})",
            args.join(" "),
            out.status
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        // The binary itself, not its unit-test harness (also a `bin` target named `bdtree`;
        // which of the two cargo reports last depends on the build's order).
        .filter(|m| {
            m["target"]["kind"][0] == "bin"
                && m["target"]["name"] == "bdtree"
                && m["profile"]["test"] == false
        })
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .next_back()
        .ok_or_else(|| "cargo build named no bdtree executable".into())
}

/// A fresh scratch directory for one document, with `fixtures` linked to the repository's.
fn scratch(name: &str) -> Result<PathBuf, String> {
    let dir = root()
        .join("target")
        .join("book-commands")
        .join(name.replace(['/', '.'], "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    #[cfg(unix)]
    std::os::unix::fs::symlink(root().join("fixtures"), dir.join("fixtures"))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// Step 4: runs every documented `bdtree` line and compares the output each document quotes.
pub fn check() -> Vec<String> {
    let bdtree = match build_bdtree() {
        Ok(p) => p,
        Err(e) => return vec![e],
    };
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut used = vec![false; SKIPPED.len()];
    let (mut ran, mut skipped) = (0, 0);
    for file in documents() {
        let name = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // `book::sources` reports an unreadable document.
        };
        let found = blocks(&text);
        if found.is_empty() {
            continue;
        }
        let dir = match scratch(&name) {
            Ok(d) => d,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        for block in found {
            let mut output = String::new();
            let mut all_ran = true;
            for line in &block.lines {
                let skip = SKIPPED
                    .iter()
                    .position(|(doc, start, _)| *doc == name && line.text.starts_with(start));
                let reason = match skip {
                    Some(k) => {
                        used[k] = true;
                        Some(SKIPPED[k].2.to_string())
                    }
                    None => synopsis(&line.args),
                };
                if let Some(reason) = reason {
                    println!("skipped {name}:{}: `{}`: {reason}", line.line, line.text);
                    skipped += 1;
                    all_ran = false;
                    continue;
                }
                ran += 1;
                match run(&bdtree, &dir, &line.args) {
                    Ok(printed) => output.push_str(&printed),
                    Err(e) => {
                        failures.push(format!("{name}:{}: `{}`: {e}", line.line, line.text));
                        all_ran = false;
                    }
                }
            }
            if !block.quoted.is_empty() && !all_ran {
                failures.push(format!(
                    "{name}:{}: quoted output of a block whose commands did not all run",
                    block.quoted[0].0
                ));
                continue;
            }
            for (line, quoted, nearest) in stale(&block.quoted, &output) {
                failures.push(format!(
                    "{name}:{line}: quoted `{}` is not what the commands print; nearest printed \
                     line: `{nearest}`",
                    squeeze(&quoted)
                ));
            }
        }
    }
    for (k, (doc, start, _)) in SKIPPED.iter().enumerate() {
        if !used[k] {
            failures.push(format!(
                "xtask/src/commands.rs: SKIPPED names `{start}` in {doc}, which has no such line"
            ));
        }
    }
    println!(
        "book commands: {ran} run, {skipped} skipped, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    failures
}

/// Runs one line in `dir`; its stdout and stderr, or why it failed.
fn run(bdtree: &Path, dir: &Path, args: &[String]) -> Result<String, String> {
    // Every output's folder exists in the scratch directory (`-o target/x.bdt`).
    for pair in args.windows(2) {
        if pair[0] == "-o" || pair[0] == "--output" {
            if let Some(parent) = Path::new(&pair[1]).parent() {
                let _ = std::fs::create_dir_all(dir.join(parent));
            }
        }
    }
    let out = Command::new(bdtree)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("{}: {e}", bdtree.display()))?;
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(printed)
    } else {
        let tail: Vec<&str> = printed.lines().rev().take(3).collect();
        Err(format!(
            "exited with {} ({})",
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "Text.\n\n```sh\nbdtree collide fixtures/scenes/demo.json   # every frame\n\
                       bdtree build MESH -o TREE.bdt [--depth L]\n```\n\n```text\nframe 8: 279 \
                       pairs\nchecked … extra 0\n```\n";

    #[test]
    fn command_lines_and_their_quoted_output_are_found() {
        let found = blocks(DOC);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].lines.len(), 2);
        assert_eq!(found[0].lines[0].line, 4);
        assert_eq!(
            found[0].lines[0].args,
            ["collide", "fixtures/scenes/demo.json"]
        );
        assert!(synopsis(&found[0].lines[0].args).is_none());
        assert!(synopsis(&found[0].lines[1].args).is_some());
        assert_eq!(
            found[0].quoted,
            vec![
                (9, "frame 8: 279 pairs".to_string()),
                (10, "checked … extra 0".to_string())
            ]
        );
        assert_eq!(
            words("bdtree modes m.obj --fixed 'x<-0.49' # c"),
            ["bdtree", "modes", "m.obj", "--fixed", "x<-0.49"]
        );
    }

    #[test]
    fn a_planted_stale_figure_is_caught_with_the_printed_one() {
        let quoted = blocks(DOC).remove(0).quoted;
        let printed = "frame 8:   279 pairs\nchecked 12 frames: missed 0, extra 0\n";
        assert!(stale(&quoted, printed).is_empty());
        let now = "frame 8: 284 pairs\nchecked 12 frames: missed 0, extra 0\n";
        let found = stale(&quoted, now);
        assert_eq!(
            found,
            vec![(
                9,
                "frame 8: 279 pairs".to_string(),
                "frame 8: 284 pairs".to_string()
            )]
        );
        // A quoted line is a whole printed line, not a part of one.
        assert_eq!(
            stale(&quoted, "frame 8: 2799 pairs\nchecked x extra 0\n").len(),
            1
        );
    }
}
