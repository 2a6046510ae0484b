//! The Cortex-M4F step of `cargo xtask c`: the library with `panic-check`, the replay linked
//! with every export as a root, run on QEMU; the header's cost table checked against the run.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{frames_line, header, C_FLAGS, M4F_FLAGS};
use crate::install::{c_dir, command, exported_functions, library, out_dir, path_arg, strings};

/// The M4F board and the time its run may take.
const BOARD: &str = "mps2-an386";
const QEMU_TIMEOUT: Duration = Duration::from_secs(900);

/// Cortex-M4F: library with `panic-check`, program linked with every export as a root, QEMU;
/// then the header's cost table checked against the run's figures (or, `overwrite`, rewritten).
pub(super) fn run(overwrite: bool) -> Result<(), String> {
    let started = Instant::now();
    let target = "thumbv7em-none-eabihf";
    let lib = library(Some(target), "panic-check")?;
    let dir = c_dir().join("examples");
    let board = dir.join(BOARD);
    let elf = out_dir().join(format!("{BOARD}.elf"));
    let mut args = strings(C_FLAGS);
    args.extend(strings(M4F_FLAGS));
    args.push(format!("-I{}", path_arg(&c_dir().join("include"))));
    args.push(format!(
        "-DPACK_FILE=\"{}\"",
        path_arg(&out_dir().join("fixtures-f32.bin"))
    ));
    args.extend(strings(&["-nostdlib", "-T"]));
    args.push(path_arg(&board.join("link.ld")));
    args.push("-Wl,--gc-sections".into());
    let exports = exported_functions()?;
    for name in &exports {
        args.push(format!("-Wl,--undefined={name}"));
    }
    for file in ["startup.c", "main.c", "pack.S"] {
        args.push(path_arg(&board.join(file)));
    }
    args.push(path_arg(&dir.join("replay.c")));
    args.push(path_arg(&lib));
    // The library brings no libc: newlib's gives the replay its memcpy, memset and memcmp,
    // libgcc its runtime (the library's own runtime is local to it).
    args.extend(strings(&["-lc", "-lgcc", "-o"]));
    args.push(path_arg(&elf));
    command("arm-none-eabi-gcc", &args).map_err(|e| link_failure(&e, target, exports.len()))?;
    println!(
        "c api {target}: no panic path is reachable from the {} exported functions (the \
         library links without a panic handler)",
        exports.len()
    );
    let text = qemu(&elf)?;
    frames_line(&text, BOARD)?;
    println!("c api {BOARD}: {:.0} s", started.elapsed().as_secs_f64());
    cost_table(&text, overwrite)
}

/// Why the Cortex-M4F link failed, read from the linker's own message: a reachable panic path
/// (the undefined symbol the library's `panic-check` build leaves on it) or a program that does
/// not fit the board's memory (`region … overflowed`).
fn link_failure(error: &str, target: &str, exports: usize) -> String {
    let cause = if error.contains("bdtree_c_error_a_panic_path_is_reachable") {
        format!("a panic path is reachable from one of the {exports} exported functions")
    } else if error.contains("overflowed") {
        format!(
            "the program does not fit {BOARD}'s memory (the linker names the region and the \
             bytes over; `{}` places code, data and the fixture pack)",
            path_arg(&c_dir().join("examples").join(BOARD).join("link.ld"))
        )
    } else {
        "see the linker's message above".to_string()
    };
    format!("{error}\nc api {target}: the link failed: {cause}")
}

/// One function's figures from the Cortex-M4F run's `cost:` lines.
#[derive(Default)]
struct Cost {
    mean: u64,
    max: u64,
    scene: String,
    stack: u64,
    per_item: u64,
    max_per_item: u64,
    nodes: u64,
    updates: u64,
    overlaps: u64,
    triangles: u64,
    calls: u64,
}

/// The `c api mps2-an386 cost: NAME key=value …` lines, by name.
fn parse_costs(text: &str) -> BTreeMap<String, Cost> {
    let prefix = format!("c api {BOARD} cost: ");
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix(&prefix) else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let Some(name) = words.next() else { continue };
        let mut c = Cost::default();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                continue;
            };
            let n = value.parse::<u64>().unwrap_or(0);
            match key {
                "calls" => c.calls = n,
                "mean" => c.mean = n,
                "max" => c.max = n,
                "max_scene" => c.scene = value.trim_end_matches("-f32").to_string(),
                "stack" => c.stack = n,
                "per_item" => c.per_item = n,
                "max_per_item" => c.max_per_item = n,
                "nodes" => c.nodes = n,
                "updates" => c.updates = n,
                "overlaps" => c.overlaps = n,
                "triangles" => c.triangles = n,
                _ => {}
            }
        }
        out.insert(name.to_string(), c);
    }
    out
}

/// `1234567` as `1,234,567`.
fn thousands(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The title line of the header's cost table (in `cbindgen.toml`): its rows follow it.
const COST_TITLE: &str =
    " *   call                                             mean      largest (scene)    stack B";

/// Per scene, the instructions per frame of collide between bodies 0 and 1 without and with
/// vertex caches (the replay's `  NAME: collide of bodies 0 and 1, …` lines).
fn parse_cache_lines(text: &str) -> Vec<(String, u64, u64)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((scene, rest)) = line.trim().split_once(": collide of bodies 0 and 1, ") else {
            continue;
        };
        let numbers: Vec<u64> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        if let [plain, cached, ..] = numbers[..] {
            let name = scene.rsplit(' ').next().unwrap_or(scene);
            out.push((name.trim_end_matches("-f32").to_string(), plain, cached));
        }
    }
    out
}

/// The rows of the header's cost table from a run's figures.
fn cost_rows(
    costs: &BTreeMap<String, Cost>,
    cache: &[(String, u64, u64)],
) -> Result<Vec<String>, String> {
    let get = |name: &str| {
        costs
            .get(name)
            .ok_or_else(|| format!("c api {BOARD}: no cost line for {name}"))
    };
    let row = |label: &str, mean: u64, max: u64, scene: &str, stack: u64| {
        format!(
            " *   {label:<44}{:>11}{:>13} {:<10}{:>7}",
            thousands(mean),
            thousands(max),
            format!("({scene})"),
            thousands(stack)
        )
    };
    let mut rows = Vec::new();
    for (name, label) in [
        (
            "bdtree_image_parse_f32",
            "bdtree_image_parse_f32 (per image)",
        ),
        ("bdtree_body_init_f32", "bdtree_body_init_f32"),
        ("bdtree_body_set_state_f32", "bdtree_body_set_state_f32"),
        (
            "bdtree_body_set_state_from_f64_f32",
            "bdtree_body_set_state_from_f64_f32",
        ),
        ("bdtree_collide_f32", "bdtree_collide_f32"),
        ("bdtree_collide_self_f32", "bdtree_collide_self_f32"),
        (
            "bdtree_box_table_init_f32",
            "bdtree_box_table_init_f32 (per table)",
        ),
        (
            "bdtree_collide_boxes_f32",
            "bdtree_collide_boxes_f32 (15 axes)",
        ),
        ("bdtree_refine_f32", "bdtree_refine_f32 (per pair given)"),
        (
            "bdtree_collide_proxies_f32",
            "bdtree_collide_proxies_f32 (depth 4)",
        ),
        ("bdtree_distance_f32", "bdtree_distance_f32"),
        ("bdtree_collide_contacts_f32", "bdtree_collide_contacts_f32"),
        ("bdtree_within_f32", "bdtree_within_f32 (d = 0.005)"),
        (
            "bdtree_collide_primitive_f32",
            "bdtree_collide_primitive_f32",
        ),
        (
            "bdtree_collide_primitive_proxies_f32",
            "bdtree_collide_primitive_proxies_f32 (d. 4)",
        ),
        (
            "bdtree_traversal_run_f32",
            "bdtree_traversal_run_f32 (64 tests)",
        ),
        (
            "bdtree_collide_world_f32",
            "bdtree_collide_world_f32 (all bodies)",
        ),
        (
            "bdtree_collide[plain]_f32",
            "bdtree_collide_f32, no vertex cache",
        ),
        (
            "bdtree_collide[cached]_f32",
            "bdtree_collide_f32, vertex caches",
        ),
    ] {
        let c = get(name)?;
        rows.push(if name == "bdtree_refine_f32" {
            row(label, c.per_item, c.max_per_item, &c.scene, c.stack)
        } else {
            row(label, c.mean, c.max, &c.scene, c.stack)
        });
    }
    let (plain, cached) = (
        get("bdtree_collide[plain]_f32")?,
        get("bdtree_collide[cached]_f32")?,
    );
    let per = |x: u64, c: &Cost| thousands(x / c.calls.max(1));
    rows.push(format!(
        " *   work per call without / with vertex caches: {} / {} node pairs, {} / {} sphere \
         updates,",
        per(plain.nodes, plain),
        per(cached.nodes, cached),
        per(plain.updates, plain),
        per(cached.updates, cached)
    ));
    rows.push(format!(
        " *   {} / {} sphere tests, {} / {} triangle tests (`bdtree_stats`).",
        per(plain.overlaps, plain),
        per(cached.overlaps, cached),
        per(plain.triangles, plain),
        per(cached.triangles, cached)
    ));
    if cache.is_empty() {
        return Err(format!("c api {BOARD}: no vertex cache lines"));
    }
    let ratios: Vec<String> = cache
        .iter()
        .map(|(scene, plain, cached)| {
            format!("{scene} {:.1}", *plain as f64 / (*cached).max(1) as f64)
        })
        .collect();
    rows.push(format!(
        " *   instructions without / with vertex caches, per scene: {}",
        ratios.join(", ")
    ));
    Ok(rows)
}

/// Where two versions of the table disagree: a row's words differ, or one of its numbers moved
/// by more than 25 % (the scene of a largest figure, in parentheses, may change).
fn table_drift(committed: &[String], fresh: &[String]) -> Option<String> {
    if committed.len() != fresh.len() {
        return Some(format!(
            "{} rows where the run gives {}",
            committed.len(),
            fresh.len()
        ));
    }
    for (old, new) in committed.iter().zip(fresh) {
        let (a, b): (Vec<&str>, Vec<&str>) = (
            old.split_whitespace().collect(),
            new.split_whitespace().collect(),
        );
        let number = |w: &str| w.trim_end_matches(',').replace(',', "").parse::<f64>().ok();
        let same = a.len() == b.len()
            && a.iter().zip(&b).all(|(x, y)| {
                if x.starts_with('(') && y.starts_with('(') {
                    return true;
                }
                match (number(x), number(y)) {
                    (Some(p), Some(q)) => (p - q).abs() <= 0.25 * p.max(q),
                    _ => x == y,
                }
            });
        if !same {
            return Some(format!(
                "`{}` where the run gives `{}`",
                old.trim(),
                new.trim()
            ));
        }
    }
    None
}

/// Checks the header's cost table (`cbindgen.toml`) against a run's figures, or rewrites it
/// (and the header) with them.
fn cost_table(text: &str, overwrite: bool) -> Result<(), String> {
    let fresh = cost_rows(&parse_costs(text), &parse_cache_lines(text))?;
    for row in &fresh {
        println!("{row}");
    }
    let path = c_dir().join("cbindgen.toml");
    let config = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<&str> = config.lines().collect();
    let title = lines
        .iter()
        .position(|l| *l == COST_TITLE)
        .ok_or_else(|| format!("{}: no cost table title `{COST_TITLE}`", path.display()))?;
    let end = lines[title + 1..]
        .iter()
        .position(|l| !l.starts_with(" *   "))
        .map_or(lines.len(), |k| title + 1 + k);
    let committed: Vec<String> = lines[title + 1..end]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let drift = table_drift(&committed, &fresh);
    if !overwrite {
        return match drift {
            None => {
                println!("c api {BOARD}: the header's cost table holds (every figure within 25 %)");
                Ok(())
            }
            Some(d) => Err(format!(
                "the header's Cortex-M4F cost table is stale ({}): {d}; `cargo xtask c \
                 --overwrite` rewrites it from this run",
                path.display()
            )),
        };
    }
    if committed == fresh {
        return Ok(());
    }
    let mut out: Vec<String> = lines[..=title].iter().map(|l| l.to_string()).collect();
    out.extend(fresh);
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    let mut written = out.join("\n");
    written.push('\n');
    std::fs::write(&path, written).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("c api: wrote the cost table into {}", path.display());
    header(true)
}

fn qemu(elf: &Path) -> Result<String, String> {
    let started = Instant::now();
    let mut child = Command::new("qemu-system-arm")
        .args([
            "-machine",
            BOARD,
            "-cpu",
            "cortex-m4",
            "-nographic",
            "-monitor",
            "none",
            // One virtual nanosecond per instruction: SysTick counts instructions (as
            // `cargo xtask qemu` counts the firmware's).
            "-icount",
            "shift=0",
        ])
        .args([
            "-serial",
            "none",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
        ])
        .arg(elf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("qemu-system-arm: {e} (install the Debian package `qemu-system-arm`)")
        })?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > QEMU_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{BOARD}: no exit after {} s",
                QEMU_TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    if status.success() {
        Ok(text)
    } else {
        Err(format!("{BOARD}: the C program failed ({status}):\n{text}"))
    }
}
