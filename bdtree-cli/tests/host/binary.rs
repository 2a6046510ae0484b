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

/// Runs `bdtree ARGS`, which must succeed, and returns its standard output.
pub fn succeeds(args: &[&str]) -> String {
    let out = bdtree(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `bdtree ARGS`, which must succeed, and parses one JSON object per line.
pub fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    succeeds(args)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}
