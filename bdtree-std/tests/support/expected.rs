//! The fixtures folder and the committed f64 brute-force answers in it (also read by the
//! `bounds` example, which includes this file).

use std::path::{Path, PathBuf};

/// The workspace's `fixtures/` folder (both crates' tests sit one level below the root).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// The committed f64 brute-force answer of a fixture scene (`fixtures/expected/NAME.jsonl`):
/// every frame's pairs as body indices and triangle indices, the lines in frame order.
pub fn expected(
    scene: &bdtree_std::io::Scene,
    name: &str,
) -> Vec<Vec<bdtree_std::export::Contact>> {
    let text = std::fs::read_to_string(fixtures().join(format!("expected/{name}.jsonl")))
        .expect("expected file");
    let index = |n: &serde_json::Value| {
        scene
            .bodies
            .iter()
            .position(|b| Some(b.name.as_str()) == n.as_str())
            .expect("body name")
    };
    text.lines()
        .enumerate()
        .map(|(f, line)| {
            let v: serde_json::Value = serde_json::from_str(line).expect("json line");
            assert_eq!(v["frame"].as_u64(), Some(f as u64));
            v["pairs"]
                .as_array()
                .expect("pairs")
                .iter()
                .map(|p| {
                    let t = |i: usize| p[i].as_u64().expect("triangle") as u32;
                    (index(&p[0]), index(&p[1]), t(2), t(3))
                })
                .collect()
        })
        .collect()
}
