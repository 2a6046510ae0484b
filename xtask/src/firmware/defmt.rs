//! The defmt example: built, run on QEMU, its binary log decoded with `defmt-print`.

use super::*;

/// `cargo xtask defmt`: builds the defmt example for the Cortex-M4F, runs it on QEMU and decodes
/// its binary log with `defmt-print` (installed by `.ci/run`: `cargo install defmt-print`).
pub fn defmt() -> Vec<String> {
    let started = Instant::now();
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    let target = "thumbv7em-none-eabihf";
    if let Err(e) = build_firmware(target, "release", &["defmt-log"], "defmt") {
        return vec![e];
    }
    let elf = elf_path(target, "release", "defmt-log");
    let board = &BOARDS[2];
    let output = qemu_command(board, board.machine, &elf)
        .stderr(Stdio::inherit())
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => return vec![format!("defmt example: QEMU: {e}")],
    };
    if !output.status.success() {
        return vec![format!(
            "defmt example: the firmware failed ({})",
            output.status
        )];
    }
    let decoder = Command::new("defmt-print")
        .args(["-e"])
        .arg(&elf)
        .arg("stdin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut decoder = match decoder {
        Ok(d) => d,
        Err(e) => {
            return vec![format!(
                "defmt-print: {e} (install it: `cargo install defmt-print`)"
            )]
        }
    };
    if let Some(mut stdin) = decoder.stdin.take() {
        use std::io::Write as _;
        let _ = stdin.write_all(&output.stdout);
    }
    let mut text = String::new();
    if let Some(mut out) = decoder.stdout.take() {
        let _ = out.read_to_string(&mut text);
    }
    let _ = decoder.wait();
    for line in text.lines() {
        println!("    defmt: {line}");
    }
    println!(
        "defmt example: {} bytes of log decoded in {:.0} s",
        output.stdout.len(),
        started.elapsed().as_secs_f64()
    );
    if text.contains("query:") && text.contains("pair") {
        Vec::new()
    } else {
        vec!["defmt example: the decoded log lacks the query's outcome".into()]
    }
}
