//! Scene files: `SceneFile::parse` on arbitrary text (inputs that are not UTF-8 are also tried
//! after lossy conversion), and `SceneFile::validate` on whatever parses. Nothing may panic, and
//! a scene that `parse` accepted must pass `validate` again.
#![no_main]

use std::path::Path;

use bdtree_std::io::SceneFile;
use libfuzzer_sys::fuzz_target;

fn check(text: &str) {
    let path = Path::new("fuzz.json");
    match SceneFile::parse(text, path) {
        Ok(scene) => {
            if let Err(e) = scene.validate(path) {
                panic!("parse accepted a scene that validate refuses: {e}");
            }
        }
        Err(e) => {
            // Formatting the error must not panic either.
            std::hint::black_box(e.to_string());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    match std::str::from_utf8(data) {
        Ok(text) => check(text),
        Err(_) => check(&String::from_utf8_lossy(data)),
    }
});
