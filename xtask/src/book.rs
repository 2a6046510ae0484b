//! `cargo xtask book`: the book (`docs/`, mdBook) and the README, checked.
//!
//! 1. **Sources** (`README.md`, `benches/README.md` and every chapter under `docs/src/`): every
//!    code block names its language, one of [`LANGUAGES`] (an unlabelled block would be compiled by rustdoc as
//!    Rust, and a block nobody runs would be a block nobody checks: `rust` blocks are doctests
//!    of the `bdtree-docs` crate, `python` blocks run in the Python suite, `c` blocks compile
//!    in `cargo xtask c`); no table row follows a blank line without a header (a blank line
//!    inside a table turns its remaining rows into text); every relative link and image
//!    resolves to a file and every `#anchor` to a heading of its target (mdBook's and GitHub's
//!    heading ids: lowercase, spaces to `-`, punctuation dropped, `-1`, `-2` … on repeats); a
//!    chapter links only inside the book (a link out of `docs/src/` would be broken in the built
//!    book: name repository files as code instead); every chapter is in `SUMMARY.md`.
//! 2. **Build**: `mdbook build docs` into `target/book` (`create-missing = false`: a chapter
//!    `SUMMARY.md` names must exist).
//! 3. **Built links**: in every page mdBook wrote, every relative `href` and `src` resolves to
//!    a file of the built book and every `#anchor` to an `id` of its page — the ids mdBook
//!    really generated, so a difference between the heading rule above and mdBook's is caught.
//! 4. **Commands**: every `bdtree` line of an `sh` block is run and the output a following
//!    `text` block quotes is compared with what it prints (`commands.rs`; alone as `cargo
//!    xtask book-commands`).
//!
//! mdBook is installed by `.ci/run` (`cargo install --locked mdbook --version 0.5.4
//! --no-default-features --features search`); without it the build
//! step fails and says so.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::root;

/// Code block languages the documentation may use, each checked or plainly not code.
pub(crate) const LANGUAGES: &[&str] = &["rust", "python", "c", "sh", "text", "json", "toml"];

/// Every check of the sources and the built book (`cargo xtask book` runs the printed
/// commands after it: `commands.rs`); the failures, each naming the file and line.
pub fn check() -> Vec<String> {
    let mut failures = sources();
    match build() {
        Ok(out) => failures.extend(built_links(&out)),
        Err(e) => failures.push(e),
    }
    failures
}

fn book_src() -> PathBuf {
    root().join("docs").join("src")
}

/// Every `.md` file under `dir`, sorted.
pub(crate) fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The README, the benches' pointer and the book's chapters: the documentation the checks read.
pub(crate) fn documents() -> Vec<PathBuf> {
    let mut files = vec![
        root().join("README.md"),
        root().join("benches").join("README.md"),
    ];
    files.extend(markdown_files(&book_src()));
    files
}

/// A path relative to the repository, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The code blocks of a markdown text: (line of the opening fence, info string, body).
pub(crate) fn code_blocks(text: &str) -> Vec<(usize, String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match open.take() {
            None if fence => {
                open = Some((
                    i + 1,
                    line.trim_start()[3..].trim().to_string(),
                    String::new(),
                ));
            }
            None => {}
            Some(block) if fence => blocks.push(block),
            Some((at, info, mut body)) => {
                body.push_str(line);
                body.push('\n');
                open = Some((at, info, body));
            }
        }
    }
    if let Some((at, info, body)) = open {
        // An unclosed block: reported by `fences` with its line.
        blocks.push((at, format!("{info} (unclosed)"), body));
    }
    blocks
}

/// The lines of a markdown text outside code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
            continue;
        }
        if !inside {
            out.push((i + 1, line));
        }
    }
    out
}

/// The id mdBook (and GitHub) gives a heading's text.
pub(crate) fn heading_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A heading's text as rendered: link targets, emphasis and code marks removed.
fn heading_text(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match (after.find("]("), after.find(')')) {
            (Some(close), Some(end)) if close < end => {
                out.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace(['`', '*'], "")
}

/// The heading ids of a markdown text, repeats numbered as mdBook numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let id = heading_id(&heading_text(&line[hashes..]));
        let mut candidate = id.clone();
        let mut n = 1;
        while used.contains(&candidate) {
            candidate = format!("{id}-{n}");
            n += 1;
        }
        used.insert(candidate);
    }
    used
}

/// The `[text](target)` and `![alt](target)` targets of a line, code spans skipped.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_code = false;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => in_code = !in_code,
            b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                if let Some(end) = line[i + 2..].find(')') {
                    let target = line[i + 2..i + 2 + end].trim();
                    // `[a](b "title")`: the target is the first word.
                    let target = target.split_whitespace().next().unwrap_or("");
                    targets.push(target.to_string());
                    i += 2 + end;
                }
            }
            _ => {}
        }
        i += 1;
    }
    targets
}

/// `a/./b/../c` → `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Lines of table rows that start a table without its header: the row above is not a table
/// row and the line below is not a separator (`|---|`).
fn broken_table_rows(text: &str) -> Vec<usize> {
    let prose = prose_lines(text);
    let is_row = |s: &str| s.trim_start().starts_with('|');
    let is_separator = |s: &str| {
        let s = s.trim();
        s.starts_with('|') && s.contains('-') && s.chars().all(|c| "|-: ".contains(c))
    };
    let mut broken = Vec::new();
    for (k, &(line, content)) in prose.iter().enumerate() {
        let row_above = k > 0 && prose[k - 1].0 + 1 == line && is_row(prose[k - 1].1);
        let separator_below = prose
            .get(k + 1)
            .is_some_and(|&(l, c)| l == line + 1 && is_separator(c));
        if is_row(content) && !row_above && !separator_below {
            broken.push(line);
        }
    }
    broken
}

/// The source checks of step 1.
fn sources() -> Vec<String> {
    let mut failures = Vec::new();
    let src = book_src();
    let mut texts = BTreeMap::new();
    for file in documents() {
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                texts.insert(file, text);
            }
            Err(e) => failures.push(format!("{}: {e}", shown(&file))),
        }
    }
    for (file, text) in &texts {
        let name = shown(file);
        for (line, info, _) in code_blocks(text) {
            let language = info.split(',').next().unwrap_or("").trim();
            if info.ends_with("(unclosed)") {
                failures.push(format!("{name}:{line}: code block never closed"));
            } else if language.is_empty() {
                failures.push(format!(
                    "{name}:{line}: code block without a language (rustdoc would compile it as \
                     Rust); name one of {LANGUAGES:?}"
                ));
            } else if !LANGUAGES.contains(&language) {
                failures.push(format!(
                    "{name}:{line}: code block language `{language}` is none of {LANGUAGES:?}"
                ));
            } else if info != language && info != "rust,no_run" {
                failures.push(format!(
                    "{name}:{line}: code block `{info}`: only `rust,no_run` may qualify a \
                     language (every example compiles; `ignore` would hide one that does not)"
                ));
            }
        }
        for line in broken_table_rows(text) {
            failures.push(format!(
                "{name}:{line}: table row without a header row and separator above it (a \
                 blank line inside a table ends it)"
            ));
        }
        for (line, content) in prose_lines(text) {
            for target in link_targets(content) {
                if let Some(problem) = link_problem(file, &target, &texts, &src) {
                    failures.push(format!("{name}:{line}: link `{target}`: {problem}"));
                }
            }
        }
    }
    // Every chapter is in SUMMARY.md (mdBook would leave it out of the book silently).
    let summary = src.join("SUMMARY.md");
    if let Some(text) = texts.get(&summary) {
        let listed: BTreeSet<PathBuf> = prose_lines(text)
            .iter()
            .flat_map(|(_, l)| link_targets(l))
            .map(|t| normalize(&src.join(t)))
            .collect();
        for file in texts.keys() {
            if file.starts_with(&src) && *file != summary && !listed.contains(file) {
                failures.push(format!(
                    "{}: not listed in docs/src/SUMMARY.md",
                    shown(file)
                ));
            }
        }
    } else {
        failures.push("docs/src/SUMMARY.md: missing".into());
    }
    failures
}

/// What is wrong with a link of `file` (`None` when it resolves).
fn link_problem(
    file: &Path,
    target: &str,
    texts: &BTreeMap<PathBuf, String>,
    src: &Path,
) -> Option<String> {
    if target.is_empty() {
        return Some("empty".into());
    }
    if target.starts_with("http://") || target.starts_with("https://") {
        return None;
    }
    if target.contains("://") || target.starts_with("mailto:") {
        return Some("neither a relative link nor http(s)".into());
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else {
        normalize(&file.parent().unwrap_or(Path::new("")).join(path))
    };
    if file.starts_with(src) && !resolved.starts_with(src) {
        return Some(format!(
            "leaves the book ({}): the built book would have no such page; write the path as \
             code instead",
            shown(&resolved)
        ));
    }
    if !resolved.exists() {
        return Some(format!("{} does not exist", shown(&resolved)));
    }
    let anchor = anchor?;
    if resolved.extension().is_none_or(|e| e != "md") {
        return Some("an anchor into a file that is not markdown".into());
    }
    let text = match texts.get(&resolved) {
        Some(t) => t.clone(),
        None => std::fs::read_to_string(&resolved).unwrap_or_default(),
    };
    if anchors(&text).contains(anchor) {
        None
    } else {
        Some(format!("{} has no heading `#{anchor}`", shown(&resolved)))
    }
}

/// Runs `mdbook build docs`; the built book's directory.
fn build() -> Result<PathBuf, String> {
    let out = root().join("target").join("book");
    let mdbook = which_mdbook().ok_or_else(|| {
        "mdbook not found on PATH or in ~/.cargo/bin: install it with `cargo install --locked \
         mdbook --version 0.5.4 --no-default-features --features search` (.ci/run does)"
            .to_string()
    })?;
    println!("$ {} build docs", mdbook.display());
    let status = Command::new(&mdbook)
        .args(["build", "docs"])
        .current_dir(root())
        .status()
        .map_err(|e| format!("{}: {e}", mdbook.display()))?;
    if !status.success() {
        return Err(format!("`mdbook build docs` failed ({status})"));
    }
    Ok(out)
}

fn which_mdbook() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("mdbook"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
        Some(home.join("bin").join("mdbook")).filter(|p| p.is_file())
    })
}

/// The values of `attribute="…"` in an HTML text.
fn attribute_values<'a>(html: &'a str, attribute: &str) -> Vec<&'a str> {
    let needle = format!(" {attribute}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(&needle) {
        rest = &rest[at + needle.len()..];
        if let Some(end) = rest.find('"') {
            out.push(&rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

/// Step 3: every relative `href`/`src` of the built pages resolves, anchors included.
fn built_links(out: &Path) -> Vec<String> {
    fn pages(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pages(&path, found);
            } else if path.extension().is_some_and(|e| e == "html") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    pages(out, &mut found);
    if found.is_empty() {
        return vec![format!("{}: no pages built", shown(out))];
    }
    let mut ids: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut texts = Vec::new();
    for page in &found {
        let Ok(html) = std::fs::read_to_string(page) else {
            return vec![format!("{}: unreadable", shown(page))];
        };
        ids.insert(
            page.clone(),
            attribute_values(&html, "id")
                .into_iter()
                .map(String::from)
                .collect(),
        );
        texts.push((page.clone(), html));
    }
    let mut failures = Vec::new();
    for (page, html) in &texts {
        let mut targets = attribute_values(html, "href");
        targets.extend(attribute_values(html, "src"));
        for target in targets {
            if target.is_empty()
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("javascript:")
                || target.starts_with("data:")
                || target.contains("{{")
            {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target, None),
            };
            let path = path.split('?').next().unwrap_or(path);
            // mdBook's 404 page carries `<base href="/">` (it is served for any missing path,
            // so its links are relative to the site's root); a root-absolute link is too.
            let base = if path.starts_with('/') || html.contains("<base href=\"/\">") {
                out
            } else {
                page.parent().unwrap_or(out)
            };
            let resolved = if path.is_empty() {
                page.clone()
            } else {
                let joined = normalize(&base.join(path.trim_start_matches('/')));
                if joined.is_dir() {
                    joined.join("index.html")
                } else {
                    joined
                }
            };
            let problem = if !resolved.starts_with(out) || !resolved.exists() {
                Some("no such file in the built book".to_string())
            } else {
                match (anchor, ids.get(&resolved)) {
                    (Some(a), Some(known)) if !a.is_empty() && !known.contains(a) => {
                        Some(format!("no id `{a}` on that page"))
                    }
                    _ => None,
                }
            };
            if let Some(problem) = problem {
                failures.push(format!(
                    "built book {}: link `{target}`: {problem}",
                    shown(page)
                ));
            }
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_ids_follow_mdbook() {
        assert_eq!(heading_id("Swept queries"), "swept-queries");
        assert_eq!(
            heading_id(&heading_text("`collide` and [`refine`](x.md)")),
            "collide-and-refine"
        );
        assert_eq!(
            heading_id("Cortex-M4F: 1.15× (paper: 2)"),
            "cortex-m4f-115-paper-2"
        );
        let ids = anchors("# A\n\n## A\n```text\n# not a heading\n```\n");
        assert_eq!(ids, BTreeSet::from(["a".to_string(), "a-1".to_string()]));
    }

    #[test]
    fn links_outside_code_spans() {
        assert_eq!(
            link_targets("see [a](b.md#c) and `[x](y)` and ![p](q.png \"t\")"),
            vec!["b.md#c".to_string(), "q.png".to_string()]
        );
    }

    #[test]
    fn blank_line_in_a_table_is_caught() {
        let whole = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n";
        assert!(broken_table_rows(whole).is_empty());
        let split = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n";
        assert_eq!(broken_table_rows(split), vec![5]);
        let fenced = "```text\n| 3 | 4 |\n```\n";
        assert!(broken_table_rows(fenced).is_empty());
    }
}
