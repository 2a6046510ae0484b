//! Running the `bdtree` binary: its output, the workspace's fixtures, clean failures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `bdtree` binary with `args`.
pub fn bdtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bdtree"))
        .args(args)
        .output()
        .expect("run bdtree")
}

/// The workspace's `fixtures/` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Runs a command that must fail cleanly: exit code 1 (not a panic's 101), and a message on
/// stderr containing every `needle`.
pub fn fails_with(args: &[&str], needles: &[&str]) {
    let out = bdtree(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle:?} not in {stderr:?}"
        );
    }
}

/// Runs `bdtree ARGS`, which must succeed, and returns its standard output (which must be
/// UTF-8).
pub fn succeeds(args: &[&str]) -> String {
    let out = bdtree(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs `bdtree collide SCENE --check` (with `--precision` when given), which must succeed with
/// nothing missed: the check's summary line (`brute force (f64, every triangle pair): N pairs,
/// …, 0 missed`). `what` names the case in a failure.
pub fn collide_checked(scene: &Path, precision: Option<&str>, what: &str) -> String {
    let mut args = vec!["collide", scene.to_str().expect("utf-8 path"), "--check"];
    args.extend(precision.map(|p| ["--precision", p]).into_iter().flatten());
    let out = bdtree(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout
        .lines()
        .find(|l| l.starts_with(CHECK_SUMMARY))
        .unwrap_or_default()
        .to_string();
    assert!(
        out.status.success() && summary.contains(", 0 missed"),
        "{what}, {precision:?}: {summary}\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    summary
}

/// How the summary line of `bdtree collide --check` begins.
pub const CHECK_SUMMARY: &str = "brute force (f64, every triangle pair): ";

/// Runs `bdtree ARGS`, which must succeed, and parses one JSON object per line.
pub fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    succeeds(args)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}
